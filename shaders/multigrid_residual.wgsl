// Multigrid residual on a level: res = rhs - (count x - sum of fluid neighbours), in the
// cancellation-free form of multigrid_common.wgsl `local_residual`; 0 off the fluid.

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
        r = local_residual(i, j, s);
    }
    mg_res[c] = r;
}
