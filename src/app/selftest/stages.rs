//! The stage view on the page (key T, src/app/stages.rs), driven as a person drives it: keyboard
//! events on the canvas open it (T), take a stage a press (S and → in turn) and leave it (T on
//! `teaching`, Esc on `plume`). Each stage's line must name it in order and be written on the
//! field (the last UI pass's text, outside the panel); each stage's canvas is sent to the test's
//! server (`POST /picture`), which compares the pictures;
//! leaving must finish the step under way and let the run go on (and Esc pressed again, the view
//! closed, must not stop the page); and the state it leaves must be bit for bit the state that
//! whole steps reach (`matches_steps`).

use super::super::App;
use super::super::files::FieldsRead;
use super::check::{Current, StageScene};
use crate::platform;
use crate::sim::fields::Fields;
use serde_json::json;

/// Frames a stage's picture is given to settle (the tints' ranges come from read-backs) before
/// the canvas is kept.
const SETTLE: u32 = 4;

/// Frames a key may take to show its effect.
const KEY_FRAMES: u32 = 60;

/// `teaching`'s stages, in order, as its line begins (40 Jacobi sweeps, no tolerance): a whole
/// step, then two stages of the next.
const TEACHING: [&str; 13] = [
    "1/11 sources and forces",
    "2/11 divergence",
    "3/11 pressure after 1 Jacobi sweep,",
    "4/11 pressure after 2 Jacobi sweeps",
    "5/11 pressure after 4 Jacobi sweeps",
    "6/11 pressure after 8 Jacobi sweeps",
    "7/11 pressure after 16 Jacobi sweeps",
    "8/11 pressure after 32 Jacobi sweeps",
    "9/11 pressure solve to its stopping rule",
    "10/11 correction",
    "11/11 advection",
    "1/11 sources and forces",
    "2/11 divergence",
];

/// Plume's first V-cycle level, going down and coming back up (then the walk goes on to the
/// solve).
const LEVEL_DOWN: &str = "the residual of level 0 restricted onto it";
const LEVEL_UP: &str = "its correction, sent up to level 0";

/// The most stages taken on plume before its levels must have shown.
const PLUME_MOST: usize = 40;

fn press(key: &str, code: &str) -> Result<(), String> {
    platform::key_event(key, code)
}

/// What a line must say after `k` stages (from 1) on `scene`; None where any stage may come.
fn check_line(scene: StageScene, k: usize, line: &str) -> Result<(), String> {
    let ok = match scene {
        StageScene::Teaching => {
            let want = TEACHING[k - 1];
            line.starts_with(want) && (k != 11 || line.ends_with("(step done)"))
        }
        // plume's sub-steps and the solver's prediction decide how many come after these
        StageScene::Plume => match k {
            1 => line.contains("sources and forces"),
            2 => line.contains("divergence: ∇·u"),
            _ => true,
        },
    };
    if ok { Ok(()) } else { Err(format!("stage {k} shows the line {line:?}")) }
}

