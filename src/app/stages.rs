//! The stage view in the window (key T, `view.stage_view`): one step taken apart by
//! src/sim/stepwise.rs, a stage a press of S or → (or the panel's Next stage), each encoded in a
//! submission of its own with nothing read back, and shown by the overlays that show what it did.
//! A line on the field names the stage; the panel gives its equation in words. Leaving (T again,
//! Esc, Run) finishes the step under way, puts back the user's overlays and run state, and the
//! run goes on from there.

use super::{App, SETTLE_FRAMES};
use crate::render::Overlays;
use crate::sim::Simulation;
use crate::sim::level_picture::LevelPart;
use crate::sim::stepwise::{self, Stage, Stepwise};
use crate::ui::StageShown;

pub struct StageView {
    steps: Stepwise,
    /// The user's overlays and whether the run was paused, put back on leaving.
    overlays: Overlays,
    paused: bool,
    /// The simulation it was opened on (grid and device): on another one the view opens anew.
    of: (usize, usize, u64),
}

/// Edge arrows need cells this wide (px); below, the cell arrows show the velocity.
const EDGE_ARROW_CELL_PX: f32 = 12.0;

/// The overlays that show `stage` (None: none taken yet), over the user's own settings (ranges,
/// arrow lengths): the velocity as arrows, the divergence before the solve, the pressure with the
/// divergence it leaves, the divergence after the correction.
pub fn overlays_for(stage: Option<Stage>, user: &Overlays, pixels_per_cell: f32) -> Overlays {
    let mut o = Overlays { divergence: false, divergence_after: false, pressure: false, curl: false, level_picture: None, ..user.clone() };
    let edges = pixels_per_cell >= EDGE_ARROW_CELL_PX;
    let arrows = |o: &mut Overlays| (o.arrows_mac, o.arrows_centre) = (edges, !edges);
    match stage {
        None | Some(Stage::SourcesAndForces | Stage::Viscosity | Stage::Advect) => arrows(&mut o),
        Some(Stage::Divergence) => (o.divergence, o.arrows_mac, o.arrows_centre) = (true, false, false),
        Some(Stage::Pressure(_) | Stage::Solve) => {
            (o.pressure, o.divergence, o.divergence_after, o.arrows_mac, o.arrows_centre) = (true, true, true, false, false)
        }
        // the level's values are in the divergence-after buffer (src/sim/level_picture.rs)
        Some(Stage::Level { part, .. }) => {
            // on black: the ink's colours would read as the tint's
            (o.divergence, o.divergence_after, o.arrows_mac, o.arrows_centre, o.ink) = (true, true, false, false, false);
            o.level_picture = Some(match part {
                LevelPart::Residual => "V-cycle level: the residual restricted onto it",
                LevelPart::Correction => "V-cycle level: its correction",
            });
        }
        Some(Stage::Project) => {
            arrows(&mut o);
            (o.divergence, o.divergence_after) = (true, true);
        }
    }
    o
}

/// The line on the field and the panel's equation for the view's last stage.
pub fn shown(steps: &Stepwise, sim: &Simulation) -> StageShown {
    let kind = sim.solver.kind;
    let n = steps.stages.len();
    let sub = match steps.plan {
        Some(plan) if plan.substeps > 1 => format!("sub-step {}/{}, ", steps.substep + 1, plan.substeps),
        _ => String::new(),
    };
    let Some(stage) = steps.shown else {
        let next = stepwise::stage_title(steps.stages[0], kind);
        return StageShown {
            line: format!("0/{n} step {}: S or → takes the first stage ({next})", sim.step_index + 1),
            equation: "Each press of S or → runs one stage of the next step; T or Esc leaves.".into(),
        };
    };
    // the stage just taken: the last of a step that ended
    let at = if steps.in_step() { steps.taken } else { n };
    let done = if steps.in_step() { "" } else { " (step done)" };
    let levels = stepwise::level_sizes(sim.nx, sim.ny);
    StageShown {
        line: format!("{sub}{at}/{n} {}{done}", stepwise::stage_title(stage, kind)),
        equation: stepwise::stage_equation(stage, kind, &levels),
    }
}

