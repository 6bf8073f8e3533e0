// What this step's splats do to a face: the part of the prelude that reads `splats`. A pass that
// takes this part declares `splats` (a uniform: every thread reads the same splat, which
// a uniform block gives in one load where a CPU adapter reads a storage word once per lane).

const MODE_PAINT_SOLID: u32 = 2u;
const MODE_ERASE_SOLID: u32 = 3u;

// Offset from a splat centre, with the nearest periodic image on wrap-around axes.
fn splat_offset(pos: vec2<f32>, s: Splat) -> vec2<f32> {
    var d = pos - vec2<f32>(s.x, s.y);
    let size = vec2<f32>(f32(nx()), f32(ny())) * params.h;
    if periodic_x() { d.x = d.x - round(d.x / size.x) * size.x; }
    if periodic_y() { d.y = d.y - round(d.y / size.y) * size.y; }
    return d;
}

// A brush dab adds its values times the falloff w, once. An emitter relaxes toward its values at
// `rate` per second times w, so its strength does not depend on the time step.
fn apply(value: f32, target_value: f32, w: f32, s: Splat) -> f32 {
    if s.mode == 0u { return value + w * target_value; }
    return mix(value, target_value, 1.0 - exp(-s.rate * params.dt * w));
}

// Whether flow thread (i, j) (faces and cells) lies where this step's splats can reach: from
// params.extra.xy, params.reach_w × params.reach_h threads (src/sim/sources.rs `reach`).
fn in_reach(i: i32, j: i32) -> bool {
    let d = vec2<i32>(i, j) - vec2<i32>(params.extra.xy);
    return d.x >= 0 && d.y >= 0 && u32(d.x) < params.reach_w && u32(d.y) < params.reach_h;
}

// A face's velocity `now` at `pos` after the splats' component `axis` (0: x, 1: y), or a fixed
// face's own value.
fn sourced_face(pos: vec2<f32>, axis: u32, f: Face, now: f32) -> f32 {
    var value = now;
    for (var k = 0u; k < params.splat_count; k++) {
        let s = splats[k];
        let w = falloff(length(splat_offset(pos, s)), s.radius);
        if w > 0.0 && s.mode < MODE_PAINT_SOLID { value = apply(value, select(s.vy, s.vx, axis == 0u), w, s); }
    }
    if f.fixed { value = f.value; }
    return value;
}

// u face (i, j) after the splats (the last face of a periodic row is the first one: computed
// there).
fn sourced_u(i: i32, j: i32, f: Face, u_now: f32) -> f32 {
    var fi = i;
    if periodic_x() && i == nx() { fi = 0; }
    return sourced_face(vec2<f32>(f32(fi) * params.h, (f32(j) + 0.5) * params.h), 0u, f, u_now);
}

// v face (i, j) after the splats, as `sourced_u`.
fn sourced_v(i: i32, j: i32, f: Face, v_now: f32) -> f32 {
    var fj = j;
    if periodic_y() && j == ny() { fj = 0; }
    return sourced_face(vec2<f32>((f32(i) + 0.5) * params.h, f32(fj) * params.h), 1u, f, v_now);
}
