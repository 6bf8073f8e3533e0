//! Conjugate gradients preconditioned by one multigrid V-cycle (shaders/mgpcg.wgsl; CPU twin
//! src/sim/cpu/mgpcg.rs): a unit of the solve is one iteration, the V-cycle and four reduction
//! dispatches, its residual check the gate alone (`Measure::Ready`): `update` leaves the partial
//! maxima the gate folds. The dot products stay on the GPU: each reduction leaves partial sums
//! that the next dispatch's workgroups fold themselves.

use super::kernel::{Kernel, Table, Target};
use super::multigrid::Multigrid;
use super::solver_check::{Launch, ctl};
use crate::error::Result;

pub struct Mgpcg {
    /// `start`, `measure`, `direction`, `apply`, `update`, each with its bind group (level 0's
    /// table with the vectors and sums).
    kernels: [(Kernel, wgpu::BindGroup); 5],
    /// x, d, q and b, a level 0's worth each.
    vectors: wgpu::Buffer,
    /// Workgroups of each dispatch (`Target::reduction_groups`).
    groups: u32,
    cells: u64,
}

impl Mgpcg {
    /// `level0` is multigrid level 0's binding table (x = dp, the control words in place).
    pub fn new(target: Target, level0: &Table, cells: usize) -> Result<Mgpcg> {
        let device = target.device;
        let groups = target.reduction_groups();
        let buffer = |label, words: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: words * 4,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let vectors = buffer("mgpcg vectors", 4 * cells as u64);
        let sums = buffer("mgpcg sums", 5 * groups as u64 + 1);
        let constants = [("WG", target.profile().solver_workgroup as f64), ("GROUPS", groups as f64)];
        let table = level0.clone().with("pcg", &vectors).with("pcg_sums", &sums);
        let k = |entry: &str| {
            let kernel = Kernel::with_options(target, "mgpcg", entry, &constants, false)?;
            let group = kernel.bind(device, &table);
            Ok::<_, crate::error::Error>((kernel, group))
        };
        Ok(Mgpcg {
            kernels: [k("start")?, k("measure")?, k("direction")?, k("apply")?, k("update")?],
            vectors,
            groups,
            cells: cells as u64,
        })
    }

    fn go(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, (kernel, group): &(Kernel, wgpu::BindGroup)) {
        launch.go(pass, kernel, group, [self.groups, 1, 1], ctl::REDUCE_SLOT);
    }

    /// b = level 0's rhs (the correction's, after the load) and x = 0.
    pub fn encode_start(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        self.go(pass, launch, &self.kernels[0]);
    }

    /// One iteration: the V-cycle (z in level 0's x, `dp`), then `measure`, `direction`, `apply`, `update`.
    pub fn encode_iteration(&self, pass: &mut wgpu::ComputePass<'_>, mg: &Multigrid, launch: Launch<'_>) {
        mg.encode_vcycle(pass, launch);
        for kernel in &self.kernels[1..] {
            self.go(pass, launch, kernel);
        }
    }

    /// The iterate into `dp`, after the last iteration.
    pub fn encode_finish(&self, encoder: &mut wgpu::CommandEncoder, dp: &wgpu::Buffer) {
        encoder.copy_buffer_to_buffer(&self.vectors, 0, dp, 0, self.cells * 4);
    }

    /// x, d, q and b, a level 0's worth each (tests read them).
    pub fn vectors(&self) -> &wgpu::Buffer {
        &self.vectors
    }

    /// Dispatches of one iteration besides its V-cycle.
    pub const DISPATCHES: u32 = 4;

    /// Estimated bytes of one iteration besides its V-cycle: `measure` reads z, q, stencil;
    /// `direction` z, d, stencil and writes d, z; `apply` d and x over a 5-point stencil, b and
    /// the stencil, and writes q and r; `update` x, d, q, r, stencil and writes x and r.
    pub fn iteration_bytes(&self) -> u64 {
        4 * self.cells * (3 + 5 + 6 + 7)
    }
}
