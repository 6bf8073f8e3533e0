//! The pressure solve of one step: weighted Jacobi (src/sim/pressure.rs), red-black SOR
//! (src/sim/pressure_sor.rs) or multigrid V-cycles (src/sim/multigrid/), for a fixed count or to
//! a tolerance (src/sim/solver_check.rs).
//!
//! A tolerance costs no more than the work it needs. The solve counts in units (a V-cycle, 8 Jacobi
//! sweeps, 4 SOR sweeps). It runs one unit fewer than the last solve needed (at least
//! `FLOOR_UNITS`) as plain dispatches, then checks the residual on the GPU, then *gated* units
//! (indirect dispatches that a check empties once the tolerance is met): in a running flow the
//! predicted count's last unit and spares (`EXTRA_UNITS`, or the count again), each checked; after
//! a solve with nothing to solve (at rest, a pause) or a load, as many as a solve from zero needs
//! on this grid (`scratch_units`, within the kind's cap), checked after blocks that double
//! (`tail_block`), so the first dab or step reaches the tolerance too. Once the gate closes, the
//! rest cost only their recording and checks that return at once. A solve that still stops above
//! the tolerance raises the prediction at once to the units its rate of convergence says it needs,
//! and is counted (`Verdict`: `--stats` `converged`, the panel, `bench`). A solve whose residual
//! stops falling above the tolerance stops at float32's floor (`solve_plan::floor_window`, the
//! gate's `stalled`) instead of running its cap, and says so (`Stop::Floor`). Gating the predicted
//! count's last unit lets a step that needs one unit fewer stop before it, in the same step, for
//! one check more where it is needed. The counts come back through a small read-back a step later:
//! non-blocking in the app; `run_blocking` waits for each step, so a headless run repeats bit for
//! bit, and a dump saves the count (`meta.json` `solver_units`) so a loaded run continues as the
//! straight one. Until the first read-back (or after a restore, or a change of kind, tolerance or
//! count), every unit is gated.
//!
//! Multigrid finishes a solve that one V-cycle leaves just short of the tolerance with two level-0
//! sweeps before a second V-cycle, where the first came within reach (`polishes`), and on a CPU
//! adapter two more where it was further (`solver_check::polish_constants`).
//!
//! Set-up (stencil packing, multigrid level masks) runs only when solids or boundaries changed.

use super::mgpcg::Mgpcg;
use super::multigrid::Multigrid;
use super::pressure::Jacobi;
use super::pressure_sor;
use super::residual_history::{ResidualHistory, every_unit_checked};
use super::solve_memory::{FeedbackSlot, Memory, SlotState};
pub use super::solve_plan::{
    EXTRA_UNITS, FLOOR_FALL, FLOOR_UNITS, GATE_MARGIN, MAX_COUNT, Plan, SolveSpec, Start, floor_window, scratch_units, unit_sweeps,
};
use super::solver_check::{Check, Launch, Measure, SolveReport, Stop, Verdict, ctl, tail_block};
use super::stage::{Ctx, copy_all, timed_pass};
use super::warm_start::WarmStart;
use crate::config::SolverKind;
use crate::error::Result;
use std::cell::{Cell, RefCell};
use std::sync::{Arc, atomic::AtomicBool, atomic::Ordering};
use wgpu::util::DeviceExt;

/// The recent peak of the units solves needed (`Memory::peak`) keeps this share of itself from one
/// solve read back to the next: a half-life of about 34 solves.
pub const PEAK_DECAY: f32 = 0.98;
/// The units recorded reach this many times the recent peak (`Memory::peak`).
pub const PEAK_REACH: f32 = 1.5;

/// What one solve does before its units (`Solvers::plan_solve`).
struct SolveSteps {
    plan: Plan,
    setup_jacobi: bool,
    setup_mg: bool,
    /// The bottom's elimination chunks to run (`Multigrid::encode_eliminate`).
    eliminate: std::ops::Range<u32>,
}

