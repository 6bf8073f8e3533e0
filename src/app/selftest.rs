//! The page's self-test (`?selftest`): every scene for 30 frames at its default solver and
//! scheme (grids capped at 128 cells a side), each solver and each advection scheme on plume at
//! 128², a drag that must paint ink where it went, every overlay on in turn, and a saved state
//! round-tripped through the page's zip. Any GPU fault or console error in a check fails it. The
//! result goes to the test's server (`POST /result`). `?bench` instead times the step of plume
//! at 128² and 256² (every step run, 4 a frame, rendering included).

use super::App;
use super::files::{FieldsRead, open_files, state_zip};
use crate::config::{BUILTIN, Scene};
use crate::platform::{self, FileData, Instant};
use crate::sim::fields::Fields;
use serde_json::{Value, json};

/// Largest grid side the self-test runs.
const CAP: i64 = 128;

enum Kind {
    /// A scene with `--set` overrides, run for this many frames.
    Run(String, Vec<String>, u32),
    Drag,
    /// A screenshot and a short GIF recording, both offered as downloads.
    Capture,
    Overlays,
    RoundTrip,
    /// Step time of plume at this side (every step run, 4 a frame).
    Timing(i64),
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
    saved: Option<Fields>,
    started: Instant,
    first_step: u64,
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
    out.push(Check { name: "drag paints ink".into(), kind: Kind::Drag });
    out.push(Check { name: "overlays".into(), kind: Kind::Overlays });
    out.push(Check { name: "copy link, screenshot and GIF downloads".into(), kind: Kind::Capture });
    out.push(Check { name: "saved state round trip".into(), kind: Kind::RoundTrip });
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
            Check { name: "timing 128".into(), kind: Kind::Timing(128) },
            Check { name: "timing 256".into(), kind: Kind::Timing(256) },
        ];
        checks.reverse();
        SelfTest { queue: Some(checks), ..SelfTest::default() }
    }

    /// One frame's move.
    pub fn tick(&mut self, app: &mut App) {
        if app.running.is_none() {
            return;
        }
        if self.first_frame_ms.is_none() {
            self.first_frame_ms = Some(now_ms());
            app.view = crate::ui::View::default();
            platform::take_faults();
        }
        let queue = self.queue.get_or_insert_with(checks);
        if self.current.is_none() {
            let Some(check) = queue.pop() else { return self.finish(app) };
            let mut c = Current {
                check,
                frame: 0,
                read: None,
                saved: None,
                started: Instant::now(),
                first_step: 0,
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
            && let Err(e) = advance(c, app)
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
            self.results.push(json!({ "name": c.check.name, "ok": faults.is_empty(), "errors": faults, "measured": c.measured }));
        }
    }

    fn finish(&mut self, app: &mut App) {
        let ok = self.results.iter().all(|r| r["ok"] == json!(true));
        let body = json!({
            "ok": ok,
            "first_frame_ms": self.first_frame_ms,
            "adapter": app.stats.adapter,
            "checks": self.results,
            "downloads": platform::saved_files(),
        });
        platform::post("/result", &body.to_string());
        platform::say(&format!("self-test done: {}", if ok { "ok" } else { "FAILED" }));
        app.selftest = None;
        self.queue = Some(Vec::new());
        app.stepper.set_paused(true);
    }
}

/// Opens the check's scene and sets its inputs.
fn setup(c: &mut Current, app: &mut App) -> crate::Result<()> {
    let (name, sets): (&str, Vec<String>) = match &c.check.kind {
        Kind::Run(name, sets, _) => (name, sets.clone()),
        Kind::Drag => ("paint", Vec::new()),
        Kind::Overlays | Kind::RoundTrip | Kind::Capture => ("plume", Vec::new()),
        Kind::Timing(n) => ("plume", vec![format!("grid.nx={n}"), format!("grid.ny={n}"), "display.steps_per_frame=4".into()]),
    };
    let (scene, source) = if let Kind::Timing(_) = c.check.kind { Scene::load(name, &sets)? } else { capped(name, &sets)? };
    scene.validate_geometry(&source)?;
    app.start_from(scene, source, None)?;
    app.stepper.set_paused(false);
    app.view.every_step = matches!(c.check.kind, Kind::Timing(_));
    app.pointer = Default::default();
    Ok(())
}

