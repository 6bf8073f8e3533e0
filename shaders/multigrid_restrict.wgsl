// Multigrid restriction, run on the coarse level: its right-hand side is the sum of its children's
// residuals (the operator is scaled by h^2, so summing four h^2-residuals gives the (2h)^2 one),
// and its correction starts at zero. Children past an odd edge simply do not exist.

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    let c = lidx(i, j);
    let fw = i32(level.fine_nx);
    let fh = i32(level.fine_ny);
    var sum = 0.0;
    for (var dj = 0; dj < 2; dj++) {
        for (var di = 0; di < 2; di++) {
            let a = 2 * i + di;
            let b = 2 * j + dj;
            if a < fw && b < fh { sum += mg_res[level.fine_off + u32(b * fw + a)]; }
        }
    }
    if stencil_count(mg_stencil[c]) == 0.0 { sum = 0.0; }
    mg_rhs[c] = sum;
    mg_x[c] = 0.0;
}
