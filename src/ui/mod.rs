//! The egui side of the app: the side panel (panel.rs, with the scene's sections in
//! scene_settings.rs), the help window (help.rs) and the saved view and brush settings
//! (view.rs). The panel edits a copy of the scene config and the view, and returns `Command`s
//! the app applies after the frame; it never touches GPU objects, so egui_kittest can drive it.

pub mod field;
pub mod fonts;
pub mod help;
pub mod panel;
pub mod plots;
pub mod region;
pub mod scene_settings;
pub mod split;
pub mod view;
mod widgets;

pub use help::{HELP, help_window};
pub use panel::{Shown, panel_contents};
pub use view::{Brush, BrushMode, View};

use crate::config::{GridConfig, Scene};
use crate::render::Overlays;

/// What the panel (and the keys) ask the app to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Run (false) or pause (true).
    SetPaused(bool),
    /// One simulation step (while paused).
    Step,
    /// Restart keeping the panel's edits: time zero of the scene with the settings as they are
    /// now (R).
    Reset,
    /// Restart the scene as loaded: time zero with the scene's own settings (its file and
    /// command line), the panel's edits undone (Shift+R).
    RestartAsLoaded,
    ClearInk,
    /// Open a built-in scene by name, a scene file or a saved state folder by path.
    Open(String),
    /// Close the window (Esc, Ctrl+Q).
    Quit,
    /// Run with this scene config from now on: the panel's edited copy. A new grid re-creates
    /// the state; anything else applies to the running simulation.
    Configure(Box<Scene>),
    /// Ask for a file to open with a dialog: a saved state folder (true) or a scene .toml.
    OpenDialog(bool),
    /// Save the state (the .npy fields and meta.json, as --dump) with the settings beside it.
    SaveState,
    /// Save the settings as a scene .toml.
    SaveScene,
    /// Save the plots' series over time and every probe's as one CSV (`plots::series_csv`).
    SaveSeries,
    /// Save a PNG of the field (P).
    Screenshot,
    /// Start or stop recording an animated GIF (G).
    ToggleRecording,
    /// The web page: start or stop recording a WebM video of the canvas (the browser's encoder).
    ToggleVideo,
    /// The same, for a grid the app asked about first (too slow or too big to be interactive).
    ConfigureAnyway(Box<Scene>),
    /// The web page: put a link that reproduces this setup (scene and every changed setting in
    /// `--set` form) in the address bar and on the clipboard.
    CopyLink,
    /// Spread tracer particles evenly over the domain.
    FillTracers,
    /// Remove every tracer particle.
    ClearTracers,
}

/// A grid change the app asks about before applying it.
#[derive(Clone, Debug, PartialEq)]
pub struct Confirm {
    pub scene: Box<Scene>,
    /// What it would cost: the estimated time a step and the memory.
    pub text: String,
}

/// What the panel shows about capturing.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CaptureStatus {
    /// The folder captures go to.
    pub dir: String,
    /// Frames recorded so far, while recording.
    pub recording: Option<u32>,
    /// The last file written.
    pub last: Option<String>,
    /// Whether a WebM video is being recorded; None where none can be (the desktop).
    pub video: Option<bool>,
}

/// The panel's own state between frames (not saved).
#[derive(Clone, Debug, PartialEq)]
pub struct PanelState {
    /// The grid being edited, applied by its button.
    pub grid: GridConfig,
    /// The running grid the draft started from (a new one replaces the draft).
    pub grid_of: GridConfig,
    pub keep_domain: bool,
    pub show_help: bool,
    /// A grid change waiting for the user's yes or no.
    pub confirm: Option<Confirm>,
    /// The last rejected command or failed action, shown over the field (not in the panel, which
    /// must not jump) until the next succeeds.
    pub message: Option<String>,
    /// The canvas as last drawn: pixels a cell and cells in all (which overlays can draw).
    pub canvas: Option<(f32, usize)>,
    /// The path typed into "Open path" (where no file dialog can open).
    pub open_path: String,
    /// The stage view's stage, while the view is on.
    pub stage: Option<StageShown>,
}

