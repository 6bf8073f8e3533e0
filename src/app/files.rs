//! Files in and out of the window: a scene `.toml` or a saved state folder opened by dropping it
//! on the window (or `smokebox --load DIR`); the state saved as `--dump` writes it (the `.npy`
//! fields and meta.json) with the current settings beside it as `scene.toml`, which meta.json
//! names, so the folder reopens with the same picture and the same settings; and the settings
//! alone saved as a scene `.toml`.

use crate::config::{Obstacle, Scene, Source, resolve_path};
use crate::error::Result;
use crate::sim::fields::Fields;
use crate::state_io::{self, Meta};
use std::path::Path;

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
/// with them first. Desktop only (the page asks its device for its limits).
#[cfg(not(target_arch = "wasm32"))]
pub fn window_device_limits() -> Result<wgpu::Limits> {
    crate::gpu::quiet_window_system_probe();
    let instance = wgpu::Instance::new(crate::gpu::instance_descriptor());
    let adapter =
        crate::platform::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            ..Default::default()
        }))
        .map_err(|_| crate::error::Error(crate::gpu::NO_ADAPTER_HELP.into()))?;
    Ok(crate::gpu::device_descriptor(&adapter).required_limits)
}

/// What a dropped or named path is: a state folder or a scene file.
pub fn is_state_folder(path: &Path) -> Result<bool> {
    use crate::platform::{PathKind, path_kind};
    let kind = path_kind(path);
    if kind == PathKind::Folder {
        if path_kind(&path.join("meta.json")) == PathKind::File {
            return Ok(true);
        }
        crate::fail!(
            "{}: a folder without meta.json; expected a state folder (written by --dump or Save state) or a scene .toml",
            path.display()
        );
    }
    if kind == PathKind::File && path.extension().is_none_or(|e| e != "toml") {
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
            if crate::platform::path_kind(&found) == crate::platform::PathKind::File {
                *file = crate::platform::absolute(&found).display().to_string();
            }
        }
    }
    let text = toml::to_string_pretty(&scene).map_err(|e| crate::error!("cannot write the scene as TOML: {e}"))?;
    Ok(format!("# Saved from the smokebox window: every setting as it was; open it with `smokebox --scene FILE`.\n{text}"))
}

#[cfg(test)]
pub fn save_scene(path: &Path, scene: &Scene, source: &Source) -> Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
    }
    std::fs::write(path, scene_text(scene, source)?).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))
}

/// The files of a saved state: the `.npy` fields (as --dump writes them) and `scene.toml`.
fn state_files(fields: &Fields, scene_text: String) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<(String, Vec<u8>)> = state_io::state_arrays(fields)
        .into_iter()
        .map(|(file, shape, values)| (file.to_string(), state_io::npy_bytes(&shape, values)))
        .collect();
    files.push((STATE_SCENE.to_string(), scene_text.into_bytes()));
    files
}

/// The whole state read back without waiting: the fields copied to staging buffers and mapped;
/// `poll` gives them once every map has come back (Save state, the page's self-test).
pub struct FieldsRead {
    fields: Option<Fields>,
    staging: Vec<wgpu::Buffer>,
    /// 0 waiting, 1 mapped, 2 failed, per buffer.
    mapped: Vec<std::sync::Arc<std::sync::atomic::AtomicU8>>,
}

impl FieldsRead {
    /// Copies the simulation's fields (submitted at once) and asks for their maps.
    pub fn start(sim: &crate::sim::Simulation) -> FieldsRead {
        let sources = sim.buffers.field_buffers();
        let mut encoder = sim.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("read state") });
        let staging: Vec<wgpu::Buffer> = sources
            .iter()
            .map(|src| {
                let s = sim.device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("state staging"),
                    size: src.size(),
                    usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                });
                encoder.copy_buffer_to_buffer(src, 0, &s, 0, src.size());
                s
            })
            .collect();
        sim.queue.submit([encoder.finish()]);
        let mapped = staging
            .iter()
            .map(|s| {
                let flag = std::sync::Arc::new(std::sync::atomic::AtomicU8::new(0));
                let f = flag.clone();
                s.slice(..)
                    .map_async(wgpu::MapMode::Read, move |r| f.store(if r.is_ok() { 1 } else { 2 }, std::sync::atomic::Ordering::Release));
                flag
            })
            .collect();
        FieldsRead { fields: Some(Fields::zeros_dye(sim.nx, sim.ny, sim.dye_scale)), staging, mapped }
    }

    /// The fields, once every map has come back (once); None while they are under way.
    pub fn poll(&mut self) -> Option<Result<Fields>> {
        use std::sync::atomic::Ordering;
        let states: Vec<u8> = self.mapped.iter().map(|f| f.load(Ordering::Acquire)).collect();
        if states.contains(&2) {
            return Some(Err(crate::error!("the state could not be read back from the GPU")));
        }
        if states.contains(&0) {
            return None;
        }
        let mut fields = self.fields.take()?;
        for (d, s) in fields.arrays_mut().into_iter().zip(&self.staging) {
            if let Ok(view) = s.slice(..).get_mapped_range() {
                *d = bytemuck::cast_slice::<u8, f32>(&view).to_vec();
            }
            s.unmap();
        }
        Some(Ok(fields))
    }
}

