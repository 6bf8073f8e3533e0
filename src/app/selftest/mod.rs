//! The page's self-test (`?selftest`): every scene for 30 frames at its default solver and
//! scheme (grids capped at 128 cells a side), each solver and each advection scheme on plume at
//! 128², strokes by a mouse and by one finger (real pointer events on the canvas) that must
//! paint ink where they went, every overlay on in turn (with the plots open), screenshot and GIF
//! downloads, a saved state reopened three ways (the zip read directly, the zip dropped on the
//! page, its loose files chosen in the file picker), and view settings kept in localStorage
//! across a reload (`?selftest=reload`, which also checks that the URL wins). Any GPU fault or
//! console error in a check fails it. Results go to the test's server (`POST /result`, then
//! `/reload`). `?selftest=views` instead takes the stage view through its stages by keyboard
//! events and drags an obstacle with one finger (issue 58), sending each stage's canvas
//! (`POST /picture`). `?bench` instead times the step of plume at 128² and 256² (every step run,
//! 4 a frame, rendering included), at the equal-work race's settings and at the scene's
//! defaults, with the dispatches a step.
//!
//! The checks come in groups: runs.rs (scenes, solvers, schemes, overlays, timings), pointer.rs
//! (strokes, hover, idle splats, a finger's drag), saved.rs (downloads, states, kept settings)
//! and stages.rs (the stage view); check.rs holds what a check is.

mod check;
mod pointer;
mod runs;
mod saved;
mod stages;

use super::App;
use crate::config::{BUILTIN, Scene};
use crate::platform;
use crate::sim::fields::Fields;
use crate::ui::BrushMode;
use check::{Check, Current, Kind, Saved, StageScene, Way, capped};
use serde_json::{Value, json};

#[derive(Default)]
pub struct SelfTest {
    queue: Option<Vec<Check>>,
    current: Option<Current>,
    results: Vec<Value>,
    first_frame_ms: Option<f64>,
    /// What the page chose for its adapter when it opened (`rebuild::for_adapter`'s line).
    for_adapter: Option<String>,
    saved: Option<Saved>,
    /// The state the stage view left on `teaching`, and its step (`stages::matches_steps`).
    stages_left: Option<(u64, Fields)>,
    /// The second part, after the reload (`?selftest=reload`).
    after_reload: bool,
    /// The embedded page's checks (`?embed&selftest=embed`): its view stays the embedded one.
    embedded: bool,
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

fn checks() -> Vec<Check> {
    let mut out = Vec::new();
    for (name, _) in BUILTIN {
        out.push(Check { name: format!("scene {name}"), kind: Kind::Run(name.to_string(), Vec::new(), 30) });
    }
    for kind in ["jacobi", "sor", "multigrid"] {
        out.push(Check { name: format!("solver {kind}"), kind: Kind::Run("plume".into(), vec![format!("solver.kind={kind}")], 10) });
    }
    for scheme in ["semi-lagrangian", "maccormack", "bfecc"] {
        let sets = vec![format!("advection.velocity={scheme}"), format!("advection.ink={scheme}")];
        out.push(Check { name: format!("scheme {scheme}"), kind: Kind::Run("plume".into(), sets, 10) });
    }
    out.push(Check::new("scheme conservative (ink)", Kind::Run("plume".into(), vec!["advection.ink=conservative".into()], 10)));
    out.push(Check::new("a mouse drag paints ink", Kind::Stroke("mouse")));
    out.push(Check::new("one finger paints ink", Kind::Stroke("touch")));
    out.push(Check::new("overlays", Kind::Overlays));
    out.push(Check::new("copy link, screenshot, GIF and WebM downloads", Kind::Capture));
    out.push(Check::new("save state (zip download)", Kind::Save));
    out.push(Check::new("the saved zip reopens", Kind::Reopen(Way::Zip)));
    out.push(Check::new("the saved zip dropped on the page reopens", Kind::Reopen(Way::Dropped)));
    out.push(Check::new("the state's loose files chosen in the file picker reopen", Kind::Reopen(Way::Picked)));
    out.push(Check::new("view settings kept in localStorage", Kind::Keep));
    out.reverse();
    out
}

impl SelfTest {
    /// `?bench`: only the step times at 128² and 256² (minutes on SwiftShader: not in the CI test).
    pub fn bench() -> SelfTest {
        let mut checks = vec![
            Check::new("timing 128, equal work", Kind::Timing(128, true)),
            Check::new("timing 256, equal work", Kind::Timing(256, true)),
            Check::new("timing 128, defaults", Kind::Timing(128, false)),
            Check::new("timing 256, defaults", Kind::Timing(256, false)),
        ];
        checks.reverse();
        SelfTest { queue: Some(checks), ..SelfTest::default() }
    }

