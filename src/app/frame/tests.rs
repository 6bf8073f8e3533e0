//! The frame's reuse of the last egui output.

use crate::app::frame::*;

fn ui_frame(repaint_after: Option<Duration>) -> UiFrame {
    let text = egui::Shape::rect_filled(egui::Rect::from_min_size(egui::pos2(1.0, 2.0), egui::vec2(3.0, 4.0)), 0.0, egui::Color32::RED);
    let shape = |s: &egui::Shape| egui::epaint::ClippedShape {
        clip_rect: egui::Rect::EVERYTHING,
        shape: s.clone(),
        transform_after_tessellation: Default::default(),
    };
    let mut full = egui::FullOutput { shapes: vec![shape(&text)], pixels_per_point: 1.5, ..Default::default() };
    full.textures_delta.free.insert(egui::TextureId::Managed(7));
    let central = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(800.0, 600.0));
    UiFrame { full, central, commands: vec![Command::Step], hover: vec![shape(&text)], floating: false, repaint_after }
}

#[test]
fn the_last_egui_output_is_shown_again_without_its_commands_only_while_fresh() {
    let t0 = Instant::now();
    let every = Duration::from_millis(100);
    let last = LastUi::of(&ui_frame(None), t0);
    assert!(last.fresh(t0 + Duration::from_millis(99), every, 1.5));
    assert!(!last.fresh(t0 + every, every, 1.5), "older than `every`");
    assert!(!last.fresh(t0, every, 2.0), "another scale");
    let again = last.again(t0 + Duration::from_millis(40));
    let first = ui_frame(None);
    assert_eq!((again.full.shapes, again.hover, again.central), (first.full.shapes, first.hover, first.central));
    assert!(again.commands.is_empty(), "a command is applied once");
    assert!(again.full.textures_delta.free.is_empty() && again.full.textures_delta.set.is_empty(), "textures change once");
    // egui's next frame stays where it asked for it
    let soon = LastUi::of(&ui_frame(Some(Duration::from_millis(50))), t0);
    assert!(soon.fresh(t0 + Duration::from_millis(49), every, 1.5));
    assert!(!soon.fresh(t0 + Duration::from_millis(50), every, 1.5), "egui asked for a frame of its own");
    assert_eq!(soon.again(t0 + Duration::from_millis(30)).repaint_after, Some(Duration::from_millis(20)));
}
