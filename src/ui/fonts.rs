//! Fonts: egui's own, with a subset of DejaVu Sans behind them for the glyphs they lack (arrows,
//! the minus sign, Greek letters of the units: →, −, ν, ρ, Δ, ε, ω). Without it those render as
//! empty boxes. See assets/fonts/LICENSE-DejaVu.txt.

pub const FALLBACK: &[u8] = include_bytes!("../../assets/fonts/DejaVuSans-subset.ttf");

/// egui's default fonts plus the fallback, for every family.
pub fn definitions() -> egui::FontDefinitions {
    let mut fonts = egui::FontDefinitions::default();
    fonts.font_data.insert("dejavu-subset".into(), std::sync::Arc::new(egui::FontData::from_static(FALLBACK)));
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.entry(family).or_default().push("dejavu-subset".into());
    }
    fonts
}

pub fn install(ctx: &egui::Context) {
    ctx.set_fonts(definitions());
}
