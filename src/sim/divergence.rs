//! Divergence of the edge velocities into the cell-centred divergence buffer
//! (shaders/divergence.wgsl; CPU twin src/sim/cpu/divergence.rs): the right-hand side of the
//! pressure solve (src/sim/solver.rs) and the figure the stats report before and after it.

use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct Divergence {
    kernel: Bound,
    cells: [u32; 2],
}

impl Divergence {
    pub fn new(ctx: &Ctx) -> Result<Divergence> {
        Ok(Divergence { kernel: ctx.bound("divergence", "main")?, cells: ctx.cells() })
    }

    /// Divergence of the current velocity into the divergence buffer.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, self.cells);
    }
}
