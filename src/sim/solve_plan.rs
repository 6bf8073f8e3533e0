//! What a pressure solve is asked (`SolveSpec`) and how a solve to a tolerance is recorded:
//! its units as plain dispatches and gated ones (`Plan`), from the last solve's count, and how
//! many units a solve from zero needs (`scratch_units`). src/sim/solver.rs encodes the plan.

use super::pressure_sor;
use super::solver_check::{SolveReport, Stop};
use crate::config::SolverKind;

/// The share of `solver.tolerance` the GPU gate aims for (see `Solvers::prepare`).
pub const GATE_MARGIN: f32 = 0.9;
/// Largest count the control words can be told (`counts` table): direct or gated units.
pub const MAX_COUNT: u32 = 4095;

/// The fewest gated units after the predicted ones (each runs only while the check fails). One
/// was not enough for the wind tunnel at 4x its cells (obstacles: about 2x a V-cycle, and the
/// count needed moves by two between steps). A solve predicted to need more gets as many spares
/// as it is predicted to need (`Plan::new`).
pub const EXTRA_UNITS: u32 = 2;
/// Largest count of direct units a solve plans.
const MAX_DIRECT: u32 = 1023;
/// The fewest direct units a solve to a tolerance plans, even after steps at rest.
pub const FLOOR_UNITS: u32 = 1;
/// How many times the slowest mode's estimate a solve from zero is given (obstacles lengthen the
/// paths the pressure travels; the periodic seam and f32 round-off slow the last digits).
const SCRATCH_SAFETY: f64 = 2.0;

/// What to solve: the settings of the pressure solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolveSpec {
    pub kind: SolverKind,
    /// Sweeps (Jacobi, SOR) or V-cycles (multigrid); at most, with a tolerance.
    pub iterations: u32,
    /// Relative residual at which to stop; 0: run all iterations.
    pub tolerance: f32,
    pub start: Start,
    /// Units the gated part reaches (with the direct ones) after a rest or a load: a solve from
    /// zero (`scratch_units`).
    pub reach: u32,
    /// Units without a `FLOOR_FALL`-fold fall of the residual after which a solve stops at
    /// float32's floor (`floor_window`); 0: never.
    pub floor_window: u32,
}

/// Where a solve starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// From zero.
    Cold,
    /// From the last pressure, scaled by src/sim/warm_start.rs (`solver.warm_start`).
    Warm,
    /// From p exactly as it is (tests that compare sweeps with the CPU's).
    AsIs,
}

impl SolveSpec {
    /// A solve to a tolerance (its units gated by residual checks).
    pub fn gated(&self) -> bool {
        self.tolerance > 0.0 && self.iterations > 0
    }
    /// Most units with a tolerance.
    pub fn max_units(&self) -> u32 {
        self.iterations.div_ceil(unit_sweeps(self.kind))
    }

    /// Spare gated units after the predicted count (`Plan::with_spares`): `EXTRA_UNITS`, and
    /// twice that for MGPCG, whose residual falls by uneven steps (in `logo` a step that the two
    /// spares after one predicted iteration left above the tolerance).
    pub fn spares(&self) -> u32 {
        if self.kind == SolverKind::Mgpcg { 2 * EXTRA_UNITS } else { EXTRA_UNITS }
    }
}

/// Sweeps (or V-cycles) of one unit of a solve to a tolerance.
pub fn unit_sweeps(kind: SolverKind) -> u32 {
    match kind {
        SolverKind::Multigrid | SolverKind::Mgpcg => 1,
        SolverKind::Jacobi => 2 * super::pressure::SWEEPS_PER_DISPATCH,
        SolverKind::Sor => 2 * pressure_sor::SWEEPS_PER_DISPATCH,
    }
}

/// The fall of the residual that counts as progress in the floor's test: a solve whose residual
/// does not fall `FLOOR_FALL`-fold within `floor_window` units stops there
/// (shaders/solver_gate_check.wgsl `stalled`), reported as `Stop::Floor`.
pub const FLOOR_FALL: f32 = 1.25;
/// The floor's window for multigrid, in V-cycles. A V-cycle takes 5-10x off the residual in the
/// open scenes; in `logo` (thin obstacles the coarse levels do not see) only about 6 %, which
/// is 1.45x over 6 cycles: still progress, and not stopped. At 128² in `plume` with a tolerance
/// of 1e-12 the residual falls to 1e-6 in 6 cycles and then wanders between 1.0e-6 and 1.4e-6,
/// so the solve stops 6 cycles after its last fall instead of running all 20.
pub const FLOOR_WINDOW_MULTIGRID: u32 = 6;

