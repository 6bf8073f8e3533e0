//! Display of the simulation state and its teaching overlays: one shader that reads the state
//! buffers directly (no copies, no read-back), as a render pipeline that draws into a viewport
//! that keeps the grid's aspect ratio (headless renders for reference-image tests, `render_rgba`)
//! or as a compute pass that writes the window's field image (src/render/cached.rs).

use crate::sim::Simulation;
use crate::sim::params::BC_WALL;
use bytemuck::{Pod, Zeroable};

pub mod cached;
pub mod curl;
pub use cached::CachedField;
pub mod offscreen;
pub mod palette;
pub mod readback;
pub use offscreen::Offscreen;

/// shaders/render_field.wgsl as written; it is loaded through [`shader_source`].
pub const SHADER: &str = include_str!("../../shaders/render_field.wgsl");
/// shaders/marks.wgsl (tracers and streamlines), composed after it.
pub const MARKS_SHADER: &str = include_str!("../../shaders/marks.wgsl");

/// The shader the renderer builds: the overlay flag constants (from [`flags`], their one
/// definition), then render_field.wgsl.
pub fn shader_source() -> String {
    let mut src = String::from("// Overlay flags of RenderParams.flags, emitted from src/render/mod.rs `flags`.\n");
    for (name, bit) in flags::ALL {
        src += &format!("const {name}: u32 = {bit}u;\n");
    }
    src += &format!("// An arrow's longest share of its spacing (src/render/overlays.rs).\nconst ARROW_CAP: f32 = {ARROW_CAP:?};\n");
    src += &format!(
        "// An edge arrow's longest share of a cell beside numbers.\nconst EDGE_ARROW_CAP_BESIDE_NUMBERS: f32 = {EDGE_ARROW_CAP_BESIDE_NUMBERS:?};\n"
    );
    src + SHADER + "\n" + MARKS_SHADER
}

/// The format headless renders use (and the PNGs hold): gamma-encoded RGBA.
pub const HEADLESS_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

pub mod marks;
pub mod overlays;
pub use overlays::*;

use flags::*;

/// Keep in sync with `RenderParams` in shaders/render_field.wgsl.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Pod, Zeroable)]
pub struct RenderParams {
    pub nx: u32,
    pub ny: u32,
    pub flags: u32,
    pub walls: u32,
    pub background: [f32; 4],
    pub ranges: [f32; 4],
    pub view: [f32; 4],
    /// The part of the grid shown, in uv (origin, size; y up): all of it, unless the field
    /// reaches past the window (`Viewport::clipped`).
    pub window: [f32; 4],
    /// x: the curl range in use (|ω| at full tint, 1/s); y: the streamlines' seed spacing in
    /// cells (from `Overlays::streamline_pixels` on screen); z: their segments (the renderer
    /// sets it); w: the target's pixels a screen pixel (the window's field image is coarser;
    /// 0 reads as 1), which keeps the tracers' dots their size on screen.
    pub tints: [f32; 4],
}

