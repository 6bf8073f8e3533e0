//! Sources stage (shaders/sources.wgsl): brush dabs and emitters as splats.

use super::kernel::Kernel;
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

pub struct Sources {
    kernel: Kernel,
    group: wgpu::BindGroup,
    paint_solid: Kernel,
    paint_group: wgpu::BindGroup,
    edges: [u32; 2],
    cells: [u32; 2],
}

impl Sources {
    pub fn new(ctx: &Ctx) -> Result<Sources> {
        let kernel = Kernel::new(ctx.device, "sources", "main")?;
        let group = kernel.bind(ctx.device, &ctx.buffers.table());
        let paint_solid = Kernel::new(ctx.device, "sources", "paint_solid")?;
        let paint_group = paint_solid.bind(ctx.device, &ctx.buffers.table());
        Ok(Sources { kernel, group, paint_solid, paint_group, edges: ctx.edges(), cells: ctx.cells() })
    }

    /// `edits_solids`: some splat of this step paints or erases obstacles.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>, edits_solids: bool) {
        timed_pass(encoder, profiler, "sources", |pass| {
            if edits_solids {
                self.paint_solid.dispatch(pass, &self.paint_group, self.cells);
            }
            self.kernel.dispatch(pass, &self.group, self.edges)
        });
    }
}
