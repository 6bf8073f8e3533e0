// The gates of the pressure solvers' checks (composed after solver_reduce.wgsl and
// solver_gate.wgsl, before solver_check.wgsl and solver_check_mg.wgsl, which declare
// mg_control): the fold of a reduction's partial maxima, the decision whether a solve is done,
// the rewrite of the gated dispatches' arguments and the step's verdict. Layout of mg_control:
// solver_check.wgsl.

// Workgroups of a reduction's first stage are GROUPS (shaders/solver_reduce.wgsl); the words after
// PARTIALS hold MAX_GROUPS of their maxima.
const MAX_GROUPS: u32 = 1024u;
// Invocations of a gate (its fold of the partial maxima and its rewrite of the arguments), a power
// of two from 8 to 64 (src/sim/solver_check.rs `Check::new`): 8 on a CPU adapter, where each
// invocation is a coroutine that every barrier suspends.
override GATE_WG: u32 = 64u;
const VERDICT: u32 = 1143u;
const TAIL: u32 = 1147u;
const POLISH_AT: u32 = 1150u;
// How far above the target the residual after the first V-cycle may be for the polish to run
// (src/sim/solver.rs `polishes`), and above which it runs its second half too (twice the sweeps):
// pipeline constants (src/sim/solver_check.rs `polish_constants`). With the plain kernels (a CPU
// adapter) two sweeps took plume's residual at 128² down about 2.2x and four about 5x; 256²'s
// first V-cycle leaves 3-15x. The tiles' polish is four sweeps already: there no second half.
override POLISH_REACH: f32 = 3.0;
override POLISH_SHORT: f32 = 3.0;
const MAX_BLOCK: u32 = 64u;

var<workgroup> done_now: u32;
// At the check before the polish: 1 where the polish runs, 3 where its second half runs too, 2
// where it and its check are skipped.
var<workgroup> polish_now: u32;

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

// The gate's decision from the residual's maximum r (uniform over the workgroup).
fn decide(lid: u32, r: f32) {
    if lid == 0u {
        let last = mg_control[TAIL + 1u] == 0u;
        var done = mg_control[2];
        if done == 0u {
            mg_control[4] += mg_control[6];
            let rhs = bitcast<f32>(mg_control[1]);
            let ratio = r / rhs;
            mg_control[3] = bitcast<u32>(ratio);
            record(mg_control[4], ratio);
            // a non-finite state never counts as solved
            if finite(r) && finite(rhs) && ratio <= bitcast<f32>(mg_control[0]) {
                done = 1u;
            } else if stalled(ratio) {
                done = 2u;
            }
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
        let more = bitcast<f32>(mg_control[3]) > POLISH_SHORT * bitcast<f32>(mg_control[0]);
        let skip = k == polish && !reach;
        polish_now = select(0u, select(select(1u, 3u, more), 2u, skip), k == polish);
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
    write_args(lid);
}

// Appends a check's units run and ratio to the solve's residual history (the convergence plot,
// read back with the solve's feedback: src/sim/solver.rs `ResidualHistory`).
fn record(run: u32, ratio: f32) {
    let n = mg_control[HISTORY];
    if n >= HISTORY_LEN { return; }
    mg_control[HISTORY + 1u + 2u * n] = run;
    mg_control[HISTORY + 2u + 2u * n] = bitcast<u32>(ratio);
    mg_control[HISTORY] = n + 1u;
}

// Whether a solve has reached float32's floor (src/sim/solve_plan.rs `floor_window`): its
// residual has not fallen FLOOR-fold (word FLOOR) within the window's units (FLOOR + 1) since the
// check that last saw it do so (its ratio at FLOOR + 2, its units at word 7). A window of 0
// never stalls. Below the floor the round-off of the residual's differences at |p| is all that
// is left, and more units only move it about.
fn stalled(ratio: f32) -> bool {
    let window = mg_control[FLOOR + 1u];
    if window == 0u || !finite(ratio) { return false; }
    let run = mg_control[4];
    let reference = bitcast<f32>(mg_control[FLOOR + 2u]);
    // the solve's first check (0: none yet, solver_gate.wgsl `open_words`), or a fall: a new reference
    if reference == 0.0 || ratio * bitcast<f32>(mg_control[FLOOR]) < reference {
        mg_control[FLOOR + 2u] = bitcast<u32>(ratio);
        mg_control[7] = run;
        return false;
    }
    return run - mg_control[7] >= window;
}

// After a solve (the gate that closes it, or its last): the step's worst ratio, and the step
// counted once as failed when a solve of it stopped above the tolerance, with how it stopped:
// 1 at the floor, 2 at its cap (the cap's word stands: more units would have helped), and
// counted among the floor's steps while the floor is all it hit (src/sim/solver.rs
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
    let done = mg_control[2];
    if done == 1u { return; }
    let code = select(2u, 1u, done == 2u);
    let was = mg_control[VERDICT + 1u];
    if code > was {
        mg_control[VERDICT + 1u] = code;
        if was == 0u { mg_control[VERDICT + 2u] += 1u; }
        if code == 1u {
            mg_control[VERDICT + 3u] += 1u;
        } else if was == 1u {
            mg_control[VERDICT + 3u] -= 1u;
        }
    }
}
