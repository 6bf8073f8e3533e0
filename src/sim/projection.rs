//! Projection stage: divergence (shaders/divergence.wgsl), the pressure solve
//! (shaders/pressure.wgsl: weighted Jacobi, ping-pong p <-> p_out, warm-started), and the
//! edge-velocity correction (shaders/project.wgsl).

use super::SolverSettings;
use super::buffers::Buffers;
use super::kernel::{Kernel, slot};
use super::stage::{Ctx, copy_all, timed_pass};
use crate::error::Result;

pub struct Projection {
    divergence: Kernel,
    stencil_pack: Kernel,
    jacobi: Kernel,
    project: Kernel,
    divergence_group: wgpu::BindGroup,
    stencil_group: wgpu::BindGroup,
    /// p -> p_out, then p_out -> p.
    jacobi_groups: [wgpu::BindGroup; 2],
    project_group: wgpu::BindGroup,
    cells: [u32; 2],
    edges: [u32; 2],
}

impl Projection {
    pub fn new(ctx: &Ctx) -> Result<Projection> {
        let d = ctx.device;
        let b = ctx.buffers;
        let divergence = Kernel::new(d, "divergence", "main")?;
        let stencil_pack = Kernel::new(d, "pressure", "stencil_pack")?;
        let jacobi = Kernel::new(d, "pressure", "main")?;
        let project = Kernel::new(d, "project", "main")?;
        let t = b.table();
        let mut swapped = t;
        swapped[slot::P as usize] = Some(&b.p_out);
        swapped[slot::P_OUT as usize] = Some(&b.p);
        Ok(Projection {
            divergence_group: divergence.bind(d, &t),
            stencil_group: stencil_pack.bind(d, &t),
            jacobi_groups: [jacobi.bind(d, &t), jacobi.bind(d, &swapped)],
            project_group: project.bind(d, &t),
            divergence,
            stencil_pack,
            jacobi,
            project,
            cells: ctx.cells(),
            edges: ctx.edges(),
        })
    }

    /// Divergence of the current velocity into the divergence buffer.
    pub fn encode_divergence(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.divergence.dispatch(pass, &self.divergence_group, self.cells);
    }

    /// The pressure solve; leaves the pressure in `p`.
    pub fn encode_solve(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
        b: &Buffers,
        solver: &SolverSettings,
    ) {
        if !solver.warm_start {
            encoder.clear_buffer(&b.p, 0, None);
        }
        timed_pass(encoder, profiler, "pressure", |pass| {
            self.stencil_pack.dispatch(pass, &self.stencil_group, self.cells);
            for it in 0..solver.iterations {
                self.jacobi.dispatch(pass, &self.jacobi_groups[(it % 2) as usize], self.cells);
            }
        });
        if solver.iterations % 2 == 1 {
            copy_all(encoder, &b.p_out, &b.p);
        }
    }

    /// The edge-velocity correction from the pressure in `p`.
    pub fn encode_correction(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.project.dispatch(pass, &self.project_group, self.edges);
    }
}
