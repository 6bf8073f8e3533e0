//! Projection stage: divergence (shaders/divergence.wgsl), the pressure solve (src/sim/solver.rs:
//! Jacobi, SOR or multigrid, to a tolerance or a fixed count), and the edge-velocity correction
//! (shaders/project.wgsl).

use super::kernel::Kernel;
use super::solver::Solvers;
use super::stage::Ctx;
use crate::error::Result;

pub struct Projection {
    divergence: Kernel,
    project: Kernel,
    divergence_group: wgpu::BindGroup,
    project_group: wgpu::BindGroup,
    cells: [u32; 2],
    edges: [u32; 2],
    pub solvers: Solvers,
}

impl Projection {
    pub fn new(ctx: &Ctx) -> Result<Projection> {
        let d = ctx.device;
        let t = ctx.buffers.table();
        let divergence = Kernel::new(d, "divergence", "main")?;
        let project = Kernel::new(d, "project", "main")?;
        Ok(Projection {
            divergence_group: divergence.bind(d, &t),
            project_group: project.bind(d, &t),
            divergence,
            project,
            cells: ctx.cells(),
            edges: ctx.edges(),
            solvers: Solvers::new(ctx)?,
        })
    }

    /// Divergence of the current velocity into the divergence buffer.
    pub fn encode_divergence(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.divergence.dispatch(pass, &self.divergence_group, self.cells);
    }

    /// The edge-velocity correction from the pressure in `p`.
    pub fn encode_correction(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.project.dispatch(pass, &self.project_group, self.edges);
    }
}
