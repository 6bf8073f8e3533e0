//! The page's self-test (`?selftest`): every scene for 30 frames at its default solver and
//! scheme (grids capped at 128 cells a side), each solver and each advection scheme on plume at
//! 128², strokes by a mouse and by one finger (real pointer events on the canvas) that must
//! paint ink where they went, every overlay on in turn (with the plots open), screenshot and GIF downloads, a saved
//! state reopened three ways (the zip read directly, the zip dropped on the page, its loose
//! files chosen in the file picker), and view settings kept in localStorage across a reload
//! (`?selftest=reload`, which also checks that the URL wins). Any GPU fault or console error in
//! a check fails it. Results go to the test's server (`POST /result`, then `/reload`). `?bench`
//! instead times the step of plume at 128² and 256² (every step run, 4 a frame, rendering
//! included), at the equal-work race's settings and at the scene's defaults, with the
//! dispatches a step.

use super::App;
use super::files::{FieldsRead, open_files, state_loose, state_zip};
use crate::config::{BUILTIN, Scene};
use crate::platform::{self, FileData, Instant};
use crate::sim::fields::Fields;
use serde_json::{Value, json};

/// Largest grid side the self-test runs.
const CAP: i64 = 128;

/// The brush size kept in localStorage before the reload: a value no default has.
const KEPT_RADIUS: f32 = 0.0421;

enum Kind {
    /// A scene with `--set` overrides, run for this many frames.
    Run(String, Vec<String>, u32),
    /// A stroke across the field by pointer events on the canvas: "mouse" or "touch".
    Stroke(&'static str),
    /// A screenshot and a short GIF recording, both offered as downloads.
    Capture,
    Overlays,
    /// The state read back and kept for the reopen checks; the page's Save state (a zip).
    Save,
    /// The saved state opened again from step 0 of its scene, this way.
    Reopen(Way),
    /// View settings kept in localStorage; the page reloads after its report.
    Keep,
    /// After the reload: the kept settings are back, and the URL's win.
    Kept,
    /// Step time of plume at this side (every step run, 4 a frame).
    /// Plume at this side, every step run, 4 a frame: at its defaults, or (`true`) at the race's
    /// equal work (BENCHMARKS.md: Jacobi 20 at 128², 40 at 256², no tolerance, semi-Lagrangian,
    /// dye on the flow grid, no sub-steps).
    Timing(i64, bool),
    /// The embedded page: a mouse moved across the field, no button held, with hover painting
    /// on (it must paint) or off (it must not).
    Hover(bool),
    /// The embedded page: no ink before the idle time, idle splats after it.
    Idle,
}

/// The idle check's idle time, seconds: long enough that a frame on a software adapter comes
/// well within it.
const IDLE_S: f32 = 2.0;

#[derive(Clone, Copy)]
enum Way {
    /// The zip handed to the page's opener.
    Zip,
    /// The zip dropped on the canvas (a `drop` event, read by the page's listener).
    Dropped,
    /// The state's loose `.npy` files and meta.json chosen in the file picker.
    Picked,
}

/// The state the reopen checks compare with.
struct Saved {
    fields: Fields,
    step: u64,
    zip: FileData,
    loose: Vec<FileData>,
}

struct Check {
    name: String,
    kind: Kind,
}

/// Where a check is.
struct Current {
    check: Check,
    frame: u32,
    read: Option<FieldsRead>,
    started: Instant,
    /// When the check began, its set-up (a new scene's kernels) included: its time in the report.
    began: Instant,
    first_step: u64,
    /// Dispatches recorded when the timing began (`sim::kernel::dispatches`).
    first_dispatch: u64,
    error: Option<String>,
    done: bool,
    measured: Option<Value>,
}

#[derive(Default)]
pub struct SelfTest {
    queue: Option<Vec<Check>>,
    current: Option<Current>,
    results: Vec<Value>,
    first_frame_ms: Option<f64>,
    /// What the page chose for its adapter when it opened (`rebuild::for_adapter`'s line).
    for_adapter: Option<String>,
    saved: Option<Saved>,
    /// The second part, after the reload (`?selftest=reload`).
    after_reload: bool,
    /// The embedded page's checks (`?embed&selftest=embed`): its view stays the embedded one.
    embedded: bool,
}

fn now_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

fn capped(name: &str, sets: &[String]) -> crate::Result<(Scene, crate::config::Source)> {
    let (mut scene, source) = Scene::load(name, sets)?;
    let (nx, ny) = (scene.grid.nx, scene.grid.ny);
    if nx.max(ny) > CAP {
        if nx >= ny { scene.refine(Some(CAP), None) } else { scene.refine(None, Some(CAP)) }
    }
    scene.validate(&source)?;
    Ok((scene, source))
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
    out.push(Check {
        name: "scheme conservative (ink)".into(),
        kind: Kind::Run("plume".into(), vec!["advection.ink=conservative".into()], 10),
    });
    out.push(Check { name: "a mouse drag paints ink".into(), kind: Kind::Stroke("mouse") });
    out.push(Check { name: "one finger paints ink".into(), kind: Kind::Stroke("touch") });
    out.push(Check { name: "overlays".into(), kind: Kind::Overlays });
    out.push(Check { name: "copy link, screenshot, GIF and WebM downloads".into(), kind: Kind::Capture });
    out.push(Check { name: "save state (zip download)".into(), kind: Kind::Save });
    out.push(Check { name: "the saved zip reopens".into(), kind: Kind::Reopen(Way::Zip) });
    out.push(Check { name: "the saved zip dropped on the page reopens".into(), kind: Kind::Reopen(Way::Dropped) });
    out.push(Check { name: "the state's loose files chosen in the file picker reopen".into(), kind: Kind::Reopen(Way::Picked) });
    out.push(Check { name: "view settings kept in localStorage".into(), kind: Kind::Keep });
    out.reverse();
    out
}

/// The ink (all channels) of flow cell (x, y), from the centre of its dye cells.
fn ink_at(f: &Fields, x: usize, y: usize) -> f32 {
    let k = f.dye_scale;
    let (dx, dy) = (x * k + k / 2, y * k + k / 2);
    let i = (dy * f.nx * k + dx) * 3;
    f.ink[i] + f.ink[i + 1] + f.ink[i + 2]
}

impl SelfTest {
    /// `?bench`: only the step times at 128² and 256² (minutes on SwiftShader: not in the CI test).
    pub fn bench() -> SelfTest {
        let mut checks = vec![
            Check { name: "timing 128, equal work".into(), kind: Kind::Timing(128, true) },
            Check { name: "timing 256, equal work".into(), kind: Kind::Timing(256, true) },
            Check { name: "timing 128, defaults".into(), kind: Kind::Timing(128, false) },
            Check { name: "timing 256, defaults".into(), kind: Kind::Timing(256, false) },
        ];
        checks.reverse();
        SelfTest { queue: Some(checks), ..SelfTest::default() }
    }

