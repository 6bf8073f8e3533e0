//! CPU reference of shaders/advect/ink.wgsl: semi-Lagrangian ink and density at cell centres.

use crate::sim::cpu::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::*;

pub fn advect_ink(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    let h = p.h;
    let keep_ink = (-p.ink_dissipation * p.dt).exp();
    let keep_density = (-p.density_drain * p.dt).exp();
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            let c = g.cell(i, j);
            if g.is_solid(i, j) {
                f.ink[3 * c..3 * c + 3].fill(0.0);
                f.density[c] = 0.0;
                continue;
            }
            let (bx, by) = g.trace_back_raw((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
            let side = g.side_crossed(bx, by);
            let (rgb, rho) = match side {
                Some(s) if p.bc_kind[s] == BC_INFLOW => ([p.inflow_ink_r[s], p.inflow_ink_g[s], p.inflow_ink_b[s]], p.inflow_density[s]),
                _ => {
                    let (x, y) = g.clamp_to_domain(bx, by);
                    let st = g.cell_stencil(x, y);
                    let mut rgb = [0.0f32; 3];
                    let mut rho = 0.0f32;
                    for &(a, b, w) in &st {
                        let n = g.cell(a, b);
                        for k in 0..3 {
                            rgb[k] += w * old.ink[3 * n + k];
                        }
                        rho += w * old.density[n];
                    }
                    (rgb, rho)
                }
            };
            for k in 0..3 {
                f.ink[3 * c + k] = rgb[k] * keep_ink;
            }
            f.density[c] = rho * keep_density;
        }
    }
}
