//! The overlays as plain data (what to draw over or instead of the ink), the rules that keep them
//! readable at every zoom (arrow spacing, what cannot be drawn and why, text contrast, tints and
//! their legends) and the flag bits the shader gets (their one definition).

/// What to draw on top of (or instead of) the ink. Plain data: the panel edits it, and the app
/// saves it with the view settings.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct Overlays {
    pub ink: bool,
    pub divergence: bool,
    /// Divergence right after the correction (the app keeps it in a spare buffer; without
    /// one, the divergence of the current velocity) instead of what the solver saw.
    pub divergence_after: bool,
    /// Range from the last divergence read-back (its largest |div|) instead of
    /// `divergence_range`, as the pressure's: a fixed range left the small divergence a solve
    /// leaves behind untinted.
    pub divergence_auto: bool,
    /// |div| (1/s) at full tint.
    pub divergence_range: f32,
    pub pressure: bool,
    /// Range from the last pressure read-back instead of `pressure_range`.
    pub pressure_auto: bool,
    /// |p| (Pa) at full colour.
    pub pressure_range: f32,
    /// The curl (vorticity) ω = ∂v/∂x − ∂u/∂y of each cell, from the MAC edges (src/render/curl.rs):
    /// counter-clockwise (ω > 0) purple, clockwise green.
    pub curl: bool,
    /// Range from the last velocity read-back's largest |ω| instead of `curl_range`.
    pub curl_auto: bool,
    /// |ω| (1/s) at full tint.
    pub curl_range: f32,
    /// u on vertical edges, v on horizontal edges.
    pub arrows_mac: bool,
    /// Velocity interpolated at cell centres (one a cell where cells are large), about
    /// `arrow_pixels` apart on screen whatever the grid.
    pub arrows_centre: bool,
    /// Spacing of the cell-centred arrows on screen, pixels (at least one cell).
    pub arrow_pixels: f32,
    /// Arrow length from the flow's largest speed (`arrow_reference`), else `arrow_scale`.
    pub arrow_auto: bool,
    /// Arrow length in screen pixels per m/s when not automatic.
    pub arrow_scale: f32,
    /// Colour the arrows by speed (dark blue slow, yellow fast) instead of one colour a kind.
    pub arrow_colour_by_speed: bool,
    /// Cell outlines when cells are at least 12 pixels wide.
    pub grid_lines: bool,
    /// The value of the shown field printed in each cell when cells are large.
    pub numbers: bool,
    /// The ink lit by its gradient, as a thin relief (display only).
    pub shading: bool,
    /// Opacity of the divergence and pressure tints over the ink, 0..1.
    pub tint_opacity: f32,
    /// Particles carried by the flow (src/sim/tracers.rs), drawn as dots.
    pub tracers: bool,
    /// Each particle drawn as a short streak from where it was a step before.
    pub tracer_streaks: bool,
    /// Particles come in continuously at the scene's inflow sides while the tracers are shown.
    pub tracer_inflow: bool,
    /// Lines along the current velocity (src/sim/streamlines.rs) from a grid of seeds about
    /// `streamline_pixels` apart on screen whatever the grid.
    pub streamlines: bool,
    /// Spacing of the streamlines' seeds on screen, pixels (at least one cell).
    pub streamline_pixels: f32,
    /// The divergence tint shows a multigrid level's values instead (the stage view): its
    /// legend's title. Not a setting.
    #[serde(skip)]
    pub level_picture: Option<&'static str>,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            ink: true,
            divergence: false,
            divergence_after: false,
            divergence_auto: true,
            divergence_range: 1.0,
            pressure: false,
            pressure_auto: true,
            pressure_range: 1.0,
            curl: false,
            curl_auto: true,
            curl_range: 1.0,
            arrows_mac: false,
            arrows_centre: false,
            arrow_pixels: 40.0,
            arrow_auto: true,
            arrow_scale: 40.0,
            arrow_colour_by_speed: false,
            grid_lines: false,
            numbers: false,
            shading: false,
            tint_opacity: 0.6,
            tracers: false,
            tracer_streaks: true,
            tracer_inflow: true,
            streamlines: false,
            streamline_pixels: 32.0,
            level_picture: None,
        }
    }
}

