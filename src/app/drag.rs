//! The brush's "move" mode: a press on a circle or rectangle obstacle of the scene picks it, a
//! drag moves it, and the release leaves it there. The scene's obstacle follows the pointer, so
//! Save scene, Copy link and Reset keep the new place; the simulation moves the body's cells a
//! few a step toward it and imposes the body's velocity on the fluid at its faces
//! (src/sim/move_body.rs).

use super::App;
use crate::config::Obstacle;
use crate::config::scene::Scene;
use crate::sim::move_body::BodyShape;
use crate::ui::BrushMode;

/// The obstacle being dragged: its index in the scene's list, and the pointer's offset from its
/// centre where it was picked (so it does not jump under the pointer).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Dragged {
    pub index: usize,
    pub grab: [f32; 2],
}

/// The shape of a scene obstacle that can be dragged (a PNG mask cannot).
pub fn shape_of(o: &Obstacle) -> Option<BodyShape> {
    match *o {
        Obstacle::Circle { center, radius } => Some(BodyShape::Circle { center, radius }),
        Obstacle::Rect { min, max } => Some(BodyShape::Rect {
            center: [0.5 * (min[0] + max[0]), 0.5 * (min[1] + max[1])],
            half: [0.5 * (max[0] - min[0]), 0.5 * (max[1] - min[1])],
        }),
        Obstacle::Mask { .. } => None,
    }
}

/// The obstacle under `at` (metres), within `slack` of its edge: the last of the list, which
/// is painted over the others.
pub fn pick(scene: &Scene, at: [f32; 2], slack: f32) -> Option<(usize, BodyShape)> {
    scene.obstacles.iter().enumerate().rev().find_map(|(n, o)| {
        let shape = shape_of(o)?;
        let c = shape.center();
        let (dx, dy) = (at[0] - c[0], at[1] - c[1]);
        let hit = match shape {
            BodyShape::Circle { radius, .. } => dx.hypot(dy) <= radius + slack,
            BodyShape::Rect { half, .. } => dx.abs() <= half[0] + slack && dy.abs() <= half[1] + slack,
        };
        hit.then_some((n, shape))
    })
}

/// Moves obstacle `o` so that its centre lies at `c`.
pub fn place(o: &mut Obstacle, c: [f32; 2]) {
    match o {
        Obstacle::Circle { center, .. } => *center = c,
        Obstacle::Rect { min, max } => {
            let half = [0.5 * (max[0] - min[0]), 0.5 * (max[1] - min[1])];
            *min = [c[0] - half[0], c[1] - half[1]];
            *max = [c[0] + half[0], c[1] + half[1]];
        }
        Obstacle::Mask { .. } => {}
    }
}

impl App {
    /// A press at `at` (metres) in the move mode: picks the obstacle there, if any.
    pub(super) fn pick_obstacle(&mut self, at: [f32; 2]) {
        let Some(r) = self.running.as_mut() else { return };
        // half a cell of slack: a small disc is a few cells wide on the screen
        match pick(&self.scene, at, 0.5 * r.sim.params.h) {
            Some((index, shape)) => {
                let c = shape.center();
                r.sim.pick_body(shape);
                self.dragged = Some(Dragged { index, grab: [at[0] - c[0], at[1] - c[1]] });
            }
            None => self.panel.message = Some("no circle or rectangle obstacle here to move".to_string()),
        }
    }

    /// Each frame: the probe and move tools paint nothing (`pin_probe` pins probes); the dragged
    /// obstacle follows the pointer while the move tool's button is held, and is let go otherwise.
    pub(super) fn tools(&mut self, splats: &mut Vec<crate::sim::params::Splat>) {
        let mode = self.view.brush.mode;
        if matches!(mode, BrushMode::Probe | BrushMode::Move) {
            splats.clear();
        }
        let held = if mode == BrushMode::Move && self.pointer.left { self.pointer.last } else { None };
        self.drag_obstacle(held);
    }

    /// Each frame in the move mode: the dragged obstacle follows the pointer (`at`, metres, while
    /// the button is held; None once it is let go).
    pub(super) fn drag_obstacle(&mut self, at: Option<[f32; 2]>) {
        let Some(d) = self.dragged else { return };
        let Some(r) = self.running.as_mut() else { return };
        let Some(at) = at else {
            r.sim.release_body();
            self.dragged = None;
            return;
        };
        let (w, h) = self.scene.size();
        let c = [(at[0] - d.grab[0]).clamp(0.0, w), (at[1] - d.grab[1]).clamp(0.0, h)];
        if let Some(o) = self.scene.obstacles.get_mut(d.index) {
            place(o, c);
        }
        r.sim.drag_body_to(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_press_picks_the_topmost_circle_or_rectangle_and_a_move_keeps_its_size() {
        let obstacles = vec![Obstacle::Rect { min: [0.1, 0.1], max: [0.5, 0.3] }, Obstacle::Circle { center: [0.4, 0.2], radius: 0.05 }];
        let mut scene = Scene { obstacles, ..Scene::default() };
        assert_eq!(pick(&scene, [0.42, 0.2], 0.0).map(|p| p.0), Some(1), "the circle lies over the rectangle");
        assert_eq!(pick(&scene, [0.15, 0.2], 0.0).map(|p| p.0), Some(0));
        assert_eq!(pick(&scene, [0.8, 0.8], 0.0), None);
        place(&mut scene.obstacles[0], [0.6, 0.6]);
        let Obstacle::Rect { min, max } = scene.obstacles[0] else { panic!() };
        assert!((min[0] - 0.4).abs() < 1e-6 && (max[0] - 0.8).abs() < 1e-6 && (min[1] - 0.5).abs() < 1e-6 && (max[1] - 0.7).abs() < 1e-6);
    }

    #[test]
    fn a_moved_obstacle_travels_in_a_link() {
        let (base, _) = Scene::load("wind-tunnel", &[]).unwrap();
        let mut moved = base.clone();
        place(&mut moved.obstacles[0], [1.25, 0.375]);
        let sets = crate::config::overrides::overrides_between(&base, &moved);
        let (opened, _) = Scene::load("wind-tunnel", &sets).unwrap();
        assert_eq!(opened.obstacles, moved.obstacles, "{sets:?}");
    }
}
