// Tolerance control of the pressure solvers (src/sim/solver.rs): a two-stage reduction measures
// max |residual| (in rhs units, so max |residual| / max |rhs| equals max |div after projection| /
// max |div before|). `gate` decides whether the solve is done and rewrites the indirect dispatch
// arguments (`mg_args`) of the gated sweeps, cycles and residual reductions that follow: the real
// workgroup counts while not converged, zero after.
// mg_control layout (words; keep in sync with src/sim/solver.rs `ctl`):
//   0 tolerance (f32)   1 max |rhs| (f32)   2 done   3 last ratio (f32)   4 units run
//   5 units per check   6 units the next gate counts   7 unused
//   8..1032 partial maxima (GROUPS of them used)   1032.. full args (3 words per slot)
//   VERDICT.. the step's worst ratio (f32), whether a solve of it failed, failed steps so far
//   TAIL..    checks of the gated tail done, gated units not yet counted, single-unit checks,
//             the check after which the multigrid's polish runs (src/sim/solver.rs `polish_at`)

// Bindings (numbers: `slot` in src/sim/kernel.rs).
@group(0) @binding(3) var<storage, read> p: array<f32>;
@group(0) @binding(4) var<storage, read> divergence: array<f32>;
@group(0) @binding(7) var<storage, read> solid: array<f32>;
@group(0) @binding(17) var<storage, read> stencil: array<u32>;
@group(0) @binding(18) var<storage, read> level: Level;
@group(0) @binding(19) var<storage, read> mg_x: array<f32>;
@group(0) @binding(20) var<storage, read> mg_rhs: array<f32>;
@group(0) @binding(22) var<storage, read_write> mg_control: array<u32>;
@group(0) @binding(23) var<storage, read> mg_stencil: array<u32>;
// solver_gate.wgsl declares the arguments the gates write (mg_args, gate_args).

// Workgroups of a reduction's first stage are GROUPS (shaders/solver_reduce.wgsl); the words after
// PARTIALS hold MAX_GROUPS of their maxima.
const MAX_GROUPS: u32 = 1024u;
// Invocations of a gate (its fold of the partial maxima and its rewrite of the arguments), a power
// of two from 8 to 64 (src/sim/solver_check.rs `Check::new`): 8 on a CPU adapter, where each
// invocation is a coroutine that every barrier suspends.
override GATE_WG: u32 = 64u;
const VERDICT: u32 = 1140u;
const TAIL: u32 = 1143u;
const POLISH_AT: u32 = 1146u;
// How far above the target the residual after the first V-cycle may be for the polish to run
// (src/sim/solver.rs `polishes`): two sweeps finished most steps within 1.5-3x of it in plume at
// 128², and none of 256²'s, whose first V-cycle leaves 3-15x.
const POLISH_REACH: f32 = 3.0;
const MAX_BLOCK: u32 = 64u;

var<workgroup> done_now: u32;
// At the check before the polish: 1 where the polish runs, 2 where it and its check are skipped.
var<workgroup> polish_now: u32;

// max |rho h^2 div / dt|: the right-hand side's scale.
@compute @workgroup_size(WG)
fn reduce_rhs(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = cell_count();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        if !(solid[c] > 0.5) { m = max_nf(m, abs(divergence[c])); }
    }
    finish_partial(lid.x, wid.x, m * params.rho * params.h * params.h / params.dt);
}

// max |residual| of multigrid level 0 (x = p, rhs from `load`), computed on the fly.
@compute @workgroup_size(WG)
fn reduce_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if gate_closed(lid.x) { return; }
    let n = level.nx * level.ny;
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        let s = mg_stencil[c];
        if stencil_count(s) > 0.0 { m = max_nf(m, abs(local_residual(i32(c % level.nx), i32(c / level.nx), s))); }
    }
    finish_partial(lid.x, wid.x, m);
}

// max |residual| of the pressure in p (Jacobi), with the packed stencil of pressure.wgsl, in the
// difference form of multigrid_common `local_residual`: count p - sum rounds at |p|, which sits far
// above the residual once p is large against h^2 rhs (src/sim/cpu/solver_check.rs is its twin).
@compute @workgroup_size(WG)
fn reduce_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if gate_closed(lid.x) { return; }
    let n = cell_count();
    let w = nx();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        let s = stencil[c];
        let count = f32(s >> 4u);
        if count == 0.0 { continue; }
        let i = i32(c % u32(nx()));
        let j = i32(c / u32(nx()));
        let row = j * w;
        let pc = p[c];
        var d = 0.0;
        var fluid = 0.0;
        if (s & STENCIL_LEFT) != 0u { d += p[u32(row + select(i - 1, w - 1, i == 0))] - pc; fluid += 1.0; }
        if (s & STENCIL_RIGHT) != 0u { d += p[u32(row + select(i + 1, 0, i == w - 1))] - pc; fluid += 1.0; }
        if (s & STENCIL_BOTTOM) != 0u { d += p[u32(select(j - 1, ny() - 1, j == 0) * w + i)] - pc; fluid += 1.0; }
        if (s & STENCIL_TOP) != 0u { d += p[u32(select(j + 1, 0, j == ny() - 1) * w + i)] - pc; fluid += 1.0; }
        let b = -params.rho * params.h * params.h * divergence[c] / params.dt;
        m = max_nf(m, abs(b + (d - (count - fluid) * pc)));
    }
    finish_partial(lid.x, wid.x, m);
}

