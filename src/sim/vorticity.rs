//! Vorticity confinement (shaders/vorticity.wgsl; CPU twin src/sim/cpu/vorticity.rs): the curl at
//! cells, the confinement force at the cells, then its mean onto the faces, which spins vortices
//! up. Skipped when ε = 0.

use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct Vorticity {
    curl: Bound,
    force: Bound,
    confine: Bound,
    cells: [u32; 2],
    edges: [u32; 2],
}

impl Vorticity {
    pub fn new(ctx: &Ctx) -> Result<Vorticity> {
        Ok(Vorticity {
            curl: ctx.bound("vorticity", "curl")?,
            force: ctx.bound("vorticity", "force")?,
            confine: ctx.bound("vorticity", "confine")?,
            cells: ctx.cells(),
            edges: ctx.edges(),
        })
    }

    /// Curl, the force at the cells, then its mean onto the faces.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.curl.dispatch(pass, self.cells);
        self.force.dispatch(pass, self.cells);
        self.confine.dispatch(pass, self.edges);
    }
}