/// The stage the stage view last took, as the panel shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct StageShown {
    /// "3/9 divergence: …", as on the field.
    pub line: String,
    /// The stage's equation in words.
    pub equation: String,
}

impl Default for PanelState {
    fn default() -> Self {
        PanelState {
            grid: GridConfig::default(),
            grid_of: GridConfig::default(),
            keep_domain: true,
            show_help: false,
            confirm: None,
            message: None,
            canvas: None,
            open_path: String::new(),
            stage: None,
        }
    }
}

/// A probe pinned in the window and its figures [u, v, p, div, ink] (shaders/probes.wgsl), the
/// last `PROBE_SERIES` full figures, oldest first.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProbeSeries {
    /// Where, metres (DESIGN.md §1).
    pub at: [f32; 2],
    pub values: std::collections::VecDeque<[f32; 5]>,
    /// The simulated second of each of `values`.
    pub times: std::collections::VecDeque<f64>,
}

/// Figures a probe's series keeps: at four full figures a second, a minute.
pub const PROBE_SERIES: usize = 240;

impl ProbeSeries {
    pub fn new(at: [f32; 2]) -> ProbeSeries {
        ProbeSeries { at, ..Default::default() }
    }

    pub fn push(&mut self, time: f64, values: [f32; 5]) {
        if self.values.len() == PROBE_SERIES {
            self.values.pop_front();
            self.times.pop_front();
        }
        self.values.push_back(values);
        self.times.push_back(time);
    }
}

/// Live figures shown in the panel. `None`: not known yet (shown as a dash).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveStats {
    pub fps: f32,
    pub frame_ms: f32,
    pub steps_requested: u32,
    pub steps_achieved: u32,
    /// Why fewer steps ran than were asked for, when they did.
    pub step_limit: Option<String>,
    /// Sub-steps of the last step (the CFL limit splits a step whose dt is too long).
    pub substeps: u32,
    /// The simulation's last warning (a step it had to shorten).
    pub warning: Option<String>,
    pub step: u64,
    /// Simulated seconds.
    pub time: f64,
    pub div_before: Option<f32>,
    pub div_after: Option<f32>,
    pub ink_total: Option<f32>,
    /// The bodies the state holds: each has its lines in the panel from the start ("–" until
    /// known), so the panel does not jump when the figures arrive.
    pub body_count: usize,
    /// Drag, lift, their coefficients and the Strouhal number of each body, from the last full
    /// figures (src/sim/body_loads.rs).
    pub bodies: Vec<crate::sim::body_loads::BodyReport>,
    /// The bodies' lift over recent figures, which the Strouhal number is read from.
    pub lifts: crate::sim::body_loads::LiftHistory,
    /// The probes pinned with the probe tool, each with its recent figures.
    pub probes: Vec<ProbeSeries>,
    /// Steps whose pressure solve stopped above `solver.tolerance` since the state was opened or
    /// reset (the GPU's count, read back).
    pub unconverged_steps: u32,
    /// Of them, the steps whose solves stopped at float32's floor only.
    pub floor_steps: u32,
    /// What the solver's warning says, with what to change (`field::solver_warning`).
    pub solver_warning: Option<String>,
    pub pressure_range: Option<(f32, f32)>,
    /// The largest |div| of the last read-back (the automatic divergence range).
    pub divergence_range: Option<f32>,
    /// The largest |ω| last read back (1/s), while the curl's auto range keeps it fresh.
    pub curl_range: Option<f32>,
    /// The last solve's residual history, while the plots are open.
    pub residual_history: Option<crate::sim::residual_history::ResidualHistory>,
    /// The statistics over time, for the plots.
    pub series: plots::Series,
    /// (pass label, milliseconds on the GPU), when timestamps are available.
    pub passes: Vec<(String, f32)>,
    pub adapter: String,
    /// What the window chose for this adapter, and why (a software adapter's lighter defaults).
    pub for_adapter: Option<String>,
}

