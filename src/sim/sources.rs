//! Sources stage (shaders/sources.wgsl): brush dabs and emitters as splats.

use super::kernel::Kernel;
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

pub struct Sources {
    kernel: Kernel,
    group: wgpu::BindGroup,
    edges: [u32; 2],
}

impl Sources {
    pub fn new(ctx: &Ctx) -> Result<Sources> {
        let kernel = Kernel::new(ctx.device, "sources", "main")?;
        let group = kernel.bind(ctx.device, &ctx.buffers.table());
        Ok(Sources { kernel, group, edges: ctx.edges() })
    }

    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>) {
        timed_pass(encoder, profiler, "sources", |pass| self.kernel.dispatch(pass, &self.group, self.edges));
    }
}
