//! Divergence "after projection" for the teaching overlay: the divergence kernel
//! (shaders/divergence.wgsl, CPU twin `cpu::divergence`) run once more right after the
//! correction, with its output slot pointed at a spare buffer, so the step's own divergence
//! (what the solver saw) is kept. Only built when the overlay asks for it.

use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct DivergenceAfter {
    kernel: Bound,
    /// nx·ny floats: divergence of the velocity right after the correction, 1/s.
    pub buffer: wgpu::Buffer,
    cells: [u32; 2],
}

impl DivergenceAfter {
    pub fn new(ctx: &Ctx) -> Result<DivergenceAfter> {
        let buffer = ctx.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("divergence after projection"),
            size: (ctx.nx * ctx.ny * 4) as u64,
            usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let table = ctx.buffers.table().with("divergence", &buffer);
        let kernel = Bound::new(ctx.target(), "divergence", "main", &table)?;
        Ok(DivergenceAfter { kernel, buffer, cells: ctx.cells() })
    }

    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, self.cells);
    }
}
