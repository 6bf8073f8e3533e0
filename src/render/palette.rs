//! Colours for the brush: the fixed colour, or a fresh bright one for every stroke.

/// How the brush picks its ink colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum ColourMode {
    /// The colour set in the panel.
    #[default]
    Fixed,
    /// A fresh, bright, saturated colour for every stroke.
    PerStroke,
}

/// The ink (concentration per channel) of stroke number `n`: hues a golden-ratio turn apart, so
/// consecutive strokes always differ strongly, at full saturation and an ink strength that the
/// display's optical-depth mapping shows bright but not washed out.
pub fn stroke_colour(n: u64) -> [f32; 3] {
    let hue = (0.13 + n as f64 * 0.618_033_988_749_895).fract() as f32;
    let rgb = hsv(hue, 0.9, 1.0);
    rgb.map(|c| 1.6 * c)
}

/// HSV (all 0..1) to RGB.
pub fn hsv(h: f32, s: f32, v: f32) -> [f32; 3] {
    let i = (h * 6.0).floor();
    let f = h * 6.0 - i;
    let (p, q, t) = (v * (1.0 - s), v * (1.0 - f * s), v * (1.0 - (1.0 - f) * s));
    match i as i32 % 6 {
        0 => [v, t, p],
        1 => [q, v, p],
        2 => [p, v, t],
        3 => [p, q, v],
        4 => [t, p, v],
        _ => [v, p, q],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn consecutive_strokes_differ_and_are_saturated() {
        for n in 0..50 {
            let (a, b) = (stroke_colour(n), stroke_colour(n + 1));
            let d: f32 = a.iter().zip(&b).map(|(x, y)| (x - y).abs()).sum();
            assert!(d > 0.5, "strokes {n} and {} too alike: {a:?} {b:?}", n + 1);
            let (hi, lo) = (a.iter().cloned().fold(0.0, f32::max), a.iter().cloned().fold(9.0, f32::min));
            assert!(hi >= 1.5 && lo <= 0.2 * hi, "stroke {n} not bright and saturated: {a:?}");
        }
        assert_eq!(stroke_colour(7), stroke_colour(7), "deterministic");
    }
}