    /// `?embed&selftest=embed`: the embedded page's hover painting (off, then on) and idle splats.
    pub fn embedded() -> SelfTest {
        let mut checks = vec![
            Check { name: "embed: a hover with hover painting off paints nothing".into(), kind: Kind::Hover(false) },
            Check { name: "embed: a hover stroke paints ink".into(), kind: Kind::Hover(true) },
            Check { name: "embed: idle splats come after the idle time".into(), kind: Kind::Idle },
        ];
        checks.reverse();
        SelfTest { queue: Some(checks), embedded: true, ..SelfTest::default() }
    }

    /// `?selftest=reload`: the part after the reload.
    pub fn after_reload() -> SelfTest {
        let checks = vec![Check { name: "view settings back after a reload, the URL's winning".into(), kind: Kind::Kept }];
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
            let mut c = Current {
                check,
                frame: 0,
                read: None,
                started: Instant::now(),
                began: Instant::now(),
                first_step: 0,
                first_dispatch: 0,
                error: None,
                done: false,
                measured: None,
            };
            if let Err(e) = setup(&mut c, app) {
                c.error = Some(e.to_string());
                c.done = true;
            }
            c.first_step = app.running.as_ref().map_or(0, |r| r.sim.step_index);
            c.started = Instant::now();
            self.current = Some(c);
            return;
        }
        let c = self.current.as_mut().expect("checked");
        c.frame += 1;
        if !c.done
            && let Err(e) = advance(c, app, &mut self.saved)
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
    let (name, sets): (&str, Vec<String>) = match &c.check.kind {
        Kind::Kept => return Ok(()),
        Kind::Run(name, sets, _) => (name, sets.clone()),
        Kind::Stroke(_) | Kind::Hover(_) | Kind::Idle => ("paint", Vec::new()),
        Kind::Overlays | Kind::Save | Kind::Reopen(_) | Kind::Capture | Kind::Keep => ("plume", Vec::new()),
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
            ("plume", sets)
        }
    };
    let (scene, source) = if let Kind::Timing(..) = c.check.kind { Scene::load(name, &sets)? } else { capped(name, &sets)? };
    scene.validate_geometry(&source)?;
    app.start_from(scene, source, None)?;
    // (a reopen starts from step 0 and stays there until the state arrives)
    app.stepper.set_paused(matches!(c.check.kind, Kind::Reopen(_)));
    app.view.every_step = matches!(c.check.kind, Kind::Timing(..));
    // a stroke needs the whole field, free of the panel (an embedded page has none)
    app.view.show_panel = !matches!(c.check.kind, Kind::Stroke(_) | Kind::Hover(_) | Kind::Idle);
    app.pointer = Default::default();
    if let Kind::Hover(on) = c.check.kind {
        app.view.hover_paint = on;
    }
    // no idle splats but the idle check's own, which it starts once the scene steps
    app.view.idle_splats = 0.0;
    Ok(())
}