impl LiveStats {
    /// Forgets every figure that describes the state (a new scene, Reset, Clear): what is shown
    /// next comes from the new state.
    pub fn forget_state(&mut self) {
        *self = LiveStats {
            fps: self.fps,
            frame_ms: self.frame_ms,
            passes: std::mem::take(&mut self.passes),
            adapter: std::mem::take(&mut self.adapter),
            for_adapter: self.for_adapter.take(),
            ..LiveStats::default()
        };
    }
}

/// Toggles overlay `n` (the number keys 1-8).
pub fn toggle_overlay(o: &mut Overlays, n: u32) {
    match n {
        1 => o.ink ^= true,
        2 => o.divergence ^= true,
        3 => o.pressure ^= true,
        4 => o.arrows_mac ^= true,
        5 => o.arrows_centre ^= true,
        6 => o.grid_lines ^= true,
        7 => o.numbers ^= true,
        8 => o.curl ^= true,
        0 => o.streamlines ^= true,
        _ => {}
    }
}

/// The side panel around `panel_contents`: resizable, scrolling, hidden with H or its Hide
/// button. Hidden, a strip above the field holds the Settings button that shows it again (a
/// touch screen has no H), unless nothing is to be written on the field (`view.field_text`).
pub fn side_panel(ui: &mut egui::Ui, shown: &Shown, view: &mut View, state: &mut PanelState) -> Vec<Command> {
    if !view.show_panel {
        if view.field_text {
            egui::Panel::top("show panel")
                .resizable(false)
                .show_separator_line(false)
                .frame(egui::Frame::NONE.inner_margin(egui::Margin::symmetric(8, 4)))
                .show(ui, |ui| {
                    ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
                        if ui.button(SETTINGS_BUTTON).on_hover_text("Show the panel (H)").clicked() {
                            view.show_panel = true;
                        }
                    })
                });
        }
        return Vec::new();
    }
    egui::Panel::right("settings")
        .resizable(true)
        .default_size(320.0)
        .min_size(220.0)
        // no fill: the window's picture is cleared to the panel's colour first (src/app/frame.rs
        // `Running::draw`), and a CPU adapter's egui pass cost about half as much without the
        // panel-high rectangle (a third of a full redraw of the picture on lavapipe)
        // (a see-through picture is cleared to nothing: there the panel brings its own fill)
        .frame(if view.background_alpha < 1.0 {
            egui::Frame::side_top_panel(ui.style())
        } else {
            egui::Frame::side_top_panel(ui.style()).fill(egui::Color32::TRANSPARENT)
        })
        .show(ui, |ui| {
            if ui.button(HIDE_BUTTON).on_hover_text("Fold the panel away: the Settings button above the field brings it back (H)").clicked()
            {
                view.show_panel = false;
            }
            egui::ScrollArea::vertical().show(ui, |ui| panel_contents(ui, shown, view, state)).inner
        })
        .inner
}

/// The button that shows the hidden panel, and the one that hides it.
pub const SETTINGS_BUTTON: &str = "Settings";
pub const HIDE_BUTTON: &str = "Hide panel";

/// Asks about a grid change that would not run interactively; returns the command to apply it.
pub fn confirm_window(ctx: &egui::Context, state: &mut PanelState) -> Option<Command> {
    let c = state.confirm.as_ref()?;
    let (nx, ny) = (c.scene.grid.nx, c.scene.grid.ny);
    let mut out = None;
    let mut cancel = false;
    egui::Window::new(format!("Apply a {nx}×{ny} grid?"))
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_CENTER, egui::vec2(0.0, 0.0))
        .show(ctx, |ui| {
            ui.label(&c.text);
            ui.horizontal(|ui| {
                if ui.button("Apply anyway").on_hover_text("Build it; close the window if it turns out too slow").clicked() {
                    out = Some(Command::ConfigureAnyway(c.scene.clone()));
                }
                cancel = ui.button("Cancel").on_hover_text("Keep the running grid").clicked();
            });
        });
    if out.is_some() || cancel {
        state.confirm = None;
    }
    out
}
