//! CPU reference of shaders/tracers.wgsl: particles moved over one (sub-)step by the forward
//! midpoint trace, removed at open sides and in solids, wrapped on periodic sides, held on walls.

use super::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::{BC_WALL, Params};

/// A removed (or never seeded) particle: x < 0.
pub const DEAD: [f32; 4] = [-1.0; 4];

/// The coordinate `x` on an axis `size` long (sides `lo`, `hi`) after a move: wrapped when
/// `periodic`, held on a wall, None where it left through an open side (WGSL `settle`).
fn settle(p: &Params, x: f32, size: f32, periodic: bool, lo: usize, hi: usize) -> Option<f32> {
    if periodic {
        return Some(x - (x / size).floor() * size);
    }
    let side = if x < 0.0 {
        lo
    } else if x > size {
        hi
    } else {
        return Some(x);
    };
    (p.bc_kind[side] == BC_WALL).then(|| x.clamp(0.0, size))
}

/// Moves every live particle `[x, y, prev_x, prev_y]` (metres) over `p.dt`.
pub fn tracers(f: &Fields, p: &Params, tracers: &mut [[f32; 4]]) {
    let g = Grid::new(f, p);
    let (w, h) = (g.nx() as f32 * p.h, g.ny() as f32 * p.h);
    for t in tracers.iter_mut().filter(|t| t[0] >= 0.0) {
        let (qx, qy) = g.trace_raw(t[0], t[1], -p.dt);
        let moved = (qx.is_finite() && qy.is_finite())
            .then(|| Some((settle(p, qx, w, g.px(), 0, 1)?, settle(p, qy, h, g.py(), 2, 3)?)))
            .flatten()
            .filter(|&(x, y)| {
                let i = ((x / p.h).floor() as i32).clamp(0, g.nx() - 1);
                let j = ((y / p.h).floor() as i32).clamp(0, g.ny() - 1);
                !g.is_solid(i, j)
            });
        *t = match moved {
            Some((x, y)) => [x, y, t[0], t[1]],
            None => DEAD,
        };
    }
}