fn partial_max(lid: u32) -> f32 {
    var m = 0.0;
    for (var g = lid; g < GROUPS; g += GATE_WG) { m = max_nf(m, bitcast<f32>(mg_control[PARTIALS + g])); }
    red_max[lid] = m;
    for (var s = GATE_WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red_max[lid] = max_nf(red_max[lid], red_max[lid + s]); }
    }
    workgroupBarrier();
    return red_max[0];
}

fn write_args(lid: u32) {
    workgroupBarrier();
    put_args(lid, GATE_WG, done_now, polish_now);
}

// Start of a gated solve: the rhs scale from reduce_rhs (solver_gate.wgsl `open_words`). The first
// gate counts the sweeps run before it (word 6, set by the CPU).
@compute @workgroup_size(GATE_WG)
fn gate_start(@builtin(local_invocation_id) lid: vec3<u32>) {
    let b = partial_max(lid.x);
    if lid.x == 0u {
        done_now = open_words(b);
        polish_now = 0u;
    }
    write_args(lid.x);
}

// After a run of sweeps or cycles: counts them if they ran, then stops the rest once the residual
// is in. The gate that closes, or the solve's last (no gated units left to count), also gives the
// step its verdict: the gates after a closed one do not run.
@compute @workgroup_size(GATE_WG)
fn gate(@builtin(local_invocation_id) lid: vec3<u32>) {
    let r = partial_max(lid.x);
    if lid.x == 0u {
        let last = mg_control[TAIL + 1u] == 0u;
        var done = mg_control[2];
        if done == 0u {
            mg_control[4] += mg_control[6];
            let rhs = bitcast<f32>(mg_control[1]);
            let ratio = r / rhs;
            mg_control[3] = bitcast<u32>(ratio);
            // a non-finite state never counts as solved
            if finite(r) && finite(rhs) && ratio <= bitcast<f32>(mg_control[0]) { done = 1u; }
        }
        // the gated units before the next check (src/sim/solver_check.rs `tail_block`): single
        // ones for the first `fine` checks, then doubling blocks, never past the tail's end; the
        // polish's block (after check POLISH_AT) counts none, and the blocks after it go on as if
        // it were not there
        let k = mg_control[TAIL];
        let fine = mg_control[TAIL + 2u];
        let polish = mg_control[POLISH_AT];
        // the polish's block opens where the first V-cycle came within reach of the target; else
        // it and its check are skipped, and this gate schedules the block the skipped one would
        let reach = bitcast<f32>(mg_control[3]) <= POLISH_REACH * bitcast<f32>(mg_control[0]);
        let skip = k == polish && !reach;
        polish_now = select(0u, select(1u, 2u, skip), k == polish);
        var block = 0u;
        if k != polish || skip {
            let kk = select(k, k - 1u, k > polish);
            block = 1u;
            if kk >= fine { block = min(1u << min(kk - fine + 1u, 6u), MAX_BLOCK); }
            block = min(block, mg_control[TAIL + 1u]);
        }
        mg_control[6] = block;
        mg_control[TAIL] = k + select(1u, 2u, skip);
        mg_control[TAIL + 1u] -= block;
        mg_control[2] = done;
        done_now = done;
        // (done already: only a gate dispatched directly, where `verdict` changes nothing more)
        if last || done != 0u { verdict(); }
    }
    write_args(lid.x);
}

// After a solve (the gate that closes it, or its last): the step's worst ratio, and the step
// counted once as failed when a solve of it stopped above the tolerance (src/sim/solver.rs
// `begin_step` clears the first two words).
fn verdict() {
    let r = bitcast<f32>(mg_control[3]);
    let worst = bitcast<f32>(mg_control[VERDICT]);
    if !finite(worst) {
        // stays non-finite
    } else if !finite(r) {
        mg_control[VERDICT] = mg_control[3];
    } else if r > worst {
        mg_control[VERDICT] = mg_control[3];
    }
    if mg_control[2] == 0u && mg_control[VERDICT + 1u] == 0u {
        mg_control[VERDICT + 1u] = 1u;
        mg_control[VERDICT + 2u] += 1u;
    }
}
