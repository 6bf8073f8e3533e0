//! Marks over the field: the tracers' particles (dots or short streaks, one instanced quad each)
//! and the streamlines (a line list), drawn from the simulation's own buffers as vertex data
//! (src/sim/tracers.rs, src/sim/streamlines.rs) by shaders/marks.wgsl, in the pass that draws
//! the field (headless renders, captures) or over the window's field image. Nothing is read back.

use super::RenderParams;
use super::flags::{MARKS, STREAMLINES, TRACERS};
use crate::sim::Simulation;
use crate::sim::streamlines::SeedGrid;
use crate::sim::tracers::TRACER_CAPACITY;

pub struct Marks {
    device: wgpu::Device,
    layout: wgpu::PipelineLayout,
    format: wgpu::TextureFormat,
    /// Pipelines built so far, by the marks' flags: (flags, tracers, streamlines).
    pipelines: Vec<(u32, wgpu::RenderPipeline, wgpu::RenderPipeline)>,
    /// The field image's layout (a renderer that writes images), and the compute pipelines
    /// built for it so far, by flags: (flags, tracers, streamlines).
    image_layout: Option<wgpu::PipelineLayout>,
    image_pipelines: Vec<(u32, wgpu::ComputePipeline, wgpu::ComputePipeline)>,
    /// This frame's marks' flags (`prepare`).
    flags: u32,
    /// Vertices of this frame's streamlines.
    line_vertices: u32,
    tracers: Option<wgpu::Buffer>,
    lines: Option<wgpu::Buffer>,
}

