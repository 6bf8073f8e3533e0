//! What each command does. The scene config is the one source of simulation settings: a
//! changed config is validated, then applied to the running simulation in one call; only a new
//! grid re-creates the state (and its pipelines). Reset and a scene of the same grid size
//! re-upload the initial fields into the buffers that exist.

use super::App;
use crate::error::Result;
use crate::gpu::Gpu;
use crate::scene::{Scene, Source};
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
            Command::Reset => self.reset(),
            Command::ClearInk => {
                self.clear_ink();
                Ok(())
            }
            Command::Open(name) => self.open(&name),
            Command::Configure(scene) => self.configure(*scene),
        };
        self.panel.message = result.err().map(|e| e.to_string());
        if let Some(m) = &self.panel.message {
            eprintln!("smokebox: {m}");
        }
    }

    /// Runs with `scene` from now on: the same grid applies in place, a new one rebuilds.
    fn configure(&mut self, scene: Scene) -> Result<()> {
        scene.validate(&self.source)?;
        if scene.boundary != self.scene.boundary {
            scene.validate_geometry(&self.source)?;
        }
        let Some(r) = self.running.as_mut() else {
            self.scene = scene;
            return Ok(());
        };
        if (scene.grid.nx, scene.grid.ny) != (self.scene.grid.nx, self.scene.grid.ny) {
            r.replace_sim(new_sim(&r.gpu, &scene, &self.source)?);
            self.after_new_state();
        } else if scene.grid.cell_size != self.scene.grid.cell_size {
            // same buffers, another scale: the scene restarts with its geometry in the new cells
            restart(&mut r.sim, &scene, &self.source)?;
            self.after_new_state();
        } else {
            configure(&mut r.sim, &scene);
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
                r.replace_sim(new_sim(&r.gpu, &scene, &source)?);
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

/// A fresh simulation of `scene` (new buffers and pipelines: for a new grid).
pub(super) fn new_sim(gpu: &Gpu, scene: &Scene, source: &Source) -> Result<Simulation> {
    crate::sim::check_fits(&gpu.device.limits(), scene.grid.nx as usize, scene.grid.ny as usize)?;
    let fields = scene.initial_fields(source)?;
    let mut sim = Simulation::new(gpu, &fields, scene.params(), scene.solver_settings())?;
    configure(&mut sim, scene);
    Ok(sim)
}

/// Applies every setting of `scene` to a running simulation of the same grid (constants, solver,
/// emitters); no new pipelines. A shim until `Simulation::configure` lands in sim/.
fn configure(sim: &mut Simulation, scene: &Scene) {
    let (time, splats) = (sim.params.time, sim.params.splat_count);
    sim.params = scene.params();
    (sim.params.time, sim.params.splat_count) = (time, splats);
    sim.solver = scene.solver_settings();
    sim.emitters = scene.emitter_splats();
}

/// Time zero of `scene` in the simulation's own buffers (same grid), with its settings.
fn restart(sim: &mut Simulation, scene: &Scene, source: &Source) -> Result<()> {
    let fields = scene.initial_fields(source)?;
    sim.upload(&fields);
    sim.step_index = 0;
    sim.time = 0.0;
    configure(sim, scene);
    Ok(())
}
