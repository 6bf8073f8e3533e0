// A multigrid level drawn over the whole field (the stage view, src/sim/stepwise.rs): each cell
// of the grid takes the value of the level-l cell that covers it, (i >> l, j >> l), as every
// coarser level halves the cells per axis (src/sim/multigrid/levels.rs). The values are the
// level's rhs (the residual restricted onto it) or its x (the correction it sends up).
// CPU twin: src/sim/cpu/level_picture.rs.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level_values: array<f32>;
// The level's nx, ny, where its values start in `level_values`, and l.
@group(0) @binding(1) var<storage, read> level_place: vec4<u32>;
@group(0) @binding(2) var<storage, read_write> level_picture: array<f32>;

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let ci = id.x >> level_place.w;
    let cj = id.y >> level_place.w;
    level_picture[cell_idx(i, j)] = level_values[level_place.z + cj * level_place.x + ci];
}
