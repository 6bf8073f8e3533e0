//! The frame: the GPU objects that live while the window does, the egui pass (panel, help,
//! brush outline, cell numbers), then an encoder with the frame's steps and the picture (the
//! field image, egui on top) and a second one that puts the picture and the hover layer on the
//! screen, submitted and presented. Nothing here waits for the GPU.
//!
//! The picture is kept in a texture without the hover readout and the brush outline, which are
//! drawn over a copy of it. When nothing else changed (the same field image, the same egui
//! shapes), the kept picture is reused: moving the mouse over a paused field then costs a copy
//! and two small boxes instead of the whole panel rastered again (on a software renderer, most
//! of a frame). When only some of the panel's shapes changed (its figures, twice a second while
//! running), only that region is drawn again (src/ui/region.rs).

use super::capture::Capture;
use super::kept_frame::{KeptFrame, Picture};
use super::numbers;
use super::profile::{FrameLog, lap};
use crate::error::{Error, Result};
use crate::gpu::{Fault, Gpu, NO_ADAPTER_HELP, OnFault, instance_descriptor};
use crate::platform::{Duration, Instant};
use crate::render::readback::{CellProbe, EdgeVelocity, FieldReadback};
use crate::render::{self, CachedField, RenderParams, Viewport};
use crate::sim::{Figures, Simulation};
use crate::ui::{self, Command, PanelState, Shown, View};
use std::sync::Arc;
use winit::event_loop::ActiveEventLoop;
use winit::window::Window;

/// Frames between field read-backs (pressure range, numbers).
const READBACK_EVERY: u32 = 6;

/// The steps' passes are timed, and their full statistics reduced, in one frame of each such
/// span, not in every frame: the panel's figures change twice a second anyway, and on lavapipe
/// the timestamps cost the default plume's window 1-5 ms of CPU a frame (measured) and
/// the full statistics another 5-7 (the ink summed over every dye cell). The frames between
/// reduce only what sizes the next step's sub-steps (`Figures::Speeds`).
const SAMPLE_EVERY: Duration = Duration::from_millis(250);

/// GPU objects that exist while the window does.
pub struct Running {
    pub window: Arc<Window>,
    pub surface: wgpu::Surface<'static>,
    pub config: wgpu::SurfaceConfiguration,
    pub gpu: Gpu,
    pub egui_state: egui_winit::State,
    pub egui_renderer: egui_wgpu::Renderer,
    pub field: CachedField,
    pub values: FieldReadback,
    /// The hover readout's values of the cell under the cursor.
    pub probe: CellProbe,
    pub sim: Simulation,
    /// The split view's second run and its image (src/app/split.rs).
    pub split: Option<super::split::Split>,
    pub profiler: Option<wgpu_profiler::GpuProfiler>,
    /// When the steps' passes were last timed and their statistics fully reduced (`SAMPLE_EVERY`).
    sampled: Option<Instant>,
    /// Whether the field values (pressure, divergence) are being read back: what the panel's
    /// pressure range and the numbers come from.
    pub reading_values: bool,
    pub capture: Capture,
    /// The last picture without the hover layer.
    kept: Option<KeptFrame>,
    /// The hover layer's painter on a software adapter (src/app/plain_paint.rs).
    plain: Option<super::plain_paint::PlainPaint>,
    /// Where the pictures reach an X11 screen through shared memory instead of the surface (a
    /// software adapter: src/app/soft_present.rs).
    #[cfg(target_os = "linux")]
    soft: Option<super::soft_present::SoftPresent>,
    /// The surface's first way of compositing its alpha (an opaque picture's), and whether the
    /// picture is see-through now (`set_see_through`).
    opaque_mode: wgpu::CompositeAlphaMode,
    see_through: bool,
}

