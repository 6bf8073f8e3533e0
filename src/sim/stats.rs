//! Statistics of a step (max |div| before and after the solve, total ink, kinetic energy),
//! reduced on the GPU by shaders/stats.wgsl and read back asynchronously through a ring of
//! staging buffers, so the frame loop never waits for them.

use super::kernel::{Bound, Kernel, fold_invocations};
use super::stage::Ctx;
use crate::error::Result;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The sizes of the reduction buffers are set where the buffers are made.
pub use super::buffers::STATS_LEN;
use super::buffers::{MAX_BODIES, MAX_PROBES, PROBE_FIGURES, STATS_BODIES_AT, STATS_PROBES_AT};

#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct StepStats {
    pub step: u64,
    pub time: f64,
    pub div_max_before: f32,
    pub div_max_after: f32,
    pub ink_total: f32,
    pub kinetic_energy: f32,
    /// max |u|, |v| over all faces after the step (m/s): what the CFL limit reads, a step late.
    pub max_speed: f32,
    /// Sub-steps the step was split into by the CFL limit (1: none).
    pub substeps: u32,
    /// max |density deviation| over the cells after the step (kg/m³): what buoyancy can add to
    /// the speed over the next step, for its sub-steps.
    pub max_density: f32,
    /// max |div| after / max |div| before the solve (0 when there was nothing to solve); NaN when
    /// the state is not finite (JSON null).
    pub residual: f32,
    /// Whether every solve of the step reached `solver.tolerance` (the GPU's check; None: no
    /// tolerance, a fixed count, or not read back).
    pub converged: Option<bool>,
    /// Why the step's solves stopped (`--stats` `stopped`): "tolerance" where every one reached
    /// it, "floor" where one stopped at float32's floor (its residual no longer fell), "cap"
    /// where one ran all its iterations (the cap's word over the floor's); None with
    /// `converged`.
    pub stopped: Option<super::solver_check::Stop>,
    /// V-cycles or sweeps the step's last solve to a tolerance ran (None: no tolerance, or no
    /// solve).
    pub solver_iterations: Option<u32>,
    /// The force [x, y] on each body, N per metre of depth (shaders/body_loads.wgsl; zero past the
    /// bodies there are). Written out by its reader, with the bodies' names and coefficients.
    #[serde(skip)]
    pub bodies: [[f32; 2]; MAX_BODIES],
    /// u, v, p, div, ink at each probe (shaders/probes.wgsl), the same way.
    #[serde(skip)]
    pub probes: [[f32; PROBE_FIGURES]; MAX_PROBES],
}

impl StepStats {
    pub fn from_raw(step: u64, time: f64, raw: &[f32]) -> StepStats {
        StepStats {
            step,
            time,
            div_max_before: raw[0],
            div_max_after: raw[1],
            ink_total: raw[2],
            kinetic_energy: raw[3],
            max_speed: raw[4],
            substeps: 1,
            max_density: raw[5],
            residual: if raw[0] == 0.0 { 0.0 * raw[1] } else { raw[1] / raw[0] },
            converged: None,
            stopped: None,
            solver_iterations: None,
            bodies: std::array::from_fn(|b| std::array::from_fn(|k| raw[STATS_BODIES_AT + 2 * b + k])),
            probes: std::array::from_fn(|n| std::array::from_fn(|k| raw[STATS_PROBES_AT + PROBE_FIGURES * n + k])),
        }
    }
}

struct Slot {
    buffer: wgpu::Buffer,
    /// (step, time, all figures) of the copy in flight, if any.
    pending: Option<(u64, f64, bool)>,
    map_requested: bool,
    mapped: Arc<AtomicBool>,
}

/// A ring of staging buffers for the stats of recent steps.
pub struct StatsReadback {
    slots: Vec<Slot>,
    /// The newest figures collected and not yet taken (the simulation sizes sub-steps by their
    /// speed).
    latest: Option<StepStats>,
}

impl StatsReadback {
    pub fn new(device: &wgpu::Device, depth: usize) -> StatsReadback {
        let slots = (0..depth)
            .map(|_| Slot {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("stats readback"),
                    size: (STATS_LEN * 4) as u64,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                pending: None,
                map_requested: false,
                mapped: Arc::new(AtomicBool::new(false)),
            })
            .collect();
        StatsReadback { slots, latest: None }
    }

    /// Copies the stats buffer, after a step that reduced `figures` into it, into a free slot;
    /// false when every slot is still in flight (then this step's figures are skipped rather
    /// than waited for) or there was nothing reduced.
    pub fn encode_copy(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        stats: &wgpu::Buffer,
        figures: Figures,
        step: u64,
        time: f64,
    ) -> bool {
        if figures == Figures::None {
            return false;
        }
        let Some(slot) = self.slots.iter_mut().find(|s| s.pending.is_none()) else { return false };
        encoder.copy_buffer_to_buffer(stats, 0, &slot.buffer, 0, (STATS_LEN * 4) as u64);
        slot.pending = Some((step, time, figures == Figures::All));
        slot.map_requested = false;
        true
    }

