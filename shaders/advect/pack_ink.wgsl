// The ink's texels, which the semi-Lagrangian ink pass reads where BLOCKED (advect/ink.wgsl
// `ink_in_texels`), a thread's lanes of a dye row at a time (shared/lanes1.wgsl or lanes4.wgsl):
// thread (t, b) takes dye cells LANES t .. LANES t + LANES - 1 of row b, whose RGB are 3 LANES
// consecutive words. Why four: lavapipe reads storage one lane at a time but every word of a
// vector in one pass over the lanes; four cells' RGB are three vectors, where a thread a cell
// reads three words one by one (1.3-1.4 ms a step with a 256² dye grid on lavapipe). Each word
// is taken by a constant lane: indexed by a loop's counter, the words went through an array in
// memory in naga's SPIR-V, and the pass took Chromium's SwiftShader, run natively, 13-14 ms a
// step against 3-4.5 (the 128² plume, 256² dye grid); the page's own shader compiler shows no
// difference (BENCHMARKS.md, "Where the time goes: the page").

// Bindings (bound by name): ink in lanes.
@group(0) @binding(0) var<storage, read> ink: array<Lanes>;
@group(0) @binding(1) var ink_texels_out: texture_storage_2d<rgba32float, write>;

// Texel (a, b): one dye cell's RGB.
fn put(a: i32, b: i32, r: f32, g: f32, bl: f32) { textureStore(ink_texels_out, vec2<i32>(a, b), vec4<f32>(r, g, bl, 0.0)); }

@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn pack_ink(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = i32(id.x);
    let b = i32(id.y);
    let w = dye_nx() / i32(LANES);
    if t >= w || b >= dye_ny() { return; }
    let at = 3 * (b * w + t);
    let x = ink[at];
    let y = ink[at + 1];
    let z = ink[at + 2];
    let a = i32(LANES) * t;
    if LANES == 1u {
        put(a, b, lane(x, 0u), lane(y, 0u), lane(z, 0u));
    } else {
        // four cells' RGB in three quads of words: rgbr gbrg brgb
        put(a, b, lane(x, 0u), lane(x, 1u), lane(x, 2u));
        put(a + 1, b, lane(x, 3u), lane(y, 0u), lane(y, 1u));
        put(a + 2, b, lane(y, 2u), lane(y, 3u), lane(z, 0u));
        put(a + 3, b, lane(z, 1u), lane(z, 2u), lane(z, 3u));
    }
}
