//! Residual checks of the pressure solvers (shaders/solver_check.wgsl): a two-stage GPU
//! max-reduction of the residual, and the one-workgroup `gate` that decides whether a solve is done
//! and rewrites the indirect dispatch arguments of the gated sweeps or cycles after it
//! (shaders/solver_gate_check.wgsl `decide`); on a CPU adapter at small grids, multigrid level 0's
//! reduction and gate in one workgroup's dispatch (`Check::merged`). The control
//! buffer holds the tolerance, the reductions, the counts and those arguments. CPU twin of the
//! reductions: src/sim/cpu/solver_check.rs.

use super::kernel::{Kernel, MAX_REDUCTION_GROUPS, Table, Target, count_dispatch, profile};
use super::multigrid::levels::{LevelDesc, MAX_LEVELS, tile_groups};
use crate::error::Result;
use wgpu::util::DeviceExt;

/// Word offsets in the control buffer. Keep in sync with shaders/solver_check.wgsl.
pub mod ctl {
    use super::{MAX_LEVELS, MAX_REDUCTION_GROUPS};
    pub const TOLERANCE: usize = 0;
    pub const RHS_MAX: usize = 1;
    pub const DONE: usize = 2;
    pub const RATIO: usize = 3;
    pub const RUN: usize = 4;
    pub const CHECK_EVERY: usize = 5;
    /// Units the next gate counts (the direct ones before the first check).
    pub const PENDING: usize = 6;
    /// Units run at the check that set the floor's reference (`FLOOR` + 2), read back with the
    /// first words: a solve that stopped at the floor plans that many next (`Plan::next`).
    pub const FLOOR_RUN: usize = 7;
    /// The partial maxima of a reduction's workgroups (`Target::reduction_groups`) from here.
    pub const PARTIALS: usize = 8;
    /// Argument slots: cell-block groups of each level, tile groups of each level, the coarse
    /// solve, the residual reductions. Their full counts live here; the gates copy them, or
    /// zeros, into the arguments buffer (`args_buffer`), which the gated dispatches read.
    pub const ARG_SLOTS: usize = 2 * MAX_LEVELS + 5;
    pub const FULL_ARGS: usize = PARTIALS + MAX_REDUCTION_GROUPS as usize;
    /// The verdict of the current step (the solve's last `gate`): its worst relative residual
    /// (f32), how a solve of it stopped above the tolerance (`Stop::code`: 0 none, 1 at the
    /// floor, 2 at its cap), the steps that did since the last reset, and of them those that
    /// stopped at the floor only.
    pub const VERDICT: usize = FULL_ARGS + 3 * ARG_SLOTS;
    /// Words of the verdict.
    pub const VERDICT_WORDS: usize = 4;
    /// The gated tail's schedule (`tail_block`): checks done, gated units not yet checked, checks
    /// after a single unit before the blocks double.
    pub const TAIL: usize = VERDICT + VERDICT_WORDS;
    /// The check after which the multigrid's polish runs as a gated block of no units
    /// (src/sim/solver.rs `polish_at`); `NO_POLISH` for none.
    pub const POLISH_AT: usize = TAIL + 3;
    pub const NO_POLISH: u32 = 4095;
    /// The float32 floor's test (shaders/solver_gate_check.wgsl `stalled`): the fall factor
    /// (f32) and the window in units (0: no test), written each step (`Solvers::prepare`), then
    /// the ratio of the check that last saw the residual fall that much (its reference).
    pub const FLOOR: usize = POLISH_AT + 1;
    /// The residual history of the solve (the convergence plot): the checks recorded, then
    /// (units run, relative residual as f32) for each check, up to `HISTORY_LEN`
    /// (shaders/solver_gate_check.wgsl `record`). Cleared when a solve opens.
    pub const HISTORY: usize = FLOOR + 3;
    pub const HISTORY_LEN: usize = 256;
    pub const HISTORY_WORDS: usize = 1 + 2 * HISTORY_LEN;
    pub const WORDS: usize = HISTORY + HISTORY_WORDS;
    /// Words the feedback read-back copies (0..8), then the verdict's words after them.
    pub const FEEDBACK_WORDS: usize = 8;
    /// The longest block of gated units between two checks.
    pub const MAX_BLOCK: u32 = 64;

