//! Forces: buoyancy and momentum damping on the edge velocities (shaders/forces.wgsl; CPU twin
//! src/sim/cpu/forces.rs). Vorticity confinement, recorded in the same pass, is in vorticity.rs.

use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct Forces {
    kernel: Bound,
    edges: [u32; 2],
}

impl Forces {
    pub fn new(ctx: &Ctx) -> Result<Forces> {
        Ok(Forces { kernel: ctx.bound("forces", "main")?, edges: ctx.edges() })
    }

    /// Buoyancy and damping.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, self.edges);
    }
}
