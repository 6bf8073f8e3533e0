//! What each command does. The scene config is the one source of simulation settings: a
//! changed config is validated, then applied to the running simulation in one call; only a new
//! grid re-creates the state (and its pipelines). Reset and a scene of the same grid size
//! re-upload the initial fields into the buffers that exist.

use super::{App, capture, files, rebuild};
use crate::config::{Scene, Source};
use crate::error::Result;
use crate::platform::{self, SystemTime};
use crate::sim::Simulation;
use crate::sim::fields::Fields;
use crate::state_io::Meta;
use crate::ui::Command;
use std::path::Path;

impl App {
    /// Applies a command; one that fails leaves things as they were and says why in the panel.
    pub(super) fn apply(&mut self, c: Command) {
        let result = match c {
            Command::SetPaused(p) => {
                // Run leaves the stage view, which finishes its step first
                if !p && self.view.stage_view {
                    self.view.stage_view = false;
                    self.sync_stage_view();
                }
                self.stepper.set_paused(p);
                Ok(())
            }
            Command::Step => {
                if !self.next_stage() {
                    self.stepper.single_step();
                }
                Ok(())
            }
            Command::Reset => {
                self.building = None;
                self.reset()
            }
            Command::RestartAsLoaded => {
                self.building = None;
                self.start_from(self.loaded.clone(), self.source.clone(), None)
            }
            Command::ClearInk => {
                self.clear_ink();
                Ok(())
            }
            Command::Open(name) => {
                self.building = None;
                self.open(&name)
            }
            Command::OpenDialog(state) => {
                self.open_dialog(state);
                Ok(())
            }
            Command::CopyLink => self.copy_link(),
            Command::FillTracers => {
                if let Some(r) = self.running.as_mut() {
                    r.sim.stages.tracers.fill(&r.sim.params);
                }
                Ok(())
            }
            Command::ClearTracers => {
                if let Some(r) = self.running.as_mut() {
                    r.sim.stages.tracers.clear(&r.gpu.queue);
                }
                Ok(())
            }
            Command::SaveState => self.save_state(),
            Command::SaveScene => self.save_scene(),
            Command::SaveSeries => self.save_series(),
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
            Command::ToggleVideo => {
                let name = super::capture::file_name(&self.source.label(), "webm", crate::platform::SystemTime::now());
                crate::platform::toggle_video(&name).map(|line| self.note = Some(line))
            }
            Command::Quit => {
                // (a page is closed with its tab: Esc or Ctrl+Q there would only stop it, frozen)
                self.quit = cfg!(not(target_arch = "wasm32"));
                Ok(())
            }
            Command::Configure(scene) => self.configure(*scene, false),
            Command::ConfigureAnyway(scene) => self.configure(*scene, true),
        };
        match result {
            Err(e) => {
                crate::platform::say(&format!("{e}"));
                self.panel.message = Some(e.to_string());
            }
            Ok(()) if self.building.is_none() => self.panel.message = self.note.take(),
            Ok(()) => {}
        }
    }

    /// Asks for a file: natively a dialog for a state folder (`state`) or a scene; on the web the
    /// browser's file picker, for any of them (a scene .toml, a saved zip, a state's loose files).
    fn open_dialog(&mut self, state: bool) {
        let wake = self.wake.clone();
        let wake = move || {
            if let Some(w) = &wake {
                let _ = w.send_event(());
            }
        };
        #[cfg(not(target_arch = "wasm32"))]
        if self.dialog.is_none() {
            self.dialog = Some(platform::ask_for_path(state, platform::dialog_start(), wake));
        }
        #[cfg(target_arch = "wasm32")]
        {
            let _ = state;
            platform::pick_files(wake);
        }
    }

