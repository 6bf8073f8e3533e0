//! Forces stage (shaders/forces.wgsl): buoyancy and momentum damping on the edge velocities.

use super::kernel::Kernel;
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

pub struct Forces {
    kernel: Kernel,
    group: wgpu::BindGroup,
    edges: [u32; 2],
}

impl Forces {
    pub fn new(ctx: &Ctx) -> Result<Forces> {
        let kernel = Kernel::new(ctx.device, "forces", "main")?;
        let group = kernel.bind(ctx.device, &ctx.buffers.table());
        Ok(Forces { kernel, group, edges: ctx.edges() })
    }

    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>) {
        timed_pass(encoder, profiler, "forces", |pass| self.kernel.dispatch(pass, &self.group, self.edges));
    }
}
