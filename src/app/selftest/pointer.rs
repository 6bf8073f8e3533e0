//! Checks by pointer events on the canvas: a stroke by a mouse or one finger, the embedded page's
//! hover painting and idle splats, and an obstacle dragged by one finger with the move brush.

use super::super::App;
use super::super::files::FieldsRead;
use super::check::{Current, Kind, ink_at};
use crate::config::Obstacle;
use crate::platform::{self, Instant};
use crate::sim::fields::Fields;
use serde_json::json;

/// The idle check's idle time, seconds: long enough that a frame on a software adapter comes
/// well within it.
pub const IDLE_S: f32 = 2.0;

/// Where a fraction of the field (x from the left, y from the top) lies on the canvas, CSS pixels.
fn on_canvas(app: &App, fx: f32, fy: f32) -> [f64; 2] {
    let v = app.viewport;
    let dpr = platform::device_pixel_ratio();
    [f64::from(v.x + fx * v.w) / dpr, f64::from(v.y + fy * v.h) / dpr]
}

/// A stroke (or a hover) left to right through the middle, 0.3 to 0.7 of the field, over 12
/// frames: it must paint ink along its path and none away from it (a hover with hover painting
/// off: none at all).
pub fn stroke(c: &mut Current, app: &mut App) -> Result<(), String> {
    let frame = c.frame;
    let (pointer, pressed, paints) = match c.check.kind {
        Kind::Stroke(p) => (p, true, true),
        Kind::Hover(on) => ("mouse", false, on),
        _ => unreachable!("a stroke or a hover"),
    };
    let what = if pressed { format!("the {pointer} stroke") } else { format!("a hover (hover painting {paints})") };
    let at = |t: f32| on_canvas(app, t, 0.5);
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
    Ok(())
}