/// Arrows are never closer than this many pixels apart.
pub const ARROW_MIN_PIXELS: f32 = 16.0;
/// Edge arrows (one per MAC edge) are drawn only where a cell is at least this many pixels wide.
pub const MAC_ARROWS_MIN_PIXELS: f32 = 12.0;
/// An arrow is at most this share of the spacing long (longer would reach the next one): speeds
/// beyond it are all drawn this long.
pub const ARROW_CAP: f32 = 0.9;
/// Edge arrows' longest share of a cell where numbers are printed in the cells: ±0.15 of a cell
/// about the edge, clear of the number, which moves up off the u arrows' midline
/// (`NUMBER_RISE`), and of the v arrows below and above it.
pub const EDGE_ARROW_CAP_BESIDE_NUMBERS: f32 = 0.3;
/// How far above the cell's centre a number sits beside edge arrows, in cells.
pub const NUMBER_RISE: f32 = 0.22;
/// With the automatic scale, the reference speed's arrow is this share of the spacing.
pub const ARROW_REFERENCE_SHARE: f32 = 0.75;
/// Grid lines are drawn only where a cell is at least this many pixels wide.
pub const GRID_MIN_PIXELS: f32 = 8.0;
/// Numbers are printed only where a cell is at least this many pixels wide, and only up to this
/// many cells in all (the panel's limit, `NUMBERS_MAX_CELLS`).
pub const NUMBERS_MIN_PIXELS: f32 = 36.0;
pub const NUMBERS_MAX_CELLS: usize = 4096;

/// The spacing in cells of the cell-centred arrows at `pixels_per_cell`: `pixels` on screen (at
/// least `ARROW_MIN_PIXELS`), and never less than a cell, where they sit at the cell centres.
pub fn arrow_spacing(pixels: f32, pixels_per_cell: f32) -> f32 {
    (pixels.max(ARROW_MIN_PIXELS) / pixels_per_cell.max(1e-3)).max(1.0)
}

/// A round speed (1, 2 or 5 × 10^k m/s) at or above `speed`: the automatic scale's reference,
/// which changes only when the flow's largest speed crosses one of these steps.
pub fn arrow_reference(speed: f32) -> f32 {
    if !(speed.is_finite() && speed > 1e-6) {
        return 1.0;
    }
    let decade = 10f32.powf(speed.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * decade).find(|r| *r >= speed * 0.9999).unwrap_or(10.0 * decade)
}

/// The automatic arrow length follows the smaller of the largest speed and this many times the
/// root-mean-square speed: one fast spot (a source, a brush stroke) must not shrink every other
/// arrow to a dot; arrows faster than that are capped.
pub const ARROW_RMS_FACTOR: f32 = 3.0;

/// The speed (m/s) the automatic arrow length is made for, from the flow's largest and
/// root-mean-square speeds.
pub fn arrow_speed(max_speed: f32, rms_speed: f32) -> f32 {
    if rms_speed > 0.0 && max_speed > 0.0 { max_speed.min(ARROW_RMS_FACTOR * rms_speed) } else { max_speed }
}

/// How the arrows are scaled on screen: pixels per m/s, and the key's speed and its length in
/// pixels (the key on the field, "→ = 1 m/s").
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ArrowScale {
    pub pixels_per_mps: f32,
    pub key_speed: f32,
    pub key_pixels: f32,
    /// Arrows are drawn at most this long (pixels): faster flow is capped.
    pub cap_pixels: f32,
}

impl Overlays {
    /// Whether the edge arrows are kept short (`EDGE_ARROW_CAP_BESIDE_NUMBERS`), off the numbers
    /// printed in cells `pixels_per_cell` wide.
    pub fn short_edge_arrows(&self, pixels_per_cell: f32) -> bool {
        self.arrows_mac && self.numbers && pixels_per_cell >= NUMBERS_MIN_PIXELS
    }

