// Edge velocities read, sampled and traced: the part of the prelude that reads `u` and `v` (and,
// through shared/solid.wgsl, `solid`). A pass that takes this part declares `u` and `v`
// itself, `read` unless one of its entry points writes them.

// Reads an edge velocity; on periodic sides the last face is the first one.
fn u_at(i: i32, j: i32) -> f32 {
    var a = i;
    if periodic_x() { a = wrap(i, nx()); }
    return u[u_idx(a, j)];
}

fn v_at(i: i32, j: i32) -> f32 {
    var b = j;
    if periodic_y() { b = wrap(j, ny()); }
    return v[v_idx(i, b)];
}

// The ghost map (value * g.x + g.y) of u's row j: the identity inside, the bottom or top side's
// ghost at row -1 or ny. A row's samples share it: a CPU adapter runs every branch of
// `ghost_coeffs` at each call.
fn u_row_ghost(j: i32) -> vec2<f32> {
    var g = vec2<f32>(1.0, 0.0);
    g = select(g, ghost_coeffs(SIDE_BOTTOM, params.inflow_u[SIDE_BOTTOM]), j < 0);
    g = select(g, ghost_coeffs(SIDE_TOP, params.inflow_u[SIDE_TOP]), j >= ny());
    return g;
}

// The same for v's column i: the left or right side's ghost at column -1 or nx.
fn v_col_ghost(i: i32) -> vec2<f32> {
    var g = vec2<f32>(1.0, 0.0);
    g = select(g, ghost_coeffs(SIDE_LEFT, params.inflow_v[SIDE_LEFT]), i < 0);
    g = select(g, ghost_coeffs(SIDE_RIGHT, params.inflow_v[SIDE_RIGHT]), i >= nx());
    return g;
}

// u at face column i (already wrapped or clamped), row j, where j may be a ghost row -1 or ny,
// whose ghost map is g (`u_row_ghost(j)`).
fn u_row_ghosted(i: i32, j: i32, g: vec2<f32>) -> f32 {
    return u[u_idx(i, clamp(j, 0, ny() - 1))] * g.x + g.y;
}

// v at column i, which may be a ghost column -1 or nx, face row j; g is `v_col_ghost(i)`.
fn v_col_ghosted(i: i32, j: i32, g: vec2<f32>) -> f32 {
    return v[v_idx(clamp(i, 0, nx() - 1), j)] * g.x + g.y;
}

// Bilinear sample of u at a point (metres), on the u lattice (i h, (j + 1/2) h) — seed 002 step 8:
// u and v use different stencils for the same point. Within half a cell of a bottom or top side
// it blends with the ghost row, so a no-slip wall reads its own speed at the wall.
fn sample_u(pos: vec2<f32>) -> f32 {
    let l = u_spans(pos);
    let g0 = u_row_ghost(l.y.i0);
    let g1 = u_row_ghost(l.y.i1);
    let a = mix(u_row_ghosted(l.x.i0, l.y.i0, g0), u_row_ghosted(l.x.i1, l.y.i0, g0), l.x.t);
    let b = mix(u_row_ghosted(l.x.i0, l.y.i1, g1), u_row_ghosted(l.x.i1, l.y.i1, g1), l.x.t);
    return mix(a, b, l.y.t);
}

// The two spans of a bilinear sample at a point, one a side.
struct Spans {
    x: Span,
    y: Span,
}

// Where a point lies on the u lattice (the samples `sample_u` blends).
fn u_spans(pos: vec2<f32>) -> Spans {
    let gx = pos.x / params.h;
    let gy = pos.y / params.h - 0.5;
    var sx: Span;
    var sy: Span;
    if periodic_x() { sx = span_wrapped(gx, nx()); } else { sx = span_clamped(gx, nx()); }
    if periodic_y() { sy = span_wrapped(gy, ny()); } else { sy = span_ghosted(gy, ny() - 1); }
    return Spans(sx, sy);
}

// Where a point lies on the v lattice (the samples `sample_v` blends).
fn v_spans(pos: vec2<f32>) -> Spans {
    let gx = pos.x / params.h - 0.5;
    let gy = pos.y / params.h;
    var sx: Span;
    var sy: Span;
    if periodic_x() { sx = span_wrapped(gx, nx()); } else { sx = span_ghosted(gx, nx() - 1); }
    if periodic_y() { sy = span_wrapped(gy, ny()); } else { sy = span_clamped(gy, ny()); }
    return Spans(sx, sy);
}

// Bilinear sample of v on the v lattice ((i + 1/2) h, j h), with ghost columns beyond the left
// and right sides.
fn sample_v(pos: vec2<f32>) -> f32 {
    let l = v_spans(pos);
    let g0 = v_col_ghost(l.x.i0);
    let g1 = v_col_ghost(l.x.i1);
    let a = mix(v_col_ghosted(l.x.i0, l.y.i0, g0), v_col_ghosted(l.x.i1, l.y.i0, g1), l.x.t);
    let b = mix(v_col_ghosted(l.x.i0, l.y.i1, g0), v_col_ghosted(l.x.i1, l.y.i1, g1), l.x.t);
    return mix(a, b, l.y.t);
}

fn velocity_at(pos: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(sample_u(pos), sample_v(pos));
}

// The one midpoint (RK2) trace, over a signed step (dt > 0: back in time). The end point is left
// unclamped so `side_crossed` can tell which side it left through. CPU twin: Grid::trace_raw.
fn trace_raw(pos: vec2<f32>, dt: f32) -> vec2<f32> {
    let mid = clamp_to_domain(pos - 0.5 * dt * velocity_at(pos));
    return pos - dt * velocity_at(mid);
}

// Where the fluid at `pos` came from one step ago, inside the domain.
fn trace_back(pos: vec2<f32>) -> vec2<f32> {
    return clamp_to_domain(trace_raw(pos, params.dt));
}

// A face's normal velocity, prescribed faces (walls, inflows, solids) read as their value.
fn u_face_value(i: i32, j: i32) -> f32 {
    let f = u_face(i, j);
    return select(u_at(i, j), f.value, f.fixed);
}

fn v_face_value(i: i32, j: i32) -> f32 {
    let f = v_face(i, j);
    return select(v_at(i, j), f.value, f.fixed);
}