impl RenderParams {
    /// Constants for drawing `sim` with `overlays` at `pixels_per_cell`; `ranges` are the tints'
    /// ranges in use (manual or auto).
    pub fn new(sim: &Simulation, o: &Overlays, background: [f32; 3], pixels_per_cell: f32, ranges: TintRanges) -> RenderParams {
        let mut flags = 0;
        for (on, bit) in [
            (o.ink, SHOW_INK),
            (o.divergence, SHOW_DIVERGENCE),
            (o.divergence_after, DIVERGENCE_AFTER),
            (o.pressure, SHOW_PRESSURE),
            (o.curl, SHOW_CURL),
            (o.arrows_mac && why_not_drawable("mac-arrows", pixels_per_cell, 0).is_none(), ARROWS_MAC),
            (o.arrows_centre, ARROWS_CENTRE),
            (o.grid_lines && why_not_drawable("grid", pixels_per_cell, sim.nx * sim.ny).is_none(), GRID_LINES),
            (o.shading, SHADING),
            (o.arrow_colour_by_speed, ARROW_SPEED_COLOUR),
            (o.short_edge_arrows(pixels_per_cell), SHORT_EDGE_ARROWS),
            (o.tracers, TRACERS),
            (o.tracers && o.tracer_streaks, TRACER_STREAKS),
            (o.streamlines, STREAMLINES),
        ] {
            if on {
                flags |= bit;
            }
        }
        let arrows = o.arrow_scale_for(arrow_speed(sim.max_speed, sim.rms_speed), pixels_per_cell);
        let walls = (0..4).filter(|&s| sim.params.bc_kind[s] == BC_WALL).fold(0, |m, s| m | 1 << s);
        RenderParams {
            nx: sim.nx as u32,
            ny: sim.ny as u32,
            flags,
            walls,
            background: [background[0], background[1], background[2], 1.0],
            ranges: [
                o.divergence_range,
                ranges.pressure,
                arrow_spacing(o.arrow_pixels, pixels_per_cell),
                arrows.pixels_per_mps / pixels_per_cell.max(1e-6),
            ],
            view: [pixels_per_cell, sim.params.h, sim.dye_scale as f32, o.tint_opacity],
            window: WHOLE_GRID,
            tints: [ranges.curl, arrow_spacing(o.streamline_pixels, pixels_per_cell), 0.0, 0.0],
        }
    }
}

/// The ranges in use of the tints that can scale themselves: |p| (Pa) and |ω| (1/s) at full
/// colour, each the set one or the last read-back's.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TintRanges {
    pub pressure: f32,
    pub curl: f32,
}

impl TintRanges {
    /// The ranges `o` sets (the automatic ones where nothing was read back).
    pub fn set(o: &Overlays) -> TintRanges {
        TintRanges { pressure: o.pressure_range, curl: o.curl_range }
    }
}

impl RenderParams {
    /// The same with the background at opacity `alpha` (0 to 1): below 1 the picture is
    /// premultiplied, and what lies under it shows through where there is no ink.
    pub fn with_background_alpha(mut self, alpha: f32) -> RenderParams {
        self.background[3] = alpha.clamp(0.0, 1.0);
        self
    }
}

/// `RenderParams::window` showing the whole grid.
pub const WHOLE_GRID: [f32; 4] = [0.0, 0.0, 1.0, 1.0];

/// A rectangle in physical pixels: x, y (from the top left), width, height.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub w: f32,
    pub h: f32,
}

impl Viewport {
    /// The largest rectangle of the grid's aspect ratio centred in `area`, with a margin.
    pub fn fit(nx: usize, ny: usize, area: Viewport, margin: f32) -> Viewport {
        let (aw, ah) = ((area.w - 2.0 * margin).max(1.0), (area.h - 2.0 * margin).max(1.0));
        let scale = (aw / nx as f32).min(ah / ny as f32);
        let (w, h) = (scale * nx as f32, scale * ny as f32);
        Viewport { x: area.x + (area.w - w) / 2.0, y: area.y + (area.h - h) / 2.0, w, h }
    }

    /// The smallest rectangle of the grid's aspect ratio that covers `area`, centred on it: it
    /// reaches past two of its sides unless the aspect ratios agree.
    pub fn cover(nx: usize, ny: usize, area: Viewport) -> Viewport {
        let scale = (area.w / nx as f32).max(area.h / ny as f32);
        let (w, h) = (scale * nx as f32, scale * ny as f32);
        Viewport { x: area.x + (area.w - w) / 2.0, y: area.y + (area.h - h) / 2.0, w, h }
    }

    /// The part of this rectangle inside a target `size` pixels wide and high (a render pass
    /// draws only there), and which part of the grid it shows: uv origin and size, y up.
    pub fn clipped(&self, size: [f32; 2]) -> (Viewport, [f32; 4]) {
        let (x0, y0) = (self.x.max(0.0), self.y.max(0.0));
        let (x1, y1) = ((self.x + self.w).min(size[0]), (self.y + self.h).min(size[1]));
        if (x0, y0, x1, y1) == (self.x, self.y, self.x + self.w, self.y + self.h) {
            return (*self, WHOLE_GRID);
        }
        let (w, h) = ((x1 - x0).max(0.0), (y1 - y0).max(0.0));
        let uv = [(x0 - self.x) / self.w, 1.0 - (y0 + h - self.y) / self.h, w / self.w, h / self.h];
        (Viewport { x: x0, y: y0, w, h }, uv)
    }