    /// The arrows' scale for a flow of speed `speed` (m/s, `arrow_speed`), with cells
    /// `pixels_per_cell` wide on screen.
    pub fn arrow_scale_for(&self, speed: f32, pixels_per_cell: f32) -> ArrowScale {
        let spacing_px = arrow_spacing(self.arrow_pixels, pixels_per_cell) * pixels_per_cell;
        // edge arrows alone: one a cell, a shorter one beside the numbers
        let edge_px = pixels_per_cell.max(1e-3)
            * if self.short_edge_arrows(pixels_per_cell) { EDGE_ARROW_CAP_BESIDE_NUMBERS / ARROW_CAP } else { 1.0 };
        let spacing_px = if self.arrows_centre { spacing_px } else { edge_px };
        let cap_pixels = ARROW_CAP * spacing_px;
        if self.arrow_auto {
            let key_speed = arrow_reference(speed);
            let key_pixels = ARROW_REFERENCE_SHARE * spacing_px;
            return ArrowScale { pixels_per_mps: key_pixels / key_speed, key_speed, key_pixels, cap_pixels };
        }
        let k = self.arrow_scale.max(1e-6);
        // the key: the round speed whose arrow fits the spacing best
        let key_speed = arrow_reference(ARROW_REFERENCE_SHARE * spacing_px / k / 2.0);
        ArrowScale { pixels_per_mps: k, key_speed, key_pixels: (key_speed * k).min(cap_pixels), cap_pixels }
    }
}

/// Whether an overlay can be drawn at the current zoom, and if not, why (for the panel to grey it
/// out with the reason). `None`: drawable.
pub fn why_not_drawable(overlay: &str, pixels_per_cell: f32, cells: usize) -> Option<String> {
    match overlay {
        "grid" if pixels_per_cell < GRID_MIN_PIXELS => {
            Some(format!("cells are {pixels_per_cell:.1} px wide; grid lines need {GRID_MIN_PIXELS} px (zoom in or use a coarser grid)"))
        }
        "numbers" if pixels_per_cell < NUMBERS_MIN_PIXELS => {
            Some(format!("cells are {pixels_per_cell:.1} px wide; numbers need {NUMBERS_MIN_PIXELS} px (zoom in or use a coarser grid)"))
        }
        "numbers" if cells > NUMBERS_MAX_CELLS => {
            Some(format!("{cells} cells; numbers are printed for at most {NUMBERS_MAX_CELLS} (use a coarser grid)"))
        }
        "mac-arrows" if pixels_per_cell < MAC_ARROWS_MIN_PIXELS => Some(format!(
            "cells are {pixels_per_cell:.1} px wide; one arrow per edge needs {MAC_ARROWS_MIN_PIXELS} px (zoom in, use a coarser grid, or key 5's cell arrows)"
        )),
        _ => None,
    }
}

/// Black or white, whichever reads better on `background` (linear RGB, 0..1): by relative
/// luminance against the 0.18 mid-point where both contrast ratios are equal.
pub fn text_colour_on(background: [f32; 3]) -> [u8; 3] {
    let y = 0.2126 * background[0] + 0.7152 * background[1] + 0.0722 * background[2];
    if y > 0.18 { [0, 0, 0] } else { [255, 255, 255] }
}

/// How strongly a tint covers the ink at `t` = value / range (render_field.wgsl `tint_weight`):
/// √|t|, so small values on a fine grid still show beside a few large ones.
pub fn tint_weight(t: f32) -> f32 {
    t.abs().clamp(0.0, 1.0).sqrt()
}

/// Linear RGB the divergence tint gives a value `d` (1/s) at full `range` over `under` with the
/// opacity `opacity` (render_field.wgsl, the SHOW_DIVERGENCE branch): for picking number colours.
pub fn divergence_tint(d: f32, range: f32, under: [f32; 3], opacity: f32) -> [f32; 3] {
    let t = tint_weight(d / range.max(1e-20)) * opacity.clamp(0.0, 1.0);
    let tint = if d < 0.0 { [0.1, 0.55, 0.95] } else { [0.95, 0.35, 0.1] };
    [0, 1, 2].map(|c| under[c] * (1.0 - t) + tint[c] * t)
}

/// The blue-white-red map of the pressure tint (render_field.wgsl `diverging`), t in [-1, 1].
pub fn diverging(t: f32) -> [f32; 3] {
    let (blue, red, white) = ([0.13, 0.32, 0.85], [0.85, 0.15, 0.12], [0.96f32, 0.96, 0.96]);
    let (to, a) = if t < 0.0 { (blue, (-t).clamp(0.0, 1.0)) } else { (red, t.clamp(0.0, 1.0)) };
    [0, 1, 2].map(|c| white[c] * (1.0 - a) + to[c] * a)
}

