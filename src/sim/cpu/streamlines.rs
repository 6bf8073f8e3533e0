//! CPU reference of shaders/streamlines.wgsl: from each seed of a regular grid, the curve along
//! v / |v| traced by the midpoint rule in equal steps, half back and half forward, as a line list.

use super::grid::Grid;
use crate::sim::fields::Fields;
use crate::sim::params::Params;
use crate::sim::streamlines::{STREAMLINE_POINTS, SeedGrid};

/// Below this speed (m/s) the flow is still (WGSL `STILL`).
const STILL: f32 = 1e-9;

/// The line list of every seed: `STREAMLINE_POINTS − 1` segments a seed, two points each.
pub fn streamlines(f: &Fields, p: &Params, seeds: &SeedGrid) -> Vec<[f32; 2]> {
    let g = Grid::new(f, p);
    let size = [g.nx() as f32 * p.h, g.ny() as f32 * p.h];
    let wrapped = |q: [f32; 2]| {
        let w = |x: f32, s: f32, on: bool| if on { x - (x / s).floor() * s } else { x };
        [w(q[0], size[0], g.px()), w(q[1], size[1], g.py())]
    };
    let open = |q: [f32; 2]| {
        if (!g.px() && !(0.0..=size[0]).contains(&q[0])) || (!g.py() && !(0.0..=size[1]).contains(&q[1])) {
            return false;
        }
        let c = wrapped(q);
        let i = ((c[0] / p.h).floor() as i32).clamp(0, g.nx() - 1);
        let j = ((c[1] / p.h).floor() as i32).clamp(0, g.ny() - 1);
        !g.is_solid(i, j)
    };
    let direction = |q: [f32; 2]| {
        let (a, b) = g.velocity_at(q[0], q[1]);
        let s = (a * a + b * b).sqrt();
        if s <= STILL { [0.0, 0.0] } else { [a / s, b / s] }
    };
    let half = (STREAMLINE_POINTS - 1) / 2;
    let segments = STREAMLINE_POINTS - 1;
    let (cols, rows) = (seeds.across as usize, seeds.up as usize);
    let mut out = vec![[0.0f32; 2]; cols * rows * segments * 2];
    for line in 0..cols * rows {
        let seed = [((line % cols) as f32 + 0.5) * seeds.spacing, ((line / cols) as f32 + 0.5) * seeds.spacing];
        let alive = open(seed);
        for way in 0..2 {
            let sign = if way == 1 { 1.0 } else { -1.0 };
            let (mut pos, mut going) = (seed, alive);
            for s in 0..half {
                let mut next = pos;
                let mut jumped = false;
                if going {
                    let d1 = direction(pos);
                    let (mx, my) = g.clamp_to_domain(pos[0] + 0.5 * sign * seeds.step * d1[0], pos[1] + 0.5 * sign * seeds.step * d1[1]);
                    let d2 = direction(wrapped([mx, my]));
                    let q = [pos[0] + sign * seeds.step * d2[0], pos[1] + sign * seeds.step * d2[1]];
                    going = d1 != [0.0, 0.0] && d2 != [0.0, 0.0] && open(q);
                    if going {
                        next = wrapped(q);
                        jumped = next != q;
                    }
                }
                let a = if jumped { next } else { pos };
                let (k, pair) = if way == 0 { (half - 1 - s, [next, a]) } else { (half + s, [a, next]) };
                let at = 2 * (line * segments + k);
                out[at] = pair[0];
                out[at + 1] = pair[1];
                pos = next;
            }
        }
    }
    out
}