impl Running {
    /// Opens the window (on the web, takes the page's canvas, sized by `canvas` in CSS pixels
    /// or filling the page).
    pub fn open_window(event_loop: &ActiveEventLoop, title: &str, canvas: Option<(u32, u32)>) -> Result<Arc<Window>> {
        let attrs = Window::default_attributes().with_title(title);
        #[cfg(not(target_arch = "wasm32"))]
        let attrs = {
            let _ = canvas;
            attrs
                .with_inner_size(winit::dpi::LogicalSize::new(1100.0, 760.0))
                .with_min_inner_size(winit::dpi::LogicalSize::new(480.0, 360.0))
        };
        #[cfg(target_arch = "wasm32")]
        let attrs = {
            use winit::platform::web::WindowAttributesExtWebSys;
            attrs.with_canvas(crate::platform::canvas(canvas)).with_focusable(true).with_prevent_default(true)
        };
        Ok(Arc::new(event_loop.create_window(attrs).map_err(|e| crate::error!("cannot create the window: {e}"))?))
    }

    /// The GPU instance's description for a window of this event loop.
    pub fn instance_descriptor(event_loop: &ActiveEventLoop) -> wgpu::InstanceDescriptor {
        let mut desc = instance_descriptor();
        desc.display = Some(Box::new(event_loop.owned_display_handle()));
        desc
    }

