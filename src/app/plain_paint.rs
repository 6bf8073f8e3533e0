//! egui's meshes drawn with a plain pipeline (shaders/plain_paint.wgsl) on a software adapter:
//! the hover layer, which is drawn over the running field every frame. egui's renderer draws
//! the same pixels (tested against it below) at about ten times the cost a pixel on lavapipe.

use bytemuck::{Pod, Zeroable};

#[repr(C)]
#[derive(Clone, Copy, Pod, Zeroable)]
struct Locals {
    screen: [f32; 2],
    pad: [f32; 2],
}

/// What one primitive draws: its indices in the index buffer, its first vertex, its texture and
/// its scissor rectangle in pixels.
struct Draw {
    indices: std::ops::Range<u32>,
    base_vertex: i32,
    group: wgpu::BindGroup,
    scissor: [u32; 4],
}

pub struct PlainPaint {
    pipeline: wgpu::RenderPipeline,
    layout: wgpu::BindGroupLayout,
    locals: wgpu::Buffer,
    sampler: wgpu::Sampler,
    vertices: Option<wgpu::Buffer>,
    indices: Option<wgpu::Buffer>,
    draws: Vec<Draw>,
}

impl PlainPaint {
    /// A painter for targets of `format`, where it draws what egui's renderer would: a non-sRGB
    /// one (None for sRGB, where egui's renderer turns colours linear).
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat) -> Option<PlainPaint> {
        if format.is_srgb() {
            return None;
        }
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("plain paint"),
            source: wgpu::ShaderSource::Wgsl(include_str!("../../shaders/plain_paint.wgsl").into()),
        });
        let entry = |binding, visibility, ty| wgpu::BindGroupLayoutEntry { binding, visibility, ty, count: None };
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("plain paint"),
            entries: &[
                entry(
                    0,
                    wgpu::ShaderStages::VERTEX,
                    wgpu::BindingType::Buffer { ty: wgpu::BufferBindingType::Uniform, has_dynamic_offset: false, min_binding_size: None },
                ),
                entry(
                    1,
                    wgpu::ShaderStages::FRAGMENT,
                    wgpu::BindingType::Texture {
                        sample_type: wgpu::TextureSampleType::Float { filterable: true },
                        view_dimension: wgpu::TextureViewDimension::D2,
                        multisampled: false,
                    },
                ),
                entry(2, wgpu::ShaderStages::FRAGMENT, wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering)),
            ],
        });
        let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some("plain paint"),
            bind_group_layouts: &[Some(&layout)],
            immediate_size: 0,
        });
        let vertex = wgpu::VertexBufferLayout {
            array_stride: std::mem::size_of::<egui::epaint::Vertex>() as u64,
            step_mode: wgpu::VertexStepMode::Vertex,
            attributes: &wgpu::vertex_attr_array![0 => Float32x2, 1 => Float32x2, 2 => Uint32],
        };
        // egui's blending: premultiplied colour
        let blend = wgpu::BlendState {
            color: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::One,
                dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
                operation: wgpu::BlendOperation::Add,
            },
            alpha: wgpu::BlendComponent {
                src_factor: wgpu::BlendFactor::OneMinusDstAlpha,
                dst_factor: wgpu::BlendFactor::One,
                operation: wgpu::BlendOperation::Add,
            },
        };
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("plain paint"),
            layout: Some(&pipeline_layout),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs_main"),
                compilation_options: Default::default(),
                buffers: &[Some(vertex)],
            },
            primitive: wgpu::PrimitiveState::default(),
            depth_stencil: None,
            multisample: wgpu::MultisampleState::default(),
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs_main"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState { format, blend: Some(blend), write_mask: wgpu::ColorWrites::ALL })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let locals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("plain paint locals"),
            size: std::mem::size_of::<Locals>() as u64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("plain paint"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        Some(PlainPaint { pipeline, layout, locals, sampler, vertices: None, indices: None, draws: Vec::new() })
    }

    /// Uploads `paint` for `draw`; false (nothing to draw) where a primitive is not a mesh or
    /// its texture is not one of `textures` (egui's renderer must draw it).
    pub fn prepare(
        &mut self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        textures: &egui_wgpu::Renderer,
        paint: &[egui::ClippedPrimitive],
        screen: &egui_wgpu::ScreenDescriptor,
    ) -> bool {
        self.draws.clear();
        let (mut vertices, mut indices): (Vec<egui::epaint::Vertex>, Vec<u32>) = (Vec::new(), Vec::new());
        let ppp = screen.pixels_per_point;
        let [w, h] = screen.size_in_pixels;
        for p in paint {
            let egui::epaint::Primitive::Mesh(mesh) = &p.primitive else { return false };
            let Some(texture) = textures.texture(&mesh.texture_id).and_then(|t| t.texture.as_ref()) else { return false };
            // the clip rectangle in whole pixels, as egui's renderer rounds it
            let x0 = ((p.clip_rect.min.x * ppp).round().max(0.0) as u32).min(w);
            let y0 = ((p.clip_rect.min.y * ppp).round().max(0.0) as u32).min(h);
            let x1 = ((p.clip_rect.max.x * ppp).round().max(0.0) as u32).clamp(x0, w);
            let y1 = ((p.clip_rect.max.y * ppp).round().max(0.0) as u32).clamp(y0, h);
            if x1 == x0 || y1 == y0 || mesh.indices.is_empty() {
                continue;
            }
            let view = texture.create_view(&Default::default());
            let group = device.create_bind_group(&wgpu::BindGroupDescriptor {
                label: Some("plain paint"),
                layout: &self.layout,
                entries: &[
                    wgpu::BindGroupEntry { binding: 0, resource: self.locals.as_entire_binding() },
                    wgpu::BindGroupEntry { binding: 1, resource: wgpu::BindingResource::TextureView(&view) },
                    wgpu::BindGroupEntry { binding: 2, resource: wgpu::BindingResource::Sampler(&self.sampler) },
                ],
            });
            let first = indices.len() as u32;
            self.draws.push(Draw {
                indices: first..first + mesh.indices.len() as u32,
                base_vertex: vertices.len() as i32,
                group,
                scissor: [x0, y0, x1 - x0, y1 - y0],
            });
            vertices.extend_from_slice(&mesh.vertices);
            indices.extend_from_slice(&mesh.indices);
        }
        let locals = Locals { screen: [w as f32 / ppp, h as f32 / ppp], pad: [0.0; 2] };
        queue.write_buffer(&self.locals, 0, bytemuck::bytes_of(&locals));
        let upload = |slot: &mut Option<wgpu::Buffer>, bytes: &[u8], usage: wgpu::BufferUsages, label: &str| {
            if bytes.is_empty() {
                return;
            }
            let size = (bytes.len() as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT);
            if slot.as_ref().is_none_or(|b| b.size() < size) {
                *slot = Some(device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some(label),
                    size: size.next_power_of_two(),
                    usage: usage | wgpu::BufferUsages::COPY_DST,
                    mapped_at_creation: false,
                }));
            }
            let mut padded = bytes.to_vec();
            padded.resize(size as usize, 0);
            queue.write_buffer(slot.as_ref().expect("made above"), 0, &padded);
        };
        upload(&mut self.vertices, bytemuck::cast_slice(&vertices), wgpu::BufferUsages::VERTEX, "plain paint vertices");
        upload(&mut self.indices, bytemuck::cast_slice(&indices), wgpu::BufferUsages::INDEX, "plain paint indices");
        true
    }

    /// Draws what `prepare` uploaded into `pass`, whose target is the screen it was prepared for.
    pub fn draw(&self, pass: &mut wgpu::RenderPass<'_>, screen: &egui_wgpu::ScreenDescriptor) {
        let (Some(vertices), Some(indices)) = (&self.vertices, &self.indices) else { return };
        if self.draws.is_empty() {
            return;
        }
        let [w, h] = screen.size_in_pixels;
        pass.set_viewport(0.0, 0.0, w as f32, h as f32, 0.0, 1.0);
        pass.set_pipeline(&self.pipeline);
        pass.set_vertex_buffer(0, vertices.slice(..));
        pass.set_index_buffer(indices.slice(..), wgpu::IndexFormat::Uint32);
        for d in &self.draws {
            let [x, y, dw, dh] = d.scissor;
            pass.set_scissor_rect(x, y, dw, dh);
            pass.set_bind_group(0, &d.group, &[]);
            pass.draw_indexed(d.indices.clone(), d.base_vertex, 0..1);
        }
        pass.set_scissor_rect(0, 0, w, h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SIZE: [u32; 2] = [240, 120];
    const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

    /// Text on a backdrop, a clipped line of text and the brush's ring, as the hover layer has
    /// them; the frame's texture changes (the font atlas).
    fn hover_shapes() -> (egui::Context, egui::FullOutput) {
        let ctx = egui::Context::default();
        let raw = egui::RawInput {
            screen_rect: Some(egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(SIZE[0] as f32, SIZE[1] as f32))),
            ..Default::default()
        };
        let full = ctx.run_ui(raw, |ui| {
            let p = ui.painter();
            p.rect_filled(
                egui::Rect::from_min_size(egui::pos2(4.0, 4.0), egui::vec2(150.0, 20.0)),
                4.0,
                egui::Color32::from_black_alpha(190),
            );
            p.text(
                egui::pos2(8.0, 7.0),
                egui::Align2::LEFT_TOP,
                "cell (59, 80) u +0.002",
                egui::FontId::monospace(12.0),
                egui::Color32::from_gray(235),
            );
            let clipped = p.with_clip_rect(egui::Rect::from_min_max(egui::pos2(0.0, 30.0), egui::pos2(90.0, 60.0)));
            clipped.text(
                egui::pos2(8.0, 34.0),
                egui::Align2::LEFT_TOP,
                "Light smoke rises",
                egui::FontId::proportional(14.0),
                egui::Color32::LIGHT_BLUE,
            );
            p.circle_stroke(egui::pos2(180.0, 70.0), 30.0, egui::Stroke::new(1.0, egui::Color32::from_white_alpha(150)));
        });
        (ctx, full)
    }

    /// `paint` drawn over a grey picture by egui's renderer, or by the plain painter when given
    /// one: the picture's RGBA bytes.
    fn draw(
        gpu: &crate::gpu::Gpu,
        egui: &mut egui_wgpu::Renderer,
        plain: Option<&mut PlainPaint>,
        paint: &[egui::ClippedPrimitive],
    ) -> Vec<u8> {
        let (device, queue) = (&gpu.device, &gpu.queue);
        let screen = egui_wgpu::ScreenDescriptor { size_in_pixels: SIZE, pixels_per_point: 1.0 };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: None,
            size: wgpu::Extent3d { width: SIZE[0], height: SIZE[1], depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let mut encoder = device.create_command_encoder(&Default::default());
        let plain = plain.and_then(|p| p.prepare(device, queue, egui, paint, &screen).then_some(p));
        let extra = if plain.is_some() { Vec::new() } else { egui.update_buffers(device, queue, &mut encoder, paint, &screen) };
        {
            let grey = wgpu::Color { r: 0.18, g: 0.19, b: 0.22, a: 1.0 };
            let mut pass = crate::render::begin_clear_pass(&mut encoder, &view, grey).forget_lifetime();
            match &plain {
                Some(p) => p.draw(&mut pass, &screen),
                None => egui.render(&mut pass, paint, &screen),
            }
        }
        let out = crate::render::offscreen::Offscreen::copy(device, &mut encoder, &texture, SIZE);
        queue.submit(extra.into_iter().chain([encoder.finish()]));
        out.staging.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("mapped"));
        device.poll(wgpu::PollType::wait_indefinitely()).expect("the GPU finishes");
        out.rows()
    }

    #[test]
    fn the_plain_painter_draws_what_eguis_renderer_draws() {
        let gpu = crate::gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
        let (ctx, full) = hover_shapes();
        let paint = ctx.tessellate(full.shapes, full.pixels_per_point);
        let mut egui = egui_wgpu::Renderer::new(&gpu.device, FORMAT, egui_wgpu::RendererOptions::default());
        for (id, deltas) in &full.textures_delta.set {
            for delta in deltas {
                egui.update_texture(&gpu.device, &gpu.queue, *id, delta);
            }
        }
        let mut plain = PlainPaint::new(&gpu.device, FORMAT).expect("a non-sRGB target");
        let want = draw(&gpu, &mut egui, None, &paint);
        let got = draw(&gpu, &mut egui, Some(&mut plain), &paint);
        let background = draw(&gpu, &mut egui, None, &[]);
        let drawn = want.chunks(4).zip(background.chunks(4)).filter(|(a, b)| a != b).count();
        assert!(drawn > 600, "the shapes cover {drawn} pixels");
        // egui's renderer dithers by up to half a step of 8 bits
        let worst = want.iter().zip(&got).map(|(a, b)| a.abs_diff(*b)).max().unwrap_or(0);
        assert!(worst <= 2, "the plain painter differs from egui's renderer by up to {worst} of 255");
        // a clip rectangle holds: the clipped line of text stops at x = 90
        let right_of_clip = (30..60).flat_map(|y| (92..150).map(move |x| (y * SIZE[0] as usize + x) * 4));
        assert!(right_of_clip.clone().all(|k| got[k..k + 4] == background[k..k + 4]), "nothing is drawn past a clip rectangle");
        // sRGB targets are left to egui's renderer, which turns its colours linear for them
        assert!(PlainPaint::new(&gpu.device, wgpu::TextureFormat::Rgba8UnormSrgb).is_none());
    }
}
