// Multigrid pre-smoother: two red-black Gauss-Seidel sweeps on a level in one dispatch, through
// workgroup memory (multigrid_tile.wgsl).

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    tile_load(wid, lid, false);
    tile_relax(1.0, 2);
    tile_store();
}