/// One frame of a walk through the stage view on `scene`. The state the view leaves (and its
/// step) goes to `leaves` for `matches_steps`.
pub fn walk(c: &mut Current, app: &mut App, scene: StageScene, leaves: &mut Option<(u64, Fields)>) -> Result<(), String> {
    let frame = c.frame;
    let step = app.running.as_ref().ok_or("no simulation")?.sim.step_index;
    let w = &mut c.walk;
    if let Some(left) = w.left {
        // the view is gone: the state it left is read, and the run goes on
        if let Some(f) = c.read.as_mut().and_then(|r| r.poll()) {
            *leaves = Some((left, f.map_err(|e| e.to_string())?));
            c.read = None;
        }
        let on_since = w.esc_again.unwrap_or(left);
        if step > on_since + 3 && c.read.is_none() {
            if scene == StageScene::Plume && w.esc_again.is_none() {
                // Esc with the view closed: a page has no window to close, and must go on
                w.esc_again = Some(step);
                return press("Escape", "Escape");
            }
            c.measured = Some(json!({
                "opened_at_step": w.opened, "left_at_step": left, "esc_again_at_step": w.esc_again, "then_at_step": step, "lines": w.lines,
            }));
            c.done = true;
        } else if frame > w.since_line + 200 {
            return Err(format!("the run did not go on after the stage view: step {step}, left at {left}"));
        }
        return Ok(());
    }
    if frame == 3 {
        return press("t", "KeyT");
    }
    let Some(opened) = w.opened else {
        if app.stage_view.is_some() {
            w.opened = Some(step);
            let line = app.stage_line().unwrap_or_default();
            if !line.starts_with("0/") || !app.stepper.paused() {
                return Err(format!("T opened the stage view with the line {line:?}, paused {}", app.stepper.paused()));
            }
            w.since_line = 0;
        } else if frame > 3 + KEY_FRAMES {
            return Err("T opened no stage view".into());
        }
        return Ok(());
    };
    let line = app.stage_line();
    if let Some((at, before)) = &w.pressed {
        let leaving = !app.view.stage_view;
        if leaving {
            // (the frame would finish the step and run on before the state could be read)
            app.sync_stage_view();
            let r = app.running.as_ref().ok_or("no simulation")?;
            if app.stage_view.is_some() || app.stepper.paused() {
                return Err("leaving the stage view did not let the run go on".into());
            }
            // a step ended for each "(step done)", and the step under way was finished
            let done = w.lines.iter().filter(|l| l.ends_with("(step done)")).count() as u64;
            let mid = u64::from(!w.lines.last().is_some_and(|l| l.ends_with("(step done)")));
            if r.sim.step_index != opened + done + mid {
                return Err(format!(
                    "the stage view opened at step {opened}, took {done} whole steps and {mid} begun, and left at step {}",
                    r.sim.step_index
                ));
            }
            w.left = Some(r.sim.step_index);
            // (from here on: the frame it left at)
            w.since_line = frame;
            c.read = (scene == StageScene::Teaching).then(|| FieldsRead::start(&r.sim));
            return Ok(());
        }
        if line.as_ref() == before.as_ref() {
            if frame > at + KEY_FRAMES {
                return Err(format!("no stage came {KEY_FRAMES} frames after stage {}", w.lines.len()));
            }
            return Ok(());
        }
        let line = line.ok_or("the stage view closed by itself")?;
        w.lines.push(line.clone());
        check_line(scene, w.lines.len(), &line)?;
        (w.pressed, w.since_line) = (None, 0);
        return Ok(());
    }
    w.since_line += 1;
    let k = w.lines.len();
    if w.since_line == SETTLE && k > 0 {
        // the line is written on the field (or in the band above it), not only in the panel
        let line = line.ok_or("the stage view closed by itself")?;
        let at = app.last_ui.as_ref().and_then(|ui| ui.written_beside_panel(&line));
        let Some(at) = at else { return Err(format!("the stage line {line:?} is not written on the field")) };
        let at = [at.min.x, at.min.y, at.width(), at.height()];
        c.grab = Some(json!({ "check": format!("{scene:?}"), "stage": k, "line": line, "line_at_points": at }));
        return Ok(());
    }
    if w.since_line <= SETTLE {
        return Ok(());
    }
    let finished = match scene {
        StageScene::Teaching => k == TEACHING.len(),
        StageScene::Plume => {
            let down = w.lines.iter().position(|l| l.contains("V-cycle level 1 (") && l.contains(LEVEL_DOWN));
            let up = w.lines.iter().rposition(|l| l.contains("V-cycle level 1 (") && l.contains(LEVEL_UP));
            if k > PLUME_MOST && up.is_none() {
                return Err(format!("no V-cycle level 1 came in {k} stages: {:?}", w.lines));
            }
            // and on to the solve, whose picture the divergence before it is compared with
            let solve = w.lines.iter().rposition(|l| l.contains("pressure solve"));
            matches!((down, up, solve), (Some(d), Some(u), Some(s)) if u > d && s > u)
        }
    };
    w.pressed = Some((frame, line));
    match (finished, scene) {
        (true, StageScene::Teaching) => press("t", "KeyT"),
        (true, StageScene::Plume) => press("Escape", "Escape"),
        // S and → in turn
        _ if k.is_multiple_of(2) => press("s", "KeyS"),
        _ => press("ArrowRight", "ArrowRight"),
    }
}

/// `teaching` stepped whole (S with the stage view off, or the Step button) from its start to
/// the step the stage view left at: the state must be bit for bit the one it left.
pub fn matches_steps(c: &mut Current, app: &mut App, leaves: &Option<(u64, Fields)>) -> Result<(), String> {
    let (target, by_stages) = leaves.as_ref().ok_or("the stage view's walk on teaching left no state")?;
    let r = app.running.as_ref().ok_or("no simulation")?;
    let step = r.sim.step_index;
    if c.read.is_none() {
        if step > *target {
            return Err(format!("whole steps went past step {target}: {step}"));
        }
        if step == *target {
            c.read = Some(FieldsRead::start(&r.sim));
        } else if !matches!(app.stepper.state, super::super::stepper::RunState::SingleStep(_)) {
            // (a frame takes at most 16 single steps)
            for _ in 0..(*target - step).min(16) {
                app.apply(crate::ui::Command::Step);
            }
        }
        return Ok(());
    }
    let Some(f) = c.read.as_mut().and_then(|r| r.poll()) else { return Ok(()) };
    let f = f.map_err(|e| e.to_string())?;
    let bits = |a: &[f32], b: &[f32]| a.iter().zip(b).filter(|(x, y)| x.to_bits() != y.to_bits()).count();
    let differ: Vec<(&str, usize)> = [
        ("u", bits(&f.u, &by_stages.u)),
        ("v", bits(&f.v, &by_stages.v)),
        ("p", bits(&f.p, &by_stages.p)),
        ("ink", bits(&f.ink, &by_stages.ink)),
        ("density", bits(&f.density, &by_stages.density)),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .collect();
    c.measured = Some(json!({ "step": target, "values_differing": differ }));
    if !differ.is_empty() {
        return Err(format!("the state the stage view left at step {target} differs from {target} whole steps: {differ:?}"));
    }
    c.done = true;
    Ok(())
}
