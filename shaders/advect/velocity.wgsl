// Semi-Lagrangian advection of the edge velocities: each face looks back along the flow (a
// midpoint back-trace through the two staggered bilinear stencils) and takes the velocity found
// there. Reads u, v (or their blocks: shared/velocity_blocks.wgsl); writes u_out, v_out.
// Prescribed faces keep their prescribed value. `fill_blocks` gathers the blocks from u and v.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read_write> u_out: array<f32>;
@group(0) @binding(4) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(5) var u_blocks: texture_2d<f32>;
@group(0) @binding(6) var v_blocks: texture_2d<f32>;
@group(0) @binding(7) var u_blocks_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(8) var v_blocks_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let h = params.h;
    if i <= nx() && j < ny() {
        let f = u_face(i, j);
        var value = f.value;
        if !f.fixed {
            var fi = i;
            if periodic_x() && i == nx() { fi = 0; }
            value = sample_u_from(clamp_to_domain(trace_from(vec2<f32>(f32(fi) * h, (f32(j) + 0.5) * h), params.dt)));
        }
        u_out[u_idx(i, j)] = value;
    }
    if i < nx() && j <= ny() {
        let f = v_face(i, j);
        var value = f.value;
        if !f.fixed {
            var fj = j;
            if periodic_y() && j == ny() { fj = 0; }
            value = sample_v_from(clamp_to_domain(trace_from(vec2<f32>((f32(i) + 0.5) * h, f32(fj) * h), params.dt)));
        }
        v_out[v_idx(i, j)] = value;
    }
}

// The blocks of every u and v sample (layout: shared/velocity_blocks.wgsl), one thread per u block
// and v block: exactly the values sample_u and sample_v would read, ghosts included.
@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn fill_blocks(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = i32(id.x);
    let b = i32(id.y);
    // u block (a, b - 1); a periodic y axis has no row -1
    let j0 = b - 1;
    if a < nx() && b <= ny() && !(periodic_y() && j0 < 0) {
        let i1 = select(a + 1, wrap(a + 1, nx()), periodic_x());
        let j1 = select(j0 + 1, wrap(j0 + 1, ny()), periodic_y());
        let g0 = u_row_ghost(j0);
        let g1 = u_row_ghost(j1);
        textureStore(u_blocks_out, u_block(a, j0), vec4<f32>(u_row_ghosted(a, j0, g0), u_row_ghosted(i1, j0, g0), u_row_ghosted(a, j1, g1), u_row_ghosted(i1, j1, g1)));
    }
    // v block (a - 1, b); a periodic x axis has no column -1
    let i0 = a - 1;
    if a <= nx() && b < ny() && !(periodic_x() && i0 < 0) {
        let i1 = select(i0 + 1, wrap(i0 + 1, nx()), periodic_x());
        let j1 = select(b + 1, wrap(b + 1, ny()), periodic_y());
        let g0 = v_col_ghost(i0);
        let g1 = v_col_ghost(i1);
        textureStore(v_blocks_out, v_block(i0, b), vec4<f32>(v_col_ghosted(i0, b, g0), v_col_ghosted(i1, b, g1), v_col_ghosted(i0, j1, g0), v_col_ghosted(i1, j1, g1)));
    }
}