    /// Call after the submission that holds the copies.
    pub fn request_maps(&mut self) {
        for slot in self.slots.iter_mut().filter(|s| s.pending.is_some() && !s.map_requested) {
            let flag = slot.mapped.clone();
            slot.buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                if r.is_ok() {
                    flag.store(true, Ordering::Release);
                }
            });
            slot.map_requested = true;
        }
    }

    /// The full figures (`Figures::All`) that have arrived, oldest first; the newest of any kind
    /// becomes `take_latest`'s. Needs `device.poll` to have run.
    pub fn collect(&mut self) -> Vec<StepStats> {
        let mut out = Vec::new();
        for slot in &mut self.slots {
            if slot.mapped.load(Ordering::Acquire) {
                let (step, time, all) = slot.pending.take().expect("a mapped slot has a step");
                let raw: Vec<f32> = bytemuck::cast_slice(&slot.buffer.slice(..).get_mapped_range().expect("mapped")).to_vec();
                slot.buffer.unmap();
                slot.mapped.store(false, Ordering::Release);
                slot.map_requested = false;
                out.push((StepStats::from_raw(step, time, &raw), all));
            }
        }
        out.sort_by_key(|(s, _)| s.step);
        if let Some((s, _)) = out.last() {
            self.latest = Some(*s);
        }
        out.into_iter().filter_map(|(s, all)| all.then_some(s)).collect()
    }

    /// The newest figures collected since the last call, once.
    pub fn take_latest(&mut self) -> Option<StepStats> {
        self.latest.take()
    }
}

/// Which statistics a step reduces (`Simulation::encode_step`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Figures {
    None,
    /// The speed and density that size the next step's sub-steps (and the kinetic energy): what
    /// a CFL limit needs every step. The copied figures are not reported (`collect`).
    Speeds,
    /// Everything in `StepStats`.
    All,
}

/// The reduction kernels of shaders/stats.wgsl.
pub struct Stats {
    div_before: Bound,
    div_after: Bound,
    totals: Bound,
    /// `totals` without the ink's total (`INK_TOTAL` off).
    speeds: Bound,
    finish: Bound,
    /// Workgroups of the first stage (`kernel::reduction_groups`).
    groups: u32,
}

/// A reduction kernel sized for the device (`WG`, `DeviceProfile::solver_workgroup`): on a CPU
/// adapter every barrier of a 256-wide tree suspends each invocation, which cost about 6 ms a step
/// whatever the grid; one SIMD batch of 8 needs no switching.
/// `GROUPS` of them, whose partials `finish` folds in `FOLD` runs (`fold_invocations`).
fn reduction(ctx: &Ctx, entry: &str) -> Result<Bound> {
    reduction_with(ctx, entry, &[])
}

/// `reduction` with more constants.
fn reduction_with(ctx: &Ctx, entry: &str, more: &[(&str, f64)]) -> Result<Bound> {
    let groups = ctx.target().reduction_groups();
    let constants =
        [("WG", ctx.target().profile().solver_workgroup as f64), ("GROUPS", groups as f64), ("FOLD", fold_invocations(groups) as f64)];
    let constants = [if entry == "finish" { &constants[1..] } else { &constants[..2] }, more].concat();
    let kernel = Kernel::with_options(ctx.target(), "stats", entry, &constants, false)?;
    let group = kernel.bind(ctx.device, &ctx.buffers.table());
    Ok(Bound { kernel, group })
}

impl Stats {
    pub fn new(ctx: &Ctx) -> Result<Stats> {
        Ok(Stats {
            div_before: reduction(ctx, "div_before")?,
            div_after: reduction(ctx, "div_after")?,
            totals: reduction(ctx, "totals")?,
            speeds: reduction_with(ctx, "totals", &[("INK_TOTAL", 0.0)])?,
            finish: reduction(ctx, "finish")?,
            groups: ctx.target().reduction_groups(),
        })
    }

    /// max |div| of the divergence buffer: "before" the solve.
    pub fn encode_div_before(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.div_before.dispatch_groups(pass, self.groups);
    }

    /// max |div| of the current velocity: "after" the correction.
    pub fn encode_div_after(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.div_after.dispatch_groups(pass, self.groups);
    }

    /// Total ink and kinetic energy, then the four figures into the stats buffer.
    pub fn encode_totals(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.totals.dispatch_groups(pass, self.groups);
        self.finish.dispatch_groups(pass, 1);
    }

    /// Kinetic energy, max speed and max |density| alone into the stats buffer (`Figures::Speeds`;
    /// the rest of it keeps the last full figures).
    pub fn encode_speeds(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.speeds.dispatch_groups(pass, self.groups);
        self.finish.dispatch_groups(pass, 1);
    }
}
