//! What the window writes on the field itself, whether the panel shows or not: state badges
//! (paused, speed, recording, an unconverged solve) in the top right corner, the start hint, the
//! scene's caption, the last message and short notes in the top left, the tints' legends and the arrows' key in the
//! bottom right, the hover readout in the bottom left. Each sits on a dark backdrop, inside the
//! field and clear of its rim; where cells are large enough to be read one by one (numbers,
//! edge arrows) the field leaves a band above and below it and the text goes there, off the
//! cells (`Bands`). Plain egui painting, so egui_kittest can look at it.

use crate::render::Legend;

/// Inset from the field's edge, points: clear of the 2-pixel rim the walls draw.
const INSET: f32 = 6.0;
const BACKDROP: egui::Color32 = egui::Color32::from_black_alpha(185);

/// Heights of the bands kept free above and below a field of large cells, points: the hint and
/// the caption above, the readout, the legends and the arrows' key below.
pub const TOP_BAND: f32 = 56.0;
pub const BOTTOM_BAND: f32 = 48.0;

/// Whether a field whose cells would be `cell_points` wide leaves bands for its text: where the
/// numbers overlay can print in the cells (`NUMBERS_MIN_PIXELS` points), text over them would
/// hide what the scene is for.
pub fn bands_wanted(cell_points: f32, field_text: bool) -> bool {
    field_text && cell_points >= crate::render::NUMBERS_MIN_PIXELS
}

/// `area` (physical pixels) less the bands, at `ppp` pixels a point: where the field is fitted.
pub fn without_bands(area: crate::render::Viewport, ppp: f32) -> crate::render::Viewport {
    let (top, bottom) = (TOP_BAND * ppp, BOTTOM_BAND * ppp);
    crate::render::Viewport { y: area.y + top, h: (area.h - top - bottom).max(1.0), ..area }
}

/// A badge's kind, which gives its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadgeKind {
    Paused,
    Speed,
    Recording,
    Warning,
}

impl BadgeKind {
    pub fn colour(self) -> egui::Color32 {
        match self {
            BadgeKind::Paused => egui::Color32::from_rgb(255, 196, 70),
            BadgeKind::Speed => egui::Color32::from_gray(220),
            BadgeKind::Recording => egui::Color32::from_rgb(240, 70, 60),
            BadgeKind::Warning => egui::Color32::from_rgb(255, 150, 70),
        }
    }
}

/// Everything written on the field this frame.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FieldText {
    /// Right to left from the top right corner.
    pub badges: Vec<(BadgeKind, String)>,
    /// The start hint, while it shows.
    pub hint: Option<String>,
    /// The scene's caption (`display.caption`): what to look at.
    pub caption: Option<String>,
    /// The last message (a refused file, a warning) and the notes of overlays that cannot draw.
    pub notes: Vec<String>,
    pub legends: Vec<Legend>,
    /// The arrows' key: its length in points, its speed (m/s) and colour.
    pub arrow_key: Option<(f32, f32, egui::Color32)>,
    /// The hover readout's line.
    pub readout: Option<String>,
    /// What the numbers in the cells are, while they are printed ("numbers: divergence before
    /// the solve, 1/s").
    pub numbers: Option<String>,
    /// The field was fitted with bands above and below it for this text (`bands_wanted`).
    pub bands: bool,
    /// The pinned probes, where they lie in points.
    pub pins: Vec<egui::Pos2>,
    /// The split view's halves (points) and the setting each runs, written above it.
    pub halves: Vec<(egui::Rect, String)>,
}

