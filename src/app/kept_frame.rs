//! The window's last picture without the hover layer, kept so that a frame whose field and panel
//! are unchanged redraws only the hover layer over it (src/app/frame.rs `draw_into`).

use crate::render::{CachedField, Viewport};
use crate::ui;

/// A picture drawn without the hover layer, and what it was drawn from. It reaches the surface
/// by a copy where the surface allows (desktop), else drawn by the field's blit (WebGPU's
/// canvas in wgpu takes no copies).
pub(super) struct KeptFrame {
    pub texture: wgpu::Texture,
    pub view: wgpu::TextureView,
    pub blit: wgpu::BindGroup,
    pub drawn: Option<Picture>,
}

/// What a kept picture shows: the same again draws the same pixels (with the same field image).
#[derive(PartialEq)]
pub(super) struct Picture {
    pub size: [u32; 2],
    pub viewport: Viewport,
    pub pixels_per_point: f32,
    pub shapes: Vec<egui::epaint::ClippedShape>,
}

impl Picture {
    /// Where `next` differs from this picture, when only some of its egui shapes differ and not
    /// over the field (`ui::region::changed`), in points.
    pub fn changed_region(&self, next: &Picture) -> Option<egui::Rect> {
        if (self.size, self.viewport, self.pixels_per_point) != (next.size, next.viewport, next.pixels_per_point) {
            return None;
        }
        let v = self.viewport;
        let field = egui::Rect::from_min_size(egui::pos2(v.x, v.y), egui::vec2(v.w, v.h));
        ui::region::changed(&self.shapes, &next.shapes, self.pixels_per_point, self.size, field)
    }
}

impl KeptFrame {
    pub fn new(device: &wgpu::Device, format: wgpu::TextureFormat, size: wgpu::Extent3d, field: &CachedField) -> KeptFrame {
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("kept picture"),
            size,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC | wgpu::TextureUsages::TEXTURE_BINDING,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        let blit = field.bind(device, &view);
        KeptFrame { texture, view, blit, drawn: None }
    }
}
