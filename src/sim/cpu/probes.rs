//! CPU reference of shaders/probes.wgsl: u, v, p, div and ink at a point (metres).

use super::grid::Grid;
use crate::sim::buffers::PROBE_FIGURES;
use crate::sim::fields::Fields;
use crate::sim::params::Params;

/// [u, v, p, div, ink] at (x, y): the staggered bilinear velocity, p bilinear between fluid cell
/// centres, the divergence of the cell holding the point (0 if solid), r + g + b bilinear on the
/// dye grid.
pub fn probe(f: &Fields, p: &Params, x: f32, y: f32) -> [f32; PROBE_FIGURES] {
    let g = Grid::new(f, p);
    let pressure: f32 = g.cell_stencil(x, y).iter().map(|&(i, j, w)| w * f.p[g.cell(i, j)]).sum();
    let i = ((x / p.h).floor() as i32).clamp(0, g.nx() - 1);
    let j = ((y / p.h).floor() as i32).clamp(0, g.ny() - 1);
    let div = if g.is_solid(i, j) { 0.0 } else { (g.u_value(i + 1, j) - g.u_value(i, j) + g.v_value(i, j + 1) - g.v_value(i, j)) / p.h };
    let ink: f32 = g
        .dye_stencil(x, y)
        .iter()
        .map(|&(a, b, w)| {
            let c = 3 * g.dye_idx(a, b);
            w * (f.ink[c] + f.ink[c + 1] + f.ink[c + 2])
        })
        .sum();
    let (u, v) = g.velocity_at(x, y);
    [u, v, pressure, div, ink]
}
