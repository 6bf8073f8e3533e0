//! The view and brush settings: everything the user sets that is not the simulation (that is the
//! scene config). One plain struct, saved as TOML in the user's config folder whenever it
//! changes and when the app closes, and read back on start. `SMOKEBOX_CONFIG_DIR` names another
//! folder (tests use it so they never touch the real one).

use crate::config::Scene;
use crate::config::compare::Comparison;
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
    /// Obstacles of the scene: a left press on a circle or rectangle picks it, a drag moves it
    /// (it pushes the fluid as it goes), the release leaves it there.
    Move,
    /// Probes: a left click pins one (at most `MAX_PROBES`, the oldest goes), a right click
    /// takes them all away; their series show under the statistics.
    Probe,
    /// Tracers: a left drag drops particles in the brush's disc, and changes nothing else.
    Tracers,
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
    /// Keep stepping while the window is hidden, minimised or covered (off: it stops, and costs
    /// no CPU, until it shows again).
    pub run_hidden: bool,
    /// Write on the field: badges, the start hint, the scene's caption, legends, the arrows' key
    /// and the hover readout (off: the picture alone; messages still show).
    pub field_text: bool,
    /// The field covers the whole window, its overflow cut off at two sides, instead of fitting
    /// inside it with a margin (a page used as a background).
    pub fill_window: bool,
    /// The brush paints wherever the pointer moves over the field, no button held.
    pub hover_paint: bool,
    /// Seconds without input after which splats of random colour come by themselves, until the
    /// next input (0: never).
    pub idle_splats: f32,
    /// Opacity of the field's background, 0 to 1: below 1 what lies under the window shows
    /// through where there is no ink (the web page's canvas; a desktop window stays opaque).
    pub background_alpha: f32,
    /// The panel's plots (key 9): the last solve's residual against its iterations, and the
    /// statistics over time. While they are open every unit of a solve is checked.
    pub plots: bool,
    /// The stage view (key T): one step taken apart, a stage a press of S or →, each shown by
    /// the overlays that show what it did. Off, the overlays and the run are as they were.
    pub stage_view: bool,
    /// The split view (key V): the scene run twice side by side, one setting different.
    pub split: bool,
    /// What the split view's halves differ in.
    pub compare: Comparison,
    /// `compare = "setting"`'s `KEY=VALUE`, as `--set` takes it: the right half's one change.
    pub compare_setting: String,
}

impl Default for View {
    fn default() -> Self {
        View {
            brush: Brush::default(),
            overlays: Overlays::default(),
            show_panel: true,
            capture_overlays: true,
            every_step: false,
            run_hidden: false,
            field_text: true,
            fill_window: false,
            hover_paint: false,
            idle_splats: 0.0,
            background_alpha: 1.0,
            plots: false,
            stage_view: false,
            split: false,
            compare: Comparison::default(),
            compare_setting: "advection.velocity=maccormack".into(),
        }
    }
}

/// Seconds without input before `View::embedded`'s splats come.
pub const EMBED_IDLE_SPLATS: f32 = 4.0;

impl View {
    /// Takes the overlays a scene asks for (its display section).
    pub fn open_scene(&mut self, s: &Scene) {
        let d = &s.display;
        let o = &mut self.overlays;
        o.ink = d.ink;
        o.divergence = d.divergence;
        o.pressure = d.pressure;
        o.arrows_centre = d.velocity;
        o.arrows_mac = d.edge_velocity;
        o.grid_lines = d.grid_lines;
        o.numbers = d.numbers;
    }

    /// The view of a page embedded in another (`?embed`): the field alone, filling its frame,
    /// painted by the hovering pointer, with splats of its own while nobody touches it.
    pub fn embedded(self) -> View {
        View { show_panel: false, field_text: false, fill_window: true, hover_paint: true, idle_splats: EMBED_IDLE_SPLATS, ..self }
    }

    /// Reads the view from `dir`; a missing file gives the defaults, an unreadable one the
    /// defaults and a one-line warning (a bad config file must not keep the app from starting).
    pub fn load(dir: &Path) -> View {
        let Some(text) = crate::platform::read_setting(dir, VIEW_FILE) else { return View::default() };
        toml::from_str(&text).unwrap_or_else(|e| {
            crate::platform::say(&format!("ignoring {}: {} (using default view settings)", dir.join(VIEW_FILE).display(), e.message()));
            View::default()
        })
    }

    /// The view with one setting changed, `KEY=VALUE` as `--set` takes it, the key without its
    /// `view.` prefix (`overlays.pressure=true`, `show_panel=false`): the page's URL.
    pub fn with_override(&self, text: &str) -> crate::Result<View> {
        let (key, value) = crate::config::overrides::parse_override(text)?;
        let mut root = toml::Value::try_from(self).map_err(|e| crate::error!("view settings: {e}"))?;
        let mut at = &mut root;
        let parts: Vec<&str> = key.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            let table = at.as_table_mut().ok_or_else(|| crate::error!("view.{key}: no such view setting"))?;
            if i + 1 == parts.len() {
                if !table.contains_key(*part) {
                    crate::fail!("view.{key}: no such view setting");
                }
                table.insert(part.to_string(), value.clone());
                break;
            }
            at = table.get_mut(*part).ok_or_else(|| crate::error!("view.{key}: no such view setting"))?;
        }
        root.try_into().map_err(|e: toml::de::Error| crate::error!("view.{key}: {}", e.message()))
    }

    /// Writes the view to `dir` (created if needed), via a temporary file so a crash mid-write
    /// leaves the old file.
    pub fn save(&self, dir: &Path) -> crate::Result<()> {
        let text = toml::to_string_pretty(self).map_err(|e| crate::error!("cannot write the view settings: {e}"))?;
        crate::platform::write_setting(dir, VIEW_FILE, &text)
    }
}

/// The folder for the app's settings: `$SMOKEBOX_CONFIG_DIR`, else the platform's config folder
/// (e.g. ~/.config/smokebox), else none (settings then live only as long as the app).
/// On the web page, localStorage under `smokebox/`.
pub fn config_dir() -> Option<PathBuf> {
    crate::platform::settings_store(CONFIG_DIR_VAR)
}
