// Multigrid prolongation and post-smoother in one dispatch: each fluid cell of the tile adds the
// bilinear coarse-grid correction (multigrid_tile.wgsl `prolonged`) as it is loaded, then two
// red-black Gauss-Seidel sweeps run in workgroup memory.

@compute @workgroup_size(16, 16)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>) {
    tile_load(wid, lid, true);
    tile_relax(1.0, 2);
    tile_store();
}
