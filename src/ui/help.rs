//! The help window (F1 or ?) and the first-minute hint over the field.

/// Keys and mouse actions, for the help window and the README.
pub const HELP: &[(&str, &str)] = &[
    ("left drag", "stir and paint ink"),
    ("right drag", "stir without ink"),
    ("wheel", "brush radius"),
    ("M", "the move brush: drag a circle or rectangle obstacle (M again: paint)"),
    ("Space", "pause / run"),
    ("→ or S", "single step (in the stage view: the next stage)"),
    ("T", "step by stage: one step taken apart, a stage a press of S or →; T or Esc leaves"),
    ("R", "restart, keeping the panel's edits"),
    ("Shift+R", "restart the scene as loaded (undo the panel's edits)"),
    ("C", "clear the ink"),
    ("H", "hide / show the panel"),
    ("P", "save a PNG of the field"),
    ("G", "start / stop recording a GIF"),
    ("Ctrl+S", "save the state and settings"),
    ("Ctrl+E", "save the statistics and probes over time as CSV"),
    ("drop a file", "open a scene .toml or a state folder"),
    ("F1 or ?", "this help"),
    ("Esc or Ctrl+Q", "quit (Esc first closes this help, then leaves the stage view)"),
    ("1", "ink"),
    ("2", "divergence tint"),
    ("3", "pressure"),
    ("4", "velocity arrows on MAC edges"),
    ("5", "velocity arrows at cell centres"),
    ("6", "grid lines"),
    ("7", "numbers in cells"),
    ("8", "curl (vorticity): purple counter-clockwise, green clockwise"),
    ("9", "plots: the last solve's residual, and energy, divergence and ink over time"),
    ("V", "split view: two runs side by side, one setting different (the panel's Split view picks it)"),
    ("0", "streamlines: lines along the current velocity"),
    ("D", "tracers: particles carried by the flow"),
];

/// The hint shown over the field for the first steps.
pub const HINT: &str = "Drag with the mouse to paint smoke; right-drag stirs. F1: help.";
/// The same on a touch screen, where the panel opens from its button.
pub const TOUCH_HINT: &str = "Drag a finger to paint smoke; the Settings button opens the panel.";

/// The hint for a touch screen or for a mouse and keyboard.
pub fn hint(touch: bool) -> &'static str {
    if touch { TOUCH_HINT } else { HINT }
}

/// The help window; `open` is cleared when its close button is pressed.
pub fn help_window(ctx: &egui::Context, open: &mut bool) {
    egui::Window::new("Help").open(open).collapsible(false).show(ctx, |ui| {
        egui::Grid::new("keys").striped(true).show(ui, |ui| {
            for (k, what) in HELP {
                ui.strong(*k);
                ui.label(*what);
                ui.end_row();
            }
        });
    });
}