/// The badges' texts for a state: paused (or the speed when running), recording, an
/// unconverged solve.
pub fn badges(paused: bool, steps_per_s: f32, fps: f32, recording: Option<u32>, solver: Option<&str>) -> Vec<(BadgeKind, String)> {
    let mut out = Vec::new();
    if paused {
        out.push((BadgeKind::Paused, "PAUSED".to_string()));
    } else {
        out.push((BadgeKind::Speed, format!("{steps_per_s:.1} steps/s · {fps:.0} fps")));
    }
    if let Some(n) = recording {
        out.push((BadgeKind::Recording, format!("● REC {n}")));
    }
    if let Some(w) = solver {
        out.push((BadgeKind::Warning, format!("solver: {w}")));
    }
    out
}

/// The solver's warning after `failed` steps stopped above the tolerance, `floor` of them at
/// float32's floor only, and what to change: the cap of the solver in use where some ran all
/// their iterations, the tolerance where the floor stopped them all (more iterations do not
/// help there). None when every step met the tolerance.
pub fn solver_warning(failed: u32, floor: u32, solver: &crate::config::SolverConfig) -> Option<String> {
    if failed == 0 {
        return None;
    }
    let steps = format!("{failed} step{}", if failed == 1 { "" } else { "s" });
    Some(if floor >= failed {
        format!("{steps} at float32's floor: raise solver.tolerance, now {}", short(solver.tolerance))
    } else {
        let at_floor = if floor > 0 { format!(" ({floor} at float32's floor)") } else { String::new() };
        format!("{steps} above tolerance{at_floor}: raise {}, now {}", solver.kind.cap_key(), solver.cap())
    })
}

/// A text on its backdrop with its top left (or top right, `right`) corner at `at`, wrapped to
/// `width`; returns the rectangle it took.
fn boxed(
    painter: &egui::Painter,
    at: egui::Pos2,
    right: bool,
    text: &str,
    font: egui::FontId,
    colour: egui::Color32,
    width: f32,
) -> egui::Rect {
    let galley = painter.layout(text.to_string(), font, colour, width.max(40.0));
    let size = galley.size() + egui::vec2(10.0, 6.0);
    let min = if right { at - egui::vec2(size.x, 0.0) } else { at };
    let rect = egui::Rect::from_min_size(min, size);
    painter.rect_filled(rect, 4.0, BACKDROP);
    painter.galley(rect.min + egui::vec2(5.0, 3.0), galley, colour);
    rect
}

