//! Files in and out of the window: a scene `.toml` or a saved state folder opened by dropping it
//! on the window (or `smokebox --load DIR`); the state saved as `--dump` writes it (the `.npy`
//! fields and meta.json) with the current settings beside it as `scene.toml`, which meta.json
//! names, so the folder reopens with the same picture and the same settings; and the settings
//! alone saved as a scene `.toml`.

use crate::config::{Obstacle, Scene, Source, resolve_path};
use crate::error::Result;
use crate::sim::fields::Fields;
use crate::state_io::{self, Meta};
use std::path::{Path, PathBuf};

/// The settings file inside a saved state folder.
pub const STATE_SCENE: &str = "scene.toml";

/// A state folder: its scene (with the state's grid), the fields and meta.json. The scene is the
/// one meta.json names; a relative or moved `scene.toml` is looked for inside the folder. The
/// grid meta.json claims is checked against `limits` (the device's) before anything is read or
/// allocated, as `smokebox run --load` does.
pub fn load_state(dir: &Path, limits: &wgpu::Limits) -> Result<(Scene, Source, Fields, Meta)> {
    let meta = state_io::load_meta(dir)?;
    crate::sim::check_dye_fits(limits, meta.nx, meta.ny, meta.dye_scale).map_err(|e| crate::error!("{}: {e}", dir.display()))?;
    let beside = dir.join(STATE_SCENE);
    let name = if Source::find(&meta.scene).is_err() && beside.exists() { beside.display().to_string() } else { meta.scene.clone() };
    let (mut scene, source) = Scene::load(&name, &meta.overrides)?;
    // the state defines the grid
    (scene.grid.nx, scene.grid.ny, scene.grid.cell_size) = (meta.nx as i64, meta.ny as i64, meta.cell_size);
    scene.grid.dye_scale = crate::config::DyeScale::Scale(meta.dye_scale as i64);
    scene.validate(&source)?;
    let fields = state_io::load_fields(dir, &meta)?;
    Ok((scene, source, fields, meta))
}

/// The limits the window's device will have (the adapter's, as `gpu::device_descriptor` asks
/// for them), found before any display or window is opened: `smokebox --load` checks a state
/// with them first.
pub fn window_device_limits() -> Result<wgpu::Limits> {
    crate::gpu::quiet_window_system_probe();
    let instance = wgpu::Instance::new(crate::gpu::instance_descriptor());
    let adapter =
        pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .map_err(|_| crate::error::Error(crate::gpu::NO_ADAPTER_HELP.into()))?;
    Ok(crate::gpu::device_descriptor(&adapter).required_limits)
}

/// What a dropped or named path is: a state folder or a scene file.
pub fn is_state_folder(path: &Path) -> Result<bool> {
    if path.is_dir() {
        if path.join("meta.json").exists() {
            return Ok(true);
        }
        crate::fail!(
            "{}: a folder without meta.json; expected a state folder (written by --dump or Save state) or a scene .toml",
            path.display()
        );
    }
    if path.exists() && path.extension().is_none_or(|e| e != "toml") {
        crate::fail!("{}: expected a scene .toml or a state folder (written by --dump or Save state)", path.display());
    }
    Ok(false)
}

/// The scene as TOML that loads back to the same settings: mask files named relative to the
/// scene they came from become absolute paths, so the file can live anywhere.
pub fn scene_text(scene: &Scene, source: &Source) -> Result<String> {
    let mut scene = scene.clone();
    for o in &mut scene.obstacles {
        if let Obstacle::Mask { file, .. } = o {
            let found = resolve_path(source, file);
            if found.exists() {
                *file = std::fs::canonicalize(&found).unwrap_or(found).display().to_string();
            }
        }
    }
    let text = toml::to_string_pretty(&scene).map_err(|e| crate::error!("cannot write the scene as TOML: {e}"))?;
    Ok(format!("# Saved from the smokebox window: every setting as it was; open it with `smokebox --scene FILE`.\n{text}"))
}

