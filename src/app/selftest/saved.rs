//! Checks of what the page saves and opens: the link, screenshot, GIF and video downloads, a
//! saved state reopened three ways, and the view settings kept in localStorage across a reload.

use super::super::App;
use super::super::files::{FieldsRead, open_files, state_loose, state_zip};
use super::check::{Current, Saved, Way};
use crate::platform::{self, FileData};
use serde_json::json;

/// The brush size kept in localStorage before the reload: a value no default has.
pub const KEPT_RADIUS: f32 = 0.0421;

/// Copy link, then a screenshot, a GIF recording and a WebM video, each offered as a download.
pub fn capture(c: &mut Current, app: &mut App) -> Result<(), String> {
    let saved = |ext: &str| platform::saved_files().iter().any(|(name, size)| name.ends_with(ext) && *size > 100);
    match c.frame {
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
        frame if frame > 40 && saved(".png") && saved(".gif") && saved(".webm") => {
            // a WebM file opens with the EBML header's magic number
            let head = platform::saved_head(".webm").unwrap_or_default();
            c.measured = Some(json!({ "webm_head": format!("{:02X?}", &head[..head.len().min(4)]) }));
            if !head.starts_with(&[0x1A, 0x45, 0xDF, 0xA3]) {
                return Err(format!("the WebM download does not start with the EBML header 1A 45 DF A3: {head:02X?}"));
            }
            c.done = true;
        }
        frame if frame > 150 => {
            return Err(format!("no PNG, GIF and WebM downloads after 150 frames: {:?}", platform::saved_files()));
        }
        _ => {}
    }
    Ok(())
}

/// The state read back and kept for the reopen checks, then the page's Save state (a zip).
pub fn save(c: &mut Current, app: &mut App, saved: &mut Option<Saved>) -> Result<(), String> {
    match c.frame {
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
        frame => {
            let zipped = platform::saved_files().iter().any(|(name, size)| name.ends_with(".zip") && *size > 100);
            c.done = app.saving.is_none() && zipped;
            if frame > 200 && !c.done {
                return Err(format!("Save state offered no zip download in 200 frames: {:?}", platform::saved_files()));
            }
        }
    }
    Ok(())
}

/// The saved state opened again `way` from step 0 of its scene: the fields must be the saved ones.
pub fn reopen(c: &mut Current, app: &mut App, way: Way, saved: &Option<Saved>) -> Result<(), String> {
    let s = saved.as_ref().ok_or("no state was saved")?;
    let step = app.running.as_ref().ok_or("no simulation")?.sim.step_index;
    match c.frame {
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
        _ if c.read.is_none() && step == s.step => c.read = Some(FieldsRead::start(&app.running.as_ref().ok_or("no simulation")?.sim)),
        frame if c.read.is_none() && frame > 200 => {
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
    Ok(())
}

/// View settings kept in localStorage (the page reloads after its report).
pub fn keep(c: &mut Current, app: &mut App) -> Result<(), String> {
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
    Ok(())
}

/// After the reload: the kept settings are back, and the URL's win.
pub fn kept(c: &mut Current, app: &App) -> Result<(), String> {
    let v = &app.view;
    c.measured = Some(json!({ "radius_share": v.brush.radius_share, "pressure": v.overlays.pressure }));
    if v.brush.radius_share != KEPT_RADIUS {
        return Err(format!("the kept brush size did not come back: {} (kept {KEPT_RADIUS})", v.brush.radius_share));
    }
    if v.overlays.pressure {
        return Err("the URL's view.overlays.pressure=false did not win over the stored setting".into());
    }
    c.done = true;
    Ok(())
}
