// Marks drawn over the field, in the same pass and viewport (or over the field image): tracer
// particles as dots or short streaks, and streamlines as thin lines. Composed after
// render_field.wgsl (src/render/mod.rs `shader_source`), whose `rp` places them: positions in
// metres become the viewport's clip space through the shown part of the grid (`rp.window`),
// and sizes in pixels through the pixels per cell (`rp.view.x`).
// Output is gamma-encoded, as the field's.

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
    var a = metres_to_px(t.zw);
    let d = b - a;
    let len = length(d);
    if !shown(TRACER_STREAKS) || len < 0.5 || len > 0.25 * max(viewport_px().x, viewport_px().y) { a = b; }
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
