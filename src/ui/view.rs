//! The view and brush settings: everything the user sets that is not the simulation (that is the
//! scene config). One plain struct, saved as TOML in the user's config folder whenever it
//! changes and when the app closes, and read back on start. `SMOKEBOX_CONFIG_DIR` names another
//! folder (tests use it so they never touch the real one).

use crate::config::Scene;
use crate::render::Overlays;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The environment variable that overrides the config folder.
pub const CONFIG_DIR_VAR: &str = "SMOKEBOX_CONFIG_DIR";
/// The file in that folder.
pub const VIEW_FILE: &str = "view.toml";

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BrushMode {
    /// Stir and paint ink.
    #[default]
    Paint,
    /// Stir only (also the right mouse button).
    Stir,
    /// Ink only, no velocity.
    Ink,
    /// Obstacles: left drag paints solid cells, right drag erases them.
    Wall,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Brush {
    /// Radius as a share of the domain's longer side, so one brush suits every scene.
    pub radius_share: f32,
    /// Velocity added per m/s of drag.
    pub strength: f32,
    pub colour: [f32; 3],
    /// The fixed colour above, or a fresh bright one for every stroke.
    pub colour_mode: crate::render::palette::ColourMode,
    /// Ink concentration added per dab.
    pub amount: f32,
    /// Density deviation added per dab, kg/m³ (negative rises under gravity).
    pub density: f32,
    pub mode: BrushMode,
}

impl Default for Brush {
    fn default() -> Self {
        Brush {
            radius_share: 0.04,
            strength: 1.0,
            colour: [0.2, 0.6, 1.0],
            colour_mode: crate::render::palette::ColourMode::PerStroke,
            amount: 1.0,
            density: 0.0,
            mode: BrushMode::Paint,
        }
    }
}

impl Brush {
    /// The radius in metres in `scene`'s domain.
    pub fn radius(&self, scene: &Scene) -> f32 {
        self.radius_share * domain_side(scene)
    }

    pub fn set_radius(&mut self, scene: &Scene, metres: f32) {
        self.radius_share = metres / domain_side(scene).max(1e-9);
    }
}

/// The domain's longer side, metres.
pub fn domain_side(scene: &Scene) -> f32 {
    let (w, h) = scene.size();
    w.max(h)
}

/// View and brush settings. A scene's `display` section decides which fields a scene opens with
/// (ink, divergence, pressure, arrows) and its background; everything else here is the user's
/// and carries across scenes and restarts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    pub brush: Brush,
    pub overlays: Overlays,
    pub show_panel: bool,
    /// Screenshots and recordings show the overlays (tints, arrows, grid lines), else ink only.
    pub capture_overlays: bool,
    /// Run every step a frame asks for (`display.steps_per_frame`) even when frames run long,
    /// instead of taking fewer steps to keep the window responsive.
    pub every_step: bool,
}

impl Default for View {
    fn default() -> Self {
        View { brush: Brush::default(), overlays: Overlays::default(), show_panel: true, capture_overlays: true, every_step: false }
    }
}

impl View {
    /// Takes the overlays a scene asks for (its display section) and an arrow spacing that suits
    /// its grid.
    pub fn open_scene(&mut self, s: &Scene) {
        let d = &s.display;
        let o = &mut self.overlays;
        o.ink = d.ink;
        o.divergence = d.divergence;
        o.pressure = d.pressure;
        o.arrows_centre = d.velocity;
        o.arrow_spacing = ((s.grid.nx.max(s.grid.ny) / 16).max(1)) as u32;
    }

    /// Reads the view from `dir`; a missing file gives the defaults, an unreadable one the
    /// defaults and a one-line warning (a bad config file must not keep the app from starting).
    pub fn load(dir: &Path) -> View {
        let path = dir.join(VIEW_FILE);
        let Ok(text) = std::fs::read_to_string(&path) else { return View::default() };
        toml::from_str(&text).unwrap_or_else(|e| {
            eprintln!("smokebox: ignoring {}: {} (using default view settings)", path.display(), e.message());
            View::default()
        })
    }

    /// Writes the view to `dir` (created if needed), via a temporary file so a crash mid-write
    /// leaves the old file.
    pub fn save(&self, dir: &Path) -> crate::Result<()> {
        std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
        let text = toml::to_string_pretty(self).map_err(|e| crate::error!("cannot write the view settings: {e}"))?;
        let (path, tmp) = (dir.join(VIEW_FILE), dir.join(format!(".{VIEW_FILE}.partial")));
        std::fs::write(&tmp, text).map_err(|e| crate::error!("cannot write {}: {e}", tmp.display()))?;
        std::fs::rename(&tmp, &path).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))
    }
}

/// The folder for the app's settings: `$SMOKEBOX_CONFIG_DIR`, else the platform's config folder
/// (e.g. ~/.config/smokebox), else none (settings then live only as long as the app).
pub fn config_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CONFIG_DIR_VAR).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "smokebox").map(|d| d.config_dir().to_path_buf())
}