    /// `?embed&selftest=embed`: the embedded page's hover painting (off, then on) and idle splats.
    pub fn embedded() -> SelfTest {
        let mut checks = vec![
            Check::new("embed: a hover with hover painting off paints nothing", Kind::Hover(false)),
            Check::new("embed: a hover stroke paints ink", Kind::Hover(true)),
            Check::new("embed: idle splats come after the idle time", Kind::Idle),
        ];
        checks.reverse();
        SelfTest { queue: Some(checks), embedded: true, ..SelfTest::default() }
    }

    /// `?selftest=views`: the stage view on `teaching` and on plume, whole steps to where the
    /// first left, and an obstacle dragged by one finger.
    pub fn views() -> SelfTest {
        let mut checks = vec![
            Check::new("stage view: T, S and → take teaching's step apart, T leaves", Kind::Stages(StageScene::Teaching)),
            Check::new("stage view: the state it left is the one whole steps reach", Kind::StagesMatchSteps),
            Check::new("stage view: plume's V-cycle levels, Esc leaves", Kind::Stages(StageScene::Plume)),
            Check::new("move brush: one finger drags a disc, which leaves a wake", Kind::FingerDrag),
        ];
        checks.reverse();
        SelfTest { queue: Some(checks), ..SelfTest::default() }
    }

    /// `?selftest=reload`: the part after the reload.
    pub fn after_reload() -> SelfTest {
        let checks = vec![Check::new("view settings back after a reload, the URL's winning", Kind::Kept)];
        SelfTest { queue: Some(checks), after_reload: true, ..SelfTest::default() }
    }

    /// One frame's move.
    pub fn tick(&mut self, app: &mut App) {
        if app.running.is_none() {
            return;
        }
        if self.first_frame_ms.is_none() {
            self.first_frame_ms = Some(now_ms());
            self.for_adapter = app.stats.for_adapter.clone();
            if self.embedded {
                app.view = crate::ui::View::default().embedded();
            } else if !self.after_reload {
                app.view = crate::ui::View::default();
            }
            platform::take_faults();
        }
        let queue = self.queue.get_or_insert_with(checks);
        if self.current.is_none() {
            let Some(check) = queue.pop() else { return self.finish(app) };
            let mut c = Current::new(check);
            if let Err(e) = setup(&mut c, app) {
                c.error = Some(e.to_string());
                c.done = true;
            }
            c.first_step = app.running.as_ref().map_or(0, |r| r.sim.step_index);
            c.started = platform::Instant::now();
            self.current = Some(c);
            return;
        }
        let c = self.current.as_mut().expect("checked");
        c.frame += 1;
        if !c.done
            && let Err(e) = advance(c, app, &mut self.saved, &mut self.stages_left)
        {
            c.error = Some(e);
            c.done = true;
        }
        if c.done {
            let c = self.current.take().expect("checked");
            let mut faults = platform::take_faults();
            if let Some(e) = c.error {
                faults.insert(0, e);
            }
            match faults.first() {
                None => platform::say(&format!("self-test: {} ok", c.check.name)),
                Some(e) => platform::say(&format!("self-test: {} FAILED: {e}", c.check.name)),
            }
            // the first few distinct lines tell what went wrong
            let count = faults.len();
            faults.dedup();
            faults.truncate(4);
            if count > faults.len() {
                faults.push(format!("({count} errors in all)"));
            }
            let seconds = (c.began.elapsed().as_secs_f64() * 100.0).round() / 100.0;
            self.results.push(
                json!({ "name": c.check.name, "ok": faults.is_empty(), "errors": faults, "measured": c.measured, "seconds": seconds }),
            );
        }
    }

    /// After a frame is drawn, before the browser presents it (the canvas can be read only
    /// then): the canvas a check asked for goes to the test's server with the check's words and
    /// where the field lies in it.
    pub fn drawn(&mut self, app: &App) {
        let Some(about) = self.current.as_mut().and_then(|c| c.grab.take()) else { return };
        let v = app.viewport;
        let body = json!({ "about": about, "viewport": [v.x, v.y, v.w, v.h], "canvas_png": platform::canvas_png() });
        platform::post("/picture", &body.to_string());
    }

