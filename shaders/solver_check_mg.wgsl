// max |residual| of multigrid level 0 (x = p, rhs from multigrid/plain.wgsl `load`), computed on
// the fly by multigrid/plain.wgsl `cells_at` (or `cells_in`, from the textures: `reduce_mg_tex`),
// over `Lanes`: a cell a thread, or four where level 0's rows are whole quads
// (src/sim/solver_check.rs `Check::new`), the same maximum either way. Why four: lavapipe reads
// storage one lane at a time but every word of a vector in one pass over the lanes, and a cell's
// residual reads 7 words.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs); multigrid/plain.wgsl declares the level's.
@group(0) @binding(0) var<storage, read_write> mg_control: array<u32>;

@compute @workgroup_size(WG)
fn reduce_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if gate_closed(lid.x) { return; }
    finish_partial(lid.x, wid.x, level0_max(wid.x * WG + lid.x, GROUPS * WG));
}

// The largest |residual| of the fluid cells of level 0's units from unit `first` on, every
// `stride`-th.
fn level0_max(first: u32, stride: u32) -> f32 {
    let w = u32(row_units());
    var m = 0.0;
    for (var c = first; c < w * u32(lny()); c += stride) {
        m = unit_max(m, cells_at(i32(c % w), i32(c / w)));
    }
    return m;
}

// `level0_max` from level 0's textures (`cells_in`).
fn level0_max_tex(first: u32, stride: u32) -> f32 {
    let w = u32(row_units());
    var m = 0.0;
    for (var c = first; c < w * u32(lny()); c += stride) {
        m = unit_max(m, cells_in(i32(c % w), i32(c / w)));
    }
    return m;
}

// m and the largest |residual| of the unit's fluid cells, lane by lane.
fn unit_max(m0: f32, c: Cells) -> f32 {
    let r = abs(c.r);
    let count = lanes_count(c.s);
    var m = m0;
    for (var k = 0u; k < LANES; k++) {
        if lane(count, k) > 0.0 { m = max_nf(m, lane(r, k)); }
    }
    return m;
}

// `reduce_mg` where the V-cycle or the polish before it left level 0's x in a texture, with its
// rhs and stencil (src/sim/multigrid/mod.rs `level0_tex`; quads only): lavapipe gathers texels a pass where it
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
