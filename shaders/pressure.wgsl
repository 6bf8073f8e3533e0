// One weighted-Jacobi sweep of the pressure Poisson equation, p -> p_out (seed 002, steps 5-6).
// The solid-aware reduced stencil: only fluid neighbours count, and the neighbour count is the
// denominator; an outflow side is a Dirichlet neighbour held at p = 0. `stencil` packs each
// cell's neighbours once per solve, so a sweep reads one word of flags and at most four pressures.
// Weighted (params.jacobi_weight < 1) because plain Jacobi never damps the checkerboard mode of a
// closed box (its iteration matrix has the eigenvalue -1 there).

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> p: array<f32>;
@group(0) @binding(1) var<storage, read> divergence: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read_write> p_out: array<f32>;
@group(0) @binding(4) var<storage, read_write> stencil: array<u32>;

// `main` runs four sweeps in one dispatch through workgroup memory (pressure_sweep.wgsl runs
// one): a workgroup owns a 24 x 24 block and loads it with a 4-cell border (wrapped on periodic
// sides), each sweep trusted one cell further in, then writes the block to p_out.

fn jacobi_value(old: f32, sum: f32, b: f32, count: f32) -> f32 {
    return mix(old, (sum - b) / count, params.jacobi_weight);
}

const J_TILE: i32 = 24;
const J_HALO: i32 = 4;
const J_SPAN: i32 = 32;
// Invocations of a workgroup (src/sim/kernel/profile.rs `DeviceProfile::solver_workgroup`); each takes the tile cells
// lid, lid + WG, ...
override WG: u32 = 256u;

// two 32 x 32 tiles, ping-ponged: [0, 1024) and [1024, 2048)
var<workgroup> jt: array<f32, 2048>;
var<workgroup> jst: array<u32, 1024>;
var<workgroup> jb: array<f32, 1024>;

// Sweep k reads the tile at `src` and writes the one at `dst` (word offsets into jt).
fn jacobi_tile_sweep(lid: u32, src: u32, dst: u32, k: i32) {
    let lo = k + 1;
    let hi = J_SPAN - 1 - k;
    for (var q = lid; q < 1024u; q += WG) {
        let a = i32(q) % J_SPAN;
        let b = i32(q) / J_SPAN;
        if a < lo || a >= hi || b < lo || b >= hi { continue; }
        let s = jst[q];
        let count = f32(s >> 4u);
        if count == 0.0 {
            jt[dst + q] = 0.0;
            continue;
        }
        var sum = 0.0;
        if (s & STENCIL_LEFT) != 0u { sum += jt[src + q - 1u]; }
        if (s & STENCIL_RIGHT) != 0u { sum += jt[src + q + 1u]; }
        if (s & STENCIL_BOTTOM) != 0u { sum += jt[src + q - u32(J_SPAN)]; }
        if (s & STENCIL_TOP) != 0u { sum += jt[src + q + u32(J_SPAN)]; }
        jt[dst + q] = jacobi_value(jt[src + q], sum, jb[q], count);
    }
    workgroupBarrier();
}

@compute @workgroup_size(WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    let origin = vec2<i32>(wid.xy) * J_TILE - vec2<i32>(J_HALO, J_HALO);
    for (var q = lid; q < 1024u; q += WG) {
        var g = origin + vec2<i32>(i32(q) % J_SPAN, i32(q) / J_SPAN);
        if periodic_x() { g.x = wrap(g.x, nx()); }
        if periodic_y() { g.y = wrap(g.y, ny()); }
        var x = 0.0;
        var s = 0u;
        var b = 0.0;
        if g.x >= 0 && g.x < nx() && g.y >= 0 && g.y < ny() {
            let c = cell_idx(g.x, g.y);
            s = stencil[c];
            x = p[c];
            b = params.rho * params.h * params.h * divergence[c] / params.dt;
        }
        jst[q] = s;
        jb[q] = b;
        jt[q] = x;
    }
    workgroupBarrier();
    jacobi_tile_sweep(lid, 0u, 1024u, 0);
    jacobi_tile_sweep(lid, 1024u, 0u, 1);
    jacobi_tile_sweep(lid, 0u, 1024u, 2);
    jacobi_tile_sweep(lid, 1024u, 0u, 3);
    for (var q = lid; q < 1024u; q += WG) {
        let a = i32(q) % J_SPAN;
        let b = i32(q) / J_SPAN;
        let cell = origin + vec2<i32>(a, b);
        let owned = a >= J_HALO && a < J_HALO + J_TILE && b >= J_HALO && b < J_HALO + J_TILE;
        if owned && cell.x >= 0 && cell.x < nx() && cell.y >= 0 && cell.y < ny() {
            p_out[cell_idx(cell.x, cell.y)] = jt[q];
        }
    }
}

// Packs the reduced stencil of every cell (see `stencil` in the prelude); run only when solids or
// boundaries change (src/sim/solver.rs).
@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn stencil_pack(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    var packed = 0u;
    if !is_solid(i, j) {
        var count = 0u;
        let l = neighbour(i, j, -1, 0);
        let r = neighbour(i, j, 1, 0);
        let b = neighbour(i, j, 0, -1);
        let t = neighbour(i, j, 0, 1);
        if l.kind == NB_FLUID { packed |= STENCIL_LEFT; }
        if r.kind == NB_FLUID { packed |= STENCIL_RIGHT; }
        if b.kind == NB_FLUID { packed |= STENCIL_BOTTOM; }
        if t.kind == NB_FLUID { packed |= STENCIL_TOP; }
        count = select(0u, 1u, l.kind != NB_NONE) + select(0u, 1u, r.kind != NB_NONE) + select(0u, 1u, b.kind != NB_NONE) + select(0u, 1u, t.kind != NB_NONE);
        packed |= count << 4u;
    }
    stencil[cell_idx(i, j)] = packed;
}
