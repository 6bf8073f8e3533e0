// Multigrid prolongation, run on the fine level: each fluid cell adds the bilinear interpolation
// (9/16, 3/16, 3/16, 1/16) of the coarse correction from its parent and the three coarse cells on
// its side. A coarse neighbour that is solid or behind a wall takes the parent's value (Neumann),
// one behind an outflow is 0 (Dirichlet ghost), and periodic sides wrap.

fn coarse_value(ci: i32, cj: i32, parent: f32) -> f32 {
    let w = i32(level.coarse_nx);
    let h = i32(level.coarse_ny);
    var a = ci;
    var b = cj;
    let side = side_outside(a, b, w, h);
    if side < 4u {
        let kind = params.bc_kind[side];
        if kind == BC_OUTFLOW { return 0.0; }
        if kind != BC_PERIODIC { return parent; }
        a = wrap(a, w);
        b = wrap(b, h);
    }
    let c = level.coarse_off + u32(b * w + a);
    if stencil_count(mg_stencil[c]) == 0.0 { return parent; }
    return mg_x[c];
}

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    let c = lidx(i, j);
    if stencil_count(mg_stencil[c]) == 0.0 { return; }
    let pi = i / 2;
    let pj = j / 2;
    let si = select(1, -1, i % 2 == 0);
    let sj = select(1, -1, j % 2 == 0);
    let parent = mg_x[level.coarse_off + u32(pj * i32(level.coarse_nx) + pi)];
    let e = 0.5625 * parent + 0.1875 * (coarse_value(pi + si, pj, parent) + coarse_value(pi, pj + sj, parent))
        + 0.0625 * coarse_value(pi + si, pj + sj, parent);
    mg_x[c] += e;
}