    pub fn cells_slot(level: usize) -> usize {
        level
    }
    pub fn tile_slot(level: usize) -> usize {
        MAX_LEVELS + level
    }
    pub const COARSE_SLOT: usize = 2 * MAX_LEVELS;
    pub const REDUCE_SLOT: usize = 2 * MAX_LEVELS + 1;
    /// The multigrid polish's dispatches (src/sim/solver.rs `polish_at`): level 0's cell groups,
    /// or its tile groups where the solvers take tiles; open only where the first V-cycle left
    /// the residual within `POLISH_REACH` of the target.
    pub const POLISH_SLOT: usize = 2 * MAX_LEVELS + 2;
    /// The residual reduction of the check after the polish, shut with the polish (the gate
    /// after it too: a skipped polish costs no check).
    pub const POLISH_CHECK_SLOT: usize = 2 * MAX_LEVELS + 3;
    /// The polish's second half (as many sweeps again), open only where the first V-cycle left
    /// the residual more than `POLISH_SHORT` times the target (shaders/solver_gate_check.wgsl).
    pub const POLISH_MORE_SLOT: usize = 2 * MAX_LEVELS + 4;
}

/// The control buffer with every level's full workgroup counts in place, and the reductions'
/// (`reduce_groups`).
pub fn control_buffer(device: &wgpu::Device, levels: &[LevelDesc], reduce_groups: u32) -> wgpu::Buffer {
    let mut words = vec![0u32; ctl::WORDS];
    let profile = profile(device);
    let mut put = |slot: usize, groups: [u32; 3]| {
        words[ctl::FULL_ARGS + 3 * slot..ctl::FULL_ARGS + 3 * slot + 3].copy_from_slice(&groups);
    };
    for (k, l) in levels.iter().enumerate() {
        put(ctl::cells_slot(k), super::multigrid::levels::cell_groups(l, profile.cell_block));
        put(ctl::tile_slot(k), tile_groups(l.nx, l.ny));
    }
    put(ctl::COARSE_SLOT, [1, 1, 1]);
    put(ctl::REDUCE_SLOT, [reduce_groups, 1, 1]);
    let l0 = &levels[0];
    let polish =
        if profile.solver_tiles { tile_groups(l0.nx, l0.ny) } else { super::multigrid::levels::cell_groups(l0, profile.cell_block) };
    put(ctl::POLISH_SLOT, polish);
    put(ctl::POLISH_MORE_SLOT, polish);
    put(ctl::POLISH_CHECK_SLOT, [reduce_groups, 1, 1]);
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("solver control"),
        contents: bytemuck::cast_slice(&words),
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
    })
}

/// The gated dispatches' live arguments, 3 words a slot (`ctl::ARG_SLOTS`), written by the gates:
/// zeros until the first gate opens them.
pub fn args_buffer(device: &wgpu::Device) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some("solver arguments"),
        size: (3 * ctl::ARG_SLOTS * 4) as u64,
        // copies: the tests plant and read them
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::INDIRECT | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// How the dispatches of a sweep, cycle or check are recorded: directly, or gated (indirect, with
/// their workgroup counts from the arguments buffer, `args_buffer`).
#[derive(Clone, Copy)]
pub struct Launch<'a> {
    pub args: &'a wgpu::Buffer,
    pub gated: bool,
    /// Every gated dispatch through this argument slot instead of its own (`through`).
    pub slot: Option<usize>,
}

