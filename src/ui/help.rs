//! The help window (F1 or ?) and the first-minute hint over the field.

/// Keys and mouse actions, for the help window and the README.
pub const HELP: &[(&str, &str)] = &[
    ("left drag", "stir and paint ink"),
    ("right drag", "stir without ink"),
    ("wheel", "brush radius"),
    ("Space", "pause / run"),
    ("→ or S", "single step"),
    ("R", "restart, keeping the panel's edits"),
    ("Shift+R", "restart the scene as loaded (undo the panel's edits)"),
    ("C", "clear the ink"),
    ("H", "hide / show the panel"),
    ("P", "save a PNG of the field"),
    ("G", "start / stop recording a GIF"),
    ("Ctrl+S", "save the state and settings"),
    ("drop a file", "open a scene .toml or a state folder"),
    ("F1 or ?", "this help"),
    ("Esc or Ctrl+Q", "quit (Esc first closes this help)"),
    ("1", "ink"),
    ("2", "divergence tint"),
    ("3", "pressure"),
    ("4", "velocity arrows on MAC edges"),
    ("5", "velocity arrows at cell centres"),
    ("6", "grid lines"),
    ("7", "numbers in cells"),
];

/// The hint shown over the field for the first steps.
pub const HINT: &str = "Drag with the mouse to paint smoke; right-drag stirs. F1: help.";

/// The scene's caption (`display.caption`), wrapped and centred near the bottom of the field on
/// a dark backdrop: clear of the start hint (above the field) and of the hover readout (the
/// field's bottom row).
pub fn paint_caption(painter: &egui::Painter, field: egui::Rect, caption: &str) {
    if caption.is_empty() {
        return;
    }
    let painter = painter.with_clip_rect(field);
    let colour = egui::Color32::from_gray(225);
    let width = (field.width() - 32.0).clamp(120.0, 560.0);
    let galley = painter.layout(caption.to_string(), egui::FontId::proportional(14.0), colour, width);
    let size = galley.size() + egui::vec2(12.0, 8.0);
    let rect = egui::Rect::from_min_size(egui::pos2(field.center().x - size.x / 2.0, field.bottom() - 34.0 - size.y), size);
    painter.rect_filled(rect, 4.0, egui::Color32::from_black_alpha(160));
    painter.galley(rect.min + egui::vec2(6.0, 4.0), galley, colour);
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