    pub fn pixels_per_cell(&self, nx: usize) -> f32 {
        self.w / nx as f32
    }

    /// Grid position in metres (y up) of a pixel position; None outside.
    pub fn to_metres(&self, px: [f32; 2], nx: usize, ny: usize, h: f32) -> [f32; 2] {
        let gx = (px[0] - self.x) / self.w * nx as f32;
        let gy = (1.0 - (px[1] - self.y) / self.h) * ny as f32;
        [gx * h, gy * h]
    }

    /// Pixel position of a grid position in cells (y up).
    pub fn from_cells(&self, g: [f32; 2], nx: usize, ny: usize) -> [f32; 2] {
        [self.x + g[0] / nx as f32 * self.w, self.y + (1.0 - g[1] / ny as f32) * self.h]
    }
}

/// The display pipeline. `attach` binds a simulation's buffers (again after a reset or resize).
/// The overlays shown are compiled into the shader (render_field.wgsl `FLAGS`): `prepare` picks
/// the pipeline for this frame's, built the first time they are asked for.
pub struct Renderer {
    device: wgpu::Device,
    module: wgpu::ShaderModule,
    output: Output,
    /// The pipelines built so far, by their flags.
    variants: Vec<(u32, Pipeline)>,
    /// The flags `prepare` chose.
    flags: u32,
    layout: wgpu::BindGroupLayout,
    uniform: wgpu::Buffer,
    group: Option<wgpu::BindGroup>,
    /// The same with the divergence slot at the simulation's after-projection buffer, if any.
    after_group: Option<wgpu::BindGroup>,
    use_after: bool,
    marks: marks::Marks,
}

/// What a renderer writes with.
enum Output {
    /// A render pipeline (`fs_main`) drawing into a viewport of a pass's target of this format.
    Draw { format: wgpu::TextureFormat, layout: wgpu::PipelineLayout },
    /// shaders/render_field.wgsl `cs_main`, the same colours by a compute pass into a storage
    /// image, and the layout of that image (group 1): the window's field image.
    Image { layout: wgpu::PipelineLayout, image: wgpu::BindGroupLayout },
}

enum Pipeline {
    Draw(wgpu::RenderPipeline),
    Image(wgpu::ComputePipeline),
}

/// Pixels a side of a workgroup of `cs_main`.
const IMAGE_BLOCK: u32 = 8;