impl<'a> Launch<'a> {
    pub fn new(args: &'a wgpu::Buffer, gated: bool) -> Launch<'a> {
        Launch { args, gated, slot: None }
    }

    /// The same launch with every gated dispatch through argument slot `slot` (the polish's,
    /// whose full counts are those of the level-0 dispatches it makes).
    pub fn through(self, slot: usize) -> Launch<'a> {
        Launch { slot: Some(slot), ..self }
    }

    /// One dispatch of `kernel`: `groups` workgroups, or argument slot `slot` when gated.
    pub fn go(&self, pass: &mut wgpu::ComputePass<'_>, kernel: &Kernel, group: &wgpu::BindGroup, groups: [u32; 3], slot: usize) {
        let slot = self.slot.unwrap_or(slot);
        count_dispatch();
        pass.set_pipeline(kernel.pipeline());
        pass.set_bind_group(0, group, &[]);
        super::dispatch_probe::timed(pass, kernel.label(), |pass| {
            if self.gated {
                pass.dispatch_workgroups_indirect(self.args, (3 * slot * 4) as u64);
            } else {
                pass.dispatch_workgroups(groups[0], groups[1], groups[2]);
            }
        });
    }
}

pub struct Check {
    reduce_rhs: Kernel,
    reduce_mg: Kernel,
    reduce_p: Kernel,
    gate_start: Kernel,
    gate: Kernel,
    /// reduce_rhs, reduce_mg, reduce_p, gate_start (which writes `gate_args[0]`).
    groups: [wgpu::BindGroup; 4],
    /// The gates' own arguments by turns: a gate dispatched through one writes the other, which
    /// the next gate reads (`gate_groups[k]` writes buffer 1 - k). A gate that closes writes
    /// zeros, and the gates after it take no workgroup (each cost a CPU adapter a thread wake-up).
    gate_args: [wgpu::Buffer; 2],
    gate_groups: [wgpu::BindGroup; 2],
    /// Which of `gate_args` the next gate reads (0 after `encode_start`).
    turn: std::cell::Cell<usize>,
    /// The check of multigrid level 0 in one dispatch (shaders/solver_check_mg.wgsl
    /// `check_mg`: the reduction and the gate in one workgroup), with its bind groups by turns
    /// as `gate_groups`: on a CPU adapter, where level 0's rows are whole quads and it has at
    /// most `MERGED_CHECK_CELLS` cells.
    merged: Option<(Kernel, [wgpu::BindGroup; 2])>,
    /// `reduce_mg` from level 0's textures (`Measure::Level0Tex`; solver_check_mg.wgsl
    /// `reduce_mg_tex`), where the V-cycle goes through them and the check is not `merged`.
    reduce_mg_tex: Option<(Kernel, wgpu::BindGroup)>,
    /// Workgroups of a reduction (`Target::reduction_groups`).
    reduce_groups: u32,
    /// Whether the polish may take its second half (`polish_constants`): where not, the solve
    /// records none.
    pub polish_halves: bool,
}

/// What a residual check measures: the Jacobi pressure in `p` with its packed stencil, or
/// multigrid level 0 (also SOR's): from its buffers, or from the textures a V-cycle or the polish
/// on a CPU adapter left its x in (`Multigrid::level0_tex`; the buffers where there are none).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Measure {
    Jacobi,
    Level0,
    Level0Tex,
    /// The residual's partial maxima are there already (src/sim/mgpcg.rs `update`): the gate
    /// alone.
    Ready,
}

/// The most cells of a level 0 whose check takes one dispatch (`Check::merged`): at 128² on the
/// 2-core lavapipe VM the whole reduction on one core cost less than a second dispatch's wake-up
/// and wait (BENCHMARKS.md, "Where the time goes: lavapipe"); at 256² the two were even.
pub const MERGED_CHECK_CELLS: usize = 128 * 128;

