// Multigrid prolongation and post-smoother in one dispatch: each fluid cell of the tile adds the
// bilinear coarse-grid correction (multigrid/tile.wgsl `prolonged`) as it is loaded, then two
// red-black smoothing sweeps (SMOOTH_OMEGA) run in workgroup memory, y -> x. `add` is the plain
// prolongation in place on x that a CPU adapter uses instead (followed by plain half-sweeps).

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<f32>;
@group(0) @binding(2) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(3) var<storage, read_write> mg_y: array<f32>;
@group(0) @binding(4) var<storage, read> mg_stencil: array<u32>;
@group(0) @binding(5) var<storage, read> mg_xc: array<f32>;

@compute @workgroup_size(TILE_WG)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_index) lid: u32) {
    tile_load(wid, lid, true);
    tile_relax(wid, lid, SMOOTH_OMEGA);
    tile_store(wid, lid);
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn add(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    if stencil_count(mg_stencil[lidx(i, j)]) == 0.0 { return; }
    mg_x[xidx(i, j)] += prolonged(i, j);
}
