//! Forces: buoyancy and momentum damping on the edge velocities (shaders/forces.wgsl; CPU twin
//! src/sim/cpu/forces.rs). Vorticity confinement, recorded in the same pass, is in vorticity.rs.

use super::kernel::Kernel;
use super::stage::Ctx;
use crate::error::Result;

pub struct Forces {
    kernel: Kernel,
    group: wgpu::BindGroup,
    edges: [u32; 2],
}

impl Forces {
    pub fn new(ctx: &Ctx) -> Result<Forces> {
        let kernel = Kernel::new(ctx.device, "forces", "main")?;
        Ok(Forces { group: kernel.bind(ctx.device, &ctx.buffers.table()), kernel, edges: ctx.edges() })
    }

    /// Buoyancy and damping.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, &self.group, self.edges);
    }
}