impl Check {
    /// `table` is multigrid level 0's binding table (x = p, the control buffer in place). `quads`:
    /// level 0's rows are whole quads, and its residual is measured four cells a thread
    /// (shaders/solver_check_mg.wgsl).
    /// `level0_tex`: level 0's textures as `cells_in` reads them (src/sim/multigrid/plain.rs
    /// `level0_tex`), where the V-cycle goes through them.
    pub fn new(target: Target, table: &Table, quads: bool, level0_tex: Option<&[(&str, &wgpu::TextureView)]>) -> Result<Check> {
        let device = target.device;
        let (wg, reduce_groups) = (target.profile().solver_workgroup as f64, target.reduction_groups());
        let gate_wg = (wg as u32).clamp(8, 64).next_power_of_two() as f64;
        let polish = polish_constants(target);
        let k = |entry: &str| {
            // the reductions take the workgroup size of the device; the gates at most 64
            let constants: Vec<(&str, f64)> = match entry {
                e if e.starts_with("reduce") => vec![("WG", wg), ("GROUPS", reduce_groups as f64)],
                "gate_start" => vec![("GROUPS", reduce_groups as f64), ("GATE_WG", gate_wg)],
                "gate" => [("GROUPS", reduce_groups as f64), ("GATE_WG", gate_wg)].into_iter().chain(polish).collect(),
                _ => vec![],
            };
            // (`reduce_rhs` a cell a thread everywhere: it runs only in a gated solve without the warm
            // start, whose sums take max |rhs| on their way)
            let shader = match (matches!(entry, "reduce_mg" | "reduce_mg_tex"), quads) {
                (true, true) => "solver_check_mg_quad",
                (true, false) => "solver_check_mg",
                _ => "solver_check",
            };
            Kernel::with_options(target, shader, entry, &constants, false)
        };
        let (reduce_rhs, reduce_mg, reduce_p, gate_start, gate) = super::kernel::with_level0_compiled(target, quads, || {
            Ok::<_, crate::error::Error>((k("reduce_rhs")?, k("reduce_mg")?, k("reduce_p")?, k("gate_start")?, k("gate")?))
        })?;
        let gate_args = [0, 1].map(|k| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(["gate arguments 0", "gate arguments 1"][k]),
                size: 12,
                usage: wgpu::BufferUsages::STORAGE
                    | wgpu::BufferUsages::INDIRECT
                    | wgpu::BufferUsages::COPY_SRC
                    | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        });
        let writing = |k: usize| table.clone().with("gate_args", &gate_args[k]);
        let groups = [
            reduce_rhs.bind(device, table),
            reduce_mg.bind(device, table),
            reduce_p.bind(device, table),
            gate_start.bind(device, &writing(0)),
        ];
        let gate_groups = [gate.bind(device, &writing(1)), gate.bind(device, &writing(0))];
        let merged = if quads && wg < 64.0 && (target.grid.nx * target.grid.ny) as usize <= MERGED_CHECK_CELLS {
            let constants: Vec<(&str, f64)> = [("WG", gate_wg), ("GROUPS", 1.0), ("GATE_WG", gate_wg)].into_iter().chain(polish).collect();
            let k = super::kernel::with_level0_compiled(target, quads, || {
                Kernel::with_options(target, "solver_check_mg_quad", "check_mg", &constants, false)
            })?;
            let groups = [k.bind(device, &writing(1)), k.bind(device, &writing(0))];
            Some((k, groups))
        } else {
            None
        };
        // lavapipe gathers texels a pass where it reads storage lane by lane (the merged check is
        // mostly its dispatch's wake-up: BENCHMARKS.md, "Where the time goes: lavapipe")
        let reduce_mg_tex = match level0_tex {
            Some(views) if quads && merged.is_none() => {
                let k = super::kernel::with_level0_compiled(target, quads, || k("reduce_mg_tex"))?;
                let group = k.bind_with(device, table, views);
                Some((k, group))
            }
            _ => None,
        };
        Ok(Check {
            reduce_rhs,
            reduce_mg,
            reduce_p,
            gate_start,
            gate,
            groups,
            gate_args,
            gate_groups,
            turn: std::cell::Cell::new(0),
            merged,
            reduce_mg_tex,
            reduce_groups,
            polish_halves: polish[1].1 < polish[0].1,
        })
    }

    /// Start of a gated solve: measures max |rhs| and opens the gate.
    pub fn encode_start(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.reduce_rhs.dispatch_groups(pass, &self.groups[0], self.reduce_groups);
        self.gate_start.dispatch_groups(pass, &self.groups[3], 1);
        self.opened();
    }

    /// Start of a gated solve whose warm start opened the gate (shaders/warm_start_mix.wgsl
    /// `open_gate`, which writes what `encode_start` does, into `opening_args`).
    pub fn opened(&self) {
        self.turn.set(0);
    }

    /// The first gate's own arguments, which the opening of a solve writes.
    pub fn opening_args(&self) -> &wgpu::Buffer {
        &self.gate_args[0]
    }

    /// The gate alone, on the control words as they are: tests plant them, the partial maxima
    /// among them, and compare with the CPU twin (src/sim/cpu/solver_gate_check.rs). It writes
    /// the next gate's own arguments into `opening_args`.
    pub fn encode_decide(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.gate.dispatch_groups(pass, &self.gate_groups[1], 1);
    }

    fn encode_reduce(&self, pass: &mut wgpu::ComputePass<'_>, measure: Measure, launch: Launch<'_>) {
        let (kernel, group) = match (measure, &self.reduce_mg_tex) {
            (Measure::Jacobi, _) => (&self.reduce_p, &self.groups[2]),
            (Measure::Level0Tex, Some((kernel, group))) => (kernel, group),
            (Measure::Level0 | Measure::Level0Tex | Measure::Ready, _) => (&self.reduce_mg, &self.groups[1]),
        };
        launch.go(pass, kernel, group, [self.reduce_groups, 1, 1], ctl::REDUCE_SLOT);
    }

    /// A residual check that closes the gate once the tolerance is met. Gated, its reduction and
    /// the gate itself take no workgroup once the gate is closed (a dispatch of workgroups that
    /// return at once still wakes a CPU adapter's threads). The gate that closes, or the solve's
    /// last (after its last gated units: `ctl::TAIL` + 1 down to zero), also folds the solve's
    /// outcome into the step's verdict (`ctl::VERDICT`): no dispatch of its own.
    /// Where the check takes one dispatch (`merged`), it goes through the gate's own arguments:
    /// they open and shut with the reduction's.
    pub fn encode_gate(&self, pass: &mut wgpu::ComputePass<'_>, measure: Measure, launch: Launch<'_>) {
        let k = self.turn.get();
        let own = Launch::new(&self.gate_args[k], launch.gated);
        match (&self.merged, measure) {
            (Some((kernel, groups)), Measure::Level0 | Measure::Level0Tex) => own.go(pass, kernel, &groups[k], [1, 1, 1], 0),
            _ => {
                if measure != Measure::Ready {
                    self.encode_reduce(pass, measure, launch);
                }
                own.go(pass, &self.gate, &self.gate_groups[k], [1, 1, 1], 0);
            }
        }
        self.turn.set(1 - k);
    }
}

