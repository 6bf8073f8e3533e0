//! The warm start of the pressure solve (shaders/warm_start.wgsl): for a solve to a tolerance, the
//! start a p1 + c d + e g within the span of the last step's pressure p1, its change d = p1 - p0
//! since the step before (`Buffers::p_prev`) and that change's own change g = d - (p0 - p00)
//! (`Buffers::p_prev2`, two steps before), with the weights that minimise the energy-norm error
//! for this step's system. A pressure that changes smoothly in time is so extrapolated along its
//! change and the change's bend: in `plume` at 128² the pair (p1, d) cut the start's residual about
//! tenfold against p1 alone, and g about twofold more, so that a solve to 1e-4 needs one V-cycle
//! in most steps at 256² too. Where g lies
//! (nearly) in the span of the other two it is dropped; where p1 and d are nearly parallel the
//! start is p1 scaled by the best factor in [0, 1] alone, and so is a solve of a fixed count
//! always: there the start decides what is left behind (the teaching scene's 40 Jacobi sweeps,
//! the equal-work comparisons of BENCHMARKS.md), and that stays as it was, p_prev2 untouched. Two
//! dispatches, only when warm starting. CPU twin: src/sim/cpu/warm_start.rs.
//!
//! Why not the pressure as it is: a solve stopped short leaves divergence in the velocity, and the
//! next step sees it again. Started from the full last pressure, a solver whose error changes sign
//! from sweep to sweep (SOR with ω near 2, Jacobi with weight 1 and an odd sweep count) applies it
//! twice, and the errors of successive steps grow together: in a 32² box at rest, SOR with ω = 1.98
//! and 22 sweeps reached 10¹⁹ in 100 steps (the seed-7 soak's NaN at step 30 249). The best start
//! in a span that holds p1 is never worse in the energy norm than the best multiple of p1, nor than
//! zero, so the bound the scaling gave still holds.

use super::kernel::{Kernel, Target, fold_invocations};
use super::solver_check::Measure;
use crate::error::Result;

/// Most workgroups of the scaling dispatch: each folds the partials once, then loops over cells.
/// A GPU wants a thousand or so in flight; on a CPU adapter (a CPU's small workgroups: software
/// and browser-software) each costs a coroutine start, so a few per core do (128²: 2.4 ms with
/// 1024 of 8 invocations, 0.4 ms with 64 on lavapipe; 1.43 ms with 512 natively on Chromium's
/// SwiftShader).
const MAX_SCALE_GROUPS: [u32; 2] = [1024, 64];

pub struct WarmStart {
    /// The sums with the Jacobi solver's stencil and with level 0's, for a fixed count and for a
    /// solve to a tolerance (which also sums g's products).
    measure_p: [Kernel; 2],
    measure_mg: [Kernel; 2],
    /// The scaling: β p1 alone (a fixed count), or the three's start (a solve to a tolerance).
    scale: [Kernel; 2],
    /// measure_p's, measure_mg's and the scaling's bind groups, each [fixed count, tolerance].
    groups: [[wgpu::BindGroup; 2]; 3],
    /// p += dp after a solve's projection (`Solvers::encode_merge`), with its bind group.
    correct: (Kernel, wgpu::BindGroup),
    scale_groups: u32,
    /// Workgroups of the measuring dispatch (`Target::reduction_groups`): one partial sum each, in
    /// the blocks of `partials` after the statistics' (the shader's GROUPS and `base`).
    sum_groups: u32,
}

impl WarmStart {
    /// `table` is multigrid level 0's binding table (the level descriptor in place). `quads`:
    /// level 0's rows are whole quads, and the warm start takes four cells a thread
    /// (shaders/warm_start.wgsl over shaders/shared/lanes4.wgsl).
    pub fn new(target: Target, table: &super::kernel::Table, cells: usize, quads: bool) -> Result<WarmStart> {
        let device = target.device;
        let (wg, sum_groups) = (target.profile().solver_workgroup as f64, target.reduction_groups());
        let constants = [("WG", wg), ("GROUPS", sum_groups as f64), ("FOLD", fold_invocations(sum_groups) as f64)];
        let shader = if quads { "warm_start_quad" } else { "warm_start" };
        let k = |entry: &str, pair: bool| {
            let constants = [constants[0], constants[1], ("PAIR", pair as u32 as f64)];
            Kernel::with_options(target, shader, entry, &constants, false)
        };
        let scale = |pair: bool| {
            let constants = [constants[0], constants[1], constants[2], ("PAIR", pair as u32 as f64)];
            Kernel::with_options(target, shader, "scale", &constants, false)
        };
        let (measure_p, measure_mg, scale) = super::kernel::with_level0_compiled(target, quads, || {
            let both = |entry: &str| Ok::<_, crate::error::Error>([k(entry, false)?, k(entry, true)?]);
            Ok::<_, crate::error::Error>((both("measure_p")?, both("measure_mg")?, [scale(false)?, scale(true)?]))
        })?;
        let bind = |k: &[Kernel; 2]| [k[0].bind(device, table), k[1].bind(device, table)];
        let groups = [bind(&measure_p), bind(&measure_mg), bind(&scale)];
        let correct =
            super::kernel::with_level0_compiled(target, quads, || Kernel::with_options(target, shader, "correct", &constants[..1], false))?;
        let correct_group = correct.bind(device, table);
        let cpu = target.profile().solver_workgroup < 64;
        let threads = if quads { cells / 4 } else { cells };
        let scale_groups = (threads as u32).div_ceil(wg as u32).clamp(1, MAX_SCALE_GROUPS[cpu as usize]);
        Ok(WarmStart { measure_p, measure_mg, scale, groups, correct: (correct, correct_group), scale_groups, sum_groups })
    }

    /// Sets p to its start for the system the solver `measure` uses (stencil set up and the
    /// divergence of this step in place): the three's start when `pair` (a solve to a tolerance),
    /// else β p1; p_prev becomes the last p either way, and for a solve to a tolerance p_prev2 the
    /// one before.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>, measure: Measure, pair: bool) {
        let k = pair as usize;
        match measure {
            Measure::Jacobi => self.measure_p[k].dispatch_groups(pass, &self.groups[0][k], self.sum_groups),
            Measure::Level0 | Measure::Level0Tex | Measure::Ready => {
                self.measure_mg[k].dispatch_groups(pass, &self.groups[1][k], self.sum_groups)
            }
        }
        self.scale[k].dispatch_groups(pass, &self.groups[2][k], self.scale_groups);
    }

    /// p += dp, dp = 0: the solve's correction added to the pressure, a thread's lanes at a time.
    pub fn encode_correct(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.correct.0.dispatch_groups(pass, &self.correct.1, self.scale_groups);
    }
}
