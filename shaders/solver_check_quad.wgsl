// `reduce_mg` of solver_check.wgsl four cells a thread, where level 0's rows are whole quads
// (src/sim/solver_check.rs `Check::new`): the residual by multigrid/quad.wgsl `quad_at` (or
// `quad_in`, from the textures: `reduce_mg_tex`), bit for bit multigrid_common `local_residual`'s,
// and the same maximum. Why: lavapipe reads
// storage one lane at a time but every word of a vector in one pass over the lanes, and a cell's
// residual reads 7 words (multigrid/quad.wgsl).

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs); multigrid/quad.wgsl declares the level's.
@group(0) @binding(0) var<storage, read_write> mg_control: array<u32>;

// max |residual| of multigrid level 0 (x = p, rhs from `load`), computed on the fly.
@compute @workgroup_size(WG)
fn reduce_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if gate_closed(lid.x) { return; }
    finish_partial(lid.x, wid.x, level0_max(wid.x * WG + lid.x, GROUPS * WG));
}

// The largest |residual| of the fluid cells of level 0's quads from quad `first` on, every
// `stride`-th.
fn level0_max(first: u32, stride: u32) -> f32 {
    let w = u32(row_quads());
    var m = 0.0;
    for (var c = first; c < w * u32(lny()); c += stride) {
        m = quad_max(m, quad_at(i32(c % w), i32(c / w)));
    }
    return m;
}

// `level0_max` from level 0's textures (`quad_in`).
fn level0_max_tex(first: u32, stride: u32) -> f32 {
    let w = u32(row_quads());
    var m = 0.0;
    for (var c = first; c < w * u32(lny()); c += stride) {
        m = quad_max(m, quad_in(i32(c % w), i32(c / w)));
    }
    return m;
}

// m and the largest |residual| of the quad's fluid cells.
fn quad_max(m0: f32, quad: Quad) -> f32 {
    let r = abs(quad.r);
    let fluid = counts(quad.s) > vec4<f32>(0.0);
    var m = m0;
    for (var k = 0; k < 4; k++) {
        if fluid[k] { m = max_nf(m, r[k]); }
    }
    return m;
}

// `reduce_mg` where the V-cycle or the polish before it left level 0's x in a texture, with its
// rhs and stencil (src/sim/multigrid.rs `level0_tex`): lavapipe gathers texels a pass where it
// reads storage lane by lane.
@compute @workgroup_size(WG)
fn reduce_mg_tex(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if gate_closed(lid.x) { return; }
    finish_partial(lid.x, wid.x, level0_max_tex(wid.x * WG + lid.x, GROUPS * WG));
}

// `reduce_mg` and `gate` in one dispatch of one workgroup (GROUPS = 1, GATE_WG = WG), dispatched
// as the gate is (src/sim/solver_check.rs `Check::encode_gate`), where a CPU adapter's
// reduction takes few workgroups: on lavapipe a dispatch's wake-up and wait cost more than
// the second core's half of the reduction (BENCHMARKS.md, "Where the time goes: lavapipe").
@compute @workgroup_size(WG)
fn check_mg(@builtin(local_invocation_id) lid: vec3<u32>) {
    var r = 0.0;
    if !gate_closed(lid.x) {
        finish_partial(lid.x, 0u, level0_max(lid.x, WG));
        r = red_max[0];
    }
    decide(lid.x, r);
}
