//! The window's pictures put on an X11 screen through shared memory (MIT-SHM, by softbuffer)
//! where the GPU is a software adapter (lavapipe), instead of through the Vulkan surface.
//!
//! Why: Mesa's X11 presentation for a software driver shares memory with the server only when
//! the server also has DRI3. Xvfb (CI, and the window's figures in BENCHMARKS.md) has MIT-SHM but no
//! DRI3, so there each frame went through the socket (`xcb_put_image`): a 1280×800 frame is 4 MB,
//! copied into the socket and out of it again, and the present waited while the server read it
//! all (about 13 ms of a 45 ms frame; the server spent 5 ms of CPU a frame). Here the picture is
//! copied into a staging buffer and from there into a segment the server reads on its own core.
//! Like Mesa's software present, this waits for the frame's drawing to finish before it reads
//! the picture (5 to 8 ms of the default plume's frame on lavapipe, the rasteriser's work).
//!
//! `SMOKEBOX_PRESENT=surface` keeps the Vulkan surface (to compare the two).

use std::num::NonZeroU32;
use std::sync::Arc;
use winit::window::Window;

/// The pictures' format: softbuffer's pixels are 0RGB words, bytes B, G, R, 0 in memory.
pub const FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Bgra8Unorm;

/// The picture's texture (what the frame draws into in place of the surface's) and its way to
/// the screen.
pub struct SoftPresent {
    surface: softbuffer::Surface<Arc<Window>, Arc<Window>>,
    size: [u32; 2],
    /// Bytes a row of the staging buffer (padded to wgpu's copy alignment).
    row: u32,
    texture: Option<wgpu::Texture>,
    staging: Option<wgpu::Buffer>,
    /// The picture was copied into the staging buffer in this frame.
    copied: bool,
}

impl SoftPresent {
    /// Presentation through shared memory for `window`, where the platform is X11 and this
    /// build can reach its server (None elsewhere: Wayland, or `SMOKEBOX_PRESENT=surface`).
    pub fn new(window: &Arc<Window>) -> Option<SoftPresent> {
        if crate::platform::var("SMOKEBOX_PRESENT").is_some_and(|v| v == "surface") {
            return None;
        }
        let context = softbuffer::Context::new(window.clone()).ok()?;
        let surface = softbuffer::Surface::new(&context, window.clone()).ok()?;
        Some(SoftPresent { surface, size: [0, 0], row: 0, texture: None, staging: None, copied: false })
    }

    /// The texture to draw a `size` picture into (made anew when the window's size changed).
    pub fn target(&mut self, device: &wgpu::Device, size: [u32; 2]) -> Result<wgpu::Texture, String> {
        if self.size != size || self.texture.is_none() {
            let (w, h) = (NonZeroU32::new(size[0]), NonZeroU32::new(size[1]));
            let (Some(w), Some(h)) = (w, h) else { return Err("the window has no area".into()) };
            self.surface.resize(w, h).map_err(|e| format!("cannot size the window's shared image: {e}"))?;
            self.row = crate::render::offscreen::padded_row(size[0]);
            self.texture = Some(device.create_texture(&wgpu::TextureDescriptor {
                label: Some("window picture"),
                size: wgpu::Extent3d { width: size[0], height: size[1], depth_or_array_layers: 1 },
                mip_level_count: 1,
                sample_count: 1,
                dimension: wgpu::TextureDimension::D2,
                format: FORMAT,
                usage: wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_DST | wgpu::TextureUsages::COPY_SRC,
                view_formats: &[],
            }));
            self.staging = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("window picture staging"),
                size: u64::from(self.row) * u64::from(size[1]),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
            self.size = size;
        }
        Ok(self.texture.clone().expect("made above"))
    }

    /// Records the copy of this frame's picture into the staging buffer.
    pub fn encode_copy(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let (Some(texture), Some(staging)) = (&self.texture, &self.staging) else { return };
        crate::render::offscreen::encode_copy(encoder, texture, staging, self.row);
        self.copied = true;
    }

    /// Puts the picture copied in this frame on the screen (after its commands were submitted).
    pub fn present(&mut self, device: &wgpu::Device) -> Result<(), String> {
        if !std::mem::take(&mut self.copied) {
            return Ok(());
        }
        let Some(staging) = self.staging.take() else { return Ok(()) };
        let shown = self.read_and_show(device, &staging);
        self.staging = Some(staging);
        shown
    }

    fn read_and_show(&mut self, device: &wgpu::Device, staging: &wgpu::Buffer) -> Result<(), String> {
        let (sender, receiver) = std::sync::mpsc::channel();
        staging.slice(..).map_async(wgpu::MapMode::Read, move |r| {
            let _ = sender.send(r);
        });
        device.poll(wgpu::PollType::wait_indefinitely()).map_err(|e| format!("the GPU did not finish the frame: {e}"))?;
        receiver
            .recv()
            .map_err(|_| "the window's picture was not read back".to_string())?
            .map_err(|e| format!("cannot read the window's picture: {e}"))?;
        let shown = self.show(staging);
        staging.unmap();
        shown
    }

    /// Copies the mapped `staging` buffer into the shared image and presents it.
    fn show(&mut self, staging: &wgpu::Buffer) -> Result<(), String> {
        let [w, h] = self.size.map(|v| v as usize);
        let row = self.row as usize;
        let data = staging.slice(..).get_mapped_range().map_err(|e| format!("cannot read the window's picture: {e}"))?;
        let mut buffer = self.surface.buffer_mut().map_err(|e| format!("cannot reach the window's shared image: {e}"))?;
        for (y, out) in buffer.chunks_exact_mut(w).take(h).enumerate() {
            let src: &[u32] = bytemuck::cast_slice(&data[y * row..y * row + 4 * w]);
            // the top byte (alpha) is padding to the server
            for (o, s) in out.iter_mut().zip(src) {
                *o = s & 0x00ff_ffff;
            }
        }
        drop(data);
        buffer.present().map_err(|e| format!("cannot show the window's picture: {e}"))
    }
}
