//! Forces: the splats' velocity, buoyancy and momentum damping on the edge velocities, in one
//! dispatch (shaders/forces.wgsl; CPU twin src/sim/cpu/forces.rs). The sources pass before it has
//! sourced the density buoyancy reads. Vorticity confinement, recorded in the same pass, is in
//! vorticity.rs.

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

    /// The splats' velocity, buoyancy and damping.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, self.edges);
    }
}