/// The polish's reach and the ratio above which it takes its second half (shaders/
/// solver_gate_check.wgsl `POLISH_REACH`, `POLISH_SHORT`), as the gates' pipeline constants.
/// The plain kernels' (a CPU adapter's) polish is two sweeps, a half: in plume at 128² on
/// lavapipe, 2 of 5 steps' first V-cycle left 1-5.7x the target from the pair's warm start; two
/// sweeps took it down about 2.2x and four about 5x, where a second V-cycle costs about as much
/// as the first and three times four sweeps. From the three-direction warm start most 256² steps'
/// first V-cycle leaves 1-5x too, and
/// the second half took 3-4 % off a step there; at 128² nearly every step passes after one
/// V-cycle, and the constants made no difference to measure. The tiles' polish is four sweeps
/// (a GPU's): no second half there.
pub fn polish_constants(target: Target) -> [(&'static str, f64); 2] {
    if target.profile().solver_tiles {
        [("POLISH_REACH", 3.0), ("POLISH_SHORT", 3.0)]
    } else {
        [("POLISH_REACH", 4.5), ("POLISH_SHORT", 2.0)]
    }
}

/// Gated units before check `k` of a solve's gated tail: one each for the first `fine` checks,
/// then blocks that double up to `ctl::MAX_BLOCK` (a long tail costs a few checks, and a rescue
/// at most twice the units it needed). Keep in sync
/// with `gate` in shaders/solver_check.wgsl.
pub fn tail_block(k: u32, fine: u32) -> u32 {
    if k < fine { 1 } else { (1u32 << (k - fine + 1).min(6)).min(ctl::MAX_BLOCK) }
}

/// Why a solve to a tolerance stopped (`--stats` `stopped`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Stop {
    /// It reached the tolerance.
    #[default]
    Tolerance,
    /// Its residual stopped falling above the tolerance: float32's floor on this grid
    /// (`solve_plan::floor_window`). More iterations do not help; a looser tolerance does.
    Floor,
    /// It ran all its iterations above the tolerance, still falling (or the state is not
    /// finite). More iterations help.
    Cap,
}