impl Renderer {
    /// A renderer that draws into `format` targets (`draw`).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Renderer {
        Renderer::build(device, Some(format))
    }

    /// A renderer that writes the field into a `HEADLESS_FORMAT` storage image by a compute pass
    /// (`image_group`, `compute`): the window's field image (src/render/cached.rs).
    pub fn for_image(device: &wgpu::Device) -> Renderer {
        Renderer::build(device, None)
    }

    fn build(device: &wgpu::Device, format: Option<wgpu::TextureFormat>) -> Renderer {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("render_field"),
            source: wgpu::ShaderSource::Wgsl(shader_source().into()),
        });
        let stages = wgpu::ShaderStages::FRAGMENT | wgpu::ShaderStages::COMPUTE;
        let storage = |binding| wgpu::BindGroupLayoutEntry {
            binding,
            visibility: stages,
            ty: wgpu::BindingType::Buffer {
                ty: wgpu::BufferBindingType::Storage { read_only: true },
                has_dynamic_offset: false,
                min_binding_size: None,
            },
            count: None,
        };
        let mut entries = vec![wgpu::BindGroupLayoutEntry {
            binding: 0,
            visibility: stages,
            ty: wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
            count: None,
        }];
        // the marks' vertex shaders place them by the constants
        entries[0].visibility |= wgpu::ShaderStages::VERTEX;
        // the state (1-6), the tracers (7) and the streamlines' line list (8)
        entries.extend((1..=8).map(storage));
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some("render"), entries: &entries });
        let uniform = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("render params"),
            size: std::mem::size_of::<RenderParams>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let output = if let Some(format) = format {
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("render"),
                bind_group_layouts: &[Some(&layout)],
                immediate_size: 0,
            });
            Output::Draw { format, layout }
        } else {
            let image = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
                label: Some("field image"),
                entries: &[wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::COMPUTE,
                    ty: wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: HEADLESS_FORMAT,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                }],
            });
            let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("field image"),
                bind_group_layouts: &[Some(&layout), Some(&image)],
                immediate_size: 0,
            });
            Output::Image { layout, image }
        };
        let image_layout = match &output {
            Output::Image { layout, .. } => Some(layout.clone()),
            Output::Draw { .. } => None,
        };
        let marks = marks::Marks::new(device, &layout, format.unwrap_or(HEADLESS_FORMAT), image_layout);
        let (device, variants) = (device.clone(), Vec::new());
        Renderer { device, module, output, variants, flags: 0, layout, uniform, group: None, after_group: None, use_after: false, marks }
    }

    /// The pipeline for `flags`, built now if it is the first time they are asked for.
    fn variant(&mut self, flags: u32) {
        if self.variants.iter().any(|(f, _)| *f == flags) {
            return;
        }
        let constants = [("FLAGS", flags as f64)];
        let options = wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() };
        let pipeline = match &self.output {
            Output::Draw { format, layout } => {
                Pipeline::Draw(fullscreen_pipeline(&self.device, layout, &self.module, "render_field", *format, options))
            }
            Output::Image { layout, .. } => Pipeline::Image(self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some("field image"),
                layout: Some(layout),
                module: &self.module,
                entry_point: Some("cs_main"),
                compilation_options: options,
                cache: None,
            })),
        };
        self.variants.push((flags, pipeline));
    }

    /// The pipeline `prepare` chose.
    fn pipeline(&self) -> Option<&Pipeline> {
        self.variants.iter().find(|(f, _)| *f == self.flags).map(|(_, p)| p)
    }

    /// Binds the state buffers of `sim`; call after every new simulation (and after
    /// `Simulation::enable_div_after`).
    pub fn attach(&mut self, sim: &Simulation) {
        let b = &sim.buffers;
        let group = |divergence: &wgpu::Buffer| {
            let (tracers, lines) = (&sim.stages.tracers.buffer, &sim.stages.streamlines.vertices);
            let buffers = [&self.uniform, &b.u, &b.v, &b.p, divergence, &b.ink, &b.solid, tracers, lines];
            let entries: Vec<wgpu::BindGroupEntry> = buffers
                .iter()
                .enumerate()
                .map(|(n, buf)| wgpu::BindGroupEntry { binding: n as u32, resource: buf.as_entire_binding() })
                .collect();
            sim.device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some("render"), layout: &self.layout, entries: &entries })
        };
        self.group = Some(group(&b.divergence));
        self.after_group = sim.div_after.as_ref().map(|d| group(&d.buffer));
        self.marks.attach(sim);
    }

    /// Writes this frame's constants (before the pass that draws). "Divergence after" reads the
    /// after-projection buffer when the simulation keeps one, else the shader takes the
    /// divergence of the current velocity.
    pub fn prepare(&mut self, queue: &wgpu::Queue, params: &RenderParams) {
        let mut params = *params;
        self.use_after = params.flags & DIVERGENCE_AFTER != 0 && self.after_group.is_some();
        if self.use_after {
            params.flags &= !DIVERGENCE_AFTER;
        }
        // the marks have pipelines of their own: the field's is the same with them or without
        self.marks.prepare(&self.module, &params);
        params.tints[2] = self.marks.segments() as f32;
        params.flags &= !MARKS;
        self.variant(params.flags);
        self.flags = params.flags;
        queue.write_buffer(&self.uniform, 0, bytemuck::bytes_of(&params));
    }

    /// The state's bind group this frame (`prepare` chose the divergence's buffer).
    fn state(&self) -> Option<&wgpu::BindGroup> {
        if self.use_after { self.after_group.as_ref() } else { self.group.as_ref() }
    }

    /// Draws the field into `viewport` of the pass's target (a renderer made by `new`).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, viewport: Viewport) {
        let (Some(group), Some(Pipeline::Draw(pipeline))) = (self.state(), self.pipeline()) else { return };
        if viewport.w < 1.0 || viewport.h < 1.0 {
            return;
        }
        pass.set_viewport(viewport.x, viewport.y, viewport.w, viewport.h, 0.0, 1.0);
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
        self.draw_marks(pass);
    }

    /// Whether this frame draws marks over the field (tracers, streamlines).
    pub fn has_marks(&self) -> bool {
        self.marks.any()
    }

    /// Draws the marks into the pass's viewport (the field's, or the whole field image).
    pub fn draw_marks(&self, pass: &mut wgpu::RenderPass<'_>) {
        if let Some(group) = self.state() {
            self.marks.draw(pass, group);
        }
    }

    /// What `compute` writes: `view` of a `HEADLESS_FORMAT` texture with storage use (a renderer
    /// made by `for_image`).
    pub fn image_group(&self, device: &wgpu::Device, view: &wgpu::TextureView) -> wgpu::BindGroup {
        let Output::Image { image, .. } = &self.output else { panic!("a renderer made by for_image writes images") };
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("field image"),
            layout: image,
            entries: &[wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(view) }],
        })
    }

    /// Writes the field into the whole `size` image bound in `image` (`image_group`), as `draw`
    /// would draw it into a viewport of that size.
    pub fn compute(&self, pass: &mut wgpu::ComputePass<'_>, image: &wgpu::BindGroup, size: [u32; 2]) {
        let (Some(group), Some(Pipeline::Image(pipeline))) = (self.state(), self.pipeline()) else { return };
        pass.set_pipeline(pipeline);
        pass.set_bind_group(0, group, &[]);
        pass.set_bind_group(1, image, &[]);
        pass.dispatch_workgroups(size[0].div_ceil(IMAGE_BLOCK), size[1].div_ceil(IMAGE_BLOCK), 1);
        self.marks.compute(pass, group, image);
    }
}

