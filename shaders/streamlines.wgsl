// Streamlines: from each seed of a regular grid, the curve along the current velocity, traced
// STREAMLINE_POINTS / 2 steps back and as many forward by the midpoint rule on the direction
// v / |v| (steps of equal length, so slow and fast flow give lines of one length), written as a
// line list of STREAMLINE_POINTS − 1 segments a seed. CPU twin: src/sim/cpu/streamlines.rs.
// A line stops (its segments collapse onto its last point) where the flow is still, at a solid
// cell or at a side that is not periodic; a step across a periodic side collapses its segment.

@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
// x: seed spacing (metres), y: seeds across, z: seeds up, w: step length (metres)
@group(0) @binding(3) var<storage, read> streamline_seeds: vec4<f32>;
@group(0) @binding(4) var<storage, read_write> streamline_vertices: array<vec2<f32>>;

// Keep in sync with `STREAMLINE_POINTS` in src/sim/streamlines.rs.
const STREAMLINE_POINTS: u32 = 17u;
const HALF: u32 = 8u;

// Below this speed (m/s) the flow is still: no direction to follow.
const STILL: f32 = 1e-9;

fn direction(pos: vec2<f32>) -> vec2<f32> {
    let w = velocity_at(pos);
    let s = length(w);
    if s <= STILL { return vec2<f32>(0.0, 0.0); }
    return w / s;
}

// Whether a point may carry the line on: inside the domain (or on a periodic axis) and not in a
// solid cell.
fn open(q: vec2<f32>, size: vec2<f32>) -> bool {
    if !periodic_x() && (q.x < 0.0 || q.x > size.x) { return false; }
    if !periodic_y() && (q.y < 0.0 || q.y > size.y) { return false; }
    let c = wrapped(q, size);
    let i = clamp(i32(floor(c.x / params.h)), 0, nx() - 1);
    let j = clamp(i32(floor(c.y / params.h)), 0, ny() - 1);
    return !is_solid(i, j);
}

// Wraps a point onto a periodic axis.
fn wrapped(q: vec2<f32>, size: vec2<f32>) -> vec2<f32> {
    var w = q;
    if periodic_x() { w.x = q.x - floor(q.x / size.x) * size.x; }
    if periodic_y() { w.y = q.y - floor(q.y / size.y) * size.y; }
    return w;
}

// Writes segment k (between points k and k + 1) of line `line`.
fn segment(line: u32, k: u32, a: vec2<f32>, b: vec2<f32>) {
    let at = 2u * (line * (STREAMLINE_POINTS - 1u) + k);
    streamline_vertices[at] = a;
    streamline_vertices[at + 1u] = b;
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let seeds = vec2<u32>(u32(streamline_seeds.y), u32(streamline_seeds.z));
    let line = id.x;
    if line >= seeds.x * seeds.y { return; }
    let size = vec2<f32>(f32(nx()), f32(ny())) * params.h;
    let spacing = streamline_seeds.x;
    let ds = streamline_seeds.w;
    let seed = (vec2<f32>(f32(line % seeds.x), f32(line / seeds.x)) + 0.5) * spacing;
    let alive = open(seed, size);
    // back from the seed (segments HALF − 1 down to 0), then forward (HALF up)
    for (var way = 0u; way < 2u; way++) {
        let sign = select(-1.0, 1.0, way == 1u);
        var pos = seed;
        var going = alive;
        for (var s = 0u; s < HALF; s++) {
            var next = pos;
            var jumped = false;
            if going {
                let d1 = direction(pos);
                let mid = wrapped(clamp_to_domain(pos + 0.5 * sign * ds * d1), size);
                let d2 = direction(mid);
                let q = pos + sign * ds * d2;
                going = dot(d1, d1) > 0.0 && dot(d2, d2) > 0.0 && open(q, size);
                if going {
                    next = wrapped(q, size);
                    jumped = any(next != q);
                }
            }
            let a = select(pos, next, jumped);
            if way == 0u {
                segment(line, HALF - 1u - s, next, a);
            } else {
                segment(line, HALF + s, a, next);
            }
            pos = next;
        }
    }
}
