//! The warm start of the pressure solve (shaders/warm_start.wgsl): the last step's pressure scaled
//! by the factor that makes it the best start along its own direction, between a cold start (0)
//! and the plain warm start (1). Two dispatches, only when warm starting. CPU twin:
//! src/sim/cpu/warm_start.rs.
//!
//! Why not the pressure as it is: a solve stopped short leaves divergence in the velocity, and the
//! next step sees it again. Started from the full last pressure, a solver whose error changes sign
//! from sweep to sweep (SOR with ω near 2, Jacobi with weight 1 and an odd sweep count) applies it
//! twice, and the errors of successive steps grow together: in a 32² box at rest, SOR with ω = 1.98
//! and 22 sweeps reached 10¹⁹ in 100 steps (the seed-7 soak's NaN at step 30 249).

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
    scale: Kernel,
    groups: [wgpu::BindGroup; 3],
    scale_groups: u32,
    /// Workgroups of the measuring dispatch (`kernel::reduction_groups`): one partial sum each, in
    /// the blocks of `partials` after the statistics' (the shader's GROUPS and `base`).
    sum_groups: u32,
}

impl WarmStart {
    /// `table` is multigrid level 0's binding table (the level descriptor in place).
    pub fn new(target: Target, table: &super::kernel::Table, cells: usize) -> Result<WarmStart> {
        let device = target.device;
        let (wg, sum_groups) = (solver_workgroup(device), reduction_groups(target));
        let constants = [("WG", wg), ("GROUPS", sum_groups as f64), ("FOLD", fold_invocations(sum_groups) as f64)];
        let k = |entry: &str| {
            let constants = if entry == "scale" { &constants[..] } else { &constants[..2] };
            Kernel::with_options(target, "warm_start", entry, constants, false)
        };
        let (measure_p, measure_mg, scale) = (k("measure_p")?, k("measure_mg")?, k("scale")?);
        let groups = [measure_p.bind(device, table), measure_mg.bind(device, table), scale.bind(device, table)];
        let cpu = device.adapter_info().device_type == wgpu::DeviceType::Cpu;
        let scale_groups = (cells as u32).div_ceil(wg as u32).clamp(1, MAX_SCALE_GROUPS[cpu as usize]);
        Ok(WarmStart { measure_p, measure_mg, scale, groups, scale_groups, sum_groups })
    }

    /// Scales p by the best factor for the system the solver `measure` uses (stencil set up and
    /// the divergence of this step in place).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>, measure: Measure) {
        match measure {
            Measure::Jacobi => self.measure_p.dispatch_groups(pass, &self.groups[0], self.sum_groups),
            Measure::Level0 => self.measure_mg.dispatch_groups(pass, &self.groups[1], self.sum_groups),
        }
        self.scale.dispatch_groups(pass, &self.groups[2], self.scale_groups);
    }
}
