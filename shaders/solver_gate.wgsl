// The opening of a gated solve (src/sim/solver.rs): solver_check.wgsl `gate_start`, or the warm
// start's scaling, which opens it on its way (warm_start_mix.wgsl `open_gate`: one dispatch less
// a step). The composing shader declares `mg_control` (binding 22; its layout is in
// solver_check.wgsl, which also rewrites the arguments at every `gate`).

// The gated dispatches' arguments, 3 words a slot (src/sim/solver_check.rs `args_buffer`).
@group(0) @binding(0) var<storage, read_write> mg_args: array<u32>;
// The next gate's own arguments (src/sim/solver_check.rs `Check`): a closed gate stops the gates
// after it too, as nothing is left for them to do once the solve is done.
@group(0) @binding(1) var<storage, read_write> gate_args: array<u32>;

const ARG_SLOTS: u32 = 37u;
const FULL_ARGS: u32 = 1032u;
// The polish's first argument slot (src/sim/solver_check.rs `ctl::POLISH_SLOT`); its check's
// (`POLISH_CHECK_SLOT`) is the next, its second half's (`POLISH_MORE_SLOT`) the last.
const POLISH_SLOT: u32 = 34u;
const POLISH_MORE_SLOT: u32 = 36u;
// The floor's words (src/sim/solver_check.rs `ctl::FLOOR`; solver_gate_check.wgsl `stalled`):
// the fall factor, the window in units, the reference ratio.
const FLOOR: u32 = 1151u;
// The residual history (src/sim/solver_check.rs `ctl::HISTORY`; solver_gate_check.wgsl
// `record`): its length, then (units run, ratio) pairs, at most HISTORY_LEN.
const HISTORY: u32 = 1154u;
const HISTORY_LEN: u32 = 256u;

// A solve's words at its start, from its right-hand side's scale b (one invocation): nothing run,
// no floor reference yet, and a zero right-hand side already solved. Returns whether it is.
fn open_words(b: f32) -> u32 {
    mg_control[1] = bitcast<u32>(b);
    let done = select(0u, 1u, b == 0.0);
    mg_control[2] = done;
    mg_control[3] = bitcast<u32>(0.0);
    mg_control[4] = 0u;
    mg_control[7] = 0u;
    mg_control[FLOOR + 2u] = bitcast<u32>(0.0);
    mg_control[HISTORY] = 0u;
    return done;
}

// Invocation `lid` of `n`'s share of the arguments: the full counts, or zeros once `done`; the
// polish's slots open only where `polish` is 1 or 3, its second half only where it is 3; the
// next gate's own open unless `done` or `polish` is 2 (its check skipped with it).
fn put_args(lid: u32, n: u32, done: u32, polish: u32) {
    for (var k = lid; k < 3u * ARG_SLOTS; k += n) {
        let slot = k / 3u;
        let shut = done != 0u || (slot >= POLISH_SLOT && polish != 1u && polish != 3u) || (slot == POLISH_MORE_SLOT && polish != 3u);
        mg_args[k] = select(mg_control[FULL_ARGS + k], 0u, shut);
    }
    for (var k = lid; k < 3u; k += n) {
        gate_args[k] = select(1u, 0u, done != 0u || polish == 2u);
    }
}
