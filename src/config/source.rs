//! Where scenes and masks come from: the built-in library embedded in the binary, or files.

use crate::error::Result;
use std::path::{Path, PathBuf};

/// Built-in scenes, embedded in the binary: (name, TOML).
pub const BUILTIN: &[(&str, &str)] = &[
    ("box", include_str!("../../assets/scenes/box.toml")),
    ("cavity", include_str!("../../assets/scenes/cavity.toml")),
    ("drops", include_str!("../../assets/scenes/drops.toml")),
    ("logo", include_str!("../../assets/scenes/logo.toml")),
    ("paint", include_str!("../../assets/scenes/paint.toml")),
    ("periodic", include_str!("../../assets/scenes/periodic.toml")),
    ("plume", include_str!("../../assets/scenes/plume.toml")),
    ("rayleigh-taylor", include_str!("../../assets/scenes/rayleigh-taylor.toml")),
    ("teaching", include_str!("../../assets/scenes/teaching.toml")),
    ("wind-tunnel", include_str!("../../assets/scenes/wind-tunnel.toml")),
];

/// Built-in obstacle masks, embedded: (file name, PNG bytes).
pub const BUILTIN_MASKS: &[(&str, &[u8])] = &[("logo.png", include_bytes!("../../assets/masks/logo.png"))];

/// Where a scene came from: a built-in name or a file.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Builtin(&'static str),
    File(PathBuf),
}

impl Source {
    /// Finds a built-in by name, else a file by path.
    pub fn find(name_or_path: &str) -> Result<Source> {
        if let Some((name, _)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            return Ok(Source::Builtin(name));
        }
        let path = PathBuf::from(name_or_path);
        if path.exists() {
            return Ok(Source::File(path));
        }
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        Err(crate::error!("unknown scene '{name_or_path}': expected a built-in scene ({}) or the path of a .toml file", names.join(", ")))
    }

    pub fn label(&self) -> String {
        match self {
            Source::Builtin(n) => n.to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }

    /// The scene's TOML text.
    pub fn text(&self) -> Result<String> {
        match self {
            Source::Builtin(n) => Ok(BUILTIN.iter().find(|(b, _)| b == n).map(|(_, t)| t.to_string()).unwrap_or_default()),
            Source::File(p) => std::fs::read_to_string(p).map_err(|e| crate::error!("cannot read scene file {}: {e}", p.display())),
        }
    }
}

/// Resolves a file named in a scene: next to the scene file, else relative to the working folder.
pub fn resolve_path(source: &Source, file: &str) -> PathBuf {
    if let Source::File(scene) = source
        && let Some(dir) = scene.parent()
    {
        let candidate = dir.join(file);
        if candidate.exists() {
            return candidate;
        }
    }
    Path::new(file).to_path_buf()
}