    /// Opens a device that can draw into `window` (a new instance, adapter, device and surface:
    /// also after the last device was lost), then makes the simulation with `make_sim`. The
    /// device's faults are recorded in `gpu.fault` for the app to recover from. Async: the
    /// browser answers the adapter and device requests on its event loop.
    pub async fn start(
        desc: wgpu::InstanceDescriptor,
        window: Arc<Window>,
        make_sim: impl FnOnce(&Gpu) -> Result<Simulation>,
    ) -> Result<Running> {
        let instance = wgpu::Instance::new(desc);
        let surface = instance.create_surface(window.clone()).map_err(|e| crate::error!("cannot draw into the window: {e}"))?;
        let no_adapter = if cfg!(target_arch = "wasm32") { crate::platform::NO_WEBGPU } else { NO_ADAPTER_HELP };
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: Some(&surface),
                ..Default::default()
            })
            .await
            .map_err(|_| Error(no_adapter.into()))?;
        let gpu = Gpu::open(instance, adapter, OnFault::Record).await?;
        let caps = surface.get_capabilities(&gpu.adapter);
        // (only where the surface takes the same format and copies: the way back if the shared
        // image fails)
        #[cfg(target_os = "linux")]
        let soft = if gpu.is_software()
            && caps.formats.contains(&super::soft_present::FORMAT)
            && caps.usages.contains(wgpu::TextureUsages::COPY_DST)
        {
            super::soft_present::SoftPresent::new(&window)
        } else {
            None
        };
        // the field shader writes gamma-encoded colour, as egui does: prefer a non-sRGB format
        let format = crate::gpu::surface_format(&caps.formats)?;
        #[cfg(target_os = "linux")]
        let format = if soft.is_some() { super::soft_present::FORMAT } else { format };
        let size = window.inner_size();
        #[cfg(target_arch = "wasm32")]
        let size = if size.width == 0 { winit::dpi::PhysicalSize::new(800, 600) } else { size };
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .ok_or_else(|| crate::error!("this GPU adapter cannot draw into the window"))?;
        config.format = format;
        // the kept picture is copied into the surface where it can be
        if caps.usages.contains(wgpu::TextureUsages::COPY_DST) {
            config.usage |= wgpu::TextureUsages::COPY_DST;
        }
        // vsync keeps the simulation's pace (steps per frame) sane on fast GPUs; on lavapipe the
        // present mode made no measurable difference (the frame time is raster work)
        config.present_mode = wgpu::PresentMode::AutoVsync;
        config.desired_maximum_frame_latency = 2;
        #[cfg(target_os = "linux")]
        let surface_shows = soft.is_none();
        #[cfg(not(target_os = "linux"))]
        let surface_shows = true;
        if surface_shows {
            surface.configure(&gpu.device, &config);
        }
        let egui_ctx = egui::Context::default();
        ui::fonts::install(&egui_ctx);
        // one theme on every platform, whatever the system's (a browser's is often light)
        egui_ctx.set_theme(egui::Theme::Dark);
        let egui_state =
            egui_winit::State::new(egui_ctx, egui::ViewportId::ROOT, &window, Some(window.scale_factor() as f32), window.theme(), None);
        let egui_renderer = egui_wgpu::Renderer::new(&gpu.device, format, egui_wgpu::RendererOptions::default());
        crate::platform::show_status("preparing the GPU kernels…");
        crate::platform::yield_to_page().await;
        let sim = make_sim(&gpu)?;
        let mut field = CachedField::new(&gpu.device, format, gpu.is_software());
        field.attach(&sim);
        let values = FieldReadback::new(&gpu.device, sim.nx, sim.ny);
        let probe = CellProbe::new(&gpu.device);
        let capture = Capture::new(&gpu.device, &sim);
        let plain = if gpu.is_software() { super::plain_paint::PlainPaint::new(&gpu.device, format) } else { None };
        let profiler = if gpu.has_timestamps() {
            wgpu_profiler::GpuProfiler::new(&gpu.device, wgpu_profiler::GpuProfilerSettings::default()).ok()
        } else {
            None
        };
        let opaque_mode = config.alpha_mode;
        Ok(Running {
            window,
            surface,
            config,
            gpu,
            egui_state,
            egui_renderer,
            field,
            values,
            probe,
            sim,
            split: None,
            profiler,
            sampled: None,
            reading_values: false,
            capture,
            kept: None,
            plain,
            #[cfg(target_os = "linux")]
            soft,
            opaque_mode,
            see_through: false,
        })
    }

    /// Makes the picture see-through where its background is (`on`), or opaque: the surface
    /// then composites premultiplied alpha. Only the page's canvas is asked to (WebGPU's canvas
    /// always takes premultiplied alpha, though wgpu lists only opaque among its modes); a
    /// desktop window is made opaque.
    pub fn set_see_through(&mut self, on: bool) {
        let on = on && cfg!(target_arch = "wasm32");
        if on == self.see_through {
            return;
        }
        self.see_through = on;
        self.config.alpha_mode = if on { wgpu::CompositeAlphaMode::PreMultiplied } else { self.opaque_mode };
        if !self.presents_itself() && self.config.width > 0 && self.config.height > 0 {
            self.surface.configure(&self.gpu.device, &self.config);
        }
        self.kept = None;
    }

    /// The simulation's buffers changed (the divergence-after buffer was made): the field image
    /// and the captures bind them again, or "divergence after" would still be drawn from the
    /// velocity.
    pub fn attach_buffers(&mut self) {
        self.field.attach(&self.sim);
        self.capture.attach(&self.sim);
    }

    /// Takes a new simulation (another grid or scene): the field image and read-back follow it.
    pub fn replace_sim(&mut self, sim: Simulation) {
        self.field.attach(&sim);
        self.capture.attach(&sim);
        self.values = FieldReadback::new(&sim.device, sim.nx, sim.ny);
        self.probe = CellProbe::new(&sim.device);
        (self.sim, self.split) = (sim, None);
    }

    pub fn resize(&mut self, width: u32, height: u32) {
        self.config.width = width;
        self.config.height = height;
        if width > 0 && height > 0 && !self.presents_itself() {
            self.surface.configure(&self.gpu.device, &self.config);
        }
    }

    /// The shared image failed (`e`): the next frames go through the surface.
    #[cfg(target_os = "linux")]
    fn surface_instead(&mut self, e: &str) {
        log::warn!("{e}; showing the window's pictures through the GPU's surface instead");
        self.soft = None;
        self.surface.configure(&self.gpu.device, &self.config);
        self.window.request_redraw();
    }

    /// Whether the pictures reach the screen without the surface (`soft`).
    fn presents_itself(&self) -> bool {
        #[cfg(target_os = "linux")]
        return self.soft.is_some();
        #[cfg(not(target_os = "linux"))]
        return false;
    }
}

