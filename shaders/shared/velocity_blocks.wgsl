// Velocity blocks: the four velocities of each bilinear sample in one vec4, gathered once a step
// (`fill_blocks` in advect/velocity.wgsl) for the semi-Lagrangian back-traces on a CPU adapter.
// Lavapipe reads storage one lane at a time but all words of a vector in the same pass over the
// lanes, so a sample costs one read instead of four. The blend is sample_u's and sample_v's term
// for term, so the results are the same bit for bit. A pass that takes this part declares
// `vel_blocks` (slot 30). Layout: the u blocks (i0 in 0..nx, j0 in -1..ny: ny + 1 rows of nx),
// then the v blocks (i0 in -1..nx, j0 in 0..ny: ny rows of nx + 1), nu + nv vec4s in all.

// Whether the traces read the blocks (true on a CPU adapter: src/sim/kernel.rs `velocity_blocks`).
override BLOCKED: bool = false;

fn u_block(i0: i32, j0: i32) -> u32 { return u32((j0 + 1) * nx() + i0); }
fn v_block(i0: i32, j0: i32) -> u32 { return u32(nx() * (ny() + 1) + j0 * (nx() + 1) + i0 + 1); }

// A block's bilinear blend: sample_u's and sample_v's arithmetic, in the same order.
fn blend_block(q: vec4<f32>, l: Spans) -> f32 {
    let a = mix(q.x, q.y, l.x.t);
    let b = mix(q.z, q.w, l.x.t);
    return mix(a, b, l.y.t);
}

fn sample_u_blocked(pos: vec2<f32>) -> f32 {
    let l = u_spans(pos);
    return blend_block(vel_blocks[u_block(l.x.i0, l.y.i0)], l);
}

fn sample_v_blocked(pos: vec2<f32>) -> f32 {
    let l = v_spans(pos);
    return blend_block(vel_blocks[v_block(l.x.i0, l.y.i0)], l);
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
