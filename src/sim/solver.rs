//! The pressure solvers beyond Jacobi, and tolerance-driven stopping for all three:
//! red-black SOR (shaders/pressure_sor.wgsl), geometric multigrid V-cycles
//! (shaders/multigrid_*.wgsl, levels in src/sim/multigrid.rs) and the convergence gate
//! (shaders/solver_check.wgsl).
//!
//! Stopping without stalls: with a tolerance, every sweep (or V-cycle) up to the iteration count is
//! recorded up front as an *indirect* dispatch whose workgroup counts live in the control buffer.
//! Every `check_every` sweeps a two-stage GPU reduction measures max |residual| and `gate` rewrites
//! those counts: the real ones while the relative residual is above the tolerance, zeros after.
//! The CPU never waits; converged sweeps cost an empty dispatch each.

use super::kernel::{Kernel, slot};
use super::multigrid::{self, LevelDesc, MAX_LEVELS, POST_SMOOTH, PRE_SMOOTH};
use super::stage::Ctx;
use crate::config::SolverKind;
use crate::error::Result;
use wgpu::util::DeviceExt;

/// Buffer slots of the multigrid levels, from the one binding table (`kernel::slot`).
pub use super::kernel::slot::{LEVEL, MG_CONTROL as CONTROL, MG_RES, MG_RHS, MG_STENCIL, MG_X};

/// Word offsets in the control buffer. Keep in sync with shaders/solver_check.wgsl.
pub mod ctl {
    pub const TOLERANCE: usize = 0;
    pub const RHS_MAX: usize = 1;
    pub const DONE: usize = 2;
    pub const RATIO: usize = 3;
    pub const RUN: usize = 4;
    pub const CHECK_EVERY: usize = 5;
    pub const GROUPS: u32 = 64;
    pub const ARG_SLOTS: usize = 17;
    pub const FULL_ARGS: usize = 72;
    pub const LIVE_ARGS: usize = 123;
    pub const WORDS: usize = LIVE_ARGS + 3 * ARG_SLOTS + 2;
    /// The argument slot of the coarse solve (one workgroup).
    pub const COARSE_SLOT: usize = ARG_SLOTS - 1;
}

/// Sweeps (Jacobi, SOR) or V-cycles (multigrid) between two residual checks. Even, so a gated
/// Jacobi solve always ends with the pressure in `p`.
pub fn check_every(kind: SolverKind) -> u32 {
    match kind {
        SolverKind::Multigrid => 1,
        _ => 10,
    }
}

struct Check {
    reduce_rhs: Kernel,
    reduce_mg: Kernel,
    reduce_p: Kernel,
    gate_start: Kernel,
    gate: Kernel,
    groups: [wgpu::BindGroup; 5],
}

/// Per-level bind groups of one multigrid kernel.
struct PerLevel {
    kernel: Kernel,
    groups: Vec<wgpu::BindGroup>,
}

impl PerLevel {
    fn new(ctx: &Ctx, shader: &str, entry: &str, tables: &[[Option<&wgpu::Buffer>; slot::COUNT]]) -> Result<PerLevel> {
        let kernel = Kernel::new(ctx.device, shader, entry)?;
        let groups = tables.iter().map(|t| kernel.bind(ctx.device, t)).collect();
        Ok(PerLevel { kernel, groups })
    }
}

pub struct Solvers {
    pub levels: Vec<LevelDesc>,
    pub mg_x: wgpu::Buffer,
    pub mg_rhs: wgpu::Buffer,
    pub mg_res: wgpu::Buffer,
    pub mg_stencil: wgpu::Buffer,
    pub control: wgpu::Buffer,
    sor_red: PerLevel,
    sor_black: PerLevel,
    mark: PerLevel,
    pack: PerLevel,
    load: PerLevel,
    smooth_red: PerLevel,
    smooth_black: PerLevel,
    residual: PerLevel,
    restrict: PerLevel,
    prolong: PerLevel,
    coarse: PerLevel,
    check: Check,
}

