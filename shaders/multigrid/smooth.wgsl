// The tiled smoothers: two smoothing sweeps (red-black SOR) on a level in one dispatch (one sweep
// on a level with an odd periodic seam, whose sweeps have four colours), through workgroup memory
// (multigrid/tile.wgsl), x -> y. Pipeline constants choose which: with PROLONG each fluid cell of
// the tile adds the bilinear coarse-grid correction (multigrid/tile.wgsl `prolonged`) as it is
// loaded (the prolongation and post-smoother in one dispatch); with SOR the sweeps are the SOR
// solver's on level 0 (over-relaxed by params.sor_omega, p -> p_out and back: src/sim/pressure_sor.rs),
// else the V-cycle's (SMOOTH_OMEGA). A CPU adapter takes the plain half-sweeps in place on x
// instead (multigrid/plain.wgsl; DeviceProfile::solver_tiles), and `add`, the prolongation alone.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read_write> mg_y: array<f32>;
@group(0) @binding(4) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(5) var<storage, read> mg_xc: array<f32>;

override PROLONG: bool = false;
override SOR: bool = false;

@compute @workgroup_size(TILE_WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    tile_load(wid, lid, PROLONG);
    tile_relax(wid, lid, select(SMOOTH_OMEGA, params.sor_omega, SOR));
    tile_store(wid, lid);
}

// The coarse correction added to each fluid cell of the level in place on x, a cell a thread.
@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn add(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    if stencil_count(mg_stencil[lidx(i, j)]) == 0.0 { return; }
    mg_x[xidx(i, j)] += prolonged(i, j);
}