/// The egui pass's results.
pub struct UiFrame {
    pub full: egui::FullOutput,
    /// The area left for the field, points.
    pub central: egui::Rect,
    pub commands: Vec<Command>,
    /// What is written over the field (the numbers, badges, hint, notes, legends, the hover
    /// readout and the brush outline), drawn over the kept picture (empty while an egui window
    /// or pop-up floats, which must stay on top: then they are in `full`).
    pub hover: Vec<egui::epaint::ClippedShape>,
    /// An egui window or pop-up is open (it may lie over the field).
    pub floating: bool,
    /// When egui wants its next frame (an animation, a tooltip delay), if at all.
    pub repaint_after: Option<std::time::Duration>,
}

/// The last egui pass's output, for frames that do without one (`LastUi::again`).
pub struct LastUi {
    shapes: Vec<egui::epaint::ClippedShape>,
    pixels_per_point: f32,
    central: egui::Rect,
    hover: Vec<egui::epaint::ClippedShape>,
    floating: bool,
    repaint_after: Option<std::time::Duration>,
    at: Instant,
}

impl LastUi {
    pub fn of(ui: &UiFrame, at: Instant) -> LastUi {
        LastUi {
            shapes: ui.full.shapes.clone(),
            pixels_per_point: ui.full.pixels_per_point,
            central: ui.central,
            hover: ui.hover.clone(),
            floating: ui.floating,
            repaint_after: ui.repaint_after,
            at,
        }
    }

    /// Whether a frame at `now` may show this output again: less than `every` old, at the same
    /// scale, and before the frame egui asked for.
    pub fn fresh(&self, now: Instant, every: Duration, pixels_per_point: f32) -> bool {
        let age = now.duration_since(self.at);
        age < every && self.pixels_per_point == pixels_per_point && self.repaint_after.is_none_or(|d| age < d)
    }

    /// The same output for a frame at `now`: no commands, no texture changes, egui's next frame
    /// still when it asked for it.
    /// Where the last UI pass wrote `text` (points) outside the side panel: on the field, or in
    /// the bands above and below it (the page's self-test looks for the stage line there).
    #[cfg(target_arch = "wasm32")]
    pub fn written_beside_panel(&self, text: &str) -> Option<egui::Rect> {
        fn find(shape: &egui::Shape, text: &str) -> Option<egui::Rect> {
            match shape {
                egui::Shape::Text(t) if t.galley.text() == text => Some(t.galley.rect.translate(t.pos.to_vec2())),
                egui::Shape::Vec(all) => all.iter().find_map(|s| find(s, text)),
                _ => None,
            }
        }
        // (the field's text is in the hover layer, drawn over the kept picture each frame)
        self.hover.iter().chain(&self.shapes).filter_map(|c| find(&c.shape, text)).find(|r| self.central.contains_rect(*r))
    }

    pub fn again(&self, now: Instant) -> UiFrame {
        let full = egui::FullOutput { shapes: self.shapes.clone(), pixels_per_point: self.pixels_per_point, ..Default::default() };
        let repaint_after = self.repaint_after.map(|d| d.saturating_sub(now.duration_since(self.at)));
        UiFrame { full, central: self.central, commands: Vec::new(), hover: self.hover.clone(), floating: self.floating, repaint_after }
    }
}

/// Everything the egui pass reads or edits besides the window.
pub struct UiInputs<'a> {
    pub shown: Shown<'a>,
    pub view: &'a mut View,
    pub panel: &'a mut PanelState,
    /// The brush disk under the cursor: (centre, radius), points.
    pub outline: Option<(egui::Pos2, f32)>,
    pub numbers: Vec<(egui::Pos2, String, f32)>,
    /// What is written on the field (badges, hint, notes, legends, the readout), and the
    /// field's rectangle in points.
    pub text: ui::field::FieldText,
    pub field: egui::Rect,
}

