//! CPU reference of shaders/multigrid/smooth.wgsl with SOR: one dispatch is two SOR sweeps (red, black and an odd periodic seam's own two colours) of the
//! pressure's correction on multigrid level 0 (same stencil, rhs b - A p with b = -rho h^2 div / dt,
//! over-relaxed by sor_omega), then p += dp.

use super::multigrid::Mg;
use crate::sim::fields::Fields;
use crate::sim::params::Params;
use crate::sim::pressure_sor::SWEEPS_PER_DISPATCH;

pub fn pressure_sor(f: &mut Fields, p: &Params) {
    let mut mg = Mg::new(f.nx, f.ny);
    mg.levels.truncate(1);
    mg.setup(f, p);
    for _ in 0..SWEEPS_PER_DISPATCH {
        mg.sweep(0, p.sor_omega);
    }
    // the sweeps solved for the correction (`Mg::load`); p += dp as the GPU's `correct`
    for (p, dp) in f.p.iter_mut().zip(&mg.x) {
        *p += dp;
    }
}
