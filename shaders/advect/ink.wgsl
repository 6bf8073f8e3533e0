// Semi-Lagrangian transport of ink (RGB, on the dye grid) and density (on the flow grid) at cell
// centres, then ink dissipation and density drain toward ambient (seed 001). Reads u, v (or their
// blocks: shared/velocity_blocks.wgsl), ink, density; writes ink_out, density_out. On a finer dye
// grid, two dispatches: `ink_cells`, a thread per dye cell, and `density_cells`, a thread per flow
// cell (one kernel doing both took 2 ms more at 128² with a 256² dye grid on lavapipe than the two
// apart); on the flow's own grid one, `same_grid`. A back-trace
// that leaves through an inflow side picks up what that inflow carries; solid cells are never
// sampled and hold no ink.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> ink: array<f32>;
@group(0) @binding(3) var<storage, read> density: array<f32>;
@group(0) @binding(4) var<storage, read> solid: array<f32>;
@group(0) @binding(5) var<storage, read_write> ink_out: array<f32>;
@group(0) @binding(6) var<storage, read_write> density_out: array<f32>;
@group(0) @binding(7) var u_blocks: texture_2d<f32>;
@group(0) @binding(8) var v_blocks: texture_2d<f32>;
// The ink as texels (advect/pack_ink.wgsl), which the passes read where BLOCKED (a CPU adapter):
// lavapipe gathers a texel's channels in one pass over the lanes, where a stencil's twelve
// storage reads go lane by lane.
@group(0) @binding(9) var ink_texels: texture_2d<f32>;

// The inflow side a back-trace from `pos` came in through (4: none).
fn inflow_crossed(back: vec2<f32>) -> u32 {
    let side = side_crossed(back);
    if side < 4u && params.bc_kind[side] == BC_INFLOW { return side; }
    return 4u;
}

// Ink under a dye-grid stencil.
fn ink_in(s: CellStencil) -> vec3<f32> {
    let c00 = dye_idx(s.c00.x, s.c00.y);
    let c10 = dye_idx(s.c10.x, s.c10.y);
    let c01 = dye_idx(s.c01.x, s.c01.y);
    let c11 = dye_idx(s.c11.x, s.c11.y);
    var rgb = vec3<f32>(0.0);
    for (var k = 0u; k < 3u; k++) {
        rgb[k] = s.w.x * ink[3u * c00 + k] + s.w.y * ink[3u * c10 + k] + s.w.z * ink[3u * c01 + k] + s.w.w * ink[3u * c11 + k];
    }
    return rgb;
}

// `ink_in` from the texels, channel by channel the same sums.
fn ink_in_texels(s: CellStencil) -> vec3<f32> {
    let t00 = textureLoad(ink_texels, s.c00, 0).xyz;
    let t10 = textureLoad(ink_texels, s.c10, 0).xyz;
    let t01 = textureLoad(ink_texels, s.c01, 0).xyz;
    let t11 = textureLoad(ink_texels, s.c11, 0).xyz;
    return s.w.x * t00 + s.w.y * t10 + s.w.z * t01 + s.w.w * t11;
}

// The ink under a dye-grid stencil, read as this adapter reads it best.
fn ink_under(s: CellStencil) -> vec3<f32> {
    if BLOCKED { return ink_in_texels(s); }
    return ink_in(s);
}

// Density under a flow-grid stencil.
fn density_in(s: CellStencil) -> f32 {
    return s.w.x * density[cell_idx(s.c00.x, s.c00.y)] + s.w.y * density[cell_idx(s.c10.x, s.c10.y)] + s.w.z * density[cell_idx(s.c01.x, s.c01.y)]
        + s.w.w * density[cell_idx(s.c11.x, s.c11.y)];
}

fn carry_ink(a: i32, b: i32) {
    let d = dye_idx(a, b);
    var rgb = vec3<f32>(0.0);
    if !dye_solid(a, b) {
        let back = trace_from(dye_centre(a, b), params.dt);
        let side = inflow_crossed(back);
        if side < 4u {
            rgb = vec3<f32>(params.inflow_ink_r[side], params.inflow_ink_g[side], params.inflow_ink_b[side]);
        } else {
            rgb = ink_under(dye_stencil(clamp_to_domain(back)));
        }
        rgb = rgb * exp(-params.ink_dissipation * params.dt);
    }
    ink_out[3u * d] = rgb.x;
    ink_out[3u * d + 1u] = rgb.y;
    ink_out[3u * d + 2u] = rgb.z;
}

fn carry_density(i: i32, j: i32) {
    let c = cell_idx(i, j);
    var rho = 0.0;
    if !is_solid(i, j) {
        let h = params.h;
        let back = trace_from(vec2<f32>((f32(i) + 0.5) * h, (f32(j) + 0.5) * h), params.dt);
        let side = inflow_crossed(back);
        if side < 4u {
            rho = params.inflow_density[side];
        } else {
            rho = density_in(cell_stencil(clamp_to_domain(back)));
        }
        rho = rho * exp(-params.density_drain * params.dt);
    }
    density_out[c] = rho;
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn ink_cells(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = i32(id.x);
    let b = i32(id.y);
    if a < dye_nx() && b < dye_ny() { carry_ink(a, b); }
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn density_cells(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i < nx() && j < ny() { carry_density(i, j); }
}

// The same transport when the dye grid is the flow grid (k = 1): a dye cell is a flow cell, so ink
// and density share one back-trace and one stencil (a CPU adapter pays for every storage read;
// the arithmetic is carry_ink's and carry_density's, term for term).
@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn same_grid(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let c = cell_idx(i, j);
    var rgb = vec3<f32>(0.0);
    var rho = 0.0;
    if !is_solid(i, j) {
        let back = trace_from(dye_centre(i, j), params.dt);
        let side = inflow_crossed(back);
        if side < 4u {
            rgb = vec3<f32>(params.inflow_ink_r[side], params.inflow_ink_g[side], params.inflow_ink_b[side]);
            rho = params.inflow_density[side];
        } else {
            let s = cell_stencil(clamp_to_domain(back));
            rgb = ink_under(s);
            rho = density_in(s);
        }
        rgb = rgb * exp(-params.ink_dissipation * params.dt);
        rho = rho * exp(-params.density_drain * params.dt);
    }
    ink_out[3u * c] = rgb.x;
    ink_out[3u * c + 1u] = rgb.y;
    ink_out[3u * c + 2u] = rgb.z;
    density_out[c] = rho;
}
