//! The egui panel driven by egui_kittest: toggling each overlay, a slider, and the pause, step
//! and reset buttons change the settings (or return commands) as expected.

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use smokebox::config::Scene;
use smokebox::ui::{self, Command, LiveStats, Settings};

struct State {
    settings: Settings,
    commands: Vec<Command>,
}

fn harness() -> Harness<'static, State> {
    let (scene, _) = Scene::load("plume", &[]).unwrap();
    let state = State { settings: Settings::from_scene("plume", &scene), commands: Vec::new() };
    let mut h = Harness::builder().with_size(egui::vec2(420.0, 2000.0)).build_ui_state(
        |ui, s: &mut State| {
            let stats = LiveStats::default();
            let out = ui::panel_contents(ui, &mut s.settings, &stats);
            s.commands.extend(out);
        },
        state,
    );
    h.run();
    h
}

#[test]
fn each_overlay_checkbox_toggles_its_setting() {
    let mut h = harness();
    let labels = [
        "1 ink",
        "2 divergence tint",
        "3 pressure",
        "4 velocity on MAC edges",
        "5 velocity at cell centres",
        "6 grid lines",
        "7 numbers in large cells",
    ];
    for (n, label) in labels.iter().enumerate() {
        let before = h.state().settings.overlays.clone();
        h.get_by_label(label).click();
        h.run();
        let after = h.state().settings.overlays.clone();
        assert_ne!(before, after, "{label} changed nothing");
        // the same change as the number key
        let mut expected = before.clone();
        ui::toggle_overlay(&mut expected, n as u32 + 1);
        assert_eq!(after, expected, "{label} toggled something else");
    }
}

#[test]
fn slider_sets_brush_radius() {
    let mut h = harness();
    let before = h.state().settings.brush.radius;
    h.get_all_by_label("radius (m)").next().expect("a radius slider").set_value_accesskit(0.1);
    h.run();
    let after = h.state().settings.brush.radius;
    assert!((after - 0.1).abs() < 1e-6 && before != after, "radius {before} -> {after}");
}

#[test]
fn pause_step_reset() {
    let mut h = harness();
    assert!(!h.state().settings.paused);
    h.get_by_label("Pause").click();
    h.run();
    assert!(h.state().settings.paused);
    h.get_by_label("Step").click();
    h.run();
    h.get_by_label("Reset").click();
    h.run();
    assert_eq!(h.state().commands, vec![Command::Step, Command::Reset]);
    h.get_by_label("Run").click();
    h.run();
    assert!(!h.state().settings.paused);
}

#[test]
fn solver_kind_and_brush_density_sign() {
    use smokebox::config::SolverKind;
    let mut h = harness();
    assert_eq!(h.state().settings.solver, SolverKind::Jacobi);
    h.get_by_label("multigrid").click();
    h.run();
    assert_eq!(h.state().settings.solver, SolverKind::Multigrid);
    h.get_by_label("sor").click();
    h.run();
    assert_eq!(h.state().settings.solver, SolverKind::Sor);
    h.get_by_label("light (rises)").click();
    h.run();
    assert!(h.state().settings.brush.density < 0.0, "light brush density {}", h.state().settings.brush.density);
    h.get_by_label("heavy (sinks)").click();
    h.run();
    assert!(h.state().settings.brush.density > 0.0, "heavy brush density {}", h.state().settings.brush.density);
    h.get_by_label("freeze flow").click();
    h.run();
    assert!(h.state().settings.freeze_velocity);
}

#[test]
fn sliders_set_every_constant() {
    let mut h = harness();
    for (label, value) in [
        ("vorticity ε", 0.5),
        ("gravity x (m/s²)", 2.0),
        ("damping (1/s)", 0.25),
        ("tolerance (relative)", 0.01),
        ("Jacobi weight", 0.6),
        ("ink dissipation (1/s)", 0.5),
        ("density drain (1/s)", 0.125),
    ] {
        h.get_all_by_label(label).next().unwrap_or_else(|| panic!("a {label} slider")).set_value_accesskit(value);
        h.run();
    }
    let s = &h.state().settings;
    assert_eq!((s.vorticity, s.gravity[0], s.damping, s.tolerance), (0.5, 2.0, 0.25, 0.01));
    assert_eq!((s.jacobi_weight, s.ink_dissipation, s.density_drain), (0.6, 0.5, 0.125));
}

#[test]
fn scheme_pickers_offer_conservative_only_for_ink_and_density() {
    use smokebox::config::Scheme;
    let mut h = harness();
    h.get_by_label("velocity scheme").click();
    h.run();
    assert!(h.query_by_label("conservative").is_none(), "velocity offers the flux form");
    h.get_by_label("maccormack").click();
    h.run();
    assert_eq!(h.state().settings.schemes[0], Scheme::Maccormack);
    h.get_by_label("ink scheme").click();
    h.run();
    h.get_by_label("conservative").click();
    h.run();
    assert_eq!(h.state().settings.schemes[1], Scheme::Conservative);
}
