//! An image drawn off screen and copied into a staging buffer to be read on the CPU: headless
//! renders (`render_rgba`) wait for it, the app's captures map it without waiting.

use super::{CLEAR, HEADLESS_FORMAT, Renderer, Viewport, begin_clear_pass};

pub struct Offscreen {
    pub size: [u32; 2],
    /// MAP_READ buffer holding the image, rows padded to `row` bytes.
    pub staging: wgpu::Buffer,
    row: u32,
}

/// Bytes a row of a `width`-pixel, 4-byte-a-pixel image takes in a staging buffer: padded to
/// wgpu's copy alignment.
pub fn padded_row(width: u32) -> u32 {
    (width * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT)
}

/// Records the copy of the whole of `texture` (4 bytes a pixel) into `staging`, rows `row` bytes
/// apart (`padded_row`).
pub fn encode_copy(encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture, staging: &wgpu::Buffer, row: u32) {
    encoder.copy_texture_to_buffer(
        texture.as_image_copy(),
        wgpu::TexelCopyBufferInfo {
            buffer: staging,
            layout: wgpu::TexelCopyBufferLayout { offset: 0, bytes_per_row: Some(row), rows_per_image: None },
        },
        texture.size(),
    );
}

impl Offscreen {
    /// Records drawing `renderer` (already prepared) into a fresh `size` image at `viewport`,
    /// and the copy of the image into a staging buffer.
    pub fn draw(
        device: &wgpu::Device,
        encoder: &mut wgpu::CommandEncoder,
        renderer: &Renderer,
        viewport: Viewport,
        size: [u32; 2],
    ) -> Offscreen {
        let extent = wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 };
        let texture = device.create_texture(&wgpu::TextureDescriptor {
            label: Some("offscreen frame"),
            size: extent,
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: HEADLESS_FORMAT,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC,
            view_formats: &[],
        });
        let view = texture.create_view(&Default::default());
        {
            let mut pass = begin_clear_pass(encoder, &view, CLEAR);
            renderer.draw(&mut pass, viewport);
        }
        Offscreen::copy(device, encoder, &texture, size)
    }

    /// Records the copy of `texture` (`HEADLESS_FORMAT`, `size`) into a fresh staging buffer.
    pub fn copy(device: &wgpu::Device, encoder: &mut wgpu::CommandEncoder, texture: &wgpu::Texture, size: [u32; 2]) -> Offscreen {
        let row = padded_row(size[0]);
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("offscreen staging"),
            size: (row * size[1]) as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        encode_copy(encoder, texture, &staging, row);
        Offscreen { size, staging, row }
    }

    /// The image's RGBA rows, top first; the staging buffer must be mapped.
    pub fn rows(&self) -> Vec<u8> {
        let data = self.staging.slice(..).get_mapped_range().expect("mapped");
        let width = self.size[0] as usize * 4;
        let mut out = Vec::with_capacity(width * self.size[1] as usize);
        for y in 0..self.size[1] as usize {
            let start = y * self.row as usize;
            out.extend_from_slice(&data[start..start + width]);
        }
        out
    }
}