/// Paints `t` on `field` (points), clipped to `clip` (the area left of the panel), with
/// `painter`: the window's layer over the field, drawn over its kept picture each frame. With
/// `t.bands`, the text goes above and below the field instead of over its cells.
pub fn paint(painter: &egui::Painter, field: egui::Rect, clip: egui::Rect, t: &FieldText) {
    for (half, label) in &t.halves {
        let at = egui::pos2(half.center().x, half.top() - 5.0);
        let font = egui::FontId::proportional(15.0);
        painter.with_clip_rect(clip).text(at, egui::Align2::CENTER_BOTTOM, label, font, egui::Color32::from_gray(235));
    }
    let shown = field.intersect(clip);
    if shown.width() < 40.0 || shown.height() < 40.0 {
        return;
    }
    let pin_painter = painter.with_clip_rect(shown);
    for (n, &at) in t.pins.iter().enumerate() {
        // a ringed cross and its number, dark under light so it reads on any ink
        for (width, colour) in [(3.0, egui::Color32::from_black_alpha(200)), (1.3, egui::Color32::from_rgb(255, 235, 90))] {
            let stroke = egui::Stroke::new(width, colour);
            pin_painter.circle_stroke(at, 6.0, stroke);
            pin_painter.line_segment([at - egui::vec2(9.0, 0.0), at + egui::vec2(9.0, 0.0)], stroke);
            pin_painter.line_segment([at - egui::vec2(0.0, 9.0), at + egui::vec2(0.0, 9.0)], stroke);
        }
        let label = egui::FontId::proportional(12.0);
        pin_painter.text(
            at + egui::vec2(8.0, -8.0),
            egui::Align2::LEFT_BOTTOM,
            (n + 1).to_string(),
            label,
            egui::Color32::from_rgb(255, 235, 90),
        );
    }
    let around = t.bands && field.top() - clip.top() >= TOP_BAND - 1.0 && clip.bottom() - field.bottom() >= BOTTOM_BAND - 1.0;
    let (painter, top, bottom) = if around {
        let top = egui::Rect::from_min_max(
            egui::pos2(clip.left() + INSET, clip.top() + INSET),
            egui::pos2(clip.right() - INSET, field.top() - 2.0),
        );
        let bottom = egui::Rect::from_min_max(
            egui::pos2(clip.left() + INSET, field.bottom() + 2.0),
            egui::pos2(clip.right() - INSET, clip.bottom() - INSET),
        );
        (painter.with_clip_rect(clip), top, bottom)
    } else {
        let inner = shown.shrink(INSET);
        (painter.with_clip_rect(shown), inner, inner)
    };
    let small = egui::FontId::proportional(13.0);
    // badges, right to left along the top
    let mut right = top.right_top();
    let mut badges_bottom = top.top();
    for (kind, text) in &t.badges {
        let r = boxed(&painter, right, true, text, small.clone(), kind.colour(), top.width() * 0.6);
        right.x = r.left() - 4.0;
        badges_bottom = badges_bottom.max(r.bottom());
    }
    // the hint, the message and the notes down the left, beside the badges
    let mut y = top.top();
    let left_width = (right.x - top.left() - 8.0).max(top.width() * 0.4);
    if let Some(hint) = &t.hint {
        y = boxed(&painter, egui::pos2(top.left(), y), false, hint, small.clone(), egui::Color32::from_gray(215), left_width).bottom()
            + 4.0;
    }
    if let Some(caption) = &t.caption {
        let colour = egui::Color32::from_rgb(185, 215, 245);
        y = boxed(&painter, egui::pos2(top.left(), y), false, caption, small.clone(), colour, left_width).bottom() + 4.0;
    }
    for note in &t.notes {
        let width = if y < badges_bottom { left_width } else { top.width() };
        let colour = egui::Color32::from_rgb(255, 190, 120);
        y = boxed(&painter, egui::pos2(top.left(), y), false, note, small.clone(), colour, width).bottom() + 4.0;
    }
    if around {
        paint_below(&painter, bottom, t);
    } else {
        paint_over(&painter, bottom, t);
    }
}

/// The readout (bottom left) and the numbers' line, legends and arrows' key (stacked up from the
/// bottom right) over the field's cells: a field too small for bands.
fn paint_over(painter: &egui::Painter, inner: egui::Rect, t: &FieldText) {
    let mut readout_rect = egui::Rect::NOTHING;
    // the readout first, wrapped to fit whatever the window's width
    if let Some(line) = &t.readout {
        let rect = readout(painter, egui::pos2(inner.left(), inner.bottom()), true, line, (inner.width() - 10.0).max(40.0));
        readout_rect = rect;
    }
    // legends and the arrows' key, stacked up from the bottom right
    // (above the readout where both would not fit side by side: a narrow window)
    let mut bottom =
        if readout_rect.right() + 200.0 > inner.right() { readout_rect.top().min(inner.bottom()) - 4.0 } else { inner.bottom() };
    for item in items(t) {
        let size = item.size(painter, inner.width());
        let rect = egui::Rect::from_min_size(egui::pos2(inner.right() - size.x, bottom - size.y), size);
        item.paint(painter, rect);
        bottom = rect.top() - 4.0;
    }
}

