//! Weighted Jacobi (shaders/pressure.wgsl, seed 002 steps 5-6): ping-pong p -> p_out -> p, four
//! sweeps per dispatch through workgroup memory (`main`), single sweeps (`sweep`) for the rest, and
//! the packed reduced stencil (`stencil_pack`). CPU twin: src/sim/cpu/pressure.rs.

use super::kernel::Kernel;
use super::multigrid::tile_groups;
use super::solver_check::{Launch, ctl};
use super::stage::Ctx;
use crate::error::Result;

/// Sweeps of one `main` dispatch.
pub const SWEEPS_PER_DISPATCH: u32 = 4;

pub struct Jacobi {
    stencil_pack: Kernel,
    four: Kernel,
    one: Kernel,
    stencil_group: wgpu::BindGroup,
    /// p -> p_out, then p_out -> p, for `four` and `one`.
    four_groups: [wgpu::BindGroup; 2],
    one_groups: [wgpu::BindGroup; 2],
    /// A sweep four cells a thread (shaders/pressure_sweep.wgsl over shared/lanes4.wgsl), where
    /// rows are whole quads.
    quad: Option<(Kernel, [wgpu::BindGroup; 2])>,
    cells: [u32; 2],
    /// The cell kernels' block (`DeviceProfile::cell_block`): the gated counts of `one` and `quad`.
    block: [u32; 2],
    /// Four sweeps a dispatch (else one: `DeviceProfile::solver_tiles`).
    pub tiled: bool,
}

impl Jacobi {
    pub fn new(ctx: &Ctx) -> Result<Jacobi> {
        let d = ctx.device;
        let b = ctx.buffers;
        let profile = ctx.target().profile();
        let t = b.table();
        let swapped = t.swapped("p", "p_out");
        let stencil_pack = Kernel::new(ctx.target(), "pressure", "stencil_pack")?;
        let four = Kernel::with_options(ctx.target(), "pressure", "main", &[("WG", profile.solver_workgroup as f64)], false)?;
        let one = Kernel::new(ctx.target(), "pressure_sweep", "sweep")?;
        let quad = if ctx.nx.is_multiple_of(4) {
            let k = Kernel::new(ctx.target(), "pressure_sweep_quad", "sweep")?;
            let groups = [k.bind(d, &t), k.bind(d, &swapped)];
            Some((k, groups))
        } else {
            None
        };
        Ok(Jacobi {
            quad,
            stencil_group: stencil_pack.bind(d, &t),
            four_groups: [four.bind(d, &t), four.bind(d, &swapped)],
            one_groups: [one.bind(d, &t), one.bind(d, &swapped)],
            stencil_pack,
            four,
            one,
            cells: ctx.cells(),
            block: profile.cell_block,
            tiled: profile.solver_tiles,
        })
    }

    /// The packed stencil (only when solids or boundaries changed).
    pub fn encode_stencil_pack(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.stencil_pack.dispatch(pass, &self.stencil_group, self.cells);
    }

    /// `sweeps` sweeps starting from p (in p when `*in_out` is false, else in p_out); flips
    /// `in_out` once per dispatch.
    pub fn encode_sweeps(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, sweeps: u32, in_out: &mut bool) {
        let [nx, ny] = self.cells;
        let fused = if self.tiled { sweeps / SWEEPS_PER_DISPATCH } else { 0 };
        for _ in 0..fused {
            launch.go(pass, &self.four, &self.four_groups[*in_out as usize], tile_groups(nx, ny), ctl::tile_slot(0));
            *in_out = !*in_out;
        }
        // the quad kernel's workgroup covers the same cell block, so the gated counts serve both
        let (one, groups) = match &self.quad {
            Some((k, g)) => (k, g),
            None => (&self.one, &self.one_groups),
        };
        for _ in 0..sweeps - fused * SWEEPS_PER_DISPATCH {
            launch.go(
                pass,
                one,
                &groups[*in_out as usize],
                [nx.div_ceil(self.block[0]), ny.div_ceil(self.block[1]), 1],
                ctl::cells_slot(0),
            );
            *in_out = !*in_out;
        }
    }
}
