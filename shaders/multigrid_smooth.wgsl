// Multigrid smoother: one red-black Gauss-Seidel half-sweep on a level, in place (`red` updates
// cells with i + j even, `black` the others). On a periodic axis of odd length the wrap joins two
// cells of one colour; they then update in either order, which still converges.

fn half_sweep(id: vec3<u32>, parity: i32) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() || (i + j) % 2 != parity { return; }
    relax(i, j, 1.0);
}

@compute @workgroup_size(8, 8)
fn red(@builtin(global_invocation_id) id: vec3<u32>) { half_sweep(id, 0); }

@compute @workgroup_size(8, 8)
fn black(@builtin(global_invocation_id) id: vec3<u32>) { half_sweep(id, 1); }
