// Vorticity confinement's last stage (vorticity.wgsl has the first two and the method): Δt times
// the mean of the force f at the two cells of each free face, added to the face.

// Bindings (bound by name).
@group(0) @binding(0) var<storage, read_write> u: array<f32>;
@group(0) @binding(1) var<storage, read_write> v: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read> vel_tmp: array<f32>;

// f at cell c: x at c, y at nx ny + c (vorticity.wgsl `force`).
fn force_y_at(c: u32) -> u32 { return u32(nx() * ny()) + c; }

// One component (0: x, 1: y) of the mean force over the cells a and b of a free face that lie in
// the domain (either may lie outside). A face beside a solid is fixed, so these cells are fluid
// (no solid read).
fn face_force(a: vec2<i32>, b: vec2<i32>, axis: u32) -> f32 {
    var sum = 0.0;
    var count = 0.0;
    if a.x >= 0 && a.x < nx() && a.y >= 0 && a.y < ny() {
        let c = cell_idx(a.x, a.y);
        sum += vel_tmp[select(c, force_y_at(c), axis == 1u)];
        count += 1.0;
    }
    if b.x >= 0 && b.x < nx() && b.y >= 0 && b.y < ny() {
        let c = cell_idx(b.x, b.y);
        sum += vel_tmp[select(c, force_y_at(c), axis == 1u)];
        count += 1.0;
    }
    return select(0.0, sum / count, count > 0.0);
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn confine(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i <= nx() && j < ny() && !u_face(i, j).fixed {
        var l = i - 1;
        var r = i;
        if periodic_x() { l = wrap(l, nx()); r = wrap(r, nx()); }
        u[u_idx(i, j)] += params.dt * face_force(vec2<i32>(l, j), vec2<i32>(r, j), 0u);
    }
    if i < nx() && j <= ny() && !v_face(i, j).fixed {
        var b = j - 1;
        var t = j;
        if periodic_y() { b = wrap(b, ny()); t = wrap(t, ny()); }
        v[v_idx(i, j)] += params.dt * face_force(vec2<i32>(i, b), vec2<i32>(i, t), 1u);
    }
}
