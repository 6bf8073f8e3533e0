//! The step controller: a fixed time step, explicit states (running, paused, single step) and a
//! budget of steps a frame that gives up on real time rather than freezing the window when
//! frames run long (blub's habit). It also says why fewer steps ran than were asked for.

/// Frames slower than this make the app take fewer simulation steps per frame.
pub const FRAME_BUDGET_MS: f32 = 1000.0 / 30.0;
/// ...but never less than one step a frame while a step costs less than this much GPU time: when
/// drawing alone is slow (a loaded machine, a software renderer) the flow must still move.
pub const STEP_FLOOR_MS: f32 = 100.0;
/// The most single steps one frame takes when several were queued.
const MAX_SINGLE_STEPS: u32 = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunState {
    Running,
    Paused,
    /// Paused, with this many steps queued (S, →, the Step button).
    SingleStep(u32),
}

/// This frame's steps and, when fewer than asked for, why.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    pub steps: u32,
    pub requested: u32,
    pub limit: Option<String>,
}

pub struct StepController {
    pub state: RunState,
    /// Steps a frame the frame budget allows (fractional: 0.5 is a step every other frame).
    budget: f32,
    /// Unspent fractions of a step.
    credit: f32,
    /// GPU time of one step, from the timestamp queries (0 until known).
    pub step_ms: f32,
    /// Run every step asked for however long frames take (the view's "every step" setting):
    /// for a reproducible number of steps a frame at the cost of a slower window.
    pub every_step: bool,
}

impl StepController {
    pub fn new(requested: u32) -> StepController {
        StepController { state: RunState::Running, budget: requested as f32, credit: 0.0, step_ms: 0.0, every_step: false }
    }

    pub fn paused(&self) -> bool {
        self.state != RunState::Running
    }

    pub fn set_paused(&mut self, paused: bool) {
        self.state = if paused { RunState::Paused } else { RunState::Running };
        self.credit = 0.0;
    }

    /// Queues one step; a running simulation pauses after it.
    pub fn single_step(&mut self) {
        self.state = match self.state {
            RunState::SingleStep(n) => RunState::SingleStep(n + 1),
            _ => RunState::SingleStep(1),
        };
    }

    /// Whether the next frame has steps to take (else a paused, unchanged app need not redraw).
    pub fn has_work(&self) -> bool {
        self.state != RunState::Paused
    }

    /// Plans this frame's steps from the mean frame time, `requested` steps a frame.
    pub fn plan(&mut self, requested: u32, frame_ms: f32) -> Plan {
        let requested = requested.max(1);
        let floor = (STEP_FLOOR_MS / self.step_ms.max(1e-3)).clamp(0.25, 1.0);
        if frame_ms > FRAME_BUDGET_MS * 1.15 {
            self.budget *= 0.9;
        } else if frame_ms < FRAME_BUDGET_MS * 0.85 {
            self.budget += 0.1;
        }
        self.budget = self.budget.min(requested as f32).max(floor);
        match self.state {
            RunState::Paused => Plan { steps: 0, requested, limit: Some("paused".into()) },
            RunState::SingleStep(n) => {
                self.state = RunState::Paused;
                let steps = n.min(MAX_SINGLE_STEPS);
                Plan { steps, requested, limit: Some(format!("paused: {steps} single")) }
            }
            RunState::Running if self.every_step => Plan { steps: requested, requested, limit: None },
            RunState::Running => {
                self.credit += self.budget;
                let steps = self.credit.floor();
                self.credit -= steps;
                let steps = steps as u32;
                let limit = (steps < requested).then(|| self.reason(requested, frame_ms, floor));
                Plan { steps, requested, limit }
            }
        }
    }

    fn reason(&self, requested: u32, frame_ms: f32, floor: f32) -> String {
        if self.budget <= floor && floor < 1.0 {
            format!("GPU step {:.0} ms: 1 in {:.0} frames", self.step_ms, 1.0 / self.budget)
        } else if self.budget < requested as f32 {
            format!("frames {frame_ms:.0} ms > {FRAME_BUDGET_MS:.0} ms budget")
        } else {
            "after a slow frame".into()
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::app::stepper::*;

    #[test]
    fn fast_frames_run_every_step_asked_for() {
        let mut s = StepController::new(4);
        for _ in 0..10 {
            assert_eq!(s.plan(4, 10.0), Plan { steps: 4, requested: 4, limit: None });
        }
    }

    #[test]
    fn slow_frames_shrink_the_budget_to_one_step_and_say_why() {
        let mut s = StepController::new(16);
        s.step_ms = 5.0;
        let mut last = s.plan(16, 80.0);
        for _ in 0..60 {
            last = s.plan(16, 80.0);
        }
        assert_eq!(last.steps, 1, "{last:?}");
        assert!(last.limit.as_deref().is_some_and(|r| r.contains("80 ms")), "{last:?}");
        // frames become fast again: the budget climbs back
        for _ in 0..200 {
            last = s.plan(16, 5.0);
        }
        assert_eq!(last.steps, 16, "{last:?}");
    }

    #[test]
    fn every_step_runs_the_steps_asked_for_however_slow_the_frames() {
        let mut s = StepController::new(4);
        s.every_step = true;
        s.step_ms = 400.0;
        for _ in 0..60 {
            assert_eq!(s.plan(4, 900.0), Plan { steps: 4, requested: 4, limit: None });
        }
        // switched back off, the budget (shrunk meanwhile) limits again and says why
        s.every_step = false;
        let last = (0..5).map(|_| s.plan(4, 900.0)).last().unwrap();
        assert!(last.steps < 4 && last.limit.is_some(), "{last:?}");
    }

    #[test]
    fn a_slow_step_runs_every_other_frame_at_most_when_frames_are_slow() {
        let mut s = StepController::new(1);
        s.step_ms = 400.0;
        let settling: u32 = (0..40).map(|_| s.plan(1, 500.0).steps).sum();
        assert!(settling >= 10, "{settling}");
        // settled at the floor 100/400: a step every 4 frames
        let steps: u32 = (0..40).map(|_| s.plan(1, 500.0).steps).sum();
        assert_eq!(steps, 10);
        let plan = s.plan(1, 500.0);
        assert!(plan.limit.is_some_and(|r| r.contains("400 ms")));
    }

    #[test]
    fn paused_single_step_and_run() {
        let mut s = StepController::new(2);
        s.set_paused(true);
        assert_eq!(s.plan(2, 10.0).steps, 0);
        assert!(!s.has_work());
        s.single_step();
        s.single_step();
        assert!(s.has_work());
        assert_eq!(s.plan(2, 10.0).steps, 2);
        assert_eq!(s.state, RunState::Paused);
        assert_eq!(s.plan(2, 10.0).steps, 0);
        // a step while running pauses after it
        s.set_paused(false);
        s.single_step();
        assert_eq!(s.plan(2, 10.0).steps, 1);
        assert!(s.paused());
    }
}