/// One frame of a check; sets `done` when it is over.
fn advance(c: &mut Current, app: &mut App, saved: &mut Option<Saved>) -> Result<(), String> {
    let frame = c.frame;
    match &c.check.kind {
        Kind::Run(_, _, frames) => {
            if frame >= *frames {
                let r = app.running.as_ref().ok_or("no simulation")?;
                if r.sim.step_index <= c.first_step {
                    return Err(format!("no step was taken in {frames} frames"));
                }
                c.done = true;
            }
        }
        Kind::Stroke(_) | Kind::Hover(_) => {
            let (pointer, pressed, paints) = match c.check.kind {
                Kind::Stroke(p) => (p, true, true),
                Kind::Hover(on) => ("mouse", false, on),
                _ => unreachable!("matched above"),
            };
            let what = if pressed { format!("the {pointer} stroke") } else { format!("a hover (hover painting {paints})") };
            let v = app.viewport;
            let dpr = platform::device_pixel_ratio();
            // left to right through the middle, 0.3 to 0.7 of the field, over 12 frames
            let at = |t: f32| [f64::from(v.x + t * v.w) / dpr, f64::from(v.y + 0.5 * v.h) / dpr];
            let r = app.running.as_ref().ok_or("no simulation")?;
            let (nx, ny) = (r.sim.nx, r.sim.ny);
            match frame {
                1 => platform::pointer_event("pointermove", pointer, at(0.3), false)?,
                2 if pressed => platform::pointer_event("pointerdown", pointer, at(0.3), true)?,
                2 => platform::pointer_event("pointermove", pointer, at(0.3), false)?,
                3..=13 => platform::pointer_event("pointermove", pointer, at(0.3 + 0.4 * (frame - 2) as f32 / 11.0), pressed)?,
                14 => {
                    if pressed {
                        platform::pointer_event("pointerup", pointer, at(0.7), false)?;
                    }
                    app.stepper.set_paused(true);
                }
                17 => c.read = Some(FieldsRead::start(&r.sim)),
                _ => {
                    if let Some(f) = c.read.as_mut().and_then(|read| read.poll()) {
                        let f = f.map_err(|e| e.to_string())?;
                        let along: f32 = (0..5).map(|i| ink_at(&f, nx * (4 + i) / 12 + nx / 24, ny / 2)).sum::<f32>() / 5.0;
                        let away = ink_at(&f, nx / 10, ny / 10) + ink_at(&f, nx * 9 / 10, ny * 9 / 10);
                        c.measured = Some(json!({ "ink_along_stroke": along, "ink_away": away }));
                        if paints && !(along > 0.05 && away < 0.01) {
                            return Err(format!("{what} painted no ink where it went: mean ink {along} along it, {away} away"));
                        }
                        if !paints && along + away > 1e-4 {
                            return Err(format!("{what} painted: mean ink {along} along its path, {away} away"));
                        }
                        app.view.show_panel = matches!(c.check.kind, Kind::Stroke(_));
                        c.done = true;
                    }
                }
            }
        }
        Kind::Overlays => {
            let o = &mut app.view.overlays;
            let flags: [&mut bool; 12] = [
                &mut o.ink,
                &mut o.divergence,
                &mut o.divergence_after,
                &mut o.pressure,
                &mut o.curl,
                &mut o.arrows_mac,
                &mut o.arrows_centre,
                &mut o.grid_lines,
                &mut o.numbers,
                &mut o.shading,
                &mut o.tracers,
                &mut o.streamlines,
            ];
            let n = flags.len() as u32;
            let on = (frame / 3) as usize;
            for (i, f) in flags.into_iter().enumerate() {
                *f = i == on || (i == 0 && frame >= 3 * n);
            }
            // the plots with them: every unit of the solves checked, the histories read back
            app.view.plots = frame < 3 * n;
            if frame >= 3 * n + 3 {
                c.done = true;
            }
        }
        Kind::Capture => {
            let saved = |ext: &str| platform::saved_files().iter().any(|(name, size)| name.ends_with(ext) && *size > 100);
            match frame {
                1 => {
                    // the link names the scene and what differs from it
                    app.scene.fluid.viscosity = 0.001;
                    app.apply(crate::ui::Command::CopyLink);
                    let href = web_sys::window().and_then(|w| w.location().href().ok()).unwrap_or_default();
                    if !(href.contains("scene=plume") && href.contains("fluid.viscosity=0.001")) {
                        return Err(format!("Copy link gave {href}"));
                    }
                }
                2 => app.apply(crate::ui::Command::Screenshot),
                4 => app.apply(crate::ui::Command::ToggleRecording),
                14 => app.apply(crate::ui::Command::ToggleRecording),
                // the browser's WebM video of the canvas
                16 | 40 => app.apply(crate::ui::Command::ToggleVideo),
                _ if frame > 40 && saved(".png") && saved(".gif") && saved(".webm") => {
                    // a WebM file opens with the EBML header's magic number
                    let head = platform::saved_head(".webm").unwrap_or_default();
                    c.measured = Some(json!({ "webm_head": format!("{:02X?}", &head[..head.len().min(4)]) }));
                    if !head.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
                        return Err(format!("the WebM download does not start with the EBML header 1A 45 DF A3: {head:02X?}"));
                    }
                    c.done = true;
                }
                _ if frame > 150 => {
                    return Err(format!("no PNG, GIF and WebM downloads after 150 frames: {:?}", platform::saved_files()));
                }
                _ => {}
            }
        }
        Kind::Save => match frame {
            10 => app.stepper.set_paused(true),
            13 => c.read = Some(FieldsRead::start(&app.running.as_ref().ok_or("no simulation")?.sim)),
            _ if saved.is_none() => {
                if let Some(f) = c.read.as_mut().and_then(|read| read.poll()) {
                    let f = f.map_err(|e| e.to_string())?;
                    let (meta, text) = app.state_meta().map_err(|e| e.to_string())?;
                    let step = meta.step;
                    let zip = FileData { name: "state.zip".into(), bytes: state_zip(&f, meta.clone(), text.clone()) };
                    let loose = state_loose(&f, meta, text).into_iter().map(|(name, bytes)| FileData { name, bytes }).collect();
                    *saved = Some(Saved { fields: f, step, zip, loose });
                    // the page's own Save state: a zip download
                    app.apply(crate::ui::Command::SaveState);
                }
            }
            _ => {
                let zipped = platform::saved_files().iter().any(|(name, size)| name.ends_with(".zip") && *size > 100);
                c.done = app.saving.is_none() && zipped;
                if frame > 200 && !c.done {
                    return Err(format!("Save state offered no zip download in 200 frames: {:?}", platform::saved_files()));
                }
            }
        },
        Kind::Reopen(way) => {
            let s = saved.as_ref().ok_or("no state was saved")?;
            let step = app.running.as_ref().ok_or("no simulation")?.sim.step_index;
            match frame {
                1 if step != 0 => return Err(format!("the scene did not restart (step {step})")),
                2 => match way {
                    Way::Zip => {
                        let (scene, source, state) = open_files(vec![s.zip.clone()]).map_err(|e| e.to_string())?;
                        app.start_from(scene, source, state).map_err(|e| e.to_string())?;
                    }
                    Way::Dropped => platform::drop_on_page(std::slice::from_ref(&s.zip))?,
                    Way::Picked => app.apply(crate::ui::Command::OpenDialog(true)),
                },
                3 if matches!(way, Way::Picked) => platform::choose_in_picker(&s.loose)?,
                _ if c.read.is_none() && step == s.step => {
                    c.read = Some(FieldsRead::start(&app.running.as_ref().ok_or("no simulation")?.sim))
                }
                _ if c.read.is_none() && frame > 200 => {
                    return Err(format!("the state (step {}) did not open in 200 frames: at step {step}", s.step));
                }
                _ => {
                    if let Some(f) = c.read.as_mut().and_then(|read| read.poll()) {
                        let f = f.map_err(|e| e.to_string())?;
                        let same = s.fields.u == f.u
                            && s.fields.v == f.v
                            && s.fields.ink == f.ink
                            && s.fields.density == f.density
                            && s.fields.solid == f.solid;
                        if !same {
                            return Err("the reopened state differs from the saved one".into());
                        }
                        c.done = true;
                    }
                }
            }
        }
        Kind::Keep => {
            app.view.brush.radius_share = KEPT_RADIUS;
            app.view.overlays.pressure = true;
            app.save_view(true);
            let dir = crate::ui::view::config_dir().ok_or("the page has no settings store")?;
            let kept = platform::read_setting(&dir, crate::ui::view::VIEW_FILE).unwrap_or_default();
            c.measured = Some(json!({ "kept": kept }));
            if !kept.contains("pressure = true") {
                return Err(format!("the view settings were not kept in localStorage: {kept:?}"));
            }
            c.done = true;
        }
        Kind::Kept => {
            let v = &app.view;
            c.measured = Some(json!({ "radius_share": v.brush.radius_share, "pressure": v.overlays.pressure }));
            if v.brush.radius_share != KEPT_RADIUS {
                return Err(format!("the kept brush size did not come back: {} (kept {KEPT_RADIUS})", v.brush.radius_share));
            }
            if v.overlays.pressure {
                return Err("the URL's view.overlays.pressure=false did not win over the stored setting".into());
            }
            c.done = true;
        }
        Kind::Idle => idle_check(c, app)?,
        Kind::Timing(n, equal_work) => {
            if frame == 3 {
                c.started = Instant::now();
                c.first_step = app.running.as_ref().map_or(0, |r| r.sim.step_index);
                c.first_dispatch = crate::sim::kernel::dispatches();
            } else if frame >= 8 {
                let steps = (app.running.as_ref().map_or(0, |r| r.sim.step_index) - c.first_step).max(1);
                let ms = c.started.elapsed().as_secs_f64() * 1e3;
                let dispatches = crate::sim::kernel::dispatches() - c.first_dispatch;
                c.measured = Some(json!({
                    "side": n, "equal_work": equal_work, "steps": steps, "ms": ms,
                    "ms_per_step": ms / steps as f64,
                    "dispatches_per_step": dispatches as f64 / steps as f64,
                }));
                c.done = true;
            }
        }
    }
    Ok(())
}

