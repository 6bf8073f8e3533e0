// Velocity blocks: the four velocities of each bilinear sample in one vec4, gathered once a step
// (`fill_blocks` in advect/velocity.wgsl) for the semi-Lagrangian back-traces on a CPU adapter.
// Lavapipe reads storage one lane at a time but all words of a vector in the same pass over the
// lanes, so a sample costs one read instead of four. The blend is sample_u's and sample_v's term
// for term, so the results are the same bit for bit. A pass that takes this part declares
// the textures `u_blocks` and `v_blocks` (textures, as lavapipe gathers texels in
// one pass over the lanes where it reads storage lane by lane). Layout: u's blocks, texel
// (i0, j0 + 1) for i0 in 0..nx, j0 in -1..ny; v's, texel (i0 + 1, j0) for i0 in -1..nx, j0 in 0..ny.

// Whether the traces read the blocks (true on a CPU adapter: src/sim/kernel/profile.rs `DeviceProfile::textures`).
override BLOCKED: bool = false;

fn u_block(i0: i32, j0: i32) -> vec2<i32> { return vec2<i32>(i0, j0 + 1); }
fn v_block(i0: i32, j0: i32) -> vec2<i32> { return vec2<i32>(i0 + 1, j0); }

// A block's bilinear blend: sample_u's and sample_v's arithmetic, in the same order.
fn blend_block(q: vec4<f32>, l: Spans) -> f32 {
    let a = mix(q.x, q.y, l.x.t);
    let b = mix(q.z, q.w, l.x.t);
    return mix(a, b, l.y.t);
}

fn sample_u_blocked(pos: vec2<f32>) -> f32 {
    let l = u_spans(pos);
    return blend_block(textureLoad(u_blocks, u_block(l.x.i0, l.y.i0), 0), l);
}

fn sample_v_blocked(pos: vec2<f32>) -> f32 {
    let l = v_spans(pos);
    return blend_block(textureLoad(v_blocks, v_block(l.x.i0, l.y.i0), 0), l);
}

fn velocity_at_blocked(pos: vec2<f32>) -> vec2<f32> {
    return vec2<f32>(sample_u_blocked(pos), sample_v_blocked(pos));
}

// `trace_raw`, through the blocks where BLOCKED.
fn trace_from(pos: vec2<f32>, dt: f32) -> vec2<f32> {
    if !BLOCKED { return trace_raw(pos, dt); }
    let mid = clamp_to_domain(pos - 0.5 * dt * velocity_at_blocked(pos));
    return pos - dt * velocity_at_blocked(mid);
}

// `sample_u` and `sample_v`, through the blocks where BLOCKED.
fn sample_u_from(pos: vec2<f32>) -> f32 {
    if BLOCKED { return sample_u_blocked(pos); }
    return sample_u(pos);
}

fn sample_v_from(pos: vec2<f32>) -> f32 {
    if BLOCKED { return sample_v_blocked(pos); }
    return sample_v(pos);
}
