//! Checks that run a scene: every scene, solver and scheme for some frames, every overlay on in
//! turn, and the step times of `?bench`.

use super::super::App;
use super::check::Current;
use crate::platform::Instant;
use serde_json::json;

/// `frames` frames of the check's scene: it must have stepped.
pub fn run(c: &mut Current, app: &App, frames: u32) -> Result<(), String> {
    if c.frame >= frames {
        let r = app.running.as_ref().ok_or("no simulation")?;
        if r.sim.step_index <= c.first_step {
            return Err(format!("no step was taken in {frames} frames"));
        }
        c.done = true;
    }
    Ok(())
}

/// Every overlay on in turn for three frames, the plots open with them, then the ink alone.
pub fn overlays(c: &mut Current, app: &mut App) {
    let frame = c.frame;
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

/// Step time and dispatches a step from frame 3 to frame 8 of plume at `side`².
pub fn timing(c: &mut Current, app: &App, side: i64, equal_work: bool) {
    if c.frame == 3 {
        c.started = Instant::now();
        c.first_step = app.running.as_ref().map_or(0, |r| r.sim.step_index);
        c.first_dispatch = crate::sim::kernel::dispatches();
    } else if c.frame >= 8 {
        let steps = (app.running.as_ref().map_or(0, |r| r.sim.step_index) - c.first_step).max(1);
        let ms = c.started.elapsed().as_secs_f64() * 1e3;
        let dispatches = crate::sim::kernel::dispatches() - c.first_dispatch;
        c.measured = Some(json!({
            "side": side, "equal_work": equal_work, "steps": steps, "ms": ms,
            "ms_per_step": ms / steps as f64,
            "dispatches_per_step": dispatches as f64 / steps as f64,
        }));
        c.done = true;
    }
}
