// The first stage of the solver checks' max-reductions (composed before solver_check.wgsl and
// solver_check_mg.wgsl, which declare mg_control): each workgroup leaves the max of its cells
// at PARTIALS + its index, for the gates (solver_check.wgsl `partial_max`).

// Workgroups of a reduction (src/sim/kernel/profile.rs `reduction_groups`): on a CPU adapter one a thread
// (more on large grids, at most 64), on a GPU 64 to 1024.
override GROUPS: u32 = 64u;
// Invocations of a reduction workgroup (src/sim/kernel/profile.rs `DeviceProfile::solver_workgroup`: 8 on a CPU
// adapter, where each invocation is a coroutine every barrier suspends); at most 256.
override WG: u32 = 256u;
const PARTIALS: u32 = 8u;

var<workgroup> red_max: array<f32, WG>;
var<workgroup> closed: u32;

// Whether the gate is closed already: a check after it has nothing to measure (uniform over the
// workgroup, so the reduction's barriers stay in uniform control flow).
fn gate_closed(lid: u32) -> bool {
    if lid == 0u { closed = mg_control[2]; }
    return workgroupUniformLoad(&closed) != 0u;
}

fn finish_partial(lid: u32, wid: u32, m: f32) {
    red_max[lid] = m;
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red_max[lid] = max_nf(red_max[lid], red_max[lid + s]); }
    }
    workgroupBarrier();
    if lid == 0u { mg_control[PARTIALS + wid] = bitcast<u32>(red_max[0]); }
}
