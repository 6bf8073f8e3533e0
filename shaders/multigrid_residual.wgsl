// Multigrid residual on a level: res = rhs - (count x - sum of fluid neighbours); 0 off the fluid.

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    let c = lidx(i, j);
    let s = mg_stencil[c];
    let count = stencil_count(s);
    var r = 0.0;
    if count > 0.0 {
        r = mg_rhs[c] - (count * mg_x[c] - neighbour_sum(i, j, s));
    }
    mg_res[c] = r;
}