    /// The page: a link with the scene and every setting that differs from it, copied.
    fn copy_link(&mut self) -> Result<()> {
        let Source::Builtin(name) = &self.source else {
            crate::fail!("a link can only name a built-in scene; this one came from a file (save the scene instead)");
        };
        let (base, _) = Scene::load(name, &[])?;
        // (what the window picked for its adapter or canvas is left out: `rebuild::Picks`)
        let mut shown = self.scene_as_shown();
        shown.display = self.scene.display.clone();
        let sets = crate::config::overrides::overrides_between(&base, &shown);
        #[cfg(target_arch = "wasm32")]
        {
            let url = platform::link(name, &sets);
            platform::copy_link(&url);
            self.note = Some(format!("link copied: {url}"));
        }
        #[cfg(not(target_arch = "wasm32"))]
        {
            self.note = Some(format!("--scene {name} {}", sets.iter().map(|s| format!("--set {s}")).collect::<Vec<_>>().join(" ")));
        }
        Ok(())
    }

    /// Opens files picked or dropped on the page: a scene .toml, the zip Save state wrote, or a
    /// state's loose .npy files and meta.json picked together.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub(super) fn open_files(&mut self, picked: Vec<platform::FileData>) {
        self.building = None;
        let names: Vec<String> = picked.iter().map(|f| f.name.clone()).collect();
        let result = files::open_files(picked).and_then(|(scene, source, state)| {
            scene.validate_geometry(&source)?;
            self.start_from(scene, source, state)
        });
        match result {
            Ok(()) => {
                platform::say(&format!("opened {}", names.join(", ")));
                self.panel.message = None;
            }
            Err(e) => {
                platform::say(&e.to_string());
                self.panel.message = Some(e.to_string());
            }
        }
    }

    /// Opens what the file dialog chose, once it has answered.
    pub(super) fn take_dialog_answer(&mut self) {
        #[cfg(target_arch = "wasm32")]
        if let Some(picked) = platform::take_files() {
            self.open_files(picked);
        }
        let Some(answer) = self.dialog.as_ref().and_then(|rx| rx.try_recv().ok()) else { return };
        self.dialog = None;
        match answer {
            Some(path) => self.apply(Command::Open(path.display().to_string())),
            None => {
                self.panel.message = Some(
                    "no file chosen (a file dialog needs the XDG desktop portal or zenity on Linux; type the path under Open path, or drop the file on the window)"
                        .into(),
                )
            }
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
        if (nx, ny) != (r.sim.nx, r.sim.ny) || scene.dye_scale() != r.sim.dye_scale {
            crate::sim::check_dye_fits(&r.gpu.device.limits(), nx, ny, scene.dye_scale())?;
            let bytes = crate::sim::buffers::bytes_for(nx, ny, scene.dye_scale());
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
        let path = Path::new(name);
        if files::is_state_folder(path)? {
            let limits = self.running.as_ref().map(|r| r.gpu.device.limits()).unwrap_or_default();
            let (scene, source, fields, meta) = files::load_state(path, &limits)?;
            self.start_from(scene, source, Some((fields, meta)))?;
            crate::platform::say(&format!("opened the state {name}"));
            return Ok(());
        }
        let (scene, source) = Scene::load(name, &[])?;
        scene.validate_geometry(&source)?;
        self.start_from(scene, source, None)?;
        crate::platform::say(&format!("opened the scene {name}"));
        Ok(())
    }

    /// Takes another scene and state: the scene at time zero, or a saved state. A grid of the
    /// same size and dye scale reuses the buffers and pipelines.
    pub(super) fn start_from(&mut self, scene: Scene, source: Source, state: Option<(Fields, Meta)>) -> Result<()> {
        // the page picks an "auto" dye grid from its canvas
        // (and a software adapter a lighter one; a GPU keeps auto's)
        self.loaded = scene.clone();
        let scene = match (&state, self.running.as_ref()) {
            (None, Some(r)) => {
                let (scene, note) = rebuild::for_adapter(r.gpu.is_software(), scene);
                self.stats.for_adapter = note;
                scene
            }
            _ => scene,
        };
        #[cfg(target_arch = "wasm32")]
        let scene = if state.is_none() { super::web::page_dye(scene) } else { scene };
        self.picks = rebuild::Picks::new(&self.loaded, &scene);
        if let Some(r) = self.running.as_mut() {
            // a dye grid of another scale (a state saved headless at k = 1 into a window at
            // auto's 4) needs new buffers too
            let same = (scene.grid.nx, scene.grid.ny) == (r.sim.nx as i64, r.sim.ny as i64) && scene.dye_scale() == r.sim.dye_scale;
            match (&state, same) {
                (None, true) => restart(&mut r.sim, &scene, &source)?,
                (None, false) => r.replace_sim(rebuild::new_sim(&r.gpu, &scene, &source)?),
                (Some((fields, _)), true) => {
                    r.sim.configure(&scene)?;
                    r.sim.restore(fields);
                }
                (Some((fields, _)), false) => r.replace_sim(rebuild::sim_from_fields(&r.gpu, &scene, fields)?),
            }
            if let Some((_, m)) = &state {
                (r.sim.step_index, r.sim.time) = (m.step, m.time);
                r.sim.resume_solver_units(m.solver_units, m.solver_peak);
            }
        }
        self.view.open_scene(&scene);
        self.scene = scene;
        self.source = source;
        self.after_new_state();
        if let Some((_, m)) = &state {
            // a saved state opens paused: the saved picture stays until Space
            self.stale_stats_until = m.step;
            self.stepper.set_paused(true);
        }
        if let Some(r) = &self.running {
            r.window.set_title(&self.title());
        }
        Ok(())
    }

    /// Saves the state (as --dump does) with the settings beside it: a folder in the files
    /// folder natively, a zip download on the web. The fields are read back without waiting;
    /// `collect` finishes the save when they arrive.
    fn save_state(&mut self) -> Result<()> {
        let Some(r) = &self.running else { return Ok(()) };
        if self.saving.is_some() {
            crate::fail!("a state is being saved already");
        }
        let name = capture::file_name(&self.source.label(), "state", SystemTime::now()).replace(".state", "_state");
        let (meta, text) = self.state_meta()?;
        self.saving = Some(files::SavingState::start(&r.sim, name, meta, text));
        Ok(())
    }

    /// The running state's meta.json (its scene named when saved) and its settings as TOML.
    pub(super) fn state_meta(&self) -> Result<(Meta, String)> {
        let Some(r) = &self.running else { crate::fail!("nothing runs yet") };
        let g = &self.scene.grid;
        let meta = Meta {
            nx: r.sim.nx,
            ny: r.sim.ny,
            cell_size: g.cell_size,
            step: r.sim.step_index,
            time: r.sim.time,
            dt: self.scene.time.dt,
            scene: String::new(),
            dye_scale: r.sim.dye_scale,
            overrides: Vec::new(),
            solver_units: r.sim.solver_units(),
            solver_peak: r.sim.solver_peak(),
        };
        Ok((meta, files::scene_text(&self.scene_as_shown(), &self.source)?))
    }

    /// Finishes a Save state whose fields have arrived.
    pub(super) fn poll_saving(&mut self) {
        let Some(result) = self.saving.as_mut().and_then(|s| s.collect()) else { return };
        self.saving = None;
        match result {
            Ok(place) => {
                self.said(format!("saved the state to {place}"));
                self.panel.message = self.note.take();
            }
            Err(e) => {
                platform::say(&e.to_string());
                self.panel.message = Some(e.to_string());
            }
        }
    }

    /// Saves the current settings as a scene file, into the files folder (a download on the web).
    fn save_scene(&mut self) -> Result<()> {
        let name = capture::file_name(&self.source.label(), "toml", SystemTime::now());
        let place = platform::save_file(&name, files::scene_text(&self.scene_as_shown(), &self.source)?.as_bytes())?;
        self.said(format!("saved the scene to {place}"));
        Ok(())
    }

    /// The plots' series and the probes' as a CSV beside the other saves (a download on the page).
    fn save_series(&mut self) -> Result<()> {
        let name = capture::file_name(&self.source.label(), "csv", SystemTime::now());
        let text = crate::ui::plots::series_csv(&self.stats.series, &self.stats.probes);
        let place = platform::save_file(&name, text.as_bytes())?;
        // where each probe stands, exactly (as `run --probe X,Y` takes it)
        let at: Vec<String> =
            self.stats.probes.iter().enumerate().map(|(n, p)| format!("probe {} at {},{}", n + 1, p.at[0], p.at[1])).collect();
        let at = if at.is_empty() { String::new() } else { format!(" ({})", at.join("; ")) };
        self.said(format!("saved the series{at} to {place}"));
        Ok(())
    }

    /// The scene with the display the window shows (overlays), as a saved scene should open: what
    /// the window picked for its adapter or canvas (`rebuild::Picks`) is saved as the scene had it.
    fn scene_as_shown(&self) -> Scene {
        let mut s = self.scene.clone();
        self.picks.undo(&mut s);
        let o = &self.view.overlays;
        (s.display.ink, s.display.divergence, s.display.pressure, s.display.velocity) = (o.ink, o.divergence, o.pressure, o.arrows_centre);
        (s.display.edge_velocity, s.display.grid_lines, s.display.numbers) = (o.arrows_mac, o.grid_lines, o.numbers);
        s
    }

    /// A line for the user: on stderr and over the field.
    fn said(&mut self, line: String) {
        crate::platform::say(&line);
        if let Some(r) = self.running.as_mut() {
            r.capture.status.last = line.rsplit(" to ").next().map(str::to_string);
        }
        self.note = Some(line);
    }

    /// Pins a probe at `at` (metres) when it lies in the domain; past `MAX_PROBES` the oldest
    /// goes. The simulation takes it up with the next frame's figures.
    pub(super) fn pin_probe(&mut self, at: [f32; 2]) {
        let Some(r) = &self.running else { return };
        let (w, h) = (r.sim.nx as f32 * r.sim.params.h, r.sim.ny as f32 * r.sim.params.h);
        if !(0.0..=w).contains(&at[0]) || !(0.0..=h).contains(&at[1]) {
            return;
        }
        let probes = &mut self.stats.probes;
        if probes.len() == crate::sim::buffers::MAX_PROBES {
            probes.remove(0);
        }
        probes.push(crate::ui::ProbeSeries::new(at));
    }

    fn clear_ink(&mut self) {
        if let Some(r) = &self.running {
            let mut enc = r.gpu.device.create_command_encoder(&Default::default());
            enc.clear_buffer(&r.sim.buffers.ink, 0, None);
            enc.clear_buffer(&r.sim.buffers.density, 0, None);
            for second in r.split.iter().map(|s| &s.pair.second) {
                enc.clear_buffer(&second.buffers.ink, 0, None);
                enc.clear_buffer(&second.buffers.density, 0, None);
            }
            r.gpu.queue.submit([enc.finish()]);
            self.stale_stats_until = r.sim.step_index;
        }
        self.stats.forget_state();
        self.field_dirty = true;
    }

    /// The state was replaced: figures of the old one no longer hold.
    pub(super) fn after_new_state(&mut self) {
        self.stats.forget_state();
        self.pressure_auto = None;
        self.divergence_auto = None;
        self.curl_auto = None;
        self.stale_stats_until = 0;
        self.pointer.last = None;
        self.dragged = None;
        self.field_dirty = true;
        self.forget_stage_step();
        if let Some(r) = self.running.as_mut() {
            r.values.latest = None;
            r.values.curl_max = None;
            // the split view starts both halves again from this state's time zero (src/app/split.rs)
            r.split = None;
        }
    }
}

/// Time zero of `scene` in the simulation's own buffers (same grid), with its settings.
impl App {
    /// The tracers' share of a frame: the tracers brush's dabs become seeds (and paint nothing),
    /// the inflow seeding follows the view, and the view switched on, or a restart under it,
    /// fills the domain.
    pub(super) fn tracers_frame(&mut self, splats: &mut Vec<crate::sim::params::Splat>) {
        let mut seeds = Vec::new();
        if self.view.brush.mode == crate::ui::view::BrushMode::Tracers {
            seeds = super::input::tracer_seeds(splats);
            splats.clear();
        }
        let o = &self.view.overlays;
        let Some(r) = self.running.as_mut() else { return };
        let t = &mut r.sim.stages.tracers;
        t.seed(&seeds);
        t.inflow = o.tracers && o.tracer_inflow;
        if o.tracers && !t.active() && t.pending() == 0 && (!self.tracers_shown || r.sim.step_index == 0) {
            r.sim.stages.tracers.fill(&r.sim.params);
        }
        self.tracers_shown = o.tracers;
    }
}

pub(super) fn restart(sim: &mut Simulation, scene: &Scene, source: &Source) -> Result<()> {
    let fields = crate::sim::init::initial_fields(scene, source)?;
    sim.configure(scene)?;
    sim.restore(&fields);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::app::App;
    use crate::config::Scene;
    use crate::ui::{Command, LiveStats};

    #[test]
    fn the_view_is_restored_on_start_and_saved_when_it_changed() {
        let dir = std::env::temp_dir().join(format!("smokebox_app_view_{}", std::process::id()));
        let mut saved = crate::ui::View::default();
        (saved.brush.strength, saved.show_panel, saved.overlays.arrow_scale) = (3.5, false, 9.0);
        saved.save(&dir).unwrap();
        let (scene, source) = Scene::load("plume", &[]).unwrap();
        let mut app = App::new(scene, source, None, Some(dir.clone()));
        assert_eq!((app.view.brush.strength, app.view.show_panel, app.view.overlays.arrow_scale), (3.5, false, 9.0));
        app.view.brush.strength = 1.25;
        app.save_view(true);
        assert_eq!(crate::ui::View::load(&dir).brush.strength, 1.25);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clear_reset_and_another_scene_forget_the_old_figures() {
        let (scene, source) = Scene::load("plume", &[]).unwrap();
        let mut app = App::new(scene, source, None, None);
        for c in [Command::ClearInk, Command::Reset, Command::Open("drops".into())] {
            app.stats = LiveStats {
                step: 500,
                ink_total: Some(12.0),
                div_before: Some(1.0),
                div_after: Some(0.1),
                pressure_range: Some((-1.0, 1.0)),
                adapter: "gpu".into(),
                ..LiveStats::default()
            };
            app.apply(c.clone());
            let s = &app.stats;
            assert_eq!((s.ink_total, s.div_before, s.div_after, s.pressure_range), (None, None, None, None), "{c:?} kept figures");
            assert_eq!(s.adapter, "gpu", "{c:?} forgot the adapter");
        }
        assert_eq!(app.scene.name, "drops");
        // a bad scene name changes nothing and says why
        app.apply(Command::Open("no-such-scene".into()));
        assert_eq!(app.scene.name, "drops");
        assert!(app.panel.message.as_deref().is_some_and(|m| m.contains("unknown scene")), "{:?}", app.panel.message);
    }

    #[test]
    fn restart_keeps_the_panels_edits_and_restart_as_loaded_undoes_them() {
        let (scene, source) = Scene::load("plume", &["fluid.viscosity=0.002".to_string()]).unwrap();
        let mut app = App::new(scene.clone(), source, None, None);
        let mut edited = scene.clone();
        edited.forces.vorticity = 0.9;
        app.apply(Command::Configure(Box::new(edited.clone())));
        app.apply(Command::Reset);
        assert_eq!(app.scene, edited, "R keeps the panel's edits");
        app.apply(Command::RestartAsLoaded);
        assert_eq!(app.scene, scene, "Shift+R is the scene as loaded, its --set included");
        // another scene opened is what "as loaded" means from then on
        app.apply(Command::Open("drops".into()));
        app.apply(Command::Configure(Box::new(Scene { description: "edited".into(), ..app.scene.clone() })));
        app.apply(Command::RestartAsLoaded);
        assert_eq!((app.scene.name.as_str(), app.scene.description.is_empty()), ("drops", false));
        assert_eq!(app.scene, Scene::load("drops", &[]).unwrap().0);
    }
}