/// Renders `sim` with `overlays` into a `width`×`height` image (the grid fitted, aspect kept) and
/// returns its RGBA rows, top first. Blocking: for tests and `--frames`, never the frame loop.
pub fn render_rgba(sim: &Simulation, overlays: &Overlays, background: [f32; 3], width: u32, height: u32) -> Vec<u8> {
    let device = &sim.device;
    let mut renderer = Renderer::new(device, HEADLESS_FORMAT);
    renderer.attach(sim);
    let area = Viewport { x: 0.0, y: 0.0, w: width as f32, h: height as f32 };
    let vp = Viewport::fit(sim.nx, sim.ny, area, 0.0);
    renderer.prepare(&sim.queue, &RenderParams::new(sim, overlays, background, vp.pixels_per_cell(sim.nx), TintRanges::set(overlays)));
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("headless render") });
    marks::trace_streamlines(sim, &mut encoder, overlays, vp.pixels_per_cell(sim.nx), true);
    let image = Offscreen::draw(device, &mut encoder, &renderer, vp, [width, height]);
    sim.queue.submit([encoder.finish()]);
    image.staging.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("mapping the headless frame"));
    device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
    image.rows()
}

/// A texture of `size` that the compute pass writes the field image into, also usable as `usage`.
pub fn field_image(device: &wgpu::Device, size: [u32; 2], usage: wgpu::TextureUsages) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some("field image"),
        size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
        mip_level_count: 1,
        sample_count: 1,
        dimension: wgpu::TextureDimension::D2,
        format: HEADLESS_FORMAT,
        usage: wgpu::TextureUsages::STORAGE_BINDING | usage,
        view_formats: &[],
    })
}

