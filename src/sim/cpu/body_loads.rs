//! CPU reference of shaders/body_loads.wgsl, in f64: every solid cell of a body against each
//! fluid cell beside it, straight from the labels (not the GPU's face list).

use super::grid::{Grid, wrap};
use crate::sim::body_loads::Bodies;
use crate::sim::buffers::MAX_BODIES;
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// The force [x, y] on each body (N per metre of depth): pressure and wall shear on its faces.
pub fn body_loads(f: &Fields, p: &Params, bodies: &Bodies) -> [[f64; 2]; MAX_BODIES] {
    let g = Grid::new(f, p);
    let (nx, ny) = (g.nx(), g.ny());
    let shear = 2.0 * p.rho as f64 * p.viscosity as f64;
    let h = p.h as f64;
    let mut out = [[0.0f64; 2]; MAX_BODIES];
    for j in 0..ny {
        for i in 0..nx {
            let b = bodies.label[g.cell(i, j)] as usize;
            if b == 0 {
                continue;
            }
            // (neighbour offset, outward normal of the body's face)
            for (di, dj) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
                let (a, c) = (i + di, j + dj);
                let inside_x = (0..nx).contains(&a) || g.px();
                let inside_y = (0..ny).contains(&c) || g.py();
                if !inside_x || !inside_y {
                    continue;
                }
                let (a, c) = (wrap(a, nx), wrap(c, ny));
                if g.is_solid(a, c) {
                    continue;
                }
                let push = f.p[g.cell(a, c)] as f64 * h;
                let force = if di != 0 {
                    let along = 0.5 * (g.v_at(a, c) as f64 + g.v_at(a, c + 1) as f64);
                    [-push * di as f64, shear * along]
                } else {
                    let along = 0.5 * (g.u_at(a, c) as f64 + g.u_at(a + 1, c) as f64);
                    [shear * along, -push * dj as f64]
                };
                out[b - 1][0] += force[0];
                out[b - 1][1] += force[1];
            }
        }
    }
    out
}
