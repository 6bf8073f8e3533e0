// advect/ink.wgsl `pack_ink` four dye cells of a row a thread, where dye rows are whole quads
// (src/sim/advect.rs): the ink's texels, the same values. Why: lavapipe reads storage one lane at
// a time but every word of a vector in one pass over the lanes (shared/lanes4.wgsl); four cells'
// RGB are three vectors, where a thread a cell reads three words one by one (1.3-1.4 ms a step
// with a 256² dye grid on lavapipe).

// Bindings (numbers: `slot` in src/sim/kernel.rs): ink as vectors of four words.
@group(0) @binding(0) var<storage, read> ink: array<vec4<f32>>;
@group(0) @binding(1) var ink_texels_out: texture_storage_2d<rgba32float, write>;

@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn quads(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = i32(id.x);
    let b = i32(id.y);
    if t >= dye_nx() / 4 || b >= dye_ny() { return; }
    // cells 4t .. 4t + 3 of row b start at word 3 dye_idx(4t, b), vector 3 (b dye_nx / 4 + t)
    let at = 3 * (b * (dye_nx() / 4) + t);
    let p = ink[at];
    let q = ink[at + 1];
    let r = ink[at + 2];
    let a = 4 * t;
    // p = r0 g0 b0 r1, q = g1 b1 r2 g2, r = b2 r3 g3 b3
    textureStore(ink_texels_out, vec2<i32>(a, b), vec4<f32>(p.xyz, 0.0));
    textureStore(ink_texels_out, vec2<i32>(a + 1, b), vec4<f32>(p.w, q.xy, 0.0));
    textureStore(ink_texels_out, vec2<i32>(a + 2, b), vec4<f32>(q.zw, r.x, 0.0));
    textureStore(ink_texels_out, vec2<i32>(a + 3, b), vec4<f32>(r.yzw, 0.0));
}