/// The window's field image (src/render/cached.rs) of `sim` as `params` describe it, `size`
/// pixels, written by the compute pass: its RGBA rows, top first. Blocking: for tests.
pub fn image_rgba(sim: &Simulation, params: &RenderParams, size: [u32; 2]) -> Vec<u8> {
    let device = &sim.device;
    let mut renderer = Renderer::for_image(device);
    renderer.attach(sim);
    renderer.prepare(&sim.queue, params);
    let texture = field_image(device, size, wgpu::TextureUsages::COPY_SRC);
    let group = renderer.image_group(device, &texture.create_view(&Default::default()));
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("field image") });
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("field image"), timestamp_writes: None });
        renderer.compute(&mut pass, &group, size);
    }
    let image = Offscreen::copy(device, &mut encoder, &texture, size);
    sim.queue.submit([encoder.finish()]);
    image.staging.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("mapping the field image"));
    device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
    image.rows()
}

/// A pipeline drawing one full-screen triangle (`vs_main`, `fs_main` of `module`, built with
/// `options`) into `format`.
pub(crate) fn fullscreen_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    label: &str,
    format: wgpu::TextureFormat,
    options: wgpu::PipelineCompilationOptions<'_>,
) -> wgpu::RenderPipeline {
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: Some(label),
        layout: Some(layout),
        vertex: wgpu::VertexState { module, entry_point: Some("vs_main"), compilation_options: Default::default(), buffers: &[] },
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some("fs_main"),
            compilation_options: options,
            targets: &[Some(wgpu::ColorTargetState { format, blend: None, write_mask: wgpu::ColorWrites::ALL })],
        }),
        primitive: wgpu::PrimitiveState::default(),
        depth_stencil: None,
        multisample: wgpu::MultisampleState::default(),
        multiview_mask: None,
        cache: None,
    })
}

/// The colour around the domain (linear RGB).
pub const CLEAR: wgpu::Color = wgpu::Color { r: 0.008, g: 0.008, b: 0.012, a: 1.0 };

/// A render pass that clears `view` to `clear`.
pub fn begin_clear_pass<'a>(
    encoder: &'a mut wgpu::CommandEncoder,
    view: &'a wgpu::TextureView,
    clear: wgpu::Color,
) -> wgpu::RenderPass<'a> {
    begin_pass(encoder, view, wgpu::LoadOp::Clear(clear))
}

/// A render pass that draws over what `view` holds.
pub fn begin_load_pass<'a>(encoder: &'a mut wgpu::CommandEncoder, view: &'a wgpu::TextureView) -> wgpu::RenderPass<'a> {
    begin_pass(encoder, view, wgpu::LoadOp::Load)
}

fn begin_pass<'a>(
    encoder: &'a mut wgpu::CommandEncoder,
    view: &'a wgpu::TextureView,
    load: wgpu::LoadOp<wgpu::Color>,
) -> wgpu::RenderPass<'a> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("display"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations { load, store: wgpu::StoreOp::Store },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_covering_field_is_clipped_to_the_window_and_shows_the_middle_of_the_grid() {
        // a square grid in a 400 x 200 window: 400 x 400, a quarter cut off above and below
        let window = Viewport { x: 0.0, y: 0.0, w: 400.0, h: 200.0 };
        let cover = Viewport::cover(64, 64, window);
        assert_eq!(cover, Viewport { x: 0.0, y: -100.0, w: 400.0, h: 400.0 });
        let (shown, uv) = cover.clipped([400.0, 200.0]);
        assert_eq!(shown, window);
        assert_eq!(uv, [0.0, 0.25, 1.0, 0.5]);
        // a wide grid in a tall window: cut at the sides
        let (shown, uv) = Viewport::cover(200, 100, Viewport { x: 0.0, y: 0.0, w: 100.0, h: 100.0 }).clipped([100.0, 100.0]);
        assert_eq!(shown, Viewport { x: 0.0, y: 0.0, w: 100.0, h: 100.0 });
        assert_eq!(uv, [0.25, 0.0, 0.5, 1.0]);
        // a field inside the window is drawn whole, as it is
        let fit = Viewport::fit(64, 64, window, 8.0);
        assert_eq!(fit.clipped([400.0, 200.0]), (fit, WHOLE_GRID));
    }
}