/// The same in the band under the field: the readout at its top left (in a column kept for it
/// whether it shows or not, so the rest does not jump as the cursor comes and goes), the rest
/// right to left in rows beside it, off the cells.
fn paint_below(painter: &egui::Painter, band: egui::Rect, t: &FieldText) {
    let column = (band.width() * 0.45).min(340.0);
    let left = band.left() + column + 6.0;
    let (mut right, mut top, mut row_bottom) = (band.right(), band.top(), band.top());
    for item in items(t) {
        let size = item.size(painter, band.right() - left);
        if right - size.x < left && right < band.right() {
            // a new row under the last
            (right, top) = (band.right(), row_bottom + 4.0);
        }
        let rect = egui::Rect::from_min_size(egui::pos2(right - size.x, top), size);
        item.paint(painter, rect);
        right = rect.left() - 6.0;
        row_bottom = row_bottom.max(rect.bottom());
    }
    if let Some(line) = &t.readout {
        readout(painter, band.left_top(), false, line, column - 10.0);
    }
}

/// The hover readout on its backdrop, wrapped to `width`, its bottom left (`from_bottom`) or top
/// left corner at `at`.
fn readout(painter: &egui::Painter, at: egui::Pos2, from_bottom: bool, line: &str, width: f32) -> egui::Rect {
    let galley = painter.layout(line.to_string(), egui::FontId::monospace(12.0), egui::Color32::from_gray(235), width);
    let size = galley.size() + egui::vec2(10.0, 6.0);
    let min = if from_bottom { egui::pos2(at.x, at.y - size.y) } else { at };
    let rect = egui::Rect::from_min_size(min, size);
    painter.rect_filled(rect, 3.0, BACKDROP);
    painter.galley(rect.min + egui::vec2(5.0, 3.0), galley, egui::Color32::from_gray(235));
    rect
}

/// One of the boxes of the bottom right: the arrows' key, the numbers' line, a legend.
enum Item<'a> {
    ArrowKey(f32, f32, egui::Color32),
    Numbers(&'a str),
    Legend(&'a Legend),
}

/// The bottom right's boxes, nearest the corner first.
fn items(t: &FieldText) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    if let Some((length, speed, colour)) = t.arrow_key {
        out.push(Item::ArrowKey(length, speed, colour));
    }
    if let Some(line) = &t.numbers {
        out.push(Item::Numbers(line));
    }
    out.extend(t.legends.iter().rev().map(Item::Legend));
    out
}

impl Item<'_> {
    fn mono() -> egui::FontId {
        egui::FontId::monospace(11.0)
    }

    fn text(&self) -> String {
        match self {
            Item::ArrowKey(_, speed, _) => format!("= {} m/s", short(*speed)),
            Item::Numbers(line) => line.to_string(),
            Item::Legend(l) => format!("{} ({}): ±{}", l.title, l.unit, short(l.range)),
        }
    }

    /// Its box's size in a space `width` points wide.
    fn size(&self, painter: &egui::Painter, width: f32) -> egui::Vec2 {
        let galley = painter.layout_no_wrap(self.text(), Self::mono(), egui::Color32::from_gray(230));
        match self {
            Item::ArrowKey(length, ..) => {
                let length = length.clamp(4.0, width * 0.4);
                egui::vec2(length + 8.0 + galley.size().x + 10.0, galley.size().y.max(10.0) + 6.0)
            }
            Item::Numbers(_) => galley.size() + egui::vec2(10.0, 6.0),
            Item::Legend(_) => egui::vec2(galley.size().x.max(120.0) + 10.0, galley.size().y + 8.0 + 10.0),
        }
    }

    fn paint(&self, painter: &egui::Painter, rect: egui::Rect) {
        painter.rect_filled(rect, 4.0, BACKDROP);
        let galley = painter.layout_no_wrap(self.text(), Self::mono(), egui::Color32::from_gray(230));
        match self {
            Item::ArrowKey(_, _, colour) => {
                let length = rect.width() - 8.0 - galley.size().x - 10.0;
                let y = rect.center().y;
                let (a, b) = (egui::pos2(rect.left() + 5.0, y), egui::pos2(rect.left() + 5.0 + length, y));
                let stroke = egui::Stroke::new(1.5, *colour);
                painter.line_segment([a, b], stroke);
                let head = (0.3 * length).clamp(3.0, 6.0);
                painter.line_segment([b, b + egui::vec2(-head, -0.6 * head)], stroke);
                painter.line_segment([b, b + egui::vec2(-head, 0.6 * head)], stroke);
                painter.galley(egui::pos2(b.x + 6.0, rect.top() + 3.0), galley, egui::Color32::from_gray(230));
            }
            Item::Numbers(_) => painter.galley(rect.min + egui::vec2(5.0, 3.0), galley, egui::Color32::from_gray(230)),
            Item::Legend(legend) => {
                painter.galley(rect.min + egui::vec2(5.0, 3.0), galley, egui::Color32::from_gray(230));
                let bar = egui::vec2(rect.width() - 10.0, 8.0);
                let bar = egui::Rect::from_min_size(egui::pos2(rect.left() + 5.0, rect.bottom() - 5.0 - bar.y), bar);
                paint_bar(painter, bar, legend);
            }
        }
    }
}

