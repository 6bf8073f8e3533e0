// egui's meshes (the hover layer: text, its backdrops, the brush outline) on a software adapter:
// the vertex colour times one bilinear sample of the texture, in gamma space as the window's
// non-sRGB target takes it (src/app/plain_paint.rs). egui's own fragment shader also filters the
// texture by hand and dithers, behind branches on uniform values that a CPU adapter runs both
// sides of: there it cost about 85 ns a pixel on lavapipe, ten times the field's blit.

struct Locals {
    // the target's size in points (egui's vertex positions)
    screen: vec2<f32>,
    pad: vec2<f32>,
}

@group(0) @binding(0) var<uniform> locals: Locals;
@group(0) @binding(1) var atlas: texture_2d<f32>;
@group(0) @binding(2) var bilinear: sampler;

struct VsOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) uv: vec2<f32>,
    // premultiplied, gamma
    @location(1) colour: vec4<f32>,
}

@vertex
fn vs_main(@location(0) pos: vec2<f32>, @location(1) uv: vec2<f32>, @location(2) colour: u32) -> VsOut {
    var out: VsOut;
    out.pos = vec4<f32>(2.0 * pos.x / locals.screen.x - 1.0, 1.0 - 2.0 * pos.y / locals.screen.y, 0.0, 1.0);
    out.uv = uv;
    // egui's Color32 is r, g, b, a bytes: r the lowest
    out.colour = unpack4x8unorm(colour);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return in.colour * textureSample(atlas, bilinear, in.uv);
}
