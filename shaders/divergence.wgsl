// Divergence per cell (seed 002, step 3): (u_right - u_left + v_top - v_bottom) / h.
// Prescribed faces (walls, inflows, solids) are read as their prescribed value. Solid cells: 0.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read_write> divergence: array<f32>;
@group(0) @binding(3) var<storage, read> solid: array<f32>;

// u_face_value, v_face_value: the prelude (shared/grid.wgsl).

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    var d = 0.0;
    if !is_solid(i, j) {
        d = (u_face_value(i + 1, j) - u_face_value(i, j) + v_face_value(i, j + 1) - v_face_value(i, j)) / params.h;
    }
    divergence[cell_idx(i, j)] = d;
}
