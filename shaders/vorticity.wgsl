// Vorticity confinement (Fedkiw, Stam & Jensen 2001) on the staggered grid, strength
// params.vorticity = ε. `curl` puts ω = ∂v/∂x − ∂u/∂y at every cell centre (from cell-centred
// velocities, central differences) into cell_tmp; `force` forms f = ε h (N × ω ẑ) at every cell
// with N = ∇|ω| / |∇|ω|| into vel_tmp (x, then y); `confine` adds Δt times the mean of the two
// cells' f to each free face. Forming f once a cell, not once for each of its four faces, saves
// three quarters of the ω reads (a CPU adapter's cost is its storage reads).
// Not dispatched at all when ε = 0. `curl` and `force` take a thread's lanes at a time
// (shared/lanes1.wgsl or lanes4.wgsl): thread (q, j) the cells LANES q .. LANES q + LANES - 1 of
// row j; vorticity_confine.wgsl takes the faces.

// Bindings (bound by name).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<Lanes>;
@group(0) @binding(2) var<storage, read> solid: array<Lanes>;
@group(0) @binding(3) var<storage, read_write> cell_tmp: array<Lanes>;
@group(0) @binding(4) var<storage, read_write> vel_tmp: array<Lanes>;

// As in shared/solid.wgsl: a simulation without solid cells reads none.
override SOLIDS: bool = true;

// cell_tmp holds ω from `curl` to `force`; vel_tmp holds f from `force` to confinement: x at c,
// y at nx ny + c (vel_tmp is the velocity corrections' scratch, free until advection).

// Threads of a row, and thread q's neighbours in it: wrapped on a periodic axis, else the
// thread itself, whose end lane then stands in for the cell beyond (a clamped neighbour).
fn row_threads() -> i32 { return nx() / i32(LANES); }
fn thread_left(q: i32) -> i32 { return select(q - 1, select(0, row_threads() - 1, periodic_x()), q == 0); }
fn thread_right(q: i32) -> i32 { return select(q + 1, select(row_threads() - 1, 0, periodic_x()), q == row_threads() - 1); }

// A neighbouring row: wrapped on a periodic axis, else clamped.
fn row_y(j: i32) -> i32 { return select(clamp(j, 0, ny() - 1), wrap(j, ny()), periodic_y()); }

// Thread q's lanes `mid` with each one's neighbour on the left (right); `beside` is the thread
// on that side's.
fn left_of(mid: Lanes, beside: Lanes, q: i32) -> Lanes {
    return lanes_left(select(last_lane(beside), first_lane(mid), q == 0 && !periodic_x()), mid);
}
fn right_of(mid: Lanes, beside: Lanes, q: i32) -> Lanes {
    return lanes_right(mid, select(first_lane(beside), last_lane(mid), q == row_threads() - 1 && !periodic_x()));
}

// v at the centres of thread q's cells of row j: the row's faces and the ones above (wrapped).
fn centre_v(q: i32, j: i32) -> Lanes {
    var above = j + 1;
    if periodic_y() { above = wrap(above, ny()); }
    return 0.5 * (v[j * row_threads() + q] + v[above * row_threads() + q]);
}

// u at the centres of thread q's cells of row j: LANES + 1 faces (the last wrapped), read one by
// one, as u's rows (nx + 1 faces) are not whole quads.
fn centre_u(q: i32, j: i32) -> Lanes {
    let row = j * (nx() + 1);
    let i = i32(LANES) * q;
    var last = i + i32(LANES);
    if periodic_x() { last = wrap(last, nx()); }
    var faces: array<f32, LANES>;
    for (var l = 0; l < i32(LANES); l++) { faces[l] = u[row + i + l]; }
    let a = lanes_of(faces);
    return 0.5 * (a + lanes_right(a, u[row + last]));
}

@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn curl(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if q >= row_threads() || j >= ny() { return; }
    let cv = centre_v(q, j);
    let dv = right_of(cv, centre_v(thread_right(q), j), q) - left_of(cv, centre_v(thread_left(q), j), q);
    let du = centre_u(q, row_y(j + 1)) - centre_u(q, row_y(j - 1));
    var w = (dv - du) / (2.0 * params.h);
    let c = j * row_threads() + q;
    if SOLIDS { w = select(w, Lanes(0.0), solid[c] > Lanes(0.5)); }
    cell_tmp[c] = w;
}

// f = ε h (N × ω ẑ) with N = ∇|ω| / |∇|ω|| (central differences), zero where |∇|ω|| vanishes.
@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn force(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if q >= row_threads() || j >= ny() { return; }
    let c = j * row_threads() + q;
    let w = cell_tmp[c];
    let gx = abs(right_of(w, cell_tmp[j * row_threads() + thread_right(q)], q)) - abs(left_of(w, cell_tmp[j * row_threads() + thread_left(q)], q));
    let gy = abs(cell_tmp[row_y(j + 1) * row_threads() + q]) - abs(cell_tmp[row_y(j - 1) * row_threads() + q]);
    let len = sqrt(gx * gx + gy * gy);
    let s = params.vorticity * params.h * w / len;
    let none = len <= Lanes(1e-20);
    vel_tmp[c] = select(gy * s, Lanes(0.0), none);
    vel_tmp[nx() * ny() / i32(LANES) + c] = select(-gx * s, Lanes(0.0), none);
}
