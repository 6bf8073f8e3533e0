//! CPU reference of shaders/warm_start.wgsl: the last pressure scaled by
//! β = clamp(p·b / p·Ap, 0, 1), the best multiple of it as a start for A p = b in the energy norm.

use super::grid::{Grid, Neighbour};
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// β for the pressure in `f` and the system of its divergence: p·Ap as a sum over the stencil's
/// edges of (p_a - p_b)² plus p_c² per outflow ghost, b = -rho h^2 div / dt.
pub fn warm_factor(f: &Fields, p: &Params) -> f32 {
    let g = Grid::new(f, p);
    let (mut pb, mut pap) = (0.0f64, 0.0f64);
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let pc = f.p[c] as f64;
            let (mut count, mut energy) = (0, 0.0f64);
            for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                match g.neighbour(i, j, di, dj) {
                    Neighbour::Fluid(a, b) => {
                        count += 1;
                        // each edge once, from its left or bottom cell
                        if di + dj > 0 {
                            energy += (f.p[g.cell(a, b)] as f64 - pc).powi(2);
                        }
                    }
                    Neighbour::Dirichlet => {
                        count += 1;
                        energy += pc * pc;
                    }
                    Neighbour::None => {}
                }
            }
            if count == 0 {
                continue;
            }
            pb += pc * -(p.rho * p.h * p.h * f.divergence[c] / p.dt) as f64;
            pap += energy;
        }
    }
    let r = pb / pap;
    if pap > 0.0 && r > 0.0 { r.min(1.0) as f32 } else { 0.0 }
}

/// `measure_p` / `measure_mg` then `scale`: p *= β.
pub fn warm_start(f: &mut Fields, p: &Params) {
    let beta = warm_factor(f, p);
    f.p.iter_mut().for_each(|x| *x *= beta);
}
