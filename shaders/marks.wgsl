// Marks drawn over the field, in the same pass and viewport (or over the field image): tracer
// particles as dots or short streaks, and streamlines as thin lines. Composed after
// render_field.wgsl (src/render/mod.rs `shader_source`), whose `rp` places them: positions in
// metres become the viewport's clip space through the shown part of the grid (`rp.window`),
// and sizes in pixels through the pixels per cell (`rp.view.x`).
// Output is gamma-encoded, as the field's. On the field image (the window and the page) they
// are written by compute entry points instead, a thread a particle or a segment: a CPU adapter
// pays about a microsecond a primitive to rasterise, 30-40 ms a frame for 16384 quads on lavapipe.

// The particles (src/sim/tracers.rs) and the streamlines' line list (src/sim/streamlines.rs),
// read by the compute entry points; the vertex entry points take them as vertex buffers.
@group(0) @binding(7) var<storage, read> tracers: array<vec4<f32>>;
@group(0) @binding(8) var<storage, read> streamline_vertices: array<vec2<f32>>;

struct MarkOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) colour: vec4<f32>,
}

// Premultiplied colours (gamma-encoded): warm yellow dots, pale blue-white lines.
const TRACER_COLOUR: vec4<f32> = vec4<f32>(1.0, 0.82, 0.15, 1.0);
const STREAMLINE_COLOUR: vec4<f32> = vec4<f32>(0.62, 0.68, 0.75, 0.75);
// Half the side of a dot, and half a streak's width, in pixels.
const TRACER_HALF: f32 = 1.0;

// The viewport's size in pixels.
fn viewport_px() -> vec2<f32> {
    return rp.view.x * vec2<f32>(f32(rp.nx), f32(rp.ny)) * rp.window.zw;
}

// A point in metres as pixels from the viewport's lower-left corner.
fn metres_to_px(m: vec2<f32>) -> vec2<f32> {
    let uv = m / (rp.view.y * vec2<f32>(f32(rp.nx), f32(rp.ny)));
    return (uv - rp.window.xy) / rp.window.zw * viewport_px();
}

fn px_to_clip(px: vec2<f32>) -> vec4<f32> {
    return vec4<f32>(px / viewport_px() * 2.0 - 1.0, 0.0, 1.0);
}

// `px` screen pixels in the target's pixels (the window's field image is coarser than the
// screen), at least half a pixel so a dot covers one.
fn screen_px(px: f32) -> f32 {
    let scale = select(rp.tints.w, 1.0, rp.tints.w <= 0.0);
    return max(px * scale, 0.5);
}

// Where a particle's streak starts, in pixels: where it was a step before, or where it is (a
// dot) where it moved under half a pixel, wrapped across a periodic side or streaks are off.
fn streak_start(t: vec4<f32>) -> vec2<f32> {
    let b = metres_to_px(t.xy);
    let a = metres_to_px(t.zw);
    let len = distance(a, b);
    if !shown(TRACER_STREAKS) || len < 0.5 || len > 0.25 * max(viewport_px().x, viewport_px().y) { return b; }
    return a;
}

// Corner k (0..6, two triangles) of a particle's quad: from its previous position to its
// position, TRACER_HALF wide, or a square dot where it has not moved a pixel (or wrapped
// across a periodic side, or `streaks` is off). Dead particles (x < 0) fall outside the clip.
@vertex
fn vs_tracer(@builtin(vertex_index) k: u32, @location(0) t: vec4<f32>) -> MarkOut {
    var out: MarkOut;
    out.colour = TRACER_COLOUR;
    if t.x < 0.0 {
        out.pos = vec4<f32>(2.0, 2.0, 0.0, 1.0);
        return out;
    }
    let b = metres_to_px(t.xy);
    let a = streak_start(t);
    var along = vec2<f32>(1.0, 0.0);
    if distance(a, b) > 0.0 { along = normalize(b - a); }
    let across = vec2<f32>(-along.y, along.x);
    // corners: (0, 0), (1, 0), (0, 1), (1, 0), (1, 1), (0, 1) as (end, side)
    var ends = array<vec2<f32>, 6>(vec2(0.0, -1.0), vec2(1.0, -1.0), vec2(0.0, 1.0), vec2(1.0, -1.0), vec2(1.0, 1.0), vec2(0.0, 1.0));
    let c = ends[k];
    let base = select(a - TRACER_HALF * along, b + TRACER_HALF * along, c.x > 0.5);
    out.pos = px_to_clip(base + c.y * TRACER_HALF * across);
    return out;
}

@vertex
fn vs_streamline(@location(0) at: vec2<f32>) -> MarkOut {
    var out: MarkOut;
    out.pos = px_to_clip(metres_to_px(at));
    out.colour = STREAMLINE_COLOUR;
    return out;
}

@fragment
fn fs_mark(in: MarkOut) -> @location(0) vec4<f32> {
    return in.colour;
}

// Writes `colour` over the image's pixels within `half` of `p` (pixels from the lower-left corner).
fn stamp(p: vec2<f32>, half: f32, colour: vec4<f32>) {
    let size = vec2<i32>(textureDimensions(image));
    // the pixels whose centres lie in [p - half, p + half)
    let lo = vec2<i32>(ceil(p - half - 0.5));
    let hi = vec2<i32>(ceil(p + half - 0.5)) - 1;
    for (var y = lo.y; y <= hi.y; y++) {
        for (var x = lo.x; x <= hi.x; x++) {
            if x >= 0 && y >= 0 && x < size.x && y < size.y {
                textureStore(image, vec2<i32>(x, size.y - 1 - y), colour);
            }
        }
    }
}

// At most this many stamps along a streak or a segment.
const MARK_STEPS: u32 = 32u;

// Stamps along a to b, a pixel apart.
fn stroke(a: vec2<f32>, b: vec2<f32>, half: f32, colour: vec4<f32>) {
    let n = min(u32(ceil(distance(a, b))), MARK_STEPS);
    for (var k = 0u; k <= n; k++) {
        stamp(mix(a, b, f32(k) / f32(max(n, 1u))), half, colour);
    }
}

// Whether a point in metres lies in a solid cell: seeds placed there while the run is paused
// stay until the next step's tracers pass removes them, and are not drawn meanwhile.
fn over_solid(m: vec2<f32>) -> bool {
    let c = vec2<i32>(floor(m / rp.view.y));
    return solid[cell(c.x, c.y)] > 0.5;
}

// The particles over the field image, a thread each, opaque (a storage image cannot blend).
@compute @workgroup_size(64)
fn cs_tracers(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= arrayLength(&tracers) { return; }
    let t = tracers[id.x];
    if t.x < 0.0 || over_solid(t.xy) { return; }
    stroke(streak_start(t), metres_to_px(t.xy), screen_px(TRACER_HALF), vec4<f32>(TRACER_COLOUR.rgb, 1.0));
}

// The streamlines over the field image, a thread a segment (`rp.tints.z` of them), as one-pixel
// lines in the colour the line list gives over black.
@compute @workgroup_size(64)
fn cs_streamlines(@builtin(global_invocation_id) id: vec3<u32>) {
    if id.x >= u32(rp.tints.z) { return; }
    let a = streamline_vertices[2u * id.x];
    let b = streamline_vertices[2u * id.x + 1u];
    if all(a == b) { return; }
    stroke(metres_to_px(a), metres_to_px(b), 0.5, vec4<f32>(STREAMLINE_COLOUR.rgb, 1.0));
}
