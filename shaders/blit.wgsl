// Copies the field, rendered at its internal resolution (src/render/cached.rs), into the
// window's viewport with bilinear filtering: one texture sample per pixel.

@group(0) @binding(0) var field: texture_2d<f32>;
@group(0) @binding(1) var bilinear: sampler;

struct VsOut {
    @builtin(position) pos: vec4<f32>,
    @location(0) uv: vec2<f32>,
}

@vertex
fn vs_main(@builtin(vertex_index) k: u32) -> VsOut {
    let xy = vec2<f32>(f32((k << 1u) & 2u), f32(k & 2u));
    var out: VsOut;
    out.pos = vec4<f32>(xy * 2.0 - 1.0, 0.0, 1.0);
    // texture rows run top to bottom
    out.uv = vec2<f32>(xy.x, 1.0 - xy.y);
    return out;
}

@fragment
fn fs_main(in: VsOut) -> @location(0) vec4<f32> {
    return textureSample(field, bilinear, in.uv);
}
