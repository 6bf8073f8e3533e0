//! A dragged obstacle (shaders/move_body.wgsl; CPU twin src/sim/cpu/move_body.rs): the body's
//! cells follow the pointer a step at a time, and its faces impose its velocity on the fluid
//! (one-way coupling, u·n = U_body·n: shaders/shared/solid.wgsl `face_speed`). `Drag` is the
//! state between a press and the step after the release; `Simulation::pick_body`,
//! `drag_body_to` and `release_body` drive it.

use super::kernel::Bound;
use super::params::{BODY_DROP, BODY_MOVE, BODY_NONE, BODY_PICK, Params, SHAPE_CIRCLE, SHAPE_RECT};
use super::stage::Ctx;
use crate::error::Result;

pub struct MoveBody {
    kernel: Bound,
    cells: [u32; 2],
}

impl MoveBody {
    pub fn new(ctx: &Ctx) -> Result<MoveBody> {
        Ok(MoveBody { kernel: ctx.bound("move_body", "main")?, cells: ctx.cells() })
    }

    /// Relabels the cells for this step's `Params::body_stage` (none: nothing to dispatch).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, self.cells);
    }
}

/// The shape of a body that can be dragged: a scene's circle or rectangle obstacle.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BodyShape {
    Circle {
        center: [f32; 2],
        radius: f32,
    },
    /// An axis-aligned rectangle by its centre and half sides, metres.
    Rect {
        center: [f32; 2],
        half: [f32; 2],
    },
}

impl BodyShape {
    pub fn center(&self) -> [f32; 2] {
        match *self {
            BodyShape::Circle { center, .. } | BodyShape::Rect { center, .. } => center,
        }
    }

    /// The same shape centred at `c`.
    pub fn at(&self, c: [f32; 2]) -> BodyShape {
        match *self {
            BodyShape::Circle { radius, .. } => BodyShape::Circle { center: c, radius },
            BodyShape::Rect { half, .. } => BodyShape::Rect { center: c, half },
        }
    }

    /// `Params::body_kind` and `Params::body_shape`.
    pub fn words(&self) -> (u32, [f32; 4]) {
        match *self {
            BodyShape::Circle { center, radius } => (SHAPE_CIRCLE, [center[0], center[1], radius, 0.0]),
            BodyShape::Rect { center, half } => (SHAPE_RECT, [center[0], center[1], half[0], half[1]]),
        }
    }
}

/// The most cells a dragged body moves in one step: a fast drag is followed over a few steps
/// rather than jumped across, so the fluid in between is pushed aside, not stepped over.
pub const MAX_CELLS_A_STEP: f32 = 4.0;

/// A body being dragged: where it is (its cells at the last step), where the pointer wants it,
/// whether its cells are the body's yet (picked) and whether the button was let go.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Drag {
    pub shape: BodyShape,
    pub target: [f32; 2],
    picked: bool,
    released: bool,
}

/// What one step does with the body: `Params::body_stage`, its velocity (m/s) and its shape after
/// the step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyStep {
    pub stage: u32,
    pub velocity: [f32; 2],
    pub shape: BodyShape,
}

impl BodyStep {
    /// Writes the step into the constants.
    pub fn apply(&self, p: &mut Params) {
        let (kind, words) = self.shape.words();
        p.body_stage = self.stage;
        p.body_kind = kind;
        p.body_shape = words;
        p.body_velocity = self.velocity;
    }
}

impl Drag {
    pub fn new(shape: BodyShape) -> Drag {
        Drag { shape, target: shape.center(), picked: false, released: false }
    }

    pub fn release(&mut self) {
        self.released = true;
    }

    /// Whether the body has come to rest and its cells are still solids again.
    pub fn done(&self, step: &BodyStep) -> bool {
        step.stage == BODY_DROP
    }

    /// The next step of `dt` seconds on a grid of cells `h`: the first labels the body's cells,
    /// then each moves the body toward the target by at most `MAX_CELLS_A_STEP` cells at the
    /// velocity that covers that distance in `dt`; a step that does not move it is still (zero
    /// velocity, nothing relabelled), and the first still step after the release drops it.
    pub fn advance(&mut self, dt: f32, h: f32) -> BodyStep {
        if !self.picked {
            self.picked = true;
            return BodyStep { stage: BODY_PICK, velocity: [0.0, 0.0], shape: self.shape };
        }
        let c = self.shape.center();
        let mut d = [self.target[0] - c[0], self.target[1] - c[1]];
        let length = d[0].hypot(d[1]);
        if length == 0.0 || dt <= 0.0 {
            let stage = if self.released { BODY_DROP } else { BODY_NONE };
            return BodyStep { stage, velocity: [0.0, 0.0], shape: self.shape };
        }
        let most = MAX_CELLS_A_STEP * h;
        if length > most {
            d = [d[0] * most / length, d[1] * most / length];
            self.shape = self.shape.at([c[0] + d[0], c[1] + d[1]]);
        } else {
            self.shape = self.shape.at(self.target);
        }
        BodyStep { stage: BODY_MOVE, velocity: [d[0] / dt, d[1] / dt], shape: self.shape }
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::move_body::{BodyShape, Drag};
    use crate::sim::params::{BODY_DROP, BODY_MOVE, BODY_PICK};

    #[test]
    fn a_drag_picks_then_follows_the_target_a_few_cells_a_step_then_drops() {
        let mut d = Drag::new(BodyShape::Circle { center: [0.5, 0.5], radius: 0.1 });
        assert_eq!(d.advance(0.1, 0.01).stage, BODY_PICK);
        d.target = [0.52, 0.5];
        let s = d.advance(0.1, 0.01);
        assert_eq!(s.stage, BODY_MOVE);
        assert!((s.velocity[0] - 0.2).abs() < 1e-5 && s.velocity[1] == 0.0, "{s:?}");
        // 0.2 m away: four cells (0.04 m) a step
        d.target = [0.72, 0.5];
        let s = d.advance(0.1, 0.01);
        assert!((s.velocity[0] - 0.4).abs() < 1e-4, "{s:?}");
        assert!((s.shape.center()[0] - 0.56).abs() < 1e-5);
        d.release();
        let stages: Vec<u32> = (0..5).map(|_| d.advance(0.1, 0.01).stage).collect();
        // 0.16 m left at 0.04 m a step, then the drop
        assert_eq!(stages, [BODY_MOVE, BODY_MOVE, BODY_MOVE, BODY_MOVE, BODY_DROP]);
        assert_eq!(d.shape.center(), [0.72, 0.5]);
    }
}
