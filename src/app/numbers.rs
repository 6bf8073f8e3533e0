//! The numbers overlay: the value of the shown tint's field (pressure when the pressure tint is
//! on, else the divergence, with or without its tint) printed in each cell when cells are large
//! on screen, from the last non-blocking field read-back.

use crate::render::readback::Snapshot;
use crate::render::{Overlays, Viewport};

/// Whether the numbers overlay draws anything for cells `pixels_per_cell` wide at `ppp` (cells
/// `NUMBERS_MIN_PIXELS` points wide, at most `NUMBERS_MAX_CELLS`: `why_not_drawable`).
pub fn wanted(o: &Overlays, pixels_per_cell: f32, ppp: f32, cells: usize) -> bool {
    o.numbers && crate::render::why_not_drawable("numbers", pixels_per_cell / ppp, cells).is_none()
}

/// (centre in points, text, font size) for each cell.
pub fn cell_numbers(o: &Overlays, snap: Option<&Snapshot>, vp: Viewport, ppp: f32) -> Vec<(egui::Pos2, String, f32)> {
    let Some(snap) = snap else { return Vec::new() };
    if !wanted(o, vp.pixels_per_cell(snap.nx), ppp, snap.nx * snap.ny) {
        return Vec::new();
    }
    let values = if o.pressure { &snap.p } else { &snap.divergence };
    let cell_points = vp.pixels_per_cell(snap.nx) / ppp;
    let size = (cell_points * 0.2).min(13.0);
    // beside edge arrows, above the u arrows' midline and below the v arrows (`NUMBER_RISE`)
    let rise = if o.short_edge_arrows(vp.pixels_per_cell(snap.nx)) { crate::render::NUMBER_RISE } else { 0.0 };
    let mut out = Vec::with_capacity(values.len());
    for j in 0..snap.ny {
        for i in 0..snap.nx {
            let px = vp.from_cells([i as f32 + 0.5, j as f32 + 0.5 + rise], snap.nx, snap.ny);
            out.push((egui::pos2(px[0] / ppp, px[1] / ppp), compact(values[j * snap.nx + i]), size));
        }
    }
    out
}

/// What the numbers are, for the line beside the legends: a learner must know whether the
/// divergence printed is the one the solve started from or the one it left.
pub fn label(pressure: bool, divergence_after: bool) -> String {
    if pressure {
        "numbers: pressure, Pa".to_string()
    } else {
        format!("numbers: divergence {}, 1/s", crate::render::readback::divergence_when(divergence_after))
    }
}

/// A number in at most ~6 characters: 0.00 style for ordinary magnitudes, else 1.2e-5.
pub fn compact(v: f32) -> String {
    if v == 0.0 || (0.01..1000.0).contains(&v.abs()) { format!("{v:.2}") } else { format!("{v:.1e}") }
}

/// Light text in a dark halo: it reads on the near-black background, on pale ink and on both
/// ends of the tints (black text vanished on a dark tint).
pub fn paint(painter: &egui::Painter, pos: egui::Pos2, text: &str, size: f32) {
    let font = egui::FontId::monospace(size);
    let halo = egui::Color32::from_black_alpha(220);
    for (dx, dy) in [(-1.0, 0.0), (1.0, 0.0), (0.0, -1.0), (0.0, 1.0)] {
        painter.text(pos + egui::vec2(dx, dy), egui::Align2::CENTER_CENTER, text, font.clone(), halo);
    }
    painter.text(pos, egui::Align2::CENTER_CENTER, text, font, egui::Color32::from_gray(245));
}