/// A legend's colour bar from −range to +range.
pub fn paint_bar(painter: &egui::Painter, rect: egui::Rect, legend: &Legend) {
    let n = legend.stops.len().max(2) - 1;
    let w = rect.width() / n as f32;
    for (k, pair) in legend.stops.windows(2).enumerate() {
        let c = pair[0].1.map(|x| (x.clamp(0.0, 1.0).powf(1.0 / 2.2) * 255.0) as u8);
        let r = egui::Rect::from_min_size(rect.min + egui::vec2(k as f32 * w, 0.0), egui::vec2(w + 0.5, rect.height()));
        painter.rect_filled(r, 0.0, egui::Color32::from_rgb(c[0], c[1], c[2]));
    }
}

/// A figure in a few characters: 1, 0.2, 0.05, 1.5e-4.
pub fn short(v: f32) -> String {
    if v != 0.0 && !(0.001..10000.0).contains(&v.abs()) {
        return format!("{v:.1e}");
    }
    let text = format!("{v:.3}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    if text.is_empty() || text == "-" { "0".into() } else { text.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_figures() {
        assert_eq!(short(1.0), "1");
        assert_eq!(short(0.2), "0.2");
        assert_eq!(short(0.05), "0.05");
        assert_eq!(short(2e-4), "2.0e-4");
        assert_eq!(short(12.5), "12.5");
    }

    #[test]
    fn badges_say_paused_or_the_speed_and_the_rest() {
        let b = badges(true, 5.0, 9.0, Some(3), Some("2 steps above tolerance"));
        assert_eq!(b[0], (BadgeKind::Paused, "PAUSED".to_string()));
        assert_eq!(b[1].0, BadgeKind::Recording);
        assert_eq!(b[2].1, "solver: 2 steps above tolerance", "{b:?}");
        let b = badges(false, 12.34, 30.0, None, None);
        assert_eq!(b, vec![(BadgeKind::Speed, "12.3 steps/s · 30 fps".to_string())]);
    }

    #[test]
    fn the_solver_warning_says_what_to_change() {
        use crate::config::{SolverConfig, SolverKind};
        let sor = SolverConfig { kind: SolverKind::Sor, sor_iterations: 40, ..Default::default() };
        assert_eq!(solver_warning(0, 0, &sor), None);
        assert_eq!(solver_warning(84, 0, &sor).unwrap(), "84 steps above tolerance: raise solver.sor_iterations, now 40");
        assert_eq!(
            solver_warning(3, 1, &SolverConfig::default()).unwrap(),
            "3 steps above tolerance (1 at float32's floor): raise solver.multigrid_iterations, now 20"
        );
        let tight = SolverConfig { tolerance: 1e-9, ..Default::default() };
        assert_eq!(solver_warning(1, 1, &tight).unwrap(), "1 step at float32's floor: raise solver.tolerance, now 1.0e-9");
    }
}