/// Runs egui: the panel, the help window, the brush outline, the numbers and the text on the field.
pub fn run_ui(r: &mut Running, u: UiInputs) -> UiFrame {
    let raw = r.egui_state.take_egui_input(&r.window);
    let ctx = r.egui_state.egui_ctx().clone();
    let mut commands = Vec::new();
    let mut central = egui::Rect::NOTHING;
    let mut hover = Vec::new();
    let UiInputs { shown, view, panel, outline, numbers, text, field } = u;
    let mut floating = false;
    let mut full = ctx.run_ui(raw, |ui| {
        commands = ui::side_panel(ui, &shown, view, panel);
        central = ui.available_rect_before_wrap();
        let over_field = egui::Painter::new(ui.ctx().clone(), hover_layer(), central);
        for (pos, text, size) in &numbers {
            numbers::paint(&over_field, *pos, text, *size);
        }
        ui::field::paint(&over_field, field, central, &text);
        if let Some((centre, radius)) = outline
            && central.contains(centre)
        {
            over_field.circle_stroke(centre, radius, egui::Stroke::new(1.0, egui::Color32::from_white_alpha(150)));
        }
        ui::help_window(ui.ctx(), &mut panel.show_help);
        commands.extend(ui::confirm_window(ui.ctx(), panel));
        let ctx = ui.ctx();
        floating = ctx.memory(|m| m.areas().visible_layer_ids().iter().any(|l| l.order != egui::Order::Background));
        if !floating {
            hover = ctx.graphics_mut(|g| std::mem::take(g.entry(hover_layer()))).all_entries().cloned().collect();
        }
    });
    r.egui_state.handle_platform_output(&r.window, std::mem::take(&mut full.platform_output));
    let repaint_after =
        full.viewport_output.get(&egui::ViewportId::ROOT).map(|v| v.repaint_delay).filter(|d| *d < std::time::Duration::from_secs(3600));
    UiFrame { full, central, commands, hover, floating, repaint_after }
}

/// The layer of everything written over the field: under egui's windows.
fn hover_layer() -> egui::LayerId {
    egui::LayerId::new(egui::Order::Background, egui::Id::unique("smokebox hover layer"))
}

/// What to draw this frame.
pub struct Drawing<'a> {
    pub steps: u32,
    pub overlays: &'a render::Overlays,
    pub background: [f32; 3],
    /// The background's opacity: below 1 the picture is see-through there (`set_see_through`).
    pub background_alpha: f32,
    pub viewport: Viewport,
    /// |p| and |ω| at full colour (manual or auto ranges).
    pub ranges: render::TintRanges,
    /// Redraw the field image even without a step (the state changed otherwise).
    pub field_dirty: bool,
    /// Captures show the overlays (else ink only).
    pub capture_overlays: bool,
    /// The cursor over the field, metres: its cell is read back for the hover readout.
    pub hover: Option<[f32; 2]>,
}