/// The idle check: once the scene steps, idle splats are switched on (`IDLE_S`) and the idle
/// time starts; the ink read back before it is over must be none, the ink read back well after
/// it some.
fn idle_check(c: &mut Current, app: &mut App) -> Result<(), String> {
    let r = app.running.as_ref().ok_or("no simulation")?;
    let step = r.sim.step_index;
    let since = c.started.elapsed().as_secs_f32();
    let before = c.measured.as_ref().and_then(|m| m["ink_before"].as_f64());
    if app.view.idle_splats == 0.0 {
        if c.frame >= 5 && step > c.first_step {
            app.view.idle_splats = IDLE_S;
            app.idle.input();
            c.started = Instant::now();
        }
        return Ok(());
    }
    if c.read.is_none() && before.is_none() && since >= 0.25 * IDLE_S {
        if since > 0.9 * IDLE_S {
            return Err(format!("frames came too slowly to read the field before the idle time ({since:.2} s of {IDLE_S} s)"));
        }
        c.read = Some(FieldsRead::start(&r.sim));
    } else if c.read.is_none() && before.is_some() && since >= 2.0 * IDLE_S {
        c.read = Some(FieldsRead::start(&r.sim));
    }
    if let Some(f) = c.read.as_mut().and_then(|read| read.poll()) {
        c.read = None;
        let ink: f32 = f.map_err(|e| e.to_string())?.ink.iter().sum();
        match before {
            None => c.measured = Some(json!({ "ink_before": ink })),
            Some(b) => {
                c.measured = Some(json!({ "ink_before": b, "ink_after": ink, "idle_s": IDLE_S }));
                if b > 1e-4 {
                    return Err(format!("ink appeared before the idle time: {b}"));
                }
                if ink < 1.0 {
                    return Err(format!("no idle splats after {:.1} s without input: ink {ink}", 2.0 * IDLE_S));
                }
                c.done = true;
            }
        }
    }
    if since > 10.0 * IDLE_S {
        return Err("the idle check did not finish".into());
    }
    Ok(())
}