pub fn save_scene(path: &Path, scene: &Scene, source: &Source) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, scene_text(scene, source)?).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))
}

/// Writes `fields` as `--dump` does, with `scene` as scene.toml beside them (named by meta.json).
pub fn save_state(dir: &Path, fields: &Fields, meta: Meta, scene: &Scene, source: &Source) -> Result<PathBuf> {
    let text = scene_text(scene, source)?;
    std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    let scene_file = dir.join(STATE_SCENE);
    std::fs::write(&scene_file, text).map_err(|e| crate::error!("cannot write {}: {e}", scene_file.display()))?;
    state_io::dump(&dir, fields, &Meta { scene: scene_file.display().to_string(), overrides: Vec::new(), ..meta })?;
    Ok(dir)
}

/// A file dialog on a worker thread (the main thread on macOS, where dialogs must live): its
/// answer comes back through the channel, and `wake` tells the event loop to look.
pub fn ask_for_path(state: bool, start: PathBuf, wake: impl FnOnce() + Send + 'static) -> std::sync::mpsc::Receiver<Option<PathBuf>> {
    let (tx, rx) = std::sync::mpsc::channel();
    let ask = move || {
        let d = rfd::FileDialog::new().set_directory(start);
        let picked = if state {
            d.set_title("Open a saved state folder").pick_folder()
        } else {
            d.set_title("Open a scene").add_filter("scene", &["toml"]).pick_file()
        };
        let _ = tx.send(picked);
        wake();
    };
    if cfg!(target_os = "macos") {
        ask();
    } else {
        std::thread::spawn(ask);
    }
    rx
}

#[cfg(test)]
mod tests {
    use crate::app::files::*;

    #[test]
    fn a_saved_scene_loads_back_to_the_same_settings() {
        let (mut scene, source) = Scene::load("logo", &[]).unwrap();
        scene.fluid.viscosity = 0.0123;
        scene.forces.vorticity = 0.7;
        let dir = std::env::temp_dir().join(format!("smokebox_files_{}", std::process::id()));
        let path = dir.join("saved.toml");
        save_scene(&path, &scene, &source).unwrap();
        let (back, _) = Scene::load(&path.display().to_string(), &[]).unwrap();
        // the built-in mask is found by name wherever the file lives
        assert_eq!(back, scene);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A drop or Open of a state whose meta.json claims 65536² (or a dye grid 16 times finer) is
    /// refused in one line with its sizes, before its fields are read or any memory is taken.
    #[test]
    fn a_huge_state_is_refused_before_it_is_read() {
        let dir = std::env::temp_dir().join(format!("smokebox_huge_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let limits = wgpu::Limits::default();
        for (nx, k, needle) in [(65536, 1, "the ink buffer needs 48.0 GB"), (2048, 16, "grid.dye_scale = 16")] {
            let meta = format!(
                r#"{{"nx": {nx}, "ny": {nx}, "cell_size": 0.01, "step": 0, "time": 0, "dt": 0.01, "scene": "box", "dye_scale": {k}}}"#
            );
            std::fs::write(dir.join("meta.json"), meta).unwrap();
            assert!(is_state_folder(&dir).unwrap());
            let e = load_state(&dir, &limits).unwrap_err().to_string();
            assert!(e.contains(needle) && e.contains("does not fit") && !e.contains('\n'), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_toml_files_and_state_folders_open() {
        let dir = std::env::temp_dir().join(format!("smokebox_open_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert!(is_state_folder(&dir).unwrap_err().to_string().contains("without meta.json"));
        std::fs::write(dir.join("x.png"), b"png").unwrap();
        assert!(is_state_folder(&dir.join("x.png")).unwrap_err().to_string().contains("expected a scene .toml"));
        std::fs::write(dir.join("meta.json"), b"{}").unwrap();
        assert!(is_state_folder(&dir).unwrap());
        assert!(!is_state_folder(Path::new("plume")).unwrap());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
