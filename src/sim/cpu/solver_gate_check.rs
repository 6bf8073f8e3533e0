//! CPU reference of a gate's decision (shaders/solver_gate_check.wgsl `decide`, `stalled`,
//! `verdict`, and solver_gate.wgsl `put_args`): given the control words and the residual's
//! maximum, the words and the gated dispatches' arguments the gate leaves.

use crate::sim::solver_check::ctl;

/// The gate's pipeline constants (src/sim/solver_check.rs `polish_constants`).
#[derive(Clone, Copy, Debug)]
pub struct Polish {
    pub reach: f32,
    pub short: f32,
}

fn finite(x: f32) -> bool {
    x.is_finite()
}

fn f(words: &[u32], k: usize) -> f32 {
    f32::from_bits(words[k])
}

/// `stalled`: whether the solve has reached float32's floor; moves the floor's reference.
pub fn stalled(words: &mut [u32], ratio: f32) -> bool {
    let window = words[ctl::FLOOR + 1];
    if window == 0 || !finite(ratio) {
        return false;
    }
    let run = words[ctl::RUN];
    let reference = f(words, ctl::FLOOR + 2);
    if reference == 0.0 || ratio * f(words, ctl::FLOOR) < reference {
        words[ctl::FLOOR + 2] = ratio.to_bits();
        words[ctl::FLOOR_RUN] = run;
        return false;
    }
    run - words[ctl::FLOOR_RUN] >= window
}

/// `verdict`: the step's worst ratio and how its solves stopped.
pub fn verdict(words: &mut [u32]) {
    let r = f(words, ctl::RATIO);
    let worst = f(words, ctl::VERDICT);
    // a non-finite worst stays
    if finite(worst) && (!finite(r) || r > worst) {
        words[ctl::VERDICT] = words[ctl::RATIO];
    }
    let done = words[ctl::DONE];
    if done == 1 {
        return;
    }
    let code = if done == 2 { 1 } else { 2 };
    let was = words[ctl::VERDICT + 1];
    if code > was {
        words[ctl::VERDICT + 1] = code;
        if was == 0 {
            words[ctl::VERDICT + 2] += 1;
        }
        if code == 1 {
            words[ctl::VERDICT + 3] += 1;
        } else if was == 1 {
            words[ctl::VERDICT + 3] -= 1;
        }
    }
}

/// Twin of `record`: a check's units run and ratio appended to the residual history.
pub fn record(words: &mut [u32], run: u32, ratio: f32) {
    let n = words[ctl::HISTORY] as usize;
    if n >= ctl::HISTORY_LEN {
        return;
    }
    words[ctl::HISTORY + 1 + 2 * n] = run;
    words[ctl::HISTORY + 2 + 2 * n] = ratio.to_bits();
    words[ctl::HISTORY] = n as u32 + 1;
}

/// `decide` after a check whose residual's maximum is `r`: updates `words`, and returns the
/// gated dispatches' arguments (`ctl::ARG_SLOTS` x 3 words, `put_args`) and the next gate's
/// own first argument.
pub fn decide(words: &mut [u32], r: f32, polish: Polish) -> (Vec<u32>, u32) {
    let last = words[ctl::TAIL + 1] == 0;
    let mut done = words[ctl::DONE];
    if done == 0 {
        words[ctl::RUN] += words[ctl::PENDING];
        let rhs = f(words, ctl::RHS_MAX);
        let ratio = r / rhs;
        words[ctl::RATIO] = ratio.to_bits();
        record(words, words[ctl::RUN], ratio);
        if finite(r) && finite(rhs) && ratio <= f(words, ctl::TOLERANCE) {
            done = 1;
        } else if stalled(words, ratio) {
            done = 2;
        }
    }
    let k = words[ctl::TAIL];
    let fine = words[ctl::TAIL + 2];
    let polish_at = words[ctl::POLISH_AT];
    let ratio = f(words, ctl::RATIO);
    let tolerance = f(words, ctl::TOLERANCE);
    let reach = ratio <= polish.reach * tolerance;
    let more = ratio > polish.short * tolerance;
    let skip = k == polish_at && !reach;
    let polish_now = match (k == polish_at, skip, more) {
        (false, ..) => 0,
        (true, true, _) => 2,
        (true, false, true) => 3,
        (true, false, false) => 1,
    };
    let mut block = 0;
    if k != polish_at || skip {
        let kk = if k > polish_at { k - 1 } else { k };
        block = 1;
        if kk >= fine {
            block = (1u32 << (kk - fine + 1).min(6)).min(ctl::MAX_BLOCK);
        }
        block = block.min(words[ctl::TAIL + 1]);
    }
    words[ctl::PENDING] = block;
    words[ctl::TAIL] = k + if skip { 2 } else { 1 };
    words[ctl::TAIL + 1] -= block;
    words[ctl::DONE] = done;
    if last || done != 0 {
        verdict(words);
    }
    let args = (0..3 * ctl::ARG_SLOTS)
        .map(|k| {
            let slot = k / 3;
            let shut = done != 0
                || (slot >= ctl::POLISH_SLOT && polish_now != 1 && polish_now != 3)
                || (slot == ctl::POLISH_MORE_SLOT && polish_now != 3);
            if shut { 0 } else { words[ctl::FULL_ARGS + k] }
        })
        .collect();
    (args, u32::from(done == 0 && polish_now != 2))
}
