//! The residual history of a pressure solve to a tolerance, for the convergence plot: the gate
//! of every check appends the units run and the relative residual (max |residual| / max |rhs|)
//! to the control words (shaders/solver_gate_check.wgsl `record`, `ctl::HISTORY`), and the
//! solve's feedback read-back brings them back with its verdict, never waited on
//! (src/sim/solver.rs). While a history is asked for (`Solvers::set_trace`), every unit is
//! checked, so the history has a point after each V-cycle or unit of sweeps.

use super::solve_plan::{Plan, unit_sweeps};
use super::solver_check::ctl;
use crate::config::SolverKind;

/// One solve's relative residual after each check: (sweeps or V-cycles run, ratio).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ResidualHistory {
    pub kind: Option<SolverKind>,
    pub points: Vec<(u32, f32)>,
}

impl ResidualHistory {
    /// From the history's words (`ctl::HISTORY_WORDS`, its length first) of a solve of `kind`.
    pub fn from_words(words: &[u32], kind: SolverKind) -> ResidualHistory {
        let n = (words[0] as usize).min(ctl::HISTORY_LEN);
        let sweeps = unit_sweeps(kind);
        let points = (0..n).map(|k| (words[1 + 2 * k] * sweeps, f32::from_bits(words[2 + 2 * k]))).collect();
        ResidualHistory { kind: Some(kind), points }
    }

    /// Whether the residual never rose from one check to the next.
    pub fn falls_monotonically(&self) -> bool {
        self.points.windows(2).all(|w| w[1].1 <= w[0].1)
    }
}

/// The plan with every unit checked: no direct units, all of them gated and checked one by one
/// (a check at the start too, before any unit).
pub fn every_unit_checked(plan: Plan) -> Plan {
    let units = plan.direct + plan.gated;
    Plan { direct: 0, gated: units, fine: units }
}