fn level_buffer(device: &wgpu::Device, label: &str, words: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (words.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Workgroups of an 8 x 8 pass over a level.
fn level_groups(l: &LevelDesc) -> [u32; 3] {
    [l.nx.div_ceil(8), l.ny.div_ceil(8), 1]
}

impl Solvers {
    pub fn new(ctx: &Ctx) -> Result<Solvers> {
        let d = ctx.device;
        let levels = multigrid::levels(ctx.nx, ctx.ny);
        let total = multigrid::total_cells(&levels);
        let mut words = vec![0u32; ctl::WORDS];
        for (k, l) in levels.iter().enumerate() {
            words[ctl::FULL_ARGS + 3 * k..ctl::FULL_ARGS + 3 * k + 3].copy_from_slice(&level_groups(l));
        }
        words[ctl::FULL_ARGS + 3 * ctl::COARSE_SLOT..ctl::FULL_ARGS + 3 * ctl::COARSE_SLOT + 3].copy_from_slice(&[1, 1, 1]);
        let control = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("solver control"),
            contents: bytemuck::cast_slice(&words),
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        });
        let level_descs: Vec<wgpu::Buffer> = levels
            .iter()
            .map(|l| {
                d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("multigrid level"),
                    contents: bytemuck::bytes_of(l),
                    usage: wgpu::BufferUsages::STORAGE,
                })
            })
            .collect();
        let mg_x = level_buffer(d, "mg_x", total);
        let mg_rhs = level_buffer(d, "mg_rhs", total);
        let mg_res = level_buffer(d, "mg_res", total);
        let mg_stencil = level_buffer(d, "mg_stencil", total);
        let tables: Vec<[Option<&wgpu::Buffer>; slot::COUNT]> = level_descs
            .iter()
            .map(|desc| {
                let mut t = ctx.buffers.table();
                t[LEVEL as usize] = Some(desc);
                t[MG_X as usize] = Some(&mg_x);
                t[MG_RHS as usize] = Some(&mg_rhs);
                t[MG_RES as usize] = Some(&mg_res);
                t[CONTROL as usize] = Some(&control);
                t[MG_STENCIL as usize] = Some(&mg_stencil);
                t
            })
            .collect();
        let fine = &tables[..1];
        let last = &tables[tables.len() - 1..];
        let check_kernel = |entry: &str| Kernel::new(d, "solver_check", entry);
        let (reduce_rhs, reduce_mg, reduce_p, gate_start, gate) = (
            check_kernel("reduce_rhs")?,
            check_kernel("reduce_mg")?,
            check_kernel("reduce_p")?,
            check_kernel("gate_start")?,
            check_kernel("gate")?,
        );
        let t0 = &tables[0];
        let groups = [reduce_rhs.bind(d, t0), reduce_mg.bind(d, t0), reduce_p.bind(d, t0), gate_start.bind(d, t0), gate.bind(d, t0)];
        Ok(Solvers {
            sor_red: PerLevel::new(ctx, "pressure_sor", "red", fine)?,
            sor_black: PerLevel::new(ctx, "pressure_sor", "black", fine)?,
            mark: PerLevel::new(ctx, "multigrid_setup", "mark", &tables)?,
            pack: PerLevel::new(ctx, "multigrid_setup", "pack", &tables)?,
            load: PerLevel::new(ctx, "multigrid_setup", "load", fine)?,
            smooth_red: PerLevel::new(ctx, "multigrid_smooth", "red", &tables)?,
            smooth_black: PerLevel::new(ctx, "multigrid_smooth", "black", &tables)?,
            residual: PerLevel::new(ctx, "multigrid_residual", "main", &tables)?,
            restrict: PerLevel::new(ctx, "multigrid_restrict", "main", &tables)?,
            prolong: PerLevel::new(ctx, "multigrid_prolong", "main", &tables)?,
            coarse: PerLevel::new(ctx, "multigrid_coarse", "main", last)?,
            check: Check { reduce_rhs, reduce_mg, reduce_p, gate_start, gate, groups },
            levels,
            mg_x,
            mg_rhs,
            mg_res,
            mg_stencil,
            control,
        })
    }

    /// Writes this step's tolerance and check interval (call before encoding the solve).
    pub fn prepare(&self, queue: &wgpu::Queue, kind: SolverKind, tolerance: f32) {
        queue.write_buffer(&self.control, (ctl::TOLERANCE * 4) as u64, bytemuck::bytes_of(&tolerance));
        queue.write_buffer(&self.control, (ctl::CHECK_EVERY * 4) as u64, bytemuck::bytes_of(&check_every(kind)));
    }

    /// One dispatch of `k` on level `level`: gated ones read their size from the control buffer.
    fn go(&self, pass: &mut wgpu::ComputePass<'_>, k: &PerLevel, level: usize, gated: bool) {
        let group = &k.groups[level.min(k.groups.len() - 1)];
        pass.set_pipeline(&k.kernel.pipeline);
        pass.set_bind_group(0, group, &[]);
        if gated {
            pass.dispatch_workgroups_indirect(&self.control, ((ctl::LIVE_ARGS + 3 * level) * 4) as u64);
        } else {
            let [x, y, z] = level_groups(&self.levels[level]);
            pass.dispatch_workgroups(x, y, z);
        }
    }

    fn check_groups(&self, pass: &mut wgpu::ComputePass<'_>, k: &Kernel, group: usize, groups: u32) {
        k.dispatch_groups(pass, &self.check.groups[group], groups);
    }

    /// Start of a gated solve: measures max |rhs| and opens the gate (the packed stencil must be ready).
    pub fn encode_gate_start(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.check_groups(pass, &self.check.reduce_rhs, 0, ctl::GROUPS);
        self.check_groups(pass, &self.check.gate_start, 3, 1);
    }

    /// A residual check of the pressure in `p` (Jacobi, SOR).
    pub fn encode_check_p(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.check_groups(pass, &self.check.reduce_p, 2, ctl::GROUPS);
        self.check_groups(pass, &self.check.gate, 4, 1);
    }

    /// A residual check of multigrid level 0.
    fn encode_check_mg(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.go(pass, &self.residual, 0, true);
        self.check_groups(pass, &self.check.reduce_mg, 1, ctl::GROUPS);
        self.check_groups(pass, &self.check.gate, 4, 1);
    }

    /// A gated or direct dispatch of a Jacobi-like kernel over the fine grid.
    pub fn dispatch_fine(&self, pass: &mut wgpu::ComputePass<'_>, kernel: &Kernel, group: &wgpu::BindGroup, cells: [u32; 2], gated: bool) {
        pass.set_pipeline(&kernel.pipeline);
        pass.set_bind_group(0, group, &[]);
        if gated {
            pass.dispatch_workgroups_indirect(&self.control, (ctl::LIVE_ARGS * 4) as u64);
        } else {
            pass.dispatch_workgroups(cells[0].div_ceil(8), cells[1].div_ceil(8), 1);
        }
    }

    /// `sweeps` red-black SOR sweeps on `p` (stencil packed), checked every few when gated.
    pub fn encode_sor(&self, pass: &mut wgpu::ComputePass<'_>, sweeps: u32, gated: bool) {
        let every = check_every(SolverKind::Sor);
        for it in 0..sweeps {
            self.go(pass, &self.sor_red, 0, gated);
            self.go(pass, &self.sor_black, 0, gated);
            if gated && (it + 1) % every == 0 {
                self.encode_check_p(pass);
            }
        }
    }

    /// Multigrid set-up: solid masks and stencils of every level, level 0's right-hand side.
    /// Level 0's x must already hold the starting pressure (`encode_copy_in`).
    pub fn encode_mg_setup(&self, pass: &mut wgpu::ComputePass<'_>) {
        for l in 0..self.levels.len() {
            self.go(pass, &self.mark, l, false);
            self.go(pass, &self.pack, l, false);
        }
        self.go(pass, &self.load, 0, false);
    }

    pub fn encode_copy_in(&self, encoder: &mut wgpu::CommandEncoder, p: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(p, 0, &self.mg_x, 0, p.size());
    }

    pub fn encode_copy_out(&self, encoder: &mut wgpu::CommandEncoder, p: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(&self.mg_x, 0, p, 0, p.size());
    }

    /// One red-black Gauss-Seidel sweep on a level.
    pub fn encode_smooth(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, gated: bool) {
        self.go(pass, &self.smooth_red, l, gated);
        self.go(pass, &self.smooth_black, l, gated);
    }

    pub fn encode_residual(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, gated: bool) {
        self.go(pass, &self.residual, l, gated);
    }

    /// Restriction of level `l`'s residual onto level `l + 1`.
    pub fn encode_restrict(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, gated: bool) {
        self.go(pass, &self.restrict, l + 1, gated);
    }

    /// Prolongation of level `l + 1`'s correction onto level `l`.
    pub fn encode_prolong(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, gated: bool) {
        self.go(pass, &self.prolong, l, gated);
    }

    /// The coarse solve on the coarsest level.
    pub fn encode_coarse(&self, pass: &mut wgpu::ComputePass<'_>, gated: bool) {
        pass.set_pipeline(&self.coarse.kernel.pipeline);
        pass.set_bind_group(0, &self.coarse.groups[0], &[]);
        if gated {
            pass.dispatch_workgroups_indirect(&self.control, ((ctl::LIVE_ARGS + 3 * ctl::COARSE_SLOT) * 4) as u64);
        } else {
            pass.dispatch_workgroups(1, 1, 1);
        }
    }

    /// One V-cycle from level `l` down.
    pub fn encode_vcycle(&self, pass: &mut wgpu::ComputePass<'_>, l: usize, gated: bool) {
        if l + 1 == self.levels.len() {
            self.encode_coarse(pass, gated);
            return;
        }
        for _ in 0..PRE_SMOOTH {
            self.encode_smooth(pass, l, gated);
        }
        self.encode_residual(pass, l, gated);
        self.encode_restrict(pass, l, gated);
        self.encode_vcycle(pass, l + 1, gated);
        self.encode_prolong(pass, l, gated);
        for _ in 0..POST_SMOOTH {
            self.encode_smooth(pass, l, gated);
        }
    }

    /// `cycles` V-cycles on level 0, checked after each when gated.
    pub fn encode_vcycles(&self, pass: &mut wgpu::ComputePass<'_>, cycles: u32, gated: bool) {
        for _ in 0..cycles {
            self.encode_vcycle(pass, 0, gated);
            if gated {
                self.encode_check_mg(pass);
            }
        }
    }
}

/// What a gated solve reached: the last relative residual and the sweeps or cycles it ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SolveReport {
    pub ratio: f32,
    pub iterations: u32,
    pub converged: bool,
}

impl SolveReport {
    /// Decodes the control buffer's words (read back by tests and the benchmark).
    pub fn from_words(words: &[f32]) -> SolveReport {
        let w = |k: usize| words[k].to_bits();
        SolveReport { ratio: words[ctl::RATIO], iterations: w(ctl::RUN), converged: w(ctl::DONE) != 0 }
    }
}

const _: () = assert!(MAX_LEVELS < ctl::ARG_SLOTS);
