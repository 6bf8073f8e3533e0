//! The field drawn into an offscreen texture at a modest internal resolution and re-drawn only
//! when something changed (a step ran, an overlay or the size changed); every frame only a
//! cheap bilinear blit reaches the window. On a software rasteriser (lavapipe) the field pass
//! at window size dominated the frame; this keeps its cost to the frames that need it. The image
//! is written by a compute pass (shaders/render_field.wgsl `cs_main`, the fragment shader's
//! colours): on lavapipe the fragment shader, which reads the state's storage buffers, cost about
//! 15 ms a draw whatever the image's size.

use super::{RenderParams, Renderer, Viewport};

pub const BLIT_SHADER: &str = include_str!("../../shaders/blit.wgsl");

/// Longest side of the internal image when cells are small on screen.
pub const INTERNAL_MAX: f32 = 512.0;
/// The least a software adapter's internal image may have along its longest side.
pub const SOFTWARE_INTERNAL_MIN: f32 = 256.0;
/// At this many screen pixels per cell or more (teaching scenes: grid lines, numbers) the field
/// is drawn at the screen's resolution.
pub const FULL_RES_PPC: f32 = 12.0;

/// The internal image size for a viewport of `w`×`h` pixels showing cells `ppc` pixels wide, at
/// most `longest` pixels along the longer side; at the screen's resolution where cells are large
/// or `lines` (grid lines or arrows, one screen pixel wide, which a coarser image blurs).
pub fn internal_size(w: f32, h: f32, ppc: f32, longest: f32, lines: bool) -> [u32; 2] {
    let scale = if ppc >= FULL_RES_PPC || lines { 1.0 } else { (longest / w.max(h)).min(1.0) };
    [((w * scale).round() as u32).max(1), ((h * scale).round() as u32).max(1)]
}

/// The longest side of the internal image for a dye grid `dye_cells` across its longer side. On a
/// software adapter the shading of the field image is a large part of a frame (about a third of
/// the default plume's at 512 pixels): there the image has the dye grid's own resolution (at least
/// 256), one pixel a dye cell, and the blit's bilinear filter interpolates between dye cells as the
/// field shader does; a GPU draws at 512.
pub fn longest_side(software: bool, dye_cells: f32) -> f32 {
    if software { dye_cells.clamp(SOFTWARE_INTERNAL_MIN, INTERNAL_MAX) } else { INTERNAL_MAX }
}

/// Whether an image of `size` pixels over the grid of `params` has one pixel a dye cell, the
/// software adapter's default (`longest_side`).
pub fn one_pixel_a_dye_cell(size: [u32; 2], params: &RenderParams) -> bool {
    let k = params.view[2].max(1.0) as u32;
    size == [params.nx * k, params.ny * k]
}

struct Target {
    size: [u32; 2],
    /// The blit's source.
    group: wgpu::BindGroup,
    /// The compute pass's destination.
    image: wgpu::BindGroup,
}

pub struct CachedField {
    /// The field pipeline for the offscreen format.
    field: Renderer,
    blit: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    sampler: wgpu::Sampler,
    target: Option<Target>,
    last: Option<RenderParams>,
    /// A software adapter: the internal image at the dye grid's resolution (`longest_side`).
    software: bool,
    /// Redraws since creation (for tests and the frame log).
    pub redraws: u64,
    /// The size of the target the field is drawn into, pixels: a field reaching past it is
    /// drawn clipped (`Viewport::clipped`).
    window: [f32; 2],
}

