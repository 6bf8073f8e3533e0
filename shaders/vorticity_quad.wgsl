// vorticity.wgsl `curl` and `force` four cells of a row a thread, where rows are whole quads
// (src/sim/vorticity.rs): the same arithmetic lane by lane, so the results are bit for bit the
// same. Why: lavapipe reads storage one lane at a time but every word of a vector in one pass
// over the lanes (shared/lanes4.wgsl); v, ω and f lie in rows of whole quads. u's rows (nx + 1
// faces) do not, so `curl` reads its five faces a row one by one.

// Bindings (bound by name).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read> solid: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> cell_tmp: array<vec4<f32>>;
@group(0) @binding(4) var<storage, read_write> vel_tmp: array<vec4<f32>>;

// As in shared/solid.wgsl: a simulation without solid cells reads none.
override SOLIDS: bool = true;

fn quads() -> i32 { return nx() / 4; }

// A neighbouring row (vorticity.wgsl `nb_y`): wrapped on a periodic axis, else clamped.
fn row_y(j: i32) -> i32 { return select(clamp(j, 0, ny() - 1), wrap(j, ny()), periodic_y()); }

// The quads left and right of quad q in a row (`nb_x` of the cells beyond its ends): wrapped on
// a periodic axis; else the quad itself, whose end lane is then the clamped neighbour.
fn quad_left(q: i32) -> i32 { return select(q - 1, select(0, quads() - 1, periodic_x()), q == 0); }
fn quad_right(q: i32) -> i32 { return select(q + 1, select(quads() - 1, 0, periodic_x()), q == quads() - 1); }

// Quad q of row j with its neighbours beside it: (x[q - 1].w, x[q].xyz) and (x[q].yzw, x[q + 1].x).
fn left_of(mid: vec4<f32>, beside: vec4<f32>, q: i32) -> vec4<f32> {
    return vec4<f32>(select(beside.w, mid.x, q == 0 && !periodic_x()), mid.xyz);
}
fn right_of(mid: vec4<f32>, beside: vec4<f32>, q: i32) -> vec4<f32> {
    return vec4<f32>(mid.yzw, select(beside.x, mid.w, q == quads() - 1 && !periodic_x()));
}

// vorticity.wgsl `centre_v` of the quad q of row j: v of the row and the one above (wrapped).
fn centre_v(q: i32, j: i32) -> vec4<f32> {
    var above = j + 1;
    if periodic_y() { above = wrap(above, ny()); }
    return 0.5 * (v[j * quads() + q] + v[above * quads() + q]);
}

// vorticity.wgsl `centre_u` of the quad q of row j: its five faces (the last wrapped).
fn centre_u(q: i32, j: i32) -> vec4<f32> {
    let row = j * (nx() + 1);
    let i = 4 * q;
    var last = i + 4;
    if periodic_x() { last = wrap(last, nx()); }
    let a = vec4<f32>(u[row + i], u[row + i + 1], u[row + i + 2], u[row + i + 3]);
    return 0.5 * (a + vec4<f32>(a.yzw, u[row + last]));
}

@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn curl(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if q >= quads() || j >= ny() { return; }
    let cv = centre_v(q, j);
    let dv = right_of(cv, centre_v(quad_right(q), j), q) - left_of(cv, centre_v(quad_left(q), j), q);
    let du = centre_u(q, row_y(j + 1)) - centre_u(q, row_y(j - 1));
    var w = (dv - du) / (2.0 * params.h);
    let c = j * quads() + q;
    if SOLIDS { w = select(w, vec4<f32>(0.0), solid[c] > vec4<f32>(0.5)); }
    cell_tmp[c] = w;
}

@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn force(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if q >= quads() || j >= ny() { return; }
    let c = j * quads() + q;
    let w = cell_tmp[c];
    let gx = abs(right_of(w, cell_tmp[j * quads() + quad_right(q)], q)) - abs(left_of(w, cell_tmp[j * quads() + quad_left(q)], q));
    let gy = abs(cell_tmp[row_y(j + 1) * quads() + q]) - abs(cell_tmp[row_y(j - 1) * quads() + q]);
    let len = sqrt(gx * gx + gy * gy);
    let s = params.vorticity * params.h * w / len;
    let none = len <= vec4<f32>(1e-20);
    vel_tmp[c] = select(gy * s, vec4<f32>(0.0), none);
    vel_tmp[nx() * ny() / 4 + c] = select(-gx * s, vec4<f32>(0.0), none);
}
