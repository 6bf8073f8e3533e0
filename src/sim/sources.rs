//! Sources stage (shaders/sources.wgsl): brush dabs and emitters as splats.

use super::kernel::Bound;
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

pub struct Sources {
    kernel: Bound,
    paint_solid: Bound,
    edges: [u32; 2],
    cells: [u32; 2],
}

impl Sources {
    pub fn new(ctx: &Ctx) -> Result<Sources> {
        Ok(Sources {
            kernel: ctx.bound("sources", "main")?,
            paint_solid: ctx.bound("sources", "paint_solid")?,
            edges: ctx.edges(),
            cells: ctx.cells(),
        })
    }

    /// `edits_solids`: some splat of this step paints or erases obstacles.
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>, edits_solids: bool) {
        timed_pass(encoder, profiler, "sources", |pass| {
            if edits_solids {
                self.paint_solid.dispatch(pass, self.cells);
            }
            self.kernel.dispatch(pass, self.edges)
        });
    }
}