impl CachedField {
    pub fn new(device: &wgpu::Device, surface_format: wgpu::TextureFormat, software: bool) -> CachedField {
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("blit"),
            source: wgpu::ShaderSource::Wgsl(BLIT_SHADER.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("blit"),
            entries: &[
                wgpu::BindGroupLayoutEntry {
                    binding: 0,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                    count: None,
                },
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: wgpu::ShaderStages::FRAGMENT,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("blit"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let blit = super::fullscreen_pipeline(device, &pipeline_layout, &module, "blit", surface_format, Default::default());
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("blit"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        CachedField {
            field: Renderer::for_image(device),
            blit,
            layout,
            sampler,
            target: None,
            last: None,
            software,
            redraws: 0,
            window: [f32::INFINITY; 2],
        }
    }

    /// Binds a new simulation's buffers (forces a redraw).
    pub fn attach(&mut self, sim: &crate::sim::Simulation) {
        self.field.attach(sim);
        self.last = None;
    }

    /// Redraws the internal image when `changed` (a step ran), the constants or the size differ;
    /// says whether it did. `window` is the size of the target it is drawn into: the image holds
    /// only the part of `viewport` inside it.
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        encoder: &mut wgpu::CommandEncoder,
        params: &RenderParams,
        viewport: Viewport,
        window: [f32; 2],
        changed: bool,
    ) -> bool {
        self.window = window;
        let (shown, part) = viewport.clipped(window);
        if shown.w < 1.0 || shown.h < 1.0 {
            return false;
        }
        let dye_cells = params.nx.max(params.ny) as f32 * params.view[2].max(1.0);
        // lines one screen pixel wide: grid lines and arrows (which a coarser image, stretched,
        // blurred into dots and blobs whose direction could not be read)
        use super::flags::{ARROWS_CENTRE, ARROWS_MAC, GRID_LINES};
        let lines = params.flags & (GRID_LINES | ARROWS_CENTRE | ARROWS_MAC) != 0;
        let size = internal_size(shown.w, shown.h, params.view[0], longest_side(self.software, dye_cells), lines);
        if self.target.as_ref().is_none_or(|t| t.size != size) {
            let texture = super::field_image(device, size, wgpu::TextureUsages::TEXTURE_BINDING);
            let view = texture.create_view(&Default::default());
            let group = self.bind(device, &view);
            let image = self.field.image_group(device, &view);
            self.target = Some(Target { size, group, image });
            self.last = None;
        }
        // pixels per cell as drawn into the internal image (arrow widths, grid lines)
        let mut params = *params;
        params.view[0] *= size[0] as f32 / shown.w;
        // the marks keep their size on screen (shaders/marks.wgsl `screen_px`)
        params.tints[3] = size[0] as f32 / shown.w;
        params.window = part;
        if one_pixel_a_dye_cell(size, &params) {
            // 3 ink reads a pixel instead of the blend's 12
            params.flags |= super::flags::DYE_PIXELS;
        }
        if !changed && self.last == Some(params) {
            return false;
        }
        let target = self.target.as_ref().expect("made above");
        self.field.prepare(queue, &params);
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor { label: Some("field image"), timestamp_writes: None });
        self.field.compute(&mut pass, &target.image, size);
        self.last = Some(params);
        self.redraws += 1;
        true
    }

    /// Draws the internal image into `viewport` of the pass's target (the part inside the
    /// target `update` was told of).
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, viewport: Viewport) {
        let Some(t) = &self.target else { return };
        self.blit(pass, &t.group, viewport.clipped(self.window).0);
    }

    /// What `blit` draws from: a picture in `view`, which the blit samples.
    pub fn bind(&self, device: &wgpu::Device, view: &wgpu::TextureView) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("blit"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry { binding: 0, resource: wgpu::BindingResource::TextureView(view) },
                wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::Sampler(&self.sampler) },
            ],
        })
    }

    /// Draws the picture bound in `group` into `viewport` of the pass's target.
    pub fn blit(&self, pass: &mut wgpu::RenderPass<'_>, group: &wgpu::BindGroup, viewport: Viewport) {
        if viewport.w < 1.0 || viewport.h < 1.0 {
            return;
        }
        pass.set_viewport(viewport.x, viewport.y, viewport.w, viewport.h, 0.0, 1.0);
        pass.set_pipeline(&self.blit);
        pass.set_bind_group(0, group, &[]);
        pass.draw(0..3, 0..1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_size_caps_small_cells_and_keeps_large_ones() {
        // 128 cells in 740 px: 5.8 px a cell, capped to 512 on the long side, aspect kept
        assert_eq!(internal_size(740.0, 370.0, 740.0 / 128.0, INTERNAL_MAX, false), [512, 256]);
        // teaching scene: 40 px cells stay at screen resolution
        assert_eq!(internal_size(640.0, 480.0, 40.0, INTERNAL_MAX, false), [640, 480]);
        // a small window is never enlarged
        assert_eq!(internal_size(300.0, 200.0, 2.0, INTERNAL_MAX, false), [300, 200]);
        // a software adapter: the default plume's 256² dye grid, one pixel a dye cell
        assert_eq!(internal_size(740.0, 740.0, 740.0 / 128.0, longest_side(true, 256.0), false), [256, 256]);
        // grid lines: the screen's resolution, so each is one pixel wide
        assert_eq!(internal_size(740.0, 740.0, 10.0, longest_side(true, 256.0), true), [740, 740]);
    }

    #[test]
    fn one_pixel_a_dye_cell_only_at_the_dye_grids_size() {
        let params = |nx, ny, k| RenderParams { nx, ny, view: [6.0, 0.1, k, 1.0], ..Default::default() };
        assert!(one_pixel_a_dye_cell([256, 256], &params(128, 128, 2.0)));
        assert!(one_pixel_a_dye_cell([60, 39], &params(20, 13, 3.0)));
        assert!(one_pixel_a_dye_cell([20, 13], &params(20, 13, 1.0)));
        assert!(!one_pixel_a_dye_cell([256, 255], &params(128, 128, 2.0)));
        assert!(!one_pixel_a_dye_cell([512, 512], &params(128, 128, 2.0)));
    }

    #[test]
    fn a_software_adapter_draws_the_dye_grid_at_its_resolution_within_bounds() {
        assert_eq!(longest_side(true, 256.0), 256.0);
        assert_eq!(longest_side(true, 64.0), SOFTWARE_INTERNAL_MIN);
        assert_eq!(longest_side(true, 1024.0), INTERNAL_MAX);
        assert_eq!(longest_side(false, 256.0), INTERNAL_MAX);
    }
}