    fn finish(&mut self, app: &mut App) {
        let ok = self.results.iter().all(|r| r["ok"] == json!(true));
        let body = json!({
            "ok": ok,
            "first_frame_ms": self.first_frame_ms,
            "adapter": app.stats.adapter,
            "for_adapter": self.for_adapter,
            "checks": self.results,
            "downloads": platform::saved_files(),
        });
        let report = if self.after_reload { "/reload" } else { "/result" };
        platform::post(report, &body.to_string());
        platform::say(&format!("self-test done: {}", if ok { "ok" } else { "FAILED" }));
        app.selftest = None;
        self.queue = Some(Vec::new());
        app.stepper.set_paused(true);
        let keeping = self.results.iter().any(|r| r["name"] == json!("view settings kept in localStorage"));
        if self.after_reload {
            // leave the browser's store as a first visit finds it
            app.view = crate::ui::View::default();
            app.save_view(true);
        } else if keeping {
            // the URL sets the pressure tint off: it must win over the stored "on"
            platform::reload_with("selftest=reload&view.overlays.pressure=false");
        }
    }
}

/// Opens the check's scene and sets its inputs.
fn setup(c: &mut Current, app: &mut App) -> crate::Result<()> {
    // the stage view's runs: no CFL sub-steps (their plan follows speeds read back, which could
    // differ between the walk and the whole steps it is compared with)
    let stages = |name: &str| (name.to_string(), vec!["time.max_cfl=0".to_string()]);
    let (name, sets): (String, Vec<String>) = match &c.check.kind {
        Kind::Kept => return Ok(()),
        Kind::Run(name, sets, _) => (name.clone(), sets.clone()),
        Kind::Stroke(_) | Kind::Hover(_) | Kind::Idle => ("paint".into(), Vec::new()),
        Kind::Overlays | Kind::Save | Kind::Reopen(_) | Kind::Capture | Kind::Keep => ("plume".into(), Vec::new()),
        Kind::Stages(StageScene::Teaching) | Kind::StagesMatchSteps => stages("teaching"),
        Kind::Stages(StageScene::Plume) => ("plume".into(), Vec::new()),
        // (64² for a quicker run on a software adapter: the disc still spans 10 cells)
        Kind::FingerDrag => ("box".into(), ["grid.nx=64", "grid.ny=64", "grid.cell_size=0.015625"].map(String::from).to_vec()),
        Kind::Timing(n, equal_work) => {
            let mut sets = vec![format!("grid.nx={n}"), format!("grid.ny={n}"), "display.steps_per_frame=4".into()];
            if *equal_work {
                sets.extend([
                    "solver.kind=\"jacobi\"".to_string(),
                    format!("solver.iterations={}", 20 * n / 128),
                    "solver.tolerance=0".into(),
                    "advection.velocity=\"semi-lagrangian\"".into(),
                    "grid.dye_scale=1".into(),
                    "time.max_cfl=0".into(),
                ]);
            }
            ("plume".into(), sets)
        }
    };
    let (mut scene, source) = if let Kind::Timing(..) = c.check.kind { Scene::load(&name, &sets)? } else { capped(&name, &sets)? };
    if let Kind::FingerDrag = c.check.kind {
        scene.obstacles.push(pointer::DISC);
        // bands of still ink across the disc's path: its wake shows in the picture
        scene.layers = pointer::drag_bands();
    }
    scene.validate_geometry(&source)?;
    // a stage view left open by a check that failed closes before the new scene opens
    app.view.stage_view = false;
    app.sync_stage_view();
    app.start_from(scene, source, None)?;
    // (a reopen starts from step 0 and stays there until the state arrives; the whole steps
    // compared with the stage view's are taken one by one)
    app.stepper.set_paused(matches!(c.check.kind, Kind::Reopen(_) | Kind::StagesMatchSteps));
    app.view.every_step = matches!(c.check.kind, Kind::Timing(..));
    // a stroke needs the whole field, free of the panel (an embedded page has none)
    app.view.show_panel = !matches!(c.check.kind, Kind::Stroke(_) | Kind::Hover(_) | Kind::Idle | Kind::FingerDrag);
    app.pointer = Default::default();
    if let Kind::Hover(on) = c.check.kind {
        app.view.hover_paint = on;
    }
    // the move brush, as a phone takes it from the panel's brush list
    app.view.brush.mode = if let Kind::FingerDrag = c.check.kind { BrushMode::Move } else { BrushMode::Paint };
    // no idle splats but the idle check's own, which it starts once the scene steps
    app.view.idle_splats = 0.0;
    Ok(())
}

/// One frame of a check; sets `done` when it is over.
fn advance(c: &mut Current, app: &mut App, saved: &mut Option<Saved>, stages_left: &mut Option<(u64, Fields)>) -> Result<(), String> {
    match c.check.kind {
        Kind::Run(_, _, frames) => runs::run(c, app, frames),
        Kind::Stroke(_) | Kind::Hover(_) => pointer::stroke(c, app),
        Kind::Overlays => {
            runs::overlays(c, app);
            Ok(())
        }
        Kind::Capture => saved::capture(c, app),
        Kind::Save => saved::save(c, app, saved),
        Kind::Reopen(way) => saved::reopen(c, app, way, saved),
        Kind::Keep => saved::keep(c, app),
        Kind::Kept => saved::kept(c, app),
        Kind::Idle => pointer::idle(c, app),
        Kind::Timing(n, equal_work) => {
            runs::timing(c, app, n, equal_work);
            Ok(())
        }
        Kind::Stages(scene) => stages::walk(c, app, scene, stages_left),
        Kind::StagesMatchSteps => stages::matches_steps(c, app, stages_left),
        Kind::FingerDrag => pointer::finger_drag(c, app),
    }
}