impl Running {
    /// Encodes the steps and the drawing, submits and presents. False when there was nothing to
    /// draw into (an outdated surface: the next frame tries again).
    pub fn draw(&mut self, ui: UiFrame, d: Drawing, log: &mut Option<FrameLog>) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(soft) = self.soft.as_mut() {
            return match soft.target(&self.gpu.device, [self.config.width, self.config.height]) {
                Ok(texture) => self.draw_into(None, texture, ui, d, log),
                Err(e) => {
                    self.surface_instead(&e);
                    false
                }
            };
        }
        let frame = match self.surface.get_current_texture() {
            wgpu::CurrentSurfaceTexture::Success(t) | wgpu::CurrentSurfaceTexture::Suboptimal(t) => t,
            wgpu::CurrentSurfaceTexture::Outdated => {
                self.surface.configure(&self.gpu.device, &self.config);
                return false;
            }
            wgpu::CurrentSurfaceTexture::Lost => {
                // the surface (or the whole device) is gone: the next frame makes both anew
                self.gpu.fault.record(Fault::SurfaceLost);
                return false;
            }
            _ => return false,
        };
        let texture = frame.texture.clone();
        self.draw_into(Some(frame), texture, ui, d, log)
    }

    /// `draw` into `texture`, the surface's `frame` or the shared image's (`soft`).
    fn draw_into(
        &mut self,
        frame: Option<wgpu::SurfaceTexture>,
        texture: wgpu::Texture,
        ui: UiFrame,
        d: Drawing,
        log: &mut Option<FrameLog>,
    ) -> bool {
        lap(log, "acquire");
        let view = texture.create_view(&Default::default());
        let device = self.gpu.device.clone();
        let queue = self.gpu.queue.clone();
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
        let now = Instant::now();
        // a new simulation's first frame reduces only the speeds (the sub-steps need them): its
        // step then waits for fewer kernels to compile (the page's first step; BENCHMARKS.md,
        // "The web page on SwiftShader"), and the full statistics come with the next frame
        let sample = d.steps > 0 && self.sim.step_index > 0 && self.sampled.is_none_or(|t| now.duration_since(t) >= SAMPLE_EVERY);
        if sample {
            self.sampled = Some(now);
        }
        let profiler = self.profiler.as_ref().filter(|_| sample);
        let sim = &mut self.sim;
        for k in 0..d.steps {
            let figures = match (k + 1 == d.steps, sample) {
                (false, _) => Figures::None,
                (true, false) => Figures::Speeds,
                (true, true) => Figures::All,
            };
            sim.encode_step(&mut encoder, figures, profiler);
            let (step, time) = (sim.step_index, sim.time);
            sim.readback.encode_copy(&mut encoder, &sim.buffers.stats, figures, step, time);
            self.split.iter_mut().for_each(|s| s.pair.encode_step(&mut encoder, figures));
        }
        lap(log, "encode steps");
        let o = d.overlays;
        let ppp = ui.full.pixels_per_point;
        let ppc = d.viewport.pixels_per_cell(sim.nx);
        let curl_auto = o.curl && o.curl_auto;
        self.reading_values = (o.pressure && o.pressure_auto)
            || (o.divergence && o.divergence_auto)
            || curl_auto
            || numbers::wanted(o, ppc, ppp, sim.nx * sim.ny);
        if self.reading_values {
            let div = match (&sim.div_after, o.divergence_after) {
                (Some(a), true) => (&a.buffer, true),
                _ => (&sim.buffers.divergence, false),
            };
            let velocity = curl_auto.then_some(EdgeVelocity { u: &sim.buffers.u, v: &sim.buffers.v, h: sim.params.h });
            self.values.encode(&mut encoder, &sim.buffers.p, div, velocity, READBACK_EVERY);
        }
        if let Some([x, y]) = d.hover {
            let h = sim.params.h;
            let dh = h / sim.dye_scale as f32;
            let div = match (&sim.div_after, o.divergence_after) {
                (Some(a), true) => (&a.buffer, true),
                _ => (&sim.buffers.divergence, false),
            };
            self.probe.encode(&mut encoder, sim, div, [(x / h) as usize, (y / h) as usize], [(x / dh) as usize, (y / dh) as usize]);
        }
        let alpha = if self.see_through { d.background_alpha } else { 1.0 };
        let params = RenderParams::new(sim, o, d.background, ppc, d.ranges).with_background_alpha(alpha);
        // tracers seeded while paused (the view switched on, the brush) show at once; a step
        // places them otherwise
        let seeded = d.steps == 0 && sim.stages.tracers.pending() > 0;
        if seeded {
            sim.stages.tracers.encode_seeds(&device, &mut encoder);
        }
        let changed = d.steps > 0 || d.field_dirty || seeded;
        crate::render::marks::trace_streamlines(sim, &mut encoder, o, ppc, changed);
        let window = [texture.width() as f32, texture.height() as f32];
        let mut field_redrawn = self.field.update(&device, &queue, &mut encoder, &params, d.viewport, window, changed);
        field_redrawn |= self
            .split
            .as_mut()
            .is_some_and(|s| s.update(&device, &queue, &mut encoder, o, (d.background, alpha), d.ranges, window, changed));
        let c = &mut self.capture;
        c.encode(&device, &queue, &mut encoder, sim, o, d.capture_overlays, d.background, d.ranges, d.viewport);
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: [self.config.width, self.config.height], pixels_per_point: ppp };
        for (id, deltas) in &ui.full.textures_delta.set {
            for delta in deltas {
                self.egui_renderer.update_texture(&device, &queue, *id, delta);
            }
        }
        // the picture under the hover layer: drawn again only when something in it changed
        let extent = texture.size();
        let picture = Picture { size: [extent.width, extent.height], viewport: d.viewport, pixels_per_point: ppp, shapes: ui.full.shapes };
        if self.kept.as_ref().is_none_or(|k| k.texture.size() != extent) {
            self.kept = Some(KeptFrame::new(&device, self.config.format, extent, &self.field));
        }
        let kept = self.kept.as_mut().expect("made above");
        // (glyphs added to egui's font atlas leave the ones already drawn where they were)
        let atlas_only_grew = ui.full.textures_delta.set.iter().all(|(_, deltas)| deltas.iter().all(|d| d.pos.is_some()));
        let same = atlas_only_grew && kept.drawn.as_ref() == Some(&picture);
        // a running field under the same panel: only the field is drawn again into the picture
        // (everything written over it is in the layer above; no egui window lies over it)
        let reuse = same && (!field_redrawn || !ui.floating);
        // only some of the panel changed (its figures, a widget under the mouse): that region alone
        // (a see-through picture is drawn whole: a region is redrawn over the panel's colour)
        let whole = !atlas_only_grew || ui.floating || self.see_through;
        let region = if reuse || whole { None } else { kept.drawn.as_ref().and_then(|k| k.changed_region(&picture)) };
        let fill = self.egui_state.egui_ctx().global_style().visuals.panel_fill;
        let mut user_buffers = Vec::new();
        if reuse && field_redrawn {
            let mut pass = render::begin_load_pass(&mut encoder, &kept.view).forget_lifetime();
            super::split::draw_fields(&self.field, self.split.as_ref(), &mut pass, d.viewport);
        } else if !reuse {
            // the whole picture, or only the region that changed
            let shapes = region.map_or_else(|| picture.shapes.clone(), |r| ui::region::clipped_to(&picture.shapes, r, fill));
            let paint = self.egui_state.egui_ctx().tessellate(shapes, ppp);
            lap(log, "tessellate");
            user_buffers = self.egui_renderer.update_buffers(&device, &queue, &mut encoder, &paint, &screen);
            let mut pass = match region {
                Some(_) => render::begin_load_pass(&mut encoder, &kept.view),
                // the side panel's colour under it (its own fill is left out: src/ui side_panel)
                None => render::begin_clear_pass(&mut encoder, &kept.view, see_through_or(self.see_through, gamma_colour(fill))),
            }
            .forget_lifetime();
            if region.is_none() || field_redrawn {
                super::split::draw_fields(&self.field, self.split.as_ref(), &mut pass, d.viewport);
            }
            pass.set_viewport(0.0, 0.0, self.config.width as f32, self.config.height as f32, 0.0, 1.0);
            self.egui_renderer.render(&mut pass, &paint, &screen);
        }
        if let Some(p) = self.profiler.as_mut() {
            p.resolve_queries(&mut encoder);
        }
        lap(log, "encode draw");
        // (egui's renderer holds one frame's vertices: the hover layer's go in a second submission)
        queue.submit(user_buffers.into_iter().chain([encoder.finish()]));
        self.capture.after_submit();
        if !reuse {
            kept.drawn = Some(picture);
        }
        self.show_kept(&texture, &view, ui.hover, &screen);
        for id in &ui.full.textures_delta.free {
            self.egui_renderer.free_texture(id);
        }
        if let Some(l) = log {
            l.picture(reuse, region.is_some());
        }
        lap(log, "submit");
        self.window.pre_present_notify();
        if let Some(frame) = frame {
            queue.present(frame);
        }
        #[cfg(target_os = "linux")]
        if let Some(shown) = self.soft.as_mut().map(|soft| soft.present(&device)) {
            if let Err(e) = shown {
                self.surface_instead(&e);
            }
            lap(log, "present shm");
            return true;
        }
        lap(log, "present");
        true
    }

    /// Puts the kept picture on the surface `target` (a copy, else the blit) and the hover layer
    /// over it, in a submission of their own.
    fn show_kept(
        &mut self,
        target: &wgpu::Texture,
        view: &wgpu::TextureView,
        hover: Vec<egui::epaint::ClippedShape>,
        screen: &egui_wgpu::ScreenDescriptor,
    ) {
        let (device, queue) = (&self.gpu.device, &self.gpu.queue);
        let kept = self.kept.as_ref().expect("drawn before it is shown");
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("hover") });
        let copy = self.config.usage.contains(wgpu::TextureUsages::COPY_DST);
        if copy {
            encoder.copy_texture_to_texture(kept.texture.as_image_copy(), target.as_image_copy(), target.size());
        }
        let paint = self.egui_state.egui_ctx().tessellate(hover, screen.pixels_per_point);
        let plain = !paint.is_empty() && self.plain.as_mut().is_some_and(|p| p.prepare(device, queue, &self.egui_renderer, &paint, screen));
        let user_buffers = if plain { Vec::new() } else { self.egui_renderer.update_buffers(device, queue, &mut encoder, &paint, screen) };
        if !copy || !paint.is_empty() {
            let window = Viewport { x: 0.0, y: 0.0, w: self.config.width as f32, h: self.config.height as f32 };
            let mut pass = if copy {
                render::begin_load_pass(&mut encoder, view)
            } else {
                let mut pass = render::begin_clear_pass(&mut encoder, view, see_through_or(self.see_through, render::CLEAR));
                self.field.blit(&mut pass, &kept.blit, window);
                pass
            }
            .forget_lifetime();
            match self.plain.as_ref().filter(|_| plain) {
                Some(p) => p.draw(&mut pass, screen),
                None => {
                    pass.set_viewport(window.x, window.y, window.w, window.h, 0.0, 1.0);
                    self.egui_renderer.render(&mut pass, &paint, screen);
                }
            }
        }
        #[cfg(target_os = "linux")]
        if let Some(soft) = self.soft.as_mut() {
            soft.encode_copy(&mut encoder);
        }
        queue.submit(user_buffers.into_iter().chain([encoder.finish()]));
    }
}

/// What a picture is cleared to: nothing where it is see-through, else `opaque`.
fn see_through_or(see_through: bool, opaque: wgpu::Color) -> wgpu::Color {
    if see_through { wgpu::Color::TRANSPARENT } else { opaque }
}

/// An egui colour as a clear colour of the window's surface, whose format takes gamma-encoded
/// values as they are (`crate::gpu::surface_format` prefers a non-sRGB one).
fn gamma_colour(c: egui::Color32) -> wgpu::Color {
    let [r, g, b, _] = c.to_array().map(|x| x as f64 / 255.0);
    wgpu::Color { r, g, b, a: 1.0 }
}

#[cfg(test)]
mod tests;
