//! Red-black SOR (shaders/multigrid/smooth.wgsl with SOR): two sweeps per dispatch through workgroup memory on
//! multigrid level 0, from p to p_out and back (a tile's halo belongs to its neighbours); the dispatch itself lives with the hierarchy it binds
//! (src/sim/multigrid/mod.rs `encode_sor`). CPU twin: src/sim/cpu/pressure_sor.rs.

use super::multigrid::Multigrid;
use super::solver_check::Launch;

/// Sweeps of one dispatch; a sweep count is rounded up to whole dispatches.
pub const SWEEPS_PER_DISPATCH: u32 = 2;

/// At least `sweeps` SOR sweeps (level 0 set up and loaded), ping-ponging p and p_out like Jacobi.
pub fn encode_sor(mg: &Multigrid, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, sweeps: u32, in_out: &mut bool) {
    for _ in 0..sweeps.div_ceil(SWEEPS_PER_DISPATCH) {
        mg.encode_sor(pass, launch, in_out);
    }
}