/// A Save state under way: its fields being read back, then written.
pub struct SavingState {
    name: String,
    meta: Meta,
    scene_text: String,
    read: FieldsRead,
}

impl SavingState {
    pub fn start(sim: &crate::sim::Simulation, name: String, meta: Meta, scene_text: String) -> SavingState {
        SavingState { name, meta, scene_text, read: FieldsRead::start(sim) }
    }

    /// Once every field has arrived: writes the state (a folder natively, a zip download on the
    /// web) and says where; None while the maps are under way.
    pub fn collect(&mut self) -> Option<Result<String>> {
        let fields = match self.read.poll()? {
            Ok(f) => f,
            Err(e) => return Some(Err(e)),
        };
        let files = state_files(&fields, std::mem::take(&mut self.scene_text));
        let meta = self.meta.clone();
        Some(crate::platform::save_folder(&self.name, files, move |dir| vec![meta_file(dir, meta)]))
    }
}

/// meta.json of a saved state in `dir`: it names the scene file by its path in a folder, by its
/// name in a zip (`dir` empty).
fn meta_file(dir: &str, meta: Meta) -> (String, Vec<u8>) {
    let scene = if dir.is_empty() { STATE_SCENE.to_string() } else { Path::new(dir).join(STATE_SCENE).display().to_string() };
    let json = serde_json::to_string_pretty(&Meta { scene, overrides: Vec::new(), ..meta }).expect("meta serialises");
    ("meta.json".to_string(), json.into_bytes())
}

/// A state's loose files as the page opens them: the `.npy` fields, `scene.toml` and meta.json.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn state_loose(fields: &Fields, meta: Meta, scene_text: String) -> Vec<(String, Vec<u8>)> {
    let mut files = state_files(fields, scene_text);
    files.push(meta_file("", meta));
    files
}

/// A state as the zip the page's Save state offers.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn state_zip(fields: &Fields, meta: Meta, scene_text: String) -> Vec<u8> {
    crate::platform::zip::write(&state_loose(fields, meta, scene_text))
}

/// A scene opened from files, with the state saved beside it, if any.
type Opened = (Scene, Source, Option<(Fields, Meta)>);

/// What files picked or dropped on the page are: a scene `.toml`, the zip Save state wrote, or
/// a state's loose `.npy` files with its `meta.json`. Returns the scene and the state, if any.
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub fn open_files(picked: Vec<crate::platform::FileData>) -> Result<Opened> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for f in picked {
        if f.name.ends_with(".zip") {
            files.extend(crate::platform::zip::read(&f.name, &f.bytes)?);
        } else {
            files.push((f.name, f.bytes));
        }
    }
    let find = |name: &str| files.iter().find(|(n, _)| n == name).map(|(_, b)| b.as_slice());
    if let Some(meta) = find("meta.json") {
        let meta = state_io::parse_meta("meta.json", &String::from_utf8_lossy(meta))?;
        let (mut scene, source) = match find(STATE_SCENE) {
            Some(text) => {
                let source = Source::File(STATE_SCENE.into());
                (Scene::from_text(&String::from_utf8_lossy(text), STATE_SCENE, &meta.overrides)?, source)
            }
            None => Scene::load(&meta.scene, &meta.overrides)?,
        };
        (scene.grid.nx, scene.grid.ny, scene.grid.cell_size) = (meta.nx as i64, meta.ny as i64, meta.cell_size);
        scene.grid.dye_scale = crate::config::DyeScale::Scale(meta.dye_scale as i64);
        scene.validate(&source)?;
        let fields = state_io::fields_from(&meta, |file, shape, required| match find(file) {
            Some(bytes) => state_io::npy_parse(file, bytes, shape).map(Some),
            None if required => crate::fail!("{file} is missing: pick every .npy of the state with its meta.json"),
            None => Ok(None),
        })?;
        return Ok((scene, source, Some((fields, meta))));
    }
    match files.as_slice() {
        [(name, text)] if name.ends_with(".toml") => {
            let source = Source::File(name.into());
            let scene = Scene::from_text(&String::from_utf8_lossy(text), name, &[])?;
            scene.validate(&source)?;
            Ok((scene, source, None))
        }
        _ => crate::fail!(
            "{}: expected a scene .toml, the zip Save state writes, or a state's .npy files with its meta.json",
            files.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")
        ),
    }
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
