//! Small control helpers that always take a tooltip, so no control of the panel lacks one.

use std::ops::RangeInclusive;

/// A labelled slider with a tooltip (meaning and unit); logarithmic where `log`. A value from a
/// scene file outside the range stays as it is (only edits are clamped): an untouched control
/// must not change the config.
pub fn slider<N: egui::emath::Numeric>(
    ui: &mut egui::Ui,
    value: &mut N,
    range: RangeInclusive<N>,
    log: bool,
    label: &str,
    tip: &str,
) -> egui::Response {
    ui.add(egui::Slider::new(value, range).clamping(egui::SliderClamping::Edits).logarithmic(log).text(label)).on_hover_text(tip)
}

pub fn checkbox(ui: &mut egui::Ui, value: &mut bool, label: &str, tip: &str) -> egui::Response {
    ui.checkbox(value, label).on_hover_text(tip)
}

/// A labelled drop-down over `choices` (value, name).
pub fn combo<T: PartialEq + Clone>(ui: &mut egui::Ui, label: &str, value: &mut T, choices: &[(T, &str)], tip: &str) -> egui::Response {
    let shown = choices.iter().find(|(v, _)| v == value).map_or("?", |(_, n)| *n);
    egui::ComboBox::from_label(label)
        .selected_text(shown)
        .show_ui(ui, |ui| {
            for (v, name) in choices {
                ui.selectable_value(value, v.clone(), *name);
            }
        })
        .response
        .on_hover_text(tip)
}

/// A colour button that writes back only when the user changes the colour (egui's round trip
/// through HSVA would otherwise nudge the value every frame, and a nudged scene is a changed one).
pub fn colour(ui: &mut egui::Ui, rgb: &mut [f32; 3], tip: &str) -> egui::Response {
    let mut c = *rgb;
    let r = ui.color_edit_button_rgb(&mut c).on_hover_text(tip);
    if r.changed() {
        *rgb = c;
    }
    r
}