impl Stop {
    /// From the control word `ctl::DONE` at the solve's end.
    pub fn from_done(done: u32) -> Stop {
        match done {
            1 => Stop::Tolerance,
            2 => Stop::Floor,
            _ => Stop::Cap,
        }
    }

    /// From the verdict's word (`ctl::VERDICT` + 1): how the step's solves stopped, the cap's
    /// word over the floor's.
    pub fn from_code(code: u32) -> Stop {
        match code {
            0 => Stop::Tolerance,
            1 => Stop::Floor,
            _ => Stop::Cap,
        }
    }

    pub fn word(self) -> &'static str {
        match self {
            Stop::Tolerance => "tolerance",
            Stop::Floor => "floor",
            Stop::Cap => "cap",
        }
    }
}

/// What the solves of one step reached (`ctl::VERDICT`, read back).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Verdict {
    /// The largest relative residual a solve of the step stopped at (non-finite: the state is).
    pub worst: f32,
    /// Whether a solve of the step stopped above its tolerance.
    pub failed: bool,
    /// How: `Cap` where any solve of the step ran out of iterations, else `Floor` where one
    /// stopped at the floor, else `Tolerance`.
    pub stopped: Stop,
    /// Steps that stopped above the tolerance, since the count was last reset.
    pub failed_steps: u32,
    /// Of them, the steps whose solves stopped at the floor only.
    pub floor_steps: u32,
}

impl Verdict {
    pub fn from_words(words: &[f32]) -> Verdict {
        let code = words[1].to_bits();
        Verdict {
            worst: words[0],
            failed: code != 0,
            stopped: Stop::from_code(code),
            failed_steps: words[2].to_bits(),
            floor_steps: words[3].to_bits(),
        }
    }
}

/// What a gated solve reached: the last relative residual, the sweeps or cycles it ran and why it
/// stopped.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize)]
pub struct SolveReport {
    pub ratio: f32,
    pub iterations: u32,
    pub converged: bool,
    pub stopped: Stop,
    /// Units run at the floor test's last reference (`ctl::FLOOR_RUN`): where a solve that
    /// stopped at the floor reached it.
    #[serde(skip)]
    pub floor_at: u32,
}

impl SolveReport {
    /// Decodes the control buffer's first words (read back by the solver, tests and the benchmark).
    pub fn from_words(words: &[f32]) -> SolveReport {
        let w = |k: usize| words[k].to_bits();
        let stopped = Stop::from_done(w(ctl::DONE));
        SolveReport {
            ratio: words[ctl::RATIO],
            iterations: w(ctl::RUN),
            converged: stopped == Stop::Tolerance,
            stopped,
            floor_at: w(ctl::FLOOR_RUN),
        }
    }
}
