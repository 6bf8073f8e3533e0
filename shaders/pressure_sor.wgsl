// Red-black successive over-relaxation of the pressure Poisson equation, in place on p: two sweeps
// per dispatch through workgroup memory (multigrid/tile.wgsl) on multigrid level 0, whose x is `p`
// and whose rhs is `load`'s -rho h^2 div / dt. Each cell moves params.sor_omega of the way past its
// Gauss-Seidel value.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read_write> mg_y: array<f32>;
@group(0) @binding(4) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(5) var<storage, read> mg_xc: array<f32>;

@compute @workgroup_size(TILE_WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    tile_load(wid, lid, false);
    tile_relax(wid, lid, params.sor_omega);
    tile_store(wid, lid);
}
