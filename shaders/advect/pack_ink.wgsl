// The ink's texels, which the semi-Lagrangian ink pass reads where BLOCKED (advect/ink.wgsl
// `ink_in_texels`), a thread's lanes of a dye row at a time (shared/lanes1.wgsl or lanes4.wgsl):
// thread (t, b) takes dye cells LANES t .. LANES t + LANES - 1 of row b, whose RGB are 3 LANES
// consecutive words. Why four: lavapipe reads storage one lane at a time but every word of a
// vector in one pass over the lanes; four cells' RGB are three vectors, where a thread a cell
// reads three words one by one (1.3-1.4 ms a step with a 256² dye grid on lavapipe).

// Bindings (bound by name): ink in lanes.
@group(0) @binding(0) var<storage, read> ink: array<Lanes>;
@group(0) @binding(1) var ink_texels_out: texture_storage_2d<rgba32float, write>;

// Word w of a thread's three lanes of words.
fn word(words: array<Lanes, 3>, w: u32) -> f32 {
    return lane(words[w / LANES], w % LANES);
}

@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn pack_ink(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = i32(id.x);
    let b = i32(id.y);
    let w = dye_nx() / i32(LANES);
    if t >= w || b >= dye_ny() { return; }
    let at = 3 * (b * w + t);
    let words = array<Lanes, 3>(ink[at], ink[at + 1], ink[at + 2]);
    for (var k = 0u; k < LANES; k++) {
        let c = 3u * k;
        textureStore(ink_texels_out, vec2<i32>(i32(LANES) * t + i32(k), b), vec4<f32>(word(words, c), word(words, c + 1u), word(words, c + 2u), 0.0));
    }
}
