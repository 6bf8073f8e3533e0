//! CPU reference of shaders/advect/ink.wgsl: semi-Lagrangian ink (dye grid) and density (flow
//! grid) at cell centres.

use crate::sim::cpu::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::*;

/// The inflow side a back-trace came in through, if any.
fn inflow_crossed(g: &Grid, p: &Params, bx: f32, by: f32) -> Option<usize> {
    g.side_crossed(bx, by).filter(|&s| p.bc_kind[s] == BC_INFLOW)
}

pub fn advect_ink(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = Grid::new(&old, p);
    let h = p.h;
    let keep_ink = (-p.ink_dissipation * p.dt).exp();
    let keep_density = (-p.density_drain * p.dt).exp();
    for b in 0..g.dye_ny() {
        for a in 0..g.dye_nx() {
            let d = g.dye_idx(a, b);
            let mut rgb = [0.0f32; 3];
            if !g.dye_solid(a, b) {
                let (x, y) = g.dye_centre(a, b);
                let (bx, by) = g.trace_back_raw(x, y);
                match inflow_crossed(&g, p, bx, by) {
                    Some(s) => rgb = [p.inflow_ink_r[s], p.inflow_ink_g[s], p.inflow_ink_b[s]],
                    None => {
                        let (x, y) = g.clamp_to_domain(bx, by);
                        for &(na, nb, w) in &g.dye_stencil(x, y) {
                            let n = g.dye_idx(na, nb);
                            for (k, c) in rgb.iter_mut().enumerate() {
                                *c += w * old.ink[3 * n + k];
                            }
                        }
                    }
                }
                rgb = rgb.map(|x| x * keep_ink);
            }
            f.ink[3 * d..3 * d + 3].copy_from_slice(&rgb);
        }
    }
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            let c = g.cell(i, j);
            let mut rho = 0.0f32;
            if !g.is_solid(i, j) {
                let (bx, by) = g.trace_back_raw((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                rho = match inflow_crossed(&g, p, bx, by) {
                    Some(s) => p.inflow_density[s],
                    None => {
                        let (x, y) = g.clamp_to_domain(bx, by);
                        g.cell_stencil(x, y).iter().map(|&(a, b, w)| w * old.density[g.cell(a, b)]).sum()
                    }
                };
                rho *= keep_density;
            }
            f.density[c] = rho;
        }
    }
}