impl App {
    /// Opens or closes the stage view as `view.stage_view` asks (a view opened on another
    /// simulation opens anew), and puts its stage in the panel.
    pub(super) fn sync_stage_view(&mut self) {
        let Some(r) = self.running.as_mut() else { return };
        let sim = &mut r.sim;
        let of = (sim.nx, sim.ny, sim.device_serial);
        if let Some(old) = self.stage_view.take_if(|v| v.of != of) {
            // its buffers went with the old simulation; its step with it
            self.view.overlays = old.overlays;
        }
        match (self.view.stage_view, self.stage_view.take()) {
            (true, None) => match sim.stepwise() {
                Ok(steps) => {
                    // (it made the divergence-after buffer the stages draw, the levels' among them)
                    r.attach_buffers();
                    let sim = &mut r.sim;
                    let (overlays, paused) = (self.view.overlays.clone(), self.stepper.paused());
                    self.stepper.set_paused(true);
                    self.view.overlays = overlays_for(None, &overlays, self.viewport.pixels_per_cell(sim.nx));
                    self.stage_view = Some(StageView { steps, overlays, paused, of });
                    if self.frame_log.is_some() {
                        eprintln!("stage view opened at step {}", sim.step_index);
                    }
                }
                Err(e) => {
                    self.view.stage_view = false;
                    self.panel.message = Some(e.to_string());
                }
            },
            (false, Some(mut v)) => {
                let mut encoder = sim.device.create_command_encoder(&Default::default());
                sim.finish_stages(&mut v.steps, &mut encoder);
                sim.queue.submit([encoder.finish()]);
                sim.after_submit();
                self.view.overlays = v.overlays;
                self.stepper.set_paused(v.paused);
                self.field_dirty = true;
                if self.frame_log.is_some() {
                    eprintln!("stage view left at step {}", sim.step_index);
                }
            }
            (_, kept) => self.stage_view = kept,
        }
        self.panel.stage = self.stage_view.as_ref().map(|v| shown(&v.steps, &r.sim));
    }

    /// Takes the next stage (S, → or Next stage while the view is on); false when it is off.
    pub(super) fn next_stage(&mut self) -> bool {
        let (Some(v), Some(r)) = (self.stage_view.as_mut(), self.running.as_mut()) else { return false };
        let sim = &mut r.sim;
        let mut encoder = sim.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("stage") });
        let stage = sim.encode_stage(&mut v.steps, &mut encoder);
        sim.queue.submit([encoder.finish()]);
        sim.after_submit();
        self.view.overlays = overlays_for(Some(stage), &v.overlays, self.viewport.pixels_per_cell(sim.nx));
        let line = shown(&v.steps, sim).line;
        if self.frame_log.is_some() {
            // the frame log names each stage (the window test follows it)
            eprintln!("stage {line}");
        }
        self.panel.stage = Some(shown(&v.steps, sim));
        self.field_dirty = true;
        self.settle_frames = SETTLE_FRAMES;
        true
    }

    /// The state was replaced: the step under way is dropped, and the picture is the new state's.
    pub(super) fn forget_stage_step(&mut self) {
        if let Some(v) = self.stage_view.as_mut() {
            v.steps.forget_step();
            self.view.overlays = overlays_for(None, &v.overlays, self.viewport.pixels_per_cell(self.scene.grid.nx as usize));
        }
    }

    /// The stage view's line on the field, while it is on.
    pub(super) fn stage_line(&self) -> Option<String> {
        self.panel.stage.as_ref().filter(|_| self.stage_view.is_some()).map(|s| s.line.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_stage_shows_its_own_overlays_and_keeps_the_users_settings() {
        let user = Overlays { curl: true, pressure_range: 7.0, ..Overlays::default() };
        let div = overlays_for(Some(Stage::Divergence), &user, 20.0);
        assert!(div.divergence && !div.divergence_after && !div.pressure && !div.curl);
        let p = overlays_for(Some(Stage::Pressure(4)), &user, 20.0);
        assert!(p.pressure && p.divergence && p.divergence_after && p.pressure_range == 7.0);
        let after = overlays_for(Some(Stage::Project), &user, 20.0);
        assert!(after.divergence_after && after.arrows_mac && !after.pressure);
        let level = overlays_for(Some(Stage::Level { level: 1, nx: 64, ny: 64, part: LevelPart::Residual }), &user, 20.0);
        assert!(level.divergence && level.divergence_after && level.level_picture.is_some() && !level.pressure);
        let legend = &level.legends(1.0, 1.0)[0];
        assert_eq!((legend.title, legend.unit), ("V-cycle level: the residual restricted onto it", "Pa"));
        // cells too small for edge arrows: the cell arrows
        let small = overlays_for(Some(Stage::Advect), &user, 4.0);
        assert!(small.arrows_centre && !small.arrows_mac);
    }

    #[test]
    fn the_page_url_opens_the_stage_view() {
        // `index.html?view.stage_view=true`, as the page applies its `view.` keys
        let view = crate::ui::View::default().with_override("stage_view=true").unwrap();
        assert!(view.stage_view && !crate::ui::View::default().stage_view);
    }
}
