//! Forces stage: buoyancy and momentum damping on the edge velocities (shaders/forces.wgsl), then
//! vorticity confinement (shaders/vorticity.wgsl: curl at cells, force onto faces) when ε ≠ 0.

use super::kernel::Kernel;
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

pub struct Forces {
    kernel: Kernel,
    group: wgpu::BindGroup,
    curl: Kernel,
    curl_group: wgpu::BindGroup,
    confine: Kernel,
    confine_group: wgpu::BindGroup,
    cells: [u32; 2],
    edges: [u32; 2],
}

impl Forces {
    pub fn new(ctx: &Ctx) -> Result<Forces> {
        let t = ctx.buffers.table();
        let kernel = Kernel::new(ctx.device, "forces", "main")?;
        let curl = Kernel::new(ctx.device, "vorticity", "curl")?;
        let confine = Kernel::new(ctx.device, "vorticity", "confine")?;
        Ok(Forces {
            group: kernel.bind(ctx.device, &t),
            curl_group: curl.bind(ctx.device, &t),
            confine_group: confine.bind(ctx.device, &t),
            kernel,
            curl,
            confine,
            cells: ctx.cells(),
            edges: ctx.edges(),
        })
    }

    /// Buoyancy and damping, then confinement when `vorticity` (ε ≠ 0; ε = 0 skips the dispatches).
    pub fn encode(&self, encoder: &mut wgpu::CommandEncoder, profiler: Option<&wgpu_profiler::GpuProfiler>, vorticity: bool) {
        timed_pass(encoder, profiler, "forces", |pass| {
            self.kernel.dispatch(pass, &self.group, self.edges);
            if vorticity {
                self.encode_vorticity(pass);
            }
        });
    }

    /// Vorticity confinement alone.
    pub fn encode_vorticity(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.curl.dispatch(pass, &self.curl_group, self.cells);
        self.confine.dispatch(pass, &self.confine_group, self.edges);
    }
}