pub struct Solvers {
    pub mg: Multigrid,
    pub pcg: Mgpcg,
    pub check: Check,
    pub warm: WarmStart,
    pub jacobi: Jacobi,
    pub control: wgpu::Buffer,
    /// The gated dispatches' arguments, which the gates write (`solver_check::args_buffer`).
    pub args: wgpu::Buffer,
    /// u32 k at word k: copied into the control words (a count per step, in stream order).
    counts: wgpu::Buffer,
    feedback: RefCell<Vec<FeedbackSlot>>,
    memory: Cell<Memory>,
    /// Gated solves encoded so far (each one's feedback carries its number).
    gated_solves: Cell<u64>,
    /// The newest feedback taken in: its solve's number, the step's verdict and the solve's report (in units).
    newest: Cell<Option<(u64, Verdict, SolveReport)>>,
    /// Every unit checked and each solve's residual history read back (the convergence plot).
    trace: Cell<bool>,
    /// The newest residual history read back, with its solve's number.
    history: RefCell<Option<(u64, ResidualHistory)>>,
    /// The last solve's correction is in `dp`, not yet added to `p` (`encode_merge`).
    unmerged: Cell<bool>,
}

impl Solvers {
    pub fn new(ctx: &Ctx) -> Result<Solvers> {
        let d = ctx.device;
        let levels = super::multigrid::levels(ctx.nx, ctx.ny);
        let control = super::solver_check::control_buffer(d, &levels, ctx.target().reduction_groups());
        let args = super::solver_check::args_buffer(d);
        let mg = Multigrid::new(ctx, &control, &args)?;
        let level0 = mg.table(ctx.buffers, 0);
        let quads = super::multigrid::quad_rows(&levels[0]);
        let views = mg.level0_views();
        let check = Check::new(ctx.target(), &level0, quads, views.as_ref().map(|v| &v[..]))?;
        let pcg = Mgpcg::new(ctx.target(), &level0, ctx.nx * ctx.ny)?;
        // a solve to a tolerance from a warm start is opened by its scaling
        let mut table = level0;
        table.set("gate_args", check.opening_args());
        let warm = WarmStart::new(ctx.target(), &table, ctx.nx * ctx.ny, quads)?;
        let words: Vec<u32> = (0..=MAX_COUNT).collect();
        let counts = d.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("solver counts"),
            contents: bytemuck::cast_slice(&words),
            usage: wgpu::BufferUsages::COPY_SRC,
        });
        let feedback = (0..8)
            .map(|_| FeedbackSlot {
                buffer: d.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("solver feedback"),
                    size: ((ctl::FEEDBACK_WORDS + ctl::VERDICT_WORDS + ctl::HISTORY_WORDS) * 4) as u64,
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }),
                state: SlotState::Free,
                mapped: Arc::new(AtomicBool::new(false)),
                plan: Plan::default(),
                spec: None,
                stale: false,
                solve: 0,
                traced: false,
            })
            .collect();
        Ok(Solvers {
            pcg,
            check,
            warm,
            jacobi: Jacobi::new(ctx)?,
            mg,
            control,
            args,
            counts,
            feedback: RefCell::new(feedback),
            gated_solves: Cell::new(0),
            newest: Cell::new(None),
            memory: Cell::new(Memory::default()),
            trace: Cell::new(false),
            history: RefCell::new(None),
            unmerged: Cell::new(false),
        })
    }

    fn launch(&self, gated: bool) -> Launch<'_> {
        Launch::new(&self.args, gated)
    }

    /// Solids changed (a load, the obstacle brush): the set-up runs again before the next solve.
    /// `painting`: the brush changed them (see `Memory::lazy`). A painted obstacle stops the flow
    /// at its faces, far from the last step's pressure: that solve's gated part reaches a solve
    /// from zero (as after a rest). With the prediction's spares only, painting the plume at 128²
    /// in the window left about 30 steps above the tolerance in 6 s of strokes.
    pub fn mark_dirty(&self, painting: bool) {
        let mut m = self.memory.get();
        m.lazy = if m.setup_for.is_some() { painting } else { m.lazy && painting };
        m.setup_for = None;
        m.painted |= painting;
        self.memory.set(m);
    }

    /// Forgets the predicted count (the next solve to a tolerance gates every unit) and the
    /// count of steps above the tolerance (a new state).
    pub fn forget_prediction(&self, queue: &wgpu::Queue) {
        let mut m = self.memory.get();
        m.prediction = None;
        m.peak = 0.0;
        m.failed_steps = 0;
        m.floor_steps = 0;
        self.memory.set(m);
        // read-backs still in flight carry the old state's count; it must not come back
        for s in self.feedback.borrow_mut().iter_mut().filter(|s| s.state != SlotState::Free) {
            s.stale = true;
        }
        queue.write_buffer(&self.control, (ctl::VERDICT * 4) as u64, bytemuck::cast_slice(&[0u32; ctl::VERDICT_WORDS]));
    }

    /// Runs `f` and puts back what the solver remembers: its solves leave the next plan as it was.
    pub fn keeping_memory(&self, f: impl FnOnce(&Solvers)) {
        self.collect_feedback();
        let m = self.memory.get();
        f(self);
        self.memory.set(m);
    }

    /// Opens a step's verdict (call once a step, before its first solve): in stream order, so
    /// each step of one submission gets its own.
    pub fn begin_step(&self, encoder: &mut wgpu::CommandEncoder) {
        for word in [ctl::VERDICT, ctl::VERDICT + 1] {
            encoder.copy_buffer_to_buffer(&self.counts, 0, &self.control, (word * 4) as u64, 4);
        }
    }

    /// The verdict of the last step submitted and the report of its last solve, in V-cycles or
    /// sweeps of `kind` (blocking; the command line and tests, after the step's submission was
    /// waited for).
    pub fn verdict_now(&self, device: &wgpu::Device, queue: &wgpu::Queue, kind: SolverKind) -> (Verdict, SolveReport) {
        let words = &super::buffers::read_buffers(device, queue, &[&self.control])[0];
        let mut report = SolveReport::from_words(words);
        report.iterations *= unit_sweeps(kind);
        (Verdict::from_words(&words[ctl::VERDICT..ctl::VERDICT + ctl::VERDICT_WORDS]), report)
    }

    /// `verdict_now` from the last gated solve's own feedback read-back, once a `device.poll` has
    /// seen its step finish: no submission and no wait of its own (`run --stats` takes it every
    /// step). None when that read-back has not arrived or was not copied (every slot in flight).
    pub fn verdict_arrived(&self, kind: SolverKind) -> Option<(Verdict, SolveReport)> {
        self.collect_feedback();
        let (solve, verdict, mut report) = self.newest.get()?;
        if solve != self.gated_solves.get() {
            return None;
        }
        report.iterations *= unit_sweeps(kind);
        Some((verdict, report))
    }

    /// Checks every unit of a solve to a tolerance and reads each solve's residual history back
    /// (`residual_history`), while `on`: the convergence plot is open. Off, the solves check
    /// only where their plan does (fewer dispatches).
    pub fn set_trace(&self, on: bool) {
        self.trace.set(on);
    }

    /// The newest residual history read back (non-blocking; needs `set_trace`).
    pub fn residual_history(&self) -> Option<ResidualHistory> {
        self.collect_feedback();
        self.history.borrow().as_ref().map(|(_, h)| h.clone())
    }

    /// The residual history of the last solve submitted, read now (blocking; tests, after the
    /// step's submission was waited for).
    pub fn history_now(&self, device: &wgpu::Device, queue: &wgpu::Queue, kind: SolverKind) -> ResidualHistory {
        let words = &super::buffers::read_buffers(device, queue, &[&self.control])[0];
        let words: Vec<u32> = words.iter().map(|w| w.to_bits()).collect();
        ResidualHistory::from_words(&words[ctl::HISTORY..ctl::HISTORY + ctl::HISTORY_WORDS], kind)
    }

    /// Steps that stopped above the tolerance, as far as the read-backs have told (non-blocking).
    pub fn failed_steps(&self) -> u32 {
        self.collect_feedback();
        self.memory.get().failed_steps
    }

    /// Of `failed_steps`, those whose solves stopped at float32's floor only (non-blocking).
    pub fn floor_steps(&self) -> u32 {
        self.collect_feedback();
        self.memory.get().floor_steps
    }

    /// Sets the predicted count in units (tests), after taking in the feedback that has arrived.
    pub fn set_prediction(&self, units: Option<u32>) {
        self.collect_feedback();
        let mut m = self.memory.get();
        m.prediction = units;
        self.memory.set(m);
    }

    pub fn prediction(&self) -> Option<u32> {
        self.memory.get().prediction
    }

    /// The predicted count for the next solve, with the feedback that has arrived taken in.
    pub fn units_now(&self) -> Option<u32> {
        self.collect_feedback();
        self.prediction()
    }

    /// Continues a run: solves with `spec` start from `units` and the recent peak `peak` (a dump's
    /// `solver_units` and `solver_peak`; 0 without one).
    pub fn resume(&self, spec: SolveSpec, units: Option<u32>, peak: Option<f32>) {
        self.collect_feedback();
        let mut m = self.memory.get();
        m.spec = Some(spec);
        m.prediction = units.map(|u| u.max(FLOOR_UNITS));
        m.peak = peak.unwrap_or(0.0);
        m.cold = true;
        self.memory.set(m);
    }

    /// The recent peak of the units needed (`Memory::peak`), with the feedback that has arrived
    /// taken in: saved with a dump beside the prediction (`resume` takes it back).
    pub fn peak_now(&self) -> f32 {
        self.collect_feedback();
        self.memory.get().peak
    }

    /// The plan of the last solve and the last report read back (a step or two older).
    pub fn last(&self) -> (Plan, Option<SolveReport>) {
        let m = self.memory.get();
        (m.last_plan, m.last_report)
    }

    /// Writes this step's tolerance and the floor's test (call before encoding the solve). The
    /// gate measures the Poisson residual; the divergence left after the edge correction differs
    /// from it by round-off (up to ~3 % at 1e-4, seen in `logo`), so the gate aims `GATE_MARGIN`
    /// under the tolerance for the divergence a user measures to meet it.
    pub fn prepare(&self, queue: &wgpu::Queue, spec: SolveSpec) {
        let target = spec.tolerance * GATE_MARGIN;
        queue.write_buffer(&self.control, (ctl::TOLERANCE * 4) as u64, bytemuck::bytes_of(&target));
        queue.write_buffer(&self.control, (ctl::CHECK_EVERY * 4) as u64, bytemuck::bytes_of(&1u32));
        let floor = [FLOOR_FALL.to_bits(), spec.floor_window];
        queue.write_buffer(&self.control, (ctl::FLOOR * 4) as u64, bytemuck::cast_slice(&floor));
    }

    /// Requests the maps of the feedback copied by submitted steps (call after each submit).
    pub fn request_feedback(&self) {
        for s in self.feedback.borrow_mut().iter_mut().filter(|s| s.state == SlotState::Copied) {
            let flag = s.mapped.clone();
            s.buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                if r.is_ok() {
                    flag.store(true, Ordering::Release);
                }
            });
            s.state = SlotState::Mapping;
        }
    }

    /// Takes in the feedback that has arrived (needs a `device.poll` since the request).
    fn collect_feedback(&self) {
        let mut m = self.memory.get();
        for s in self.feedback.borrow_mut().iter_mut() {
            if s.state != SlotState::Mapping || !s.mapped.load(Ordering::Acquire) {
                continue;
            }
            let words: Vec<f32> = bytemuck::cast_slice(&s.buffer.slice(..).get_mapped_range().expect("mapped")).to_vec();
            s.buffer.unmap();
            s.mapped.store(false, Ordering::Release);
            s.state = SlotState::Free;
            if s.stale {
                continue;
            }
            let report = SolveReport::from_words(&words);
            let verdict = Verdict::from_words(&words[ctl::FEEDBACK_WORDS..]);
            if let (true, Some(spec)) = (s.traced, s.spec) {
                let at = ctl::FEEDBACK_WORDS + ctl::VERDICT_WORDS;
                let bits: Vec<u32> = words[at..].iter().map(|w| w.to_bits()).collect();
                let mut h = self.history.borrow_mut();
                if h.as_ref().is_none_or(|(solve, _)| *solve < s.solve) {
                    *h = Some((s.solve, ResidualHistory::from_words(&bits, spec.kind)));
                }
            }
            if verdict.failed_steps >= m.failed_steps {
                m.failed_steps = verdict.failed_steps;
                m.floor_steps = verdict.floor_steps;
            }
            if self.newest.get().is_none_or(|(solve, ..)| solve < s.solve) {
                self.newest.set(Some((s.solve, verdict, report)));
            }
            if let Some(spec) = s.spec.filter(|spec| Some(*spec) == m.spec) {
                let next = s.plan.next(&report, spec.tolerance, spec.max_units());
                m.prediction = Some(next);
                m.peak = (m.peak * PEAK_DECAY).max(next as f32);
                m.last_report = Some(report);
                // nothing was left to solve (the gate closed before any unit): at rest
                m.cold = report.converged && report.iterations == 0;
                m.floored = report.stopped == Stop::Floor;
            }
        }
        self.memory.set(m);
    }

    /// Which stencil a solver of `kind` works with (the Jacobi one, or multigrid level 0's).
    pub fn measure(kind: SolverKind) -> Measure {
        if kind == SolverKind::Jacobi { Measure::Jacobi } else { Measure::Level0 }
    }

    /// One unit of the solve.
    fn encode_unit(&self, pass: &mut wgpu::ComputePass<'_>, kind: SolverKind, launch: Launch<'_>, in_out: &mut bool) {
        match kind {
            SolverKind::Multigrid => self.mg.encode_vcycle(pass, launch),
            SolverKind::Mgpcg => self.pcg.encode_iteration(pass, &self.mg, launch),
            SolverKind::Jacobi => self.jacobi.encode_sweeps(pass, launch, unit_sweeps(kind), in_out),
            SolverKind::Sor => pressure_sor::encode_sor(&self.mg, pass, launch, unit_sweeps(kind), in_out),
        }
    }

    /// The pressure solve; leaves the pressure in `p`, or (every kind but Jacobi) in `p + dp`
    /// until `encode_merge`. `bc_kind` are the boundary kinds of this
    /// step (a change re-runs the set-up).
    pub fn encode_solve(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
        b: &super::buffers::Buffers,
        spec: SolveSpec,
        bc_kind: [u32; 4],
    ) {
        self.collect_feedback();
        let step = self.plan_solve(spec, bc_kind);
        if spec.start == Start::Cold {
            encoder.clear_buffer(&b.p, 0, None);
        }
        if spec.gated() {
            self.schedule(encoder, spec, step.plan);
        }
        timed_pass(encoder, profiler, "pressure setup", |pass| self.encode_setup(pass, spec, &step));
        let mut in_out = false;
        timed_pass(encoder, profiler, "pressure", |pass| {
            if spec.gated() {
                self.encode_gated(pass, spec, step.plan, &mut in_out);
            } else {
                self.encode_fixed(pass, spec, &mut in_out);
            }
        });
        // the solvers but Jacobi leave the correction in dp (level 0's x), Jacobi p itself
        let x = if spec.kind == SolverKind::Jacobi { &b.p } else { &b.dp };
        if in_out {
            copy_all(encoder, &b.p_out, x);
        }
        if spec.kind == SolverKind::Mgpcg {
            self.pcg.encode_finish(encoder, &b.dp);
        }
        self.unmerged.set(spec.kind != SolverKind::Jacobi);
        if spec.gated() {
            self.copy_feedback(encoder, spec, step.plan);
        }
    }

    /// p += dp, where the last solve left its correction in dp (every kind but Jacobi): after
    /// the projection, which reads the two apart (shaders/project.wgsl), or before anything
    /// else reads p.
    pub fn encode_merge(&self, pass: &mut wgpu::ComputePass<'_>) {
        if self.unmerged.replace(false) {
            self.warm.encode_correct(pass);
        }
    }

    /// Whether the pressure is `p + dp`, to be merged (`encode_merge`); the stage view sets it
    /// again where it puts the two back apart.
    pub fn unmerged(&self) -> bool {
        self.unmerged.get()
    }

    pub fn set_unmerged(&self, unmerged: bool) {
        self.unmerged.set(unmerged);
    }

    /// What this solve does before its units, from what the solver remembers: the plan of units,
    /// the set-ups due and the bottom's elimination chunks. Updates the memory.
    fn plan_solve(&self, spec: SolveSpec, bc_kind: [u32; 4]) -> SolveSteps {
        let mut m = self.memory.get();
        if m.spec != Some(spec) {
            m.spec = Some(spec);
            m.prediction = None;
            m.peak = 0.0;
        }
        self.mg.set_periodic(bc_kind);
        if m.setup_for != Some(bc_kind) {
            m.setup_for = Some(bc_kind);
            m.jacobi_ready = false;
            m.multigrid_ready = false;
        }
        let reach = if m.cold || m.painted { spec.reach } else { (PEAK_REACH * m.peak).ceil() as u32 };
        // after the floor the prediction is where the last solve reached it: the gated part runs
        // on long enough for the floor's test to conclude again, not out of units first
        let reach = if m.floored { reach.max(m.prediction.unwrap_or(0) + 2 * spec.floor_window) } else { reach };
        m.painted = false;
        let mut plan = if spec.gated() { Plan::with_spares(m.prediction, spec.max_units(), reach, spec.spares()) } else { Plan::default() };
        if m.floored {
            // each unit checked: the floor's test stops the solve at its window's end, not at the
            // end of a doubled block
            plan.fine = plan.gated;
        }
        if self.trace.get() && spec.gated() {
            plan = every_unit_checked(plan);
        }
        m.last_plan = plan;
        let kind = spec.kind;
        let (setup_jacobi, setup_mg) = match kind {
            SolverKind::Jacobi => (!m.jacobi_ready, false),
            _ => (false, !m.multigrid_ready),
        };
        m.jacobi_ready |= kind == SolverKind::Jacobi;
        m.multigrid_ready |= kind != SolverKind::Jacobi;
        if setup_mg {
            m.bottom_next = 0;
        }
        let chunks = self.mg.bottom_chunks();
        let eliminate = if matches!(kind, SolverKind::Multigrid | SolverKind::Mgpcg) && m.bottom_next < chunks {
            let end = if m.lazy { m.bottom_next + 1 } else { chunks };
            std::mem::replace(&mut m.bottom_next, end)..end
        } else {
            0..0
        };
        self.memory.set(m);
        SolveSteps { plan, setup_jacobi, setup_mg, eliminate }
    }

    /// A gated solve's counts, in stream order: the units before the first check, and the tail's
    /// schedule.
    fn schedule(&self, encoder: &mut wgpu::CommandEncoder, spec: SolveSpec, plan: Plan) {
        let mut put = |word: usize, count: u32| {
            encoder.copy_buffer_to_buffer(&self.counts, (count * 4) as u64, &self.control, (word * 4) as u64, 4);
        };
        put(ctl::PENDING, plan.direct);
        put(ctl::TAIL, 0);
        put(ctl::TAIL + 1, plan.gated);
        put(ctl::TAIL + 2, plan.fine);
        put(ctl::POLISH_AT, self.polish_at(spec, plan).unwrap_or(ctl::NO_POLISH));
    }

    /// The set-ups due, the start (cold, or the warm start's mix, which opens a gated solve) and
    /// level 0's right-hand side.
    fn encode_setup(&self, pass: &mut wgpu::ComputePass<'_>, spec: SolveSpec, step: &SolveSteps) {
        let direct = self.launch(false);
        if step.setup_jacobi {
            self.jacobi.encode_stencil_pack(pass);
        }
        if step.setup_mg {
            self.mg.encode_setup(pass, direct);
        }
        for chunk in step.eliminate.clone() {
            self.mg.encode_eliminate(pass, direct, chunk);
        }
        if spec.start == Start::Warm {
            // with a tolerance, its scaling opens the gate too
            self.warm.encode(pass, Self::measure(spec.kind), spec.gated());
        }
        if spec.kind != SolverKind::Jacobi {
            self.mg.encode_load(pass, direct);
        }
        match (spec.gated(), spec.start) {
            (false, _) => {}
            (true, Start::Warm) => self.check.opened(),
            (true, _) => self.check.encode_start(pass),
        }
        if spec.kind == SolverKind::Mgpcg {
            self.pcg.encode_start(pass, direct);
        }
    }

    /// A fixed count of units, no checks.
    fn encode_fixed(&self, pass: &mut wgpu::ComputePass<'_>, spec: SolveSpec, in_out: &mut bool) {
        let direct = self.launch(false);
        match spec.kind {
            SolverKind::Multigrid => (0..spec.iterations).for_each(|_| self.mg.encode_vcycle(pass, direct)),
            SolverKind::Mgpcg => (0..spec.iterations).for_each(|_| self.pcg.encode_iteration(pass, &self.mg, direct)),
            SolverKind::Jacobi => self.jacobi.encode_sweeps(pass, direct, spec.iterations, in_out),
            SolverKind::Sor => pressure_sor::encode_sor(&self.mg, pass, direct, spec.iterations, in_out),
        }
    }

    /// A solve to a tolerance: the plan's direct units, a check, then the gated tail in the
    /// blocks the gate counts (`tail_block`), each followed by a check, the polish among them.
    fn encode_gated(&self, pass: &mut wgpu::ComputePass<'_>, spec: SolveSpec, plan: Plan, in_out: &mut bool) {
        let (kind, measure) = (spec.kind, Self::measure(spec.kind));
        let polish_at = self.polish_at(spec, plan);
        for _ in 0..plan.direct {
            self.encode_unit(pass, kind, self.launch(false), in_out);
        }
        // where a V-cycle or the polish leaves level 0's x in a texture, the checks after them
        // read it there
        let after = match kind {
            SolverKind::Multigrid if self.mg.level0_tex().is_some() => Measure::Level0Tex,
            // each iteration's `update` leaves the partial maxima of its residual
            SolverKind::Mgpcg => Measure::Ready,
            _ => measure,
        };
        // gated: a zero right-hand side closed the gate at the start
        self.check.encode_gate(pass, if plan.direct > 0 { after } else { measure }, self.launch(true));
        let (mut left, mut k, mut checks) = (plan.gated, 0, 1);
        while left > 0 {
            if polish_at == Some(checks - 1) {
                self.mg.encode_polish(pass, self.launch(true).through(ctl::POLISH_SLOT));
                // its second half, open only where the first V-cycle left the residual further
                // (`solver_check::polish_constants`)
                if self.check.polish_halves {
                    self.mg.encode_polish(pass, self.launch(true).through(ctl::POLISH_MORE_SLOT));
                }
                self.check.encode_gate(pass, after, self.launch(true).through(ctl::POLISH_CHECK_SLOT));
                checks += 1;
                continue;
            }
            checks += 1;
            let block = tail_block(k, plan.fine).min(left);
            for _ in 0..block {
                self.encode_unit(pass, kind, self.launch(true), in_out);
            }
            self.check.encode_gate(pass, after, self.launch(true));
            (left, k) = (left - block, k + 1);
        }
    }

    /// The control words copied into a free feedback slot, read back a frame or two later
    /// (`collect_feedback`).
    fn copy_feedback(&self, encoder: &mut wgpu::CommandEncoder, spec: SolveSpec, plan: Plan) {
        let solve = self.gated_solves.get() + 1;
        self.gated_solves.set(solve);
        let mut slots = self.feedback.borrow_mut();
        if let Some(s) = slots.iter_mut().find(|s| s.state == SlotState::Free) {
            encoder.copy_buffer_to_buffer(&self.control, 0, &s.buffer, 0, (ctl::FEEDBACK_WORDS * 4) as u64);
            let (verdict, at) = ((ctl::VERDICT * 4) as u64, (ctl::FEEDBACK_WORDS * 4) as u64);
            encoder.copy_buffer_to_buffer(&self.control, verdict, &s.buffer, at, (ctl::VERDICT_WORDS * 4) as u64);
            s.traced = self.trace.get();
            if s.traced {
                let (history, at) = ((ctl::HISTORY * 4) as u64, ((ctl::FEEDBACK_WORDS + ctl::VERDICT_WORDS) * 4) as u64);
                encoder.copy_buffer_to_buffer(&self.control, history, &s.buffer, at, (ctl::HISTORY_WORDS * 4) as u64);
            }
            s.state = SlotState::Copied;
            s.plan = plan;
            s.spec = Some(spec);
            s.stale = false;
            s.solve = solve;
        }
    }

    /// Whether a solve of `spec` may polish: multigrid to a tolerance with room for a second
    /// V-cycle, on a grid with a level above the coarse solve. One V-cycle leaves most steps of a
    /// running flow just under the tolerance and the rest just over it (plume at 128²: the 2-cycle
    /// steps' first ratio was within 1.5x of the target in half of them, 3x in 90 %), and a
    /// second V-cycle costs a CPU adapter about as much as the first. Two smoothing sweeps on
    /// level 0 first (four tiled) finish most of those steps for a third of it. The polish is a gated block of no V-cycles right after the check
    /// that follows the first V-cycle (`polish_at`), which opens it only where that V-cycle left
    /// the residual within `POLISH_REACH` (shaders/solver_gate_check.wgsl) of the target: at 256²
    /// one V-cycle leaves 3 to 15 times it, and two sweeps would not do. Its second half (as many
    /// sweeps again, `ctl::POLISH_MORE_SLOT`) opens above `POLISH_SHORT`; on a CPU adapter the
    /// polish starts from the texture the V-cycle left level 0's x in (`Multigrid::level0_tex`).
    /// A plan of two or more direct V-cycles (a slow solve) has no check there and does not
    /// polish; plans of one direct V-cycle or none run one sequence (tests/solvers.rs
    /// `predicted_tolerance_path_stops_where_the_gated_one_does`).
    fn polishes(&self, spec: SolveSpec) -> bool {
        spec.gated() && spec.kind == SolverKind::Multigrid && spec.max_units() >= 2 && self.mg.coarse() > 0
    }

    /// The check after which the polish may run as a gated block: after the direct V-cycle's
    /// (check 0), or after the first gated V-cycle's (check 1); None with two or more direct
    /// units, or no polish. Always with gated V-cycles after it, so a gate before it is never the
    /// solve's last.
    fn polish_at(&self, spec: SolveSpec, plan: Plan) -> Option<u32> {
        if !self.polishes(spec) {
            return None;
        }
        match plan.direct {
            0 if plan.gated >= 2 => Some(1),
            1 if plan.gated >= 1 => Some(0),
            _ => None,
        }
    }

    /// Reads the control words now (blocking; tests and the benchmark). Iterations are in sweeps
    /// or cycles.
    pub fn report(&self, device: &wgpu::Device, queue: &wgpu::Queue, kind: SolverKind) -> SolveReport {
        self.verdict_now(device, queue, kind).1
    }

    /// Dispatches and estimated bytes of one unit, for the benchmark.
    pub fn unit_cost(&self, kind: SolverKind, cells: usize) -> (u32, u64) {
        let n = cells as f64;
        match kind {
            SolverKind::Multigrid => (self.mg.vcycle_dispatches(), self.mg.vcycle_bytes()),
            SolverKind::Mgpcg => (self.mg.vcycle_dispatches() + Mgpcg::DISPATCHES, self.mg.vcycle_bytes() + self.pcg.iteration_bytes()),
            // tiled: four sweeps a dispatch, p, stencil and divergence read over the tile and its
            // halo, p_out written; plain: p, stencil, divergence read and p_out written each sweep
            SolverKind::Jacobi if self.jacobi.tiled => (2, (2.0 * n * (12.0 * 1024.0 / 576.0 + 4.0)) as u64),
            SolverKind::Jacobi => (8, (8.0 * n * 16.0) as u64),
            // tiled: two sweeps a dispatch (x, rhs, stencil over the tile and halo, y written);
            // plain: each half-sweep reads x, rhs, stencil and writes half of x
            SolverKind::Sor if self.mg.tiled => (2 * self.mg.sor_dispatches(), (2.0 * n * (12.0 * 1024.0 / 576.0 + 4.0)) as u64),
            SolverKind::Sor => (2 * self.mg.sor_dispatches(), (8.0 * n * 14.0) as u64),
        }
    }
}
