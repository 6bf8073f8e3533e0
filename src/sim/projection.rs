//! Projection stage: divergence (shaders/divergence.wgsl), the pressure solve
//! (shaders/pressure.wgsl: weighted Jacobi, ping-pong p <-> p_out, warm-started), and the
//! edge-velocity correction (shaders/project.wgsl). SOR, multigrid and tolerance-driven stopping:
//! src/sim/solver.rs.

use super::buffers::Buffers;
use super::kernel::{Kernel, slot};
use super::solver::{Solvers, check_every};
use super::stage::{Ctx, copy_all, timed_pass};
use crate::config::{SolverConfig, SolverKind};
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
    pub solvers: Solvers,
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
            solvers: Solvers::new(ctx)?,
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
        solver: &SolverConfig,
    ) {
        if !solver.warm_start {
            encoder.clear_buffer(&b.p, 0, None);
        }
        let n = solver.iterations.max(0) as u32;
        let gated = solver.tolerance > 0.0 && n > 0;
        // with a tolerance, round up to whole check intervals (even, so Jacobi ends in `p`)
        let every = check_every(solver.kind);
        let iterations = if gated { n.div_ceil(every) * every } else { n };
        let s = &self.solvers;
        if solver.kind == SolverKind::Multigrid {
            s.encode_copy_in(encoder, &b.p);
        }
        timed_pass(encoder, profiler, "pressure setup", |pass| {
            self.stencil_pack.dispatch(pass, &self.stencil_group, self.cells);
            if solver.kind == SolverKind::Multigrid {
                s.encode_mg_setup(pass);
            }
            if gated {
                s.encode_gate_start(pass);
            }
        });
        timed_pass(encoder, profiler, "pressure", |pass| match solver.kind {
            SolverKind::Jacobi => {
                for it in 0..iterations {
                    s.dispatch_fine(pass, &self.jacobi, &self.jacobi_groups[(it % 2) as usize], self.cells, gated);
                    if gated && (it + 1) % every == 0 {
                        s.encode_check_p(pass);
                    }
                }
            }
            SolverKind::Sor => s.encode_sor(pass, iterations, gated),
            SolverKind::Multigrid => s.encode_vcycles(pass, iterations, gated),
        });
        match solver.kind {
            SolverKind::Jacobi if iterations % 2 == 1 => copy_all(encoder, &b.p_out, &b.p),
            SolverKind::Multigrid => s.encode_copy_out(encoder, &b.p),
            _ => {}
        }
    }

    /// The edge-velocity correction from the pressure in `p`.
    pub fn encode_correction(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.project.dispatch(pass, &self.project_group, self.edges);
    }
}
