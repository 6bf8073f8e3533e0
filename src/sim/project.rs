//! The edge-velocity correction `u -= Δt/(ρh)·(p_right − p_left)` from the pressure `p + dp` (the
//! solve's correction still apart, src/sim/solver.rs `encode_merge`), normal velocity 0 on solid
//! faces (shaders/project.wgsl; CPU twin src/sim/cpu/project.rs, on p alone; seed 002, step 7).

use super::kernel::Bound;
use super::stage::Ctx;
use crate::error::Result;

pub struct Project {
    kernel: Bound,
    edges: [u32; 2],
}

impl Project {
    pub fn new(ctx: &Ctx) -> Result<Project> {
        Ok(Project { kernel: ctx.bound("project", "main")?, edges: ctx.edges() })
    }

    /// The correction of every u and v face.
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.kernel.dispatch(pass, self.edges);
    }
}
