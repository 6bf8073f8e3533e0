//! What each command does. The scene config is the one source of simulation settings: a
//! changed config is validated, then applied to the running simulation in one call; only a new
//! grid re-creates the state (and its pipelines). Reset and a scene of the same grid size
//! re-upload the initial fields into the buffers that exist.

use super::{App, rebuild};
use crate::error::Result;
use crate::config::{Scene, Source};
use crate::sim::Simulation;
use crate::ui::Command;

impl App {
    /// Applies a command; one that fails leaves things as they were and says why in the panel.
    pub(super) fn apply(&mut self, c: Command) {
        let result = match c {
            Command::SetPaused(p) => {
                self.stepper.set_paused(p);
                Ok(())
            }
            Command::Step => {
                self.stepper.single_step();
                Ok(())
            }
            Command::Reset => {
                self.building = None;
                self.reset()
            }
            Command::ClearInk => {
                self.clear_ink();
                Ok(())
            }
            Command::Open(name) => {
                self.building = None;
                self.open(&name)
            }
            Command::Screenshot => {
                if let Some(r) = self.running.as_mut() {
                    r.capture.screenshot(&self.source.label());
                }
                Ok(())
            }
            Command::ToggleRecording => match self.running.as_mut() {
                Some(r) => r.capture.toggle_recording(&self.source.label()),
                None => Ok(()),
            },
            Command::Quit => {
                self.quit = true;
                Ok(())
            }
            Command::Configure(scene) => self.configure(*scene, false),
            Command::ConfigureAnyway(scene) => self.configure(*scene, true),
        };
        match result {
            Err(e) => {
                eprintln!("smokebox: {e}");
                self.panel.message = Some(e.to_string());
            }
            Ok(()) if self.building.is_none() => self.panel.message = None,
            Ok(()) => {}
        }
    }

    /// Swaps in a state the worker has finished, with the settings applied since it started.
    pub(super) fn take_built_state(&mut self) {
        let Some(done) = self.building.as_ref().and_then(|b| b.poll()) else { return };
        let built = self.building.take().expect("polled above");
        match (done, self.running.as_mut()) {
            (Ok(mut sim), Some(r)) => {
                let mut scene = self.scene.clone();
                scene.grid = built.scene.grid;
                if let Err(e) = sim.configure(&scene) {
                    self.panel.message = Some(e.to_string());
                    return;
                }
                r.replace_sim(sim);
                self.scene = scene;
                self.panel.message = None;
                self.after_new_state();
            }
            (Err(e), _) => self.panel.message = Some(e.to_string()),
            (Ok(_), None) => {}
        }
    }

    /// Runs with `scene` from now on: the same grid applies in place, a new one is built on a
    /// worker thread (asking first, unless `confirmed`, when it would not run interactively).
    fn configure(&mut self, scene: Scene, confirmed: bool) -> Result<()> {
        scene.validate(&self.source)?;
        if scene.boundary != self.scene.boundary {
            scene.validate_geometry(&self.source)?;
        }
        let Some(r) = self.running.as_mut() else {
            self.scene = scene;
            return Ok(());
        };
        let (nx, ny) = (scene.grid.nx as usize, scene.grid.ny as usize);
        if (nx, ny) != (r.sim.nx, r.sim.ny) {
            crate::sim::check_fits(&r.gpu.device.limits(), nx, ny)?;
            let bytes = crate::sim::buffers::bytes_for(nx, ny);
            if !confirmed && let Some(text) = rebuild::cost_question(self.stepper.step_ms, r.sim.nx * r.sim.ny, nx * ny, bytes) {
                self.panel.confirm = Some(crate::ui::Confirm { scene: Box::new(scene), text });
                return Ok(());
            }
            self.panel.message = Some(format!("building the {nx}×{ny} grid…"));
            self.building = Some(rebuild::Building::start(&r.gpu, scene, self.source.clone()));
            return Ok(());
        } else if scene.grid.cell_size != self.scene.grid.cell_size {
            // same buffers, another scale: the scene restarts with its geometry in the new cells
            restart(&mut r.sim, &scene, &self.source)?;
            self.after_new_state();
        } else {
            r.sim.configure(&scene)?;
        }
        self.scene = scene;
        Ok(())
    }

    /// Back to time zero of the current scene config, in the buffers that exist.
    fn reset(&mut self) -> Result<()> {
        if let Some(r) = self.running.as_mut() {
            restart(&mut r.sim, &self.scene, &self.source)?;
        }
        self.after_new_state();
        Ok(())
    }

    /// Opens a built-in scene or a scene file: its settings replace the current ones.
    fn open(&mut self, name: &str) -> Result<()> {
        let (scene, source) = Scene::load(name, &[])?;
        scene.validate_geometry(&source)?;
        if let Some(r) = self.running.as_mut() {
            if (scene.grid.nx, scene.grid.ny) == (r.sim.nx as i64, r.sim.ny as i64) {
                restart(&mut r.sim, &scene, &source)?;
            } else {
                r.replace_sim(rebuild::new_sim(&r.gpu, &scene, &source)?);
            }
        }
        self.view.open_scene(&scene);
        self.scene = scene;
        self.source = source;
        self.after_new_state();
        if let Some(r) = &self.running {
            r.window.set_title(&self.title());
        }
        Ok(())
    }

    fn clear_ink(&mut self) {
        if let Some(r) = &self.running {
            let mut enc = r.gpu.device.create_command_encoder(&Default::default());
            enc.clear_buffer(&r.sim.buffers.ink, 0, None);
            enc.clear_buffer(&r.sim.buffers.density, 0, None);
            r.gpu.queue.submit([enc.finish()]);
            self.stale_stats_until = r.sim.step_index;
        }
        self.stats.forget_state();
        self.field_dirty = true;
    }

    /// The state was replaced: figures of the old one no longer hold.
    fn after_new_state(&mut self) {
        self.stats.forget_state();
        self.pressure_auto = None;
        self.stale_stats_until = 0;
        self.pointer.last = None;
        self.field_dirty = true;
        if let Some(r) = self.running.as_mut() {
            r.values.latest = None;
        }
    }
}

/// Time zero of `scene` in the simulation's own buffers (same grid), with its settings.
fn restart(sim: &mut Simulation, scene: &Scene, source: &Source) -> Result<()> {
    let fields = crate::sim::init::initial_fields(scene, source)?;
    sim.configure(scene)?;
    sim.restore(&fields);
    Ok(())
}