/// The idle check: once the scene steps, idle splats are switched on (`IDLE_S`) and the idle
/// time starts; the ink read back before it is over must be none, the ink read back well after
/// it some.
pub fn idle(c: &mut Current, app: &mut App) -> Result<(), String> {
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

/// The finger drag's disc in the still box (metres), and where the finger takes its centre.
pub const DISC: Obstacle = Obstacle::Circle { center: [0.3, 0.5], radius: 0.08 };
const DRAG_TO: [f32; 2] = [0.7, 0.5];

/// Bands of ink across the box, below, through and above the disc's path.
pub fn drag_bands() -> Vec<crate::config::scene::Layer> {
    [(0.3, [1.0, 0.55, 0.2]), (0.48, [0.2, 0.6, 1.0]), (0.66, [1.0, 0.55, 0.2])]
        .map(|(bottom, ink)| crate::config::scene::Layer { bottom, top: bottom + 0.06, ink, density: 0.0, amplitude: 0.0, waves: 0.0 })
        .to_vec()
}

/// Frames the finger takes from the disc's centre to `DRAG_TO`.
const DRAG_FRAMES: u32 = 20;

/// Mean speed (m/s, from the edge velocities at cell centres) over the fluid cells of a
/// rectangle of the box (metres).
fn mean_speed(f: &Fields, h: f32, x: [f32; 2], y: [f32; 2]) -> f32 {
    let (nx, ny) = (f.nx, f.ny);
    let cells = |a: [f32; 2], n: usize| ((a[0] / h) as usize).min(n - 1)..((a[1] / h) as usize).min(n);
    let (mut sum, mut n) = (0.0, 0);
    for j in cells(y, ny) {
        for i in cells(x, nx) {
            if f.solid[j * nx + i] > 0.5 {
                continue;
            }
            let u = 0.5 * (f.u[j * (nx + 1) + i] + f.u[j * (nx + 1) + i + 1]);
            let v = 0.5 * (f.v[j * nx + i] + f.v[(j + 1) * nx + i]);
            sum += u.hypot(v);
            n += 1;
        }
    }
    if n == 0 { 0.0 } else { sum / n as f32 }
}

/// One finger (touch pointer events on the canvas, as a phone sends them) presses on the box's
/// disc with the move brush and drags it to `DRAG_TO`: the finger's press picks the disc; once
/// the body has come to rest, the solid mask holds it where it was let go and no longer where
/// it was, the scene's obstacle moved with it, and the fluid behind it moves (its wake) where
/// the still box far from its path hardly does.
pub fn finger_drag(c: &mut Current, app: &mut App) -> Result<(), String> {
    let frame = c.frame;
    let Obstacle::Circle { center: from, radius } = DISC else { unreachable!("a disc") };
    let (w, h) = app.scene.size();
    let at = |m: [f32; 2]| on_canvas(app, m[0] / w, 1.0 - m[1] / h);
    let along = |t: f32| [from[0] + t * (DRAG_TO[0] - from[0]), from[1] + t * (DRAG_TO[1] - from[1])];
    match frame {
        1 => platform::pointer_event("pointerdown", "touch", at(from), true)?,
        2 if app.dragged.is_none() => {
            let said = app.panel.message.clone().unwrap_or_default();
            return Err(format!("the finger pressed on the disc picked no obstacle ({said})"));
        }
        2..=21 => platform::pointer_event("pointermove", "touch", at(along((frame - 1) as f32 / DRAG_FRAMES as f32)), true)?,
        22 => platform::pointer_event("pointerup", "touch", at(DRAG_TO), false)?,
        _ if c.read.is_none() && c.measured.is_none() => {
            let r = app.running.as_ref().ok_or("no simulation")?;
            // the body comes to rest where it was let go a few cells a step
            if !r.sim.dragging() && app.dragged.is_none() {
                app.stepper.set_paused(true);
                c.read = Some(FieldsRead::start(&r.sim));
                c.measured = Some(json!({ "rest_frame": frame }));
            } else if frame > 200 {
                return Err("the dragged disc did not come to rest in 200 frames".into());
            }
        }
        _ => {
            if c.grab.is_none() && c.measured.as_ref().is_some_and(|m| m.get("wake_speed").is_some()) {
                // (the picture after the drag went with the frame before)
                c.done = true;
                return Ok(());
            }
            let Some(f) = c.read.as_mut().and_then(|read| read.poll()) else { return Ok(()) };
            let f = f.map_err(|e| e.to_string())?;
            let cell = app.running.as_ref().ok_or("no simulation")?.sim.params.h;
            let solid = |m: [f32; 2]| f.solid[(m[1] / cell) as usize * f.nx + (m[0] / cell) as usize] > 0.5;
            let placed = match app.scene.obstacles.first() {
                Some(Obstacle::Circle { center, .. }) => *center,
                _ => return Err("the box's disc is gone from the scene".into()),
            };
            // the wake: the band the disc swept, behind where it stopped; far: the box's lowest
            // and highest rows, a disc's diameter and more from its path
            let wake = mean_speed(&f, cell, [from[0] + radius, DRAG_TO[0] - radius], [from[1] - radius, from[1] + radius]);
            let far = 0.5 * (mean_speed(&f, cell, [0.05, 0.95], [0.02, 0.15]) + mean_speed(&f, cell, [0.05, 0.95], [0.85, 0.98]));
            c.measured = Some(json!({
                "disc_at": placed, "solid_at_end": solid(DRAG_TO), "solid_at_start": solid(from),
                "wake_speed": wake, "far_speed": far, "rest_frame": c.measured.as_ref().map(|m| m["rest_frame"].clone()),
            }));
            if (placed[0] - DRAG_TO[0]).hypot(placed[1] - DRAG_TO[1]) > 2.0 * cell {
                return Err(format!("the scene's disc is at {placed:?}, not where the finger let it go ({DRAG_TO:?})"));
            }
            if !solid(DRAG_TO) || solid(from) {
                return Err(format!(
                    "the solid mask did not move with the disc: solid where it was let go {}, where it was picked {}",
                    solid(DRAG_TO),
                    solid(from)
                ));
            }
            if !(wake > 0.01 && wake > 3.0 * far) {
                return Err(format!("no wake behind the dragged disc: mean speed {wake} m/s along its path, {far} m/s far from it"));
            }
            c.grab = Some(json!({ "check": "FingerDrag", "stage": 0, "line": "the disc let go where the finger lifted" }));
        }
    }
    Ok(())
}