impl Marks {
    /// Marks drawn into `format` targets, bound as the field is (`layout`: group 0).
    pub fn new(
        device: &wgpu::Device,
        layout: &wgpu::BindGroupLayout,
        format: wgpu::TextureFormat,
        image_layout: Option<wgpu::PipelineLayout>,
    ) -> Marks {
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("marks"),
            bind_group_layouts: &[Some(layout)],
            immediate_size: 0,
        });
        Marks {
            device: device.clone(),
            layout,
            format,
            pipelines: Vec::new(),
            image_layout,
            image_pipelines: Vec::new(),
            flags: 0,
            line_vertices: 0,
            tracers: None,
            lines: None,
        }
    }

    /// The simulation's particles and line list.
    pub fn attach(&mut self, sim: &Simulation) {
        self.tracers = Some(sim.stages.tracers.buffer.clone());
        self.lines = Some(sim.stages.streamlines.vertices.clone());
    }

    pub fn any(&self) -> bool {
        self.flags != 0
    }

    /// This frame's marks, from `params` (its flags and the streamlines' spacing).
    pub fn prepare(&mut self, module: &wgpu::ShaderModule, params: &RenderParams) {
        self.flags = params.flags & MARKS;
        let grid = SeedGrid::new(params.nx as usize, params.ny as usize, params.view[1], params.tints[1]);
        self.line_vertices = grid.vertices();
        if self.flags == 0 {
            return;
        }
        if let Some(layout) = &self.image_layout {
            if !self.image_pipelines.iter().any(|p| p.0 == self.flags) {
                let constants = [("FLAGS", self.flags as f64)];
                let compute = |entry| {
                    self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                        label: Some(entry),
                        layout: Some(layout),
                        module,
                        entry_point: Some(entry),
                        compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
                        cache: None,
                    })
                };
                self.image_pipelines.push((self.flags, compute("cs_tracers"), compute("cs_streamlines")));
            }
        } else if !self.pipelines.iter().any(|p| p.0 == self.flags) {
            let tracers = self.pipeline(module, "vs_tracer", wgpu::PrimitiveTopology::TriangleList, 16, wgpu::VertexStepMode::Instance);
            let lines = self.pipeline(module, "vs_streamline", wgpu::PrimitiveTopology::LineList, 8, wgpu::VertexStepMode::Vertex);
            self.pipelines.push((self.flags, tracers, lines));
        }
    }

    fn pipeline(
        &self,
        module: &wgpu::ShaderModule,
        entry: &str,
        topology: wgpu::PrimitiveTopology,
        stride: u64,
        step_mode: wgpu::VertexStepMode,
    ) -> wgpu::RenderPipeline {
        let format = if stride == 16 { wgpu::VertexFormat::Float32x4 } else { wgpu::VertexFormat::Float32x2 };
        let attributes = [wgpu::VertexAttribute { format, offset: 0, shader_location: 0 }];
        let constants = [("FLAGS", self.flags as f64)];
        self.device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some(entry),
            layout: Some(&self.layout),
            vertex: wgpu::VertexState {
                module,
                entry_point: Some(entry),
                compilation_options: wgpu::PipelineCompilationOptions { constants: &constants, ..Default::default() },
                buffers: &[Some(wgpu::VertexBufferLayout { array_stride: stride, step_mode, attributes: &attributes })],
            },
            fragment: Some(wgpu::FragmentState {
                module,
                entry_point: Some("fs_mark"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: self.format,
                    blend: Some(wgpu::BlendState::PREMULTIPLIED_ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            primitive: wgpu::PrimitiveState { topology, ..Default::default() },
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            multiview_mask: None,
            cache: None,
        })
    }

    /// Segments of this frame's streamlines.
    pub fn segments(&self) -> u32 {
        self.line_vertices / 2
    }

    /// Writes this frame's marks over the field image bound in `image` (a renderer that writes
    /// images), after the field: a thread a particle and a segment.
    pub fn compute(&self, pass: &mut wgpu::ComputePass<'_>, group: &wgpu::BindGroup, image: &wgpu::BindGroup) {
        let Some((_, tracers, lines)) = self.image_pipelines.iter().find(|p| p.0 == self.flags) else { return };
        for (bit, pipeline, threads) in [(STREAMLINES, lines, self.segments()), (TRACERS, tracers, TRACER_CAPACITY as u32)] {
            if self.flags & bit != 0 {
                pass.set_pipeline(pipeline);
                pass.set_bind_group(0, group, &[]);
                pass.set_bind_group(1, image, &[]);
                pass.dispatch_workgroups(threads.div_ceil(64), 1, 1);
            }
        }
    }

    /// Draws this frame's marks into the pass's viewport, with the field's bind group.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, group: &wgpu::BindGroup) {
        let Some((_, tracers, lines)) = self.pipelines.iter().find(|p| p.0 == self.flags) else { return };
        if self.flags & STREAMLINES != 0
            && let Some(buffer) = &self.lines
        {
            pass.set_pipeline(lines);
            pass.set_bind_group(0, group, &[]);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.draw(0..self.line_vertices, 0..1);
        }
        if self.flags & TRACERS != 0
            && let Some(buffer) = &self.tracers
        {
            pass.set_pipeline(tracers);
            pass.set_bind_group(0, group, &[]);
            pass.set_vertex_buffer(0, buffer.slice(..));
            pass.draw(0..6, 0..TRACER_CAPACITY as u32);
        }
    }
}

/// The streamlines' seeds for `overlays` on cells `pixels_per_cell` wide on screen.
pub fn seed_grid(sim: &Simulation, overlays: &super::Overlays, pixels_per_cell: f32) -> SeedGrid {
    SeedGrid::new(sim.nx, sim.ny, sim.params.h, super::arrow_spacing(overlays.streamline_pixels, pixels_per_cell))
}

/// Records the tracing of the streamlines `overlays` asks for, ahead of the pass that draws
/// them: when the state `changed` or the seeds moved since the last trace.
pub fn trace_streamlines(
    sim: &Simulation,
    encoder: &mut wgpu::CommandEncoder,
    overlays: &super::Overlays,
    pixels_per_cell: f32,
    changed: bool,
) {
    if overlays.streamlines {
        sim.stages.streamlines.encode_for(&sim.queue, encoder, &seed_grid(sim, overlays, pixels_per_cell), changed);
    }
}