/// The two colours of the curl tint (render_field.wgsl, the SHOW_CURL branch): counter-clockwise
/// (ω > 0) purple, clockwise green, apart from the divergence's orange and blue and the
/// pressure's red and blue.
pub const CURL_COUNTER_CLOCKWISE: [f32; 3] = [0.62, 0.2, 0.85];
pub const CURL_CLOCKWISE: [f32; 3] = [0.15, 0.75, 0.3];

/// Linear RGB the curl tint gives a value `w` (1/s) at full `range` over `under` with the opacity
/// `opacity`.
pub fn curl_tint(w: f32, range: f32, under: [f32; 3], opacity: f32) -> [f32; 3] {
    let t = tint_weight(w / range.max(1e-20)) * opacity.clamp(0.0, 1.0);
    let tint = if w < 0.0 { CURL_CLOCKWISE } else { CURL_COUNTER_CLOCKWISE };
    [0, 1, 2].map(|c| under[c] * (1.0 - t) + tint[c] * t)
}

/// A colour legend of a tint: a title with its unit and colour stops from `-range` to `range`.
#[derive(Clone, Debug, PartialEq)]
pub struct Legend {
    pub title: &'static str,
    pub unit: &'static str,
    pub range: f32,
    /// (value, linear RGB) from -range to range.
    pub stops: Vec<(f32, [f32; 3])>,
}

impl Overlays {
    /// The legends of the tints shown, pressure first: what the panel draws beside the canvas.
    /// `pressure_range` and `curl_range` are the ranges in use (set or automatic).
    pub fn legends(&self, pressure_range: f32, curl_range: f32) -> Vec<Legend> {
        let mut out = Vec::new();
        let stops =
            |range: f32, colour: &dyn Fn(f32) -> [f32; 3]| (0..=8).map(|n| n as f32 / 4.0 - 1.0).map(|t| (t * range, colour(t))).collect();
        if self.pressure {
            // as the shader draws it over a black field: the saturated end, weighted by √|t|
            let colour = |t: f32| diverging(t.signum()).map(|c| c * tint_weight(t));
            out.push(Legend { title: "pressure", unit: "Pa", range: pressure_range, stops: stops(pressure_range, &colour) });
        }
        if self.divergence {
            let r = self.divergence_range;
            let colour = |t: f32| divergence_tint(t * r, r, [0.0; 3], 1.0);
            let title = if self.divergence_after { "divergence after the correction" } else { "divergence before the solve" };
            let (title, unit) = self.level_picture.map_or((title, "1/s"), |level| (level, "Pa"));
            out.push(Legend { title, unit, range: r, stops: stops(r, &colour) });
        }
        if self.curl {
            let r = curl_range;
            let colour = |t: f32| curl_tint(t * r, r, [0.0; 3], 1.0);
            out.push(Legend { title: CURL_TITLE, unit: "1/s", range: r, stops: stops(r, &colour) });
        }
        out
    }
}

/// The curl legend's title, which states the colour convention.
pub const CURL_TITLE: &str = "curl: + purple counter-clockwise, − green clockwise";

impl Overlays {
    /// The names `--overlays` takes, each with what it switches on.
    pub const NAMES: [&'static str; 11] =
        ["ink", "divergence", "divergence-after", "pressure", "curl", "arrows", "mac-arrows", "grid", "shading", "tracers", "streamlines"];

    /// Overlays from a comma-separated list of `NAMES` (only those drawn; no numbers, which the
    /// window prints).
    pub fn from_names(list: &str) -> crate::error::Result<Overlays> {
        let mut o = Overlays { ink: false, grid_lines: false, numbers: false, ..Default::default() };
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "ink" => o.ink = true,
                "divergence" => o.divergence = true,
                "divergence-after" => (o.divergence, o.divergence_after) = (true, true),
                "pressure" => o.pressure = true,
                "curl" => o.curl = true,
                "arrows" => o.arrows_centre = true,
                "mac-arrows" => o.arrows_mac = true,
                "grid" => o.grid_lines = true,
                "shading" => (o.ink, o.shading) = (true, true),
                "tracers" => o.tracers = true,
                "streamlines" => o.streamlines = true,
                other => {
                    crate::fail!("--overlays: unknown overlay '{other}'; expected a comma-separated list of {}", Overlays::NAMES.join(", "))
                }
            }
        }
        Ok(o)
    }
}

