//! Sources stage (shaders/sources.wgsl): brush dabs and emitters as splats, dispatched only over
//! the cells the splats can reach (`reach`). Ink and density are sourced here; the edges'
//! velocity in the forces pass that follows (src/sim/forces.rs), or here when no forces pass runs
//! (a frozen flow).

use super::kernel::Bound;
use super::params::{Params, Splat};
use super::stage::{Ctx, timed_pass};
use crate::error::Result;

pub struct Sources {
    velocity: Bound,
    ink_and_density: Bound,
    paint_solid: Bound,
    cells: [u32; 2],
}

/// The threads a step's splats need: the first and how many, across and up, for the flow kernel
/// (faces and cells) and the ink kernel (dye cells). Outside them no splat changes anything, so
/// the rest of the grid is not visited: an emitter touches a few hundred cells of 16 384.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach {
    pub flow: ([u32; 2], [u32; 2]),
    pub dye: ([u32; 2], [u32; 2]),
}

impl Reach {
    /// The origins as `Params::extra` carries them to the shader (flow x, y, dye x, y).
    pub fn origins(&self) -> [f32; 4] {
        [self.flow.0[0] as f32, self.flow.0[1] as f32, self.dye.0[0] as f32, self.dye.0[1] as f32]
    }
}

/// Flow threads (faces 0..=n) covering cells lo/h..hi/h along one axis, with a cell of margin
/// each side (the faces on a disk's far side, round-off); the whole axis where a periodic axis
/// would wrap (the splat's image on the other side, and face n is face 0 there).
fn span(lo: f32, hi: f32, h: f32, n: u32, periodic: bool) -> (u32, u32) {
    let n = n as i64;
    let a = (lo / h).floor() as i64 - 1;
    let b = (hi / h).ceil() as i64 + 2;
    if periodic && (a <= 0 || b >= n) {
        return (0, n as u32 + 1);
    }
    let a = a.clamp(0, n + 1);
    let b = b.clamp(a, n + 1);
    (a as u32, (b - a) as u32)
}

/// Where `splats` can change anything on a grid with constants `p`.
pub fn reach(splats: &[Splat], p: &Params) -> Reach {
    let lo = |c: fn(&Splat) -> f32| splats.iter().map(|s| c(s) - s.radius).fold(f32::INFINITY, f32::min);
    let hi = |c: fn(&Splat) -> f32| splats.iter().map(|s| c(s) + s.radius).fold(f32::NEG_INFINITY, f32::max);
    let (x0, w) = span(lo(|s| s.x), hi(|s| s.x), p.h, p.nx, p.periodic_x());
    let (y0, hgt) = span(lo(|s| s.y), hi(|s| s.y), p.h, p.ny, p.periodic_y());
    let k = p.dye_scale.max(1);
    let dye = |start: u32, len: u32, n: u32| (k * start.min(n), k * (start + len).min(n) - k * start.min(n));
    let (dx, dw) = dye(x0, w, p.nx);
    let (dy, dh) = dye(y0, hgt, p.ny);
    Reach { flow: ([x0, y0], [w, hgt]), dye: ([dx, dy], [dw, dh]) }
}

impl Sources {
    pub fn new(ctx: &Ctx) -> Result<Sources> {
        Ok(Sources {
            velocity: ctx.bound("sources", "velocity")?,
            ink_and_density: ctx.bound("sources", "ink_and_density")?,
            paint_solid: ctx.bound("sources", "paint_solid")?,
            cells: ctx.cells(),
        })
    }

    /// `edits_solids`: some splat of this step paints or erases obstacles. `reach` is the one
    /// whose origins this step's constants carry. `velocity`: the edges' velocity too, where no
    /// forces pass follows to add it.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
        edits_solids: bool,
        reach: &Reach,
        velocity: bool,
    ) {
        timed_pass(encoder, profiler, "sources", |pass| {
            if edits_solids {
                self.paint_solid.dispatch(pass, self.cells);
            }
            if velocity {
                self.velocity.dispatch(pass, reach.flow.1);
            }
            self.ink_and_density.dispatch(pass, reach.dye.1);
        });
    }
}