/// The floor's window in units of `kind` on an `nx` x `ny` grid: V-cycles for multigrid
/// (`FLOOR_WINDOW_MULTIGRID`); for Jacobi and SOR, whose contraction per sweep is close to 1 and
/// falls with the grid's size, the units in which the slowest mode of a box with an open side
/// falls `FLOOR_FALL`² -fold (a solve that falls less than half as fast, in logarithm, has
/// stopped), at least `FLOOR_WINDOW_MULTIGRID`. That mode is a quarter wave over the longer side
/// (an outflow or inflow pins the pressure at one end), twice the closed box's half wave, and
/// contracts about 4 times slower: with the closed box's mode, Jacobi on 22 x 18 with an
/// outflow stopped at 1.4e-4 while still converging to 1e-4. Jacobi at 128² has a window of
/// about 1850 units (14 800 sweeps, past its cap), SOR with ω = 1.9 about 78 units (310
/// sweeps), 19 units at 64². 0 (no test) where the method does not converge.
pub fn floor_window(kind: SolverKind, nx: usize, ny: usize, jacobi_weight: f32, omega: f32) -> u32 {
    let Some(rate) = slowest_rate(kind, 2 * nx, 2 * ny, jacobi_weight, omega) else {
        return match kind {
            SolverKind::Multigrid => FLOOR_WINDOW_MULTIGRID,
            // CG's residual stalls for several iterations and then drops (the comb of
            // tests/mgpcg.rs at 128²: 4.2e-3 at 20 iterations, 4.7e-3 at 30, 2.2e-3 at 40)
            SolverKind::Mgpcg => 2 * FLOOR_WINDOW_MULTIGRID,
            _ => 0,
        };
    };
    let sweeps = 2.0 * (FLOOR_FALL as f64).ln() / -rate.ln();
    ((sweeps / unit_sweeps(kind) as f64).ceil().min(MAX_COUNT as f64) as u32).max(FLOOR_WINDOW_MULTIGRID)
}

/// The contraction per sweep of the slowest mode of a closed box, (1 + cos(pi/N))/2 of the
/// Jacobi iteration, N the longer side: weighted Jacobi contracts it by 1 - w(1 - mu) a sweep,
/// red-black SOR by the SOR spectral radius for omega and mu (Young). None for multigrid (its
/// V-cycle's rate does not follow the grid) and where the method does not converge.
fn slowest_rate(kind: SolverKind, nx: usize, ny: usize, jacobi_weight: f32, omega: f32) -> Option<f64> {
    let n = nx.max(ny).max(2) as f64;
    let mu = (1.0 + (std::f64::consts::PI / n).cos()) / 2.0;
    let rate = match kind {
        SolverKind::Multigrid | SolverKind::Mgpcg => return None,
        SolverKind::Jacobi => 1.0 - jacobi_weight as f64 * (1.0 - mu),
        SolverKind::Sor => {
            let w = omega as f64;
            let d = w * w * mu * mu - 4.0 * (w - 1.0);
            if d > 0.0 { ((w * mu + d.sqrt()) / 2.0).powi(2) } else { w - 1.0 }
        }
    };
    (rate > 0.0 && rate < 1.0).then_some(rate)
}

/// Units a solve from zero needs to reach `tolerance` on an `nx` x `ny` grid, from the slowest
/// mode of a closed box (1 + cos(pi/N))/2 of the Jacobi iteration, N the longer side: weighted
/// Jacobi contracts it by 1 - w(1 - mu) a sweep, red-black SOR by the SOR spectral radius for
/// omega and mu (Young), times `SCRATCH_SAFETY`; multigrid by its V-cycle, whatever the size (all
/// of `max_units`, at most 20 by default). u32::MAX where the method does not converge.
pub fn scratch_units(kind: SolverKind, nx: usize, ny: usize, jacobi_weight: f32, omega: f32, tolerance: f32) -> u32 {
    let n = nx.max(ny).max(2) as f64;
    let mu = (1.0 + (std::f64::consts::PI / n).cos()) / 2.0;
    let rate = match kind {
        SolverKind::Multigrid | SolverKind::Mgpcg => return u32::MAX,
        SolverKind::Jacobi => 1.0 - jacobi_weight as f64 * (1.0 - mu),
        SolverKind::Sor => {
            let w = omega as f64;
            let d = w * w * mu * mu - 4.0 * (w - 1.0);
            if d > 0.0 { ((w * mu + d.sqrt()) / 2.0).powi(2) } else { w - 1.0 }
        }
    };
    let target = (tolerance as f64 * GATE_MARGIN as f64).clamp(1e-12, 0.5).ln();
    if !(rate > 0.0 && rate < 1.0) {
        return u32::MAX;
    }
    let sweeps = SCRATCH_SAFETY * target / rate.ln();
    (sweeps / unit_sweeps(kind) as f64).ceil().min(u32::MAX as f64) as u32
}

