// One weighted-Jacobi sweep of the pressure Poisson equation, p -> p_out (seed 002, steps 5-6).
// The solid-aware reduced stencil: only fluid neighbours count, and the neighbour count is the
// denominator; an outflow side is a Dirichlet neighbour held at p = 0. `stencil` packs each
// cell's neighbours once per solve, so a sweep reads one word of flags and at most four pressures.
// Weighted (params.jacobi_weight < 1) because plain Jacobi never damps the checkerboard mode of a
// closed box (its iteration matrix has the eigenvalue -1 there).

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let c = cell_idx(i, j);
    let s = stencil[c];
    let count = f32(s >> 4u);
    if count == 0.0 {
        p_out[c] = 0.0;
        return;
    }
    // neighbour indices, wrapped (only read where the stencil says the neighbour is fluid)
    let w = nx();
    let row = j * w;
    let left = u32(row + select(i - 1, w - 1, i == 0));
    let right = u32(row + select(i + 1, 0, i == w - 1));
    let bottom = u32(select(j - 1, ny() - 1, j == 0) * w + i);
    let top = u32(select(j + 1, 0, j == ny() - 1) * w + i);
    var sum = 0.0;
    if (s & STENCIL_LEFT) != 0u { sum += p[left]; }
    if (s & STENCIL_RIGHT) != 0u { sum += p[right]; }
    if (s & STENCIL_BOTTOM) != 0u { sum += p[bottom]; }
    if (s & STENCIL_TOP) != 0u { sum += p[top]; }
    let jacobi = (sum - params.rho * params.h * params.h * divergence[c] / params.dt) / count;
    p_out[c] = mix(p[c], jacobi, params.jacobi_weight);
}

// Packs the reduced stencil of every cell (see `stencil` in the prelude); run once per solve.
@compute @workgroup_size(8, 8)
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