/// Bits of `RenderParams::flags`. The shader gets these very constants (`shader_source`).
pub mod flags {
    pub const SHOW_INK: u32 = 1;
    pub const SHOW_DIVERGENCE: u32 = 2;
    pub const DIVERGENCE_AFTER: u32 = 4;
    pub const SHOW_PRESSURE: u32 = 8;
    pub const ARROWS_MAC: u32 = 16;
    pub const ARROWS_CENTRE: u32 = 32;
    pub const GRID_LINES: u32 = 64;
    pub const SHADING: u32 = 128;
    pub const ARROW_SPEED_COLOUR: u32 = 256;
    /// Not an overlay: the image has one pixel a dye cell, each at its cell's centre
    /// (src/render/cached.rs), so the ink is read there instead of blended from four cells.
    pub const DYE_PIXELS: u32 = 512;
    /// Edge arrows at most `EDGE_ARROW_CAP_BESIDE_NUMBERS` of a cell long (numbers in the cells).
    pub const SHORT_EDGE_ARROWS: u32 = 1024;
    pub const SHOW_CURL: u32 = 2048;
    /// Marks drawn over the field by pipelines of their own (shaders/marks.wgsl), not by the
    /// field's: the tracers, as streaks, and the streamlines.
    pub const TRACERS: u32 = 4096;
    pub const TRACER_STREAKS: u32 = 8192;
    pub const STREAMLINES: u32 = 16384;
    pub const MARKS: u32 = TRACERS | TRACER_STREAKS | STREAMLINES;
    /// Every flag by its WGSL name.
    pub const ALL: [(&str, u32); 15] = [
        ("SHOW_INK", SHOW_INK),
        ("SHOW_DIVERGENCE", SHOW_DIVERGENCE),
        ("DIVERGENCE_AFTER", DIVERGENCE_AFTER),
        ("SHOW_PRESSURE", SHOW_PRESSURE),
        ("ARROWS_MAC", ARROWS_MAC),
        ("ARROWS_CENTRE", ARROWS_CENTRE),
        ("GRID_LINES", GRID_LINES),
        ("SHADING", SHADING),
        ("ARROW_SPEED_COLOUR", ARROW_SPEED_COLOUR),
        ("DYE_PIXELS", DYE_PIXELS),
        ("SHORT_EDGE_ARROWS", SHORT_EDGE_ARROWS),
        ("SHOW_CURL", SHOW_CURL),
        ("TRACERS", TRACERS),
        ("TRACER_STREAKS", TRACER_STREAKS),
        ("STREAMLINES", STREAMLINES),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrow_reference_is_a_round_speed_at_or_above() {
        assert_eq!(arrow_reference(0.8), 1.0);
        assert_eq!(arrow_reference(1.0), 1.0);
        assert_eq!(arrow_reference(1.2), 2.0);
        assert!((arrow_reference(0.03) - 0.05).abs() < 1e-7);
        assert_eq!(arrow_reference(0.0), 1.0);
    }

    #[test]
    fn arrows_are_in_proportion_to_speed_up_to_the_cap() {
        let o = Overlays { arrows_centre: true, arrow_pixels: 40.0, ..Overlays::default() };
        let s = o.arrow_scale_for(0.8, 10.0);
        // 0.8 m/s rounds up to a 1 m/s key, drawn 0.75 of the 40 px spacing
        assert_eq!((s.key_speed, s.key_pixels, s.cap_pixels), (1.0, 30.0, 36.0));
        assert!((0.8 * s.pixels_per_mps / (0.2 * s.pixels_per_mps) - 4.0).abs() < 1e-5);
        assert!(0.8 * s.pixels_per_mps < s.cap_pixels);
        let fixed = Overlays { arrow_auto: false, arrow_scale: 50.0, ..o };
        assert_eq!(fixed.arrow_scale_for(123.0, 10.0).pixels_per_mps, 50.0);
    }
}