/// How a solve to a tolerance is recorded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Plan {
    /// Units recorded as plain dispatches.
    pub direct: u32,
    /// Gated units after them, each followed by a check.
    pub gated: u32,
    /// Gated units checked one by one before the checks space out (`tail_block`).
    pub fine: u32,
}

impl Plan {
    /// `reach`: units the direct and gated ones together reach at least (within `max_units`); 0
    /// in a running flow, where spare units follow the prediction: `EXTRA_UNITS`, or as many as
    /// predicted where that is more. A solve that converges slowly needs counts that jump from
    /// step to step by a share of the count, not by one or two: in `logo` (thin obstacles the
    /// coarse levels do not see, a V-cycle takes about 13 % off the residual) the V-cycles needed
    /// went from 6 to more than 8 in one step, and with two spares 48 of 190 steps stopped above
    /// the tolerance; with as many spares as predicted, none did, for 0.5 % more V-cycles (the
    /// spares a step does not need are gated dispatches of no workgroups). The predicted count's
    /// last unit is gated too (above the floor): a step that needs one fewer does not run it, and
    /// one that needs it pays one check more than a direct unit would.
    pub fn new(prediction: Option<u32>, max_units: u32, reach: u32) -> Plan {
        Plan::with_spares(prediction, max_units, reach, EXTRA_UNITS)
    }

    /// `new` with `spares` in place of `EXTRA_UNITS` (`SolveSpec::spares`).
    pub fn with_spares(prediction: Option<u32>, max_units: u32, reach: u32, spares: u32) -> Plan {
        match prediction {
            // nothing known: every unit checked, to learn the count exactly
            None => {
                let gated = max_units.min(MAX_COUNT);
                Plan { direct: 0, gated, fine: gated }
            }
            Some(n) => {
                let predicted = n.max(FLOOR_UNITS).min(max_units);
                let direct = predicted.saturating_sub(1).clamp(FLOOR_UNITS, MAX_DIRECT).min(predicted);
                // the prediction's gated units (its last one), then the spares
                let fine = predicted - direct + spares.max(predicted);
                let gated = fine.max(reach.saturating_sub(direct)).min(max_units - direct).min(MAX_COUNT);
                Plan { direct, gated, fine }
            }
        }
    }

    /// The prediction after this plan's solve reported `r` (units), at least `FLOOR_UNITS`. A
    /// solve that stopped at its cap above the tolerance asks at once for the units its rate
    /// says it needs (ratio = rate^units), at least one more than it ran; one that stopped at the
    /// floor for the units at which it last made progress (`SolveReport::floor_at`): more would
    /// be spent as plain dispatches that no check can stop. One that converged before its first
    /// gated unit asks for half.
    pub fn next(&self, r: &SolveReport, tolerance: f32, max_units: u32) -> u32 {
        let next = if r.stopped == Stop::Floor {
            r.floor_at.min(max_units)
        } else if !r.converged {
            let ran = r.iterations.max(1);
            let target = (tolerance * GATE_MARGIN) as f64;
            let ratio = r.ratio as f64;
            let needed = if ratio > 0.0 && ratio < 1.0 && target > 0.0 {
                (ran as f64 * target.ln() / ratio.ln()).ceil().min(u32::MAX as f64) as u32
            } else {
                2 * ran
            };
            needed.max(ran + 1).min(max_units)
        } else if r.iterations <= self.direct && self.direct > FLOOR_UNITS {
            // the check after the direct units passed: the solve needed fewer, by how many no
            // check says, so the count halves (after `logo`'s first solve, 20 units come down to
            // its usual 2 in four steps, not in nineteen); a step that then needs more runs
            // the gated units, checked one by one, and the count is known again
            r.iterations.div_ceil(2)
        } else {
            r.iterations
        };
        next.max(FLOOR_UNITS)
    }
}
