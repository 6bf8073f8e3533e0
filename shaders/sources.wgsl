// Sources: brush strokes and emitters (splats) add velocity to the edges inside a disk with a
// smooth falloff, and ink and density to the cells inside it (seed 002, step 8: the brush).
// A running flow takes the edges' share in the forces pass (forces.wgsl `main`, which reads the
// density this pass left); `velocity` gives it to a frozen one. One thread of `velocity` per
// (i, j) covers u[j][i] and v[j][i] where each exists; one of `ink_and_density` covers dye cell
// (i, j), and flow cell (i / k, j / k) at its first dye cell.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read_write> u: array<f32>;
@group(0) @binding(1) var<storage, read_write> v: array<f32>;
@group(0) @binding(2) var<storage, read_write> p: array<f32>;
@group(0) @binding(3) var<storage, read_write> ink: array<f32>;
@group(0) @binding(4) var<storage, read_write> density: array<f32>;
@group(0) @binding(5) var<storage, read_write> solid: array<f32>;
@group(0) @binding(6) var<uniform> splats: array<Splat, MAX_SPLATS>;

// Only the threads this step's splats can reach run (src/sim/sources.rs `reach`): `velocity` from
// flow thread params.extra.xy on, `ink_and_density` from dye thread params.extra.zw on.
fn reach_origin(at: vec2<f32>, id: vec3<u32>) -> vec2<i32> { return vec2<i32>(at) + vec2<i32>(id.xy); }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn velocity(@builtin(global_invocation_id) id: vec3<u32>) {
    let ij = reach_origin(params.extra.xy, id);
    let i = ij.x;
    let j = ij.y;
    if i <= nx() && j < ny() {
        u[u_idx(i, j)] = sourced_u(i, j, u_face(i, j), u[u_idx(i, j)]);
    }
    if i < nx() && j <= ny() {
        v[v_idx(i, j)] = sourced_v(i, j, v_face(i, j), v[v_idx(i, j)]);
    }
}

// Ink on the dye grid, (i, j) a dye cell here, and density at the flow cell whose first dye cell
// it is.
@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn ink_and_density(@builtin(global_invocation_id) id: vec3<u32>) {
    let ij = reach_origin(params.extra.zw, id);
    let i = ij.x;
    let j = ij.y;
    if i < dye_nx() && j < dye_ny() && !dye_solid(i, j) {
        let d = dye_idx(i, j);
        let pos = dye_centre(i, j);
        var rgb = vec3<f32>(ink[3u * d], ink[3u * d + 1u], ink[3u * d + 2u]);
        for (var k = 0u; k < params.splat_count; k++) {
            let s = splats[k];
            let w = falloff(length(splat_offset(pos, s)), s.radius);
            if w > 0.0 && s.mode < MODE_PAINT_SOLID {
                rgb = vec3<f32>(apply(rgb.x, s.ink_r, w, s), apply(rgb.y, s.ink_g, w, s), apply(rgb.z, s.ink_b, w, s));
            }
        }
        ink[3u * d] = rgb.x;
        ink[3u * d + 1u] = rgb.y;
        ink[3u * d + 2u] = rgb.z;
        if i % dye_k() == 0 && j % dye_k() == 0 {
            let ci = i / dye_k();
            let cj = j / dye_k();
            let c = cell_idx(ci, cj);
            let at = vec2<f32>((f32(ci) + 0.5) * params.h, (f32(cj) + 0.5) * params.h);
            var rho = density[c];
            for (var k = 0u; k < params.splat_count; k++) {
                let s = splats[k];
                let w = falloff(length(splat_offset(at, s)), s.radius);
                if w > 0.0 && s.mode < MODE_PAINT_SOLID { rho = apply(rho, s.density, w, s); }
            }
            density[c] = rho;
        }
    }
}
// The obstacle brush, run before `main` so that `main` sees the new solids and zeroes the faces
// touching them: cells whose centre is inside a paint (erase) disk become solid (fluid).
//
// The splat count reaches the loop through workgroup memory, not straight from the uniform
// buffer: lavapipe (Mesa 22.3) compiles a new variant of a small kernel whose loop runs to a
// uniform value on every dispatch and never frees it, 150 kB a dispatch (the soak's memory grew
// with every obstacle dab until this).
var<workgroup> paint_count: u32;

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn paint_solid(@builtin(global_invocation_id) id: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    if lid == 0u { paint_count = params.splat_count; }
    let count = workgroupUniformLoad(&paint_count);
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let c = cell_idx(i, j);
    let pos = vec2<f32>((f32(i) + 0.5) * params.h, (f32(j) + 0.5) * params.h);
    var s_now = solid[c];
    for (var k = 0u; k < count; k++) {
        let s = splats[k];
        if s.mode >= MODE_PAINT_SOLID && length(splat_offset(pos, s)) <= s.radius {
            s_now = select(0.0, 1.0, s.mode == MODE_PAINT_SOLID);
        }
    }
    if s_now > 0.5 && solid[c] < 0.5 {
        // newly painted: a solid cell holds nothing (shared/empty_cell.wgsl)
        empty_cell(i, j);
    }
    solid[c] = s_now;
}
