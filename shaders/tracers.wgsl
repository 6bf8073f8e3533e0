// Tracers: particles carried by the flow, one thread each, moved over the (sub-)step's dt by
// the midpoint (RK2) trace through the staggered velocity that the advection uses
// (shared/velocity.wgsl `trace_raw`, run forward). CPU twin: src/sim/cpu/tracers.rs.
//   A particle is (x, y, previous x, previous y) in metres; x < 0 marks a dead one (removed, or
//   never seeded). The previous position lets the view draw a short streak.
//   Leaving through an inflow or outflow side removes it; a periodic side wraps it; a wall keeps
//   it on the domain's edge. Ending in a solid cell, or anywhere not finite, removes it.

@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read_write> tracers: array<vec4<f32>>;

const DEAD: vec4<f32> = vec4<f32>(-1.0, -1.0, -1.0, -1.0);

// Whether x is finite, by its bits (WGSL may assume floats are finite).
fn tracer_finite(x: f32) -> bool {
    return (bitcast<u32>(x) & 0x7f800000u) != 0x7f800000u;
}

// Where a coordinate ends along one axis of length `size` whose low and high sides are `lo` and
// `hi`: wrapped on a periodic axis, held on a wall; x < 0 where it left through an open side.
fn settle(x: f32, size: f32, periodic: bool, lo: u32, hi: u32) -> f32 {
    if periodic { return x - floor(x / size) * size; }
    var side = 4u;
    if x < 0.0 { side = lo; }
    if x > size { side = hi; }
    if side == 4u { return x; }
    if params.bc_kind[side] == BC_WALL { return clamp(x, 0.0, size); }
    return -1.0;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let n = id.x;
    if n >= arrayLength(&tracers) { return; }
    let t = tracers[n];
    if t.x < 0.0 { return; }
    let size = vec2<f32>(f32(nx()), f32(ny())) * params.h;
    let q = trace_raw(t.xy, -params.dt);
    if !(tracer_finite(q.x) && tracer_finite(q.y)) {
        tracers[n] = DEAD;
        return;
    }
    let x = settle(q.x, size.x, periodic_x(), SIDE_LEFT, SIDE_RIGHT);
    let y = settle(q.y, size.y, periodic_y(), SIDE_BOTTOM, SIDE_TOP);
    if x < 0.0 || y < 0.0 {
        tracers[n] = DEAD;
        return;
    }
    let i = clamp(i32(floor(x / params.h)), 0, nx() - 1);
    let j = clamp(i32(floor(y / params.h)), 0, ny() - 1);
    if is_solid(i, j) {
        tracers[n] = DEAD;
        return;
    }
    tracers[n] = vec4<f32>(x, y, t.x, t.y);
}
