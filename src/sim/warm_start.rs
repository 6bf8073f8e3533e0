//! The warm start of the pressure solve (shaders/warm_start.wgsl): the start a p1 + c d within
//! the span of the last step's pressure p1 and its change d = p1 - p0 since the step before
//! (`Buffers::p_prev`), with the a and c that minimise the energy-norm error for this step's
//! system, for a solve to a tolerance. A pressure that changes smoothly in time is so extrapolated along its change: in `plume`
//! at 128² the start's residual falls about tenfold, and a solve to 1e-4 needs one V-cycle in most
//! steps instead of two (BENCHMARKS.md, issue 22 item 5). Where p1 and d are nearly parallel it is
//! p1 scaled by the best factor in [0, 1] alone, and so is a solve of a fixed count always: there
//! the start decides what is left behind (the teaching scene's 40 Jacobi sweeps, the equal-work
//! races of issue 22), and that stays as it was. Two dispatches, only when warm starting. CPU
//! twin: src/sim/cpu/warm_start.rs.
//!
//! Why not the pressure as it is: a solve stopped short leaves divergence in the velocity, and the
//! next step sees it again. Started from the full last pressure, a solver whose error changes sign
//! from sweep to sweep (SOR with ω near 2, Jacobi with weight 1 and an odd sweep count) applies it
//! twice, and the errors of successive steps grow together: in a 32² box at rest, SOR with ω = 1.98
//! and 22 sweeps reached 10¹⁹ in 100 steps (the seed-7 soak's NaN at step 30 249). The best start
//! in a span that holds p1 is never worse in the energy norm than the best multiple of p1, nor than
//! zero, so the bound the scaling gave still holds.

use super::kernel::{Kernel, Target, fold_invocations, reduction_groups, solver_workgroup};
use super::solver_check::Measure;
use crate::error::Result;

/// Most workgroups of the scaling dispatch: each folds the partials once, then loops over cells.
/// A GPU wants a thousand or so in flight; on a CPU adapter each costs a coroutine start, so a few
/// per core do (128² on lavapipe: 2.4 ms with 1024 of 8 invocations, 0.4 ms with 64).
const MAX_SCALE_GROUPS: [u32; 2] = [1024, 64];

pub struct WarmStart {
    measure_p: Kernel,
    measure_mg: Kernel,
    /// The scaling: β p1 alone (a fixed count), or the pair's start (a solve to a tolerance).
    scale: [Kernel; 2],
    groups: [wgpu::BindGroup; 4],
    scale_groups: u32,
    /// Workgroups of the measuring dispatch (`kernel::reduction_groups`): one partial sum each, in
    /// the blocks of `partials` after the statistics' (the shader's GROUPS and `base`).
    sum_groups: u32,
}

impl WarmStart {
    /// `table` is multigrid level 0's binding table (the level descriptor in place). `quads`:
    /// level 0's rows are whole quads, and the warm start takes four cells a thread
    /// (shaders/warm_start_quad.wgsl).
    pub fn new(target: Target, table: &super::kernel::Table, cells: usize, quads: bool) -> Result<WarmStart> {
        let device = target.device;
        let (wg, sum_groups) = (solver_workgroup(device), reduction_groups(target));
        let constants = [("WG", wg), ("GROUPS", sum_groups as f64), ("FOLD", fold_invocations(sum_groups) as f64)];
        let shader = if quads { "warm_start_quad" } else { "warm_start" };
        let k = |entry: &str| Kernel::with_options(target, shader, entry, &constants[..2], false);
        let scale = |pair: bool| {
            let constants = [constants[0], constants[1], constants[2], ("PAIR", pair as u32 as f64)];
            Kernel::with_options(target, shader, "scale", &constants, false)
        };
        let (measure_p, measure_mg, scale) = super::kernel::with_level0_compiled(target, quads, || {
            Ok::<_, crate::error::Error>((k("measure_p")?, k("measure_mg")?, [scale(false)?, scale(true)?]))
        })?;
        let groups =
            [measure_p.bind(device, table), measure_mg.bind(device, table), scale[0].bind(device, table), scale[1].bind(device, table)];
        let cpu = device.adapter_info().device_type == wgpu::DeviceType::Cpu;
        let threads = if quads { cells / 4 } else { cells };
        let scale_groups = (threads as u32).div_ceil(wg as u32).clamp(1, MAX_SCALE_GROUPS[cpu as usize]);
        Ok(WarmStart { measure_p, measure_mg, scale, groups, scale_groups, sum_groups })
    }

    /// Sets p to its start for the system the solver `measure` uses (stencil set up and the
    /// divergence of this step in place): the pair's start when `pair` (a solve to a tolerance),
    /// else β p1; p_prev becomes the last p either way.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>, measure: Measure, pair: bool) {
        match measure {
            Measure::Jacobi => self.measure_p.dispatch_groups(pass, &self.groups[0], self.sum_groups),
            Measure::Level0 => self.measure_mg.dispatch_groups(pass, &self.groups[1], self.sum_groups),
        }
        self.scale[pair as usize].dispatch_groups(pass, &self.groups[2 + pair as usize], self.scale_groups);
    }
}
