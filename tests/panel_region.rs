//! The side panel drawn again only where it changed (`ui::region`, the window's frame while the
//! flow runs) gives the picture drawn whole, pixel for pixel, and that part is a small share of it.

mod common;

use egui::epaint::ClippedShape;
use smokebox::config::Scene;
use smokebox::ui::{self, LiveStats, PanelState, Shown, View, region};

const SIZE: [u32; 2] = [1280, 800];

/// The real panel's shapes with `stats`, and the textures egui set up for them.
fn panel_shapes(ctx: &egui::Context, scene: &Scene, view: &mut View, panel: &mut PanelState, stats: &LiveStats) -> egui::FullOutput {
    let raw = egui::RawInput {
        screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(SIZE[0] as f32, SIZE[1] as f32))),
        ..Default::default()
    };
    ctx.run_ui(raw, |ui| {
        let capture = ui::CaptureStatus { dir: "/tmp/captures".into(), ..Default::default() };
        let shown = Shown { scene, label: "plume", stats, paused: false, capture: &capture };
        ui::side_panel(ui, &shown, view, panel);
    })
}

struct Painter {
    gpu: smokebox::gpu::Gpu,
    renderer: egui_wgpu::Renderer,
    screen: egui_wgpu::ScreenDescriptor,
}

impl Painter {
    /// Takes in the textures egui set up for a frame (the font atlas).
    fn upload(&mut self, out: &egui::FullOutput) {
        for (id, deltas) in &out.textures_delta.set {
            for delta in deltas {
                self.renderer.update_texture(&self.gpu.device, &self.gpu.queue, *id, delta);
            }
        }
    }

    /// Draws `shapes` into `texture`: over a clear to `clear`, else over what it holds.
    fn draw(&mut self, ctx: &egui::Context, shapes: Vec<ClippedShape>, texture: &wgpu::Texture, clear: Option<wgpu::Color>) {
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let paint = ctx.tessellate(shapes, 1.0);
        let mut encoder = device.create_command_encoder(&Default::default());
        let user = self.renderer.update_buffers(device, queue, &mut encoder, &paint, &self.screen);
        let view = texture.create_view(&Default::default());
        {
            let pass = match clear {
                Some(colour) => smokebox::render::begin_clear_pass(&mut encoder, &view, colour),
                None => smokebox::render::begin_load_pass(&mut encoder, &view),
            };
            self.renderer.render(&mut pass.forget_lifetime(), &paint, &self.screen);
        }
        queue.submit(user.into_iter().chain([encoder.finish()]));
    }

    fn read(&self, texture: &wgpu::Texture) -> Vec<u8> {
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let mut encoder = device.create_command_encoder(&Default::default());
        let image = smokebox::render::Offscreen::copy(device, &mut encoder, texture, SIZE);
        queue.submit([encoder.finish()]);
        image.staging.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("mapping the picture"));
        device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
        image.rows()
    }
}

#[test]
fn the_panel_drawn_again_where_it_changed_is_the_panel_drawn_whole() {
    let gpu = common::gpu();
    let renderer = egui_wgpu::Renderer::new(&gpu.device, smokebox::render::HEADLESS_FORMAT, egui_wgpu::RendererOptions::default());
    let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: SIZE, pixels_per_point: 1.0 };
    let mut painter = Painter { gpu, renderer, screen };
    let [whole, in_part, old] = ["whole", "in part", "old"].map(|label| picture(&painter.gpu.device, label));

    let ctx = egui::Context::default();
    ui::fonts::install(&ctx);
    let (scene, _) = Scene::load("plume", &[]).unwrap();
    let mut view = View::default();
    view.open_scene(&scene);
    let mut panel = PanelState::default();
    // the window clears its picture to the panel's colour (the panel has no fill of its own)
    let fill = ctx.global_style().visuals.panel_fill;
    let [r, g, b, _] = fill.to_array().map(|x| x as f64 / 255.0);
    let clear = wgpu::Color { r, g, b, a: 1.0 };
    let mut stats = LiveStats { fps: 31.0, frame_ms: 32.2, step: 400, time: 3.2, adapter: "llvmpipe".into(), ..Default::default() };
    // a few frames for the layout to settle
    for _ in 0..3 {
        let out = panel_shapes(&ctx, &scene, &mut view, &mut panel, &stats);
        painter.upload(&out);
    }
    let before = panel_shapes(&ctx, &scene, &mut view, &mut panel, &stats);
    painter.upload(&before);
    painter.draw(&ctx, before.shapes.clone(), &in_part, Some(clear));
    painter.draw(&ctx, before.shapes.clone(), &old, Some(clear));

    // the figures half a second later
    (stats.fps, stats.frame_ms, stats.step, stats.time) = (29.0, 34.5, 415, 3.32);
    let after = panel_shapes(&ctx, &scene, &mut view, &mut panel, &stats);
    painter.upload(&after);
    let field = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(700.0, 800.0));
    let region = region::changed(&before.shapes, &after.shapes, 1.0, SIZE, field).expect("only the figures changed");
    let share = region.area() / (SIZE[0] * SIZE[1]) as f32;
    assert!(share < 0.1, "the changed region {region:?} is {:.1}% of the picture", share * 100.0);
    painter.draw(&ctx, region::clipped_to(&after.shapes, region, fill), &in_part, None);
    painter.draw(&ctx, after.shapes.clone(), &whole, Some(clear));

    let (a, b, c) = (painter.read(&whole), painter.read(&in_part), painter.read(&old));
    let differ = |x: &[u8], y: &[u8]| x.chunks(4).zip(y.chunks(4)).filter(|(p, q)| p != q).count();
    assert_eq!(differ(&a, &b), 0, "pixels differ between the panel drawn whole and in part (region {region:?})");
    // the figures did change the picture
    assert!(differ(&a, &c) > 50, "the new figures changed only {} pixels", differ(&a, &c));
    // and a region that misses them leaves old pixels behind
    let short = egui::Rect::from_min_max(region.min, egui::pos2(region.max.x, region.center().y.round()));
    painter.draw(&ctx, before.shapes.clone(), &in_part, Some(clear));
    painter.draw(&ctx, region::clipped_to(&after.shapes, short, fill), &in_part, None);
    assert!(differ(&a, &painter.read(&in_part)) > 0, "half the region drew the whole change");
}

/// A picture of the window's size that egui draws into and the test reads.
fn picture(device: &wgpu::Device, label: &'static str) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d { width: SIZE[0], height: SIZE[1], depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: smokebox::render::HEADLESS_FORMAT,
        usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
        view_formats: &[],
    })
}