/// One frame of a check; sets `done` when it is over.
fn advance(c: &mut Current, app: &mut App) -> Result<(), String> {
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
        Kind::Drag => {
            let v = app.viewport;
            let r = app.running.as_ref().ok_or("no simulation")?;
            let (nx, ny, h) = (r.sim.nx, r.sim.ny, r.sim.params.h);
            // a stroke left to right through the middle, 0.3 to 0.7 of the field, over 12 frames
            if (1..=12).contains(&frame) {
                let t = 0.3 + 0.4 * (frame - 1) as f32 / 11.0;
                let px = [v.x + t * v.w, v.y + 0.5 * v.h];
                let m = v.to_metres(px, nx, ny, h);
                if frame == 1 {
                    app.pointer.left = true;
                    app.pointer.last = Some(m);
                }
                app.pointer.pos = Some(px);
                app.pointer.path.push(m);
            } else if frame == 13 {
                app.pointer.left = false;
                app.pointer.pos = None;
                app.stepper.set_paused(true);
            } else if frame == 16 {
                c.read = Some(FieldsRead::start(&r.sim));
            } else if let Some(read) = c.read.as_mut()
                && let Some(f) = read.poll()
            {
                let f = f.map_err(|e| e.to_string())?;
                let along: f32 = (0..5).map(|i| ink_at(&f, nx * (4 + i) / 12 + nx / 24, ny / 2)).sum::<f32>() / 5.0;
                let away = ink_at(&f, nx / 10, ny / 10) + ink_at(&f, nx * 9 / 10, ny * 9 / 10);
                c.measured = Some(json!({ "ink_along_stroke": along, "ink_away": away }));
                if !(along > 0.05 && away < 0.01) {
                    return Err(format!("the drag painted no ink where it went: mean ink {along} along the stroke, {away} away from it"));
                }
                c.done = true;
            }
        }
        Kind::Overlays => {
            let o = &mut app.view.overlays;
            let flags: [&mut bool; 9] = [
                &mut o.ink,
                &mut o.divergence,
                &mut o.divergence_after,
                &mut o.pressure,
                &mut o.arrows_mac,
                &mut o.arrows_centre,
                &mut o.grid_lines,
                &mut o.numbers,
                &mut o.shading,
            ];
            let n = flags.len() as u32;
            let on = (frame / 3) as usize;
            for (i, f) in flags.into_iter().enumerate() {
                *f = i == on || (i == 0 && frame >= 3 * n);
            }
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
                _ if frame > 14 && saved(".png") && saved(".gif") => c.done = true,
                _ if frame > 60 => return Err(format!("no PNG and GIF download after 60 frames: {:?}", platform::saved_files())),
                _ => {}
            }
        }
        Kind::RoundTrip => {
            if frame == 10 {
                app.stepper.set_paused(true);
            } else if frame == 13 {
                c.read = Some(FieldsRead::start(&app.running.as_ref().ok_or("no simulation")?.sim));
            } else if let Some(read) = c.read.as_mut()
                && let Some(f) = read.poll()
            {
                let f = f.map_err(|e| e.to_string())?;
                c.read = None;
                match c.saved.take() {
                    None => {
                        // save as the page's zip, open it as if dropped, read the state again
                        let (meta, text) = app.state_meta().map_err(|e| e.to_string())?;
                        let step = meta.step;
                        let zip = state_zip(&f, meta, text);
                        let (scene, source, state) =
                            open_files(vec![FileData { name: "state.zip".into(), bytes: zip }]).map_err(|e| e.to_string())?;
                        app.start_from(scene, source, state).map_err(|e| e.to_string())?;
                        let r = app.running.as_ref().ok_or("no simulation")?;
                        if r.sim.step_index != step {
                            return Err(format!("the reopened state is at step {}, saved at {step}", r.sim.step_index));
                        }
                        c.read = Some(FieldsRead::start(&r.sim));
                        c.saved = Some(f);
                        // the page's own Save state (a zip download) too
                        app.apply(crate::ui::Command::SaveState);
                    }
                    Some(saved) => {
                        let same =
                            saved.u == f.u && saved.v == f.v && saved.ink == f.ink && saved.density == f.density && saved.solid == f.solid;
                        if !same {
                            return Err("the reopened state differs from the saved one".into());
                        }
                        c.done = app.saving.is_none();
                        if !c.done {
                            c.saved = Some(saved);
                        }
                    }
                }
            } else if c.saved.is_some() && c.read.is_none() {
                c.done = app.saving.is_none();
            }
        }
        Kind::Timing(n) => {
            if frame == 3 {
                c.started = Instant::now();
                c.first_step = app.running.as_ref().map_or(0, |r| r.sim.step_index);
            } else if frame >= 8 {
                let steps = app.running.as_ref().map_or(0, |r| r.sim.step_index) - c.first_step;
                let ms = c.started.elapsed().as_secs_f64() * 1e3;
                c.measured = Some(json!({ "side": n, "steps": steps, "ms": ms, "ms_per_step": ms / steps.max(1) as f64 }));
                c.done = true;
            }
        }
    }
    Ok(())
}
