//! What the pressure solve (src/sim/solver.rs) keeps between steps: its memory of the last
//! solves, and the slots its counts come back through a step later without blocking the frame.

use super::solve_plan::{Plan, SolveSpec};
use super::solver_check::SolveReport;
use std::sync::{Arc, atomic::AtomicBool};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SlotState {
    Free,
    Copied,
    Mapping,
}

pub struct FeedbackSlot {
    pub buffer: wgpu::Buffer,
    pub state: SlotState,
    pub mapped: Arc<AtomicBool>,
    pub plan: Plan,
    pub spec: Option<SolveSpec>,
    /// Copied before the last `forget_prediction`: its count of failed steps is the old state's.
    pub stale: bool,
    /// Which gated solve copied it (`Solvers::gated_solves`).
    pub solve: u64,
    /// The residual history was copied after the verdict (`Solvers::set_trace`).
    pub traced: bool,
}

/// What the solver remembers between steps.
#[derive(Clone, Copy, Debug, Default)]
pub struct Memory {
    pub spec: Option<SolveSpec>,
    pub prediction: Option<u32>,
    /// The most units the recent solves needed, each solve's weighed down by `solver::PEAK_DECAY` per
    /// solve read back since: the recorded units reach `solver::PEAK_REACH` times it (`Plan::new`'s reach). In `logo` a V-cycle takes
    /// about 13 % off the residual, so the count a step needs jumps by several from one step to the
    /// next; after steps that needed one, the prediction's spares (two) left 29 of 200 steps above
    /// the tolerance (BENCHMARKS.md, "Targets not yet met").
    pub peak: f32,
    /// Boundary kinds the set-up was done for; None: solids changed since.
    pub setup_for: Option<[u32; 4]>,
    pub jacobi_ready: bool,
    pub multigrid_ready: bool,
    pub last_plan: Plan,
    pub last_report: Option<SolveReport>,
    /// The newest count of steps that stopped above the tolerance (`Verdict::failed_steps`).
    pub failed_steps: u32,
    /// Of them, those that stopped at float32's floor only (`Verdict::floor_steps`).
    pub floor_steps: u32,
    /// The next solve may start far from its answer (after a solve at rest, or a load): its gated
    /// part reaches a solve from zero.
    pub cold: bool,
    /// The next chunk of the multigrid bottom's elimination (`Multigrid::encode_eliminate`); all
    /// done at `bottom_chunks`.
    pub bottom_next: u32,
    /// The set-up is for obstacles being painted: the bottom's elimination (about 23 ms at 128² on
    /// lavapipe, whole) then runs a chunk a step, and the coarse solve relaxes the bottom until it
    /// is done, so painting keeps its frame rate.
    pub lazy: bool,
    /// The brush changed the obstacles since the last solve (`mark_dirty`).
    pub painted: bool,
    /// The last solve read back stopped at float32's floor (`Stop::Floor`).
    pub floored: bool,
}
