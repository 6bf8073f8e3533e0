//! The panel's entry for the split view (key V): on or off, and what its halves differ in.

use super::View;
use super::widgets::{checkbox, combo};
use crate::config::compare::{COMPARISONS, Comparison};

/// The checkbox's text (key V).
pub const SPLIT_LABEL: &str = "V split view";

/// The split view's controls. A typed `KEY=VALUE` takes effect on Enter or Apply, not at every
/// keystroke (half a key is no setting).
pub fn split_view(ui: &mut egui::Ui, view: &mut View) {
    checkbox(
        ui,
        &mut view.split,
        SPLIT_LABEL,
        "Run the scene twice side by side, the same brush strokes in both, with one setting different (below); each half is labelled with its setting. Turning it on starts both at time zero (key V)",
    );
    let choices: Vec<(Comparison, &str)> = COMPARISONS.iter().map(|c| (*c, c.title())).collect();
    combo(ui, "halves", &mut view.compare, &choices, "What the two halves differ in: left | right");
    if view.compare != Comparison::Setting {
        return;
    }
    let id = egui::Id::unique("smokebox compare_setting");
    let mut draft = ui.data_mut(|d| d.get_temp::<String>(id)).unwrap_or_else(|| view.compare_setting.clone());
    let apply = ui
        .horizontal(|ui| {
            let field = ui.add(egui::TextEdit::singleline(&mut draft).desired_width(190.0)).on_hover_text(
                "The right half's one change, KEY=VALUE as --set takes it (e.g. advection.velocity=maccormack, fluid.viscosity=0.001); the left half runs the scene as it is. Not grid.*, display.* or time.dt: both halves share one grid and one time step",
            );
            let entered = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            ui.button("Apply").on_hover_text("Run the right half with this setting").clicked() || entered
        })
        .inner;
    if apply {
        view.compare_setting = draft.trim().to_string();
    }
    ui.data_mut(|d| d.insert_temp(id, draft));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Kept as the other view settings are (view.toml), and set by the page's URL as
    /// `view.split=true&view.compare=solver`.
    #[test]
    fn the_split_view_is_a_view_setting_that_a_link_sets() {
        let v = View::default();
        assert!(!v.split && v.compare == Comparison::Advection);
        let v = v.with_override("split=true").unwrap().with_override("compare=solver").unwrap();
        let v = v.with_override("compare_setting=fluid.viscosity=0.001").unwrap();
        assert_eq!((v.split, v.compare, v.compare_setting.as_str()), (true, Comparison::Solver, "fluid.viscosity=0.001"));
        let e = View::default().with_override("compare=nonsense").unwrap_err().to_string();
        assert!(e.contains("view.compare") && !e.contains('\n'), "{e}");
        let back: View = toml::from_str(&toml::to_string_pretty(&v).unwrap()).unwrap();
        assert_eq!(back, v);
    }
}
