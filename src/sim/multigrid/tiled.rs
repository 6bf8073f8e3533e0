//! The tiled passes (a GPU's and the page's): two red-black sweeps a dispatch through workgroup
//! memory, each workgroup a tile and its halo (shaders/multigrid/tile.wgsl, smooth.wgsl), and the
//! restriction of the smoothed iterate (plain.wgsl `restriction`). A tile reads a halo its
//! neighbours own, so a sweep writes the level's other buffer: x -> y, and back.

use super::hierarchy::{Hierarchy, PerLevel, Tables};
use super::levels::cell_groups;
use crate::error::Result;
use crate::sim::kernel::Target;
use crate::sim::solver_check::{Launch, ctl};

pub struct Tiled {
    smooth: PerLevel,
    restrict: PerLevel,
    prolong: PerLevel,
    /// On a level with an odd periodic seam a tile dispatch is one sweep (four colours), so its
    /// two sweeps take a second dispatch back, y -> x, and restriction reads x: `smooth_back`, and
    /// `prolong_fwd` (x -> y) before it.
    smooth_back: PerLevel,
    prolong_fwd: PerLevel,
    /// Two SOR sweeps on level 0: p -> p_out, then p_out -> p.
    sor: [PerLevel; 2],
}

/// The tiled smoother's pipeline constants (shaders/multigrid/smooth.wgsl): the V-cycle's
/// smoothing, the prolongation with it, and the SOR solver's sweeps.
const SMOOTH: &[(&str, f64)] = &[];
const PROLONG: &[(&str, f64)] = &[("PROLONG", 1.0)];
const SOR: &[(&str, f64)] = &[("SOR", 1.0)];

impl Tiled {
    /// `tables` bind each level's x and y as they are, `back` with them swapped; `coarse` is the
    /// first level of the coarse solve.
    pub fn new(target: Target, tables: &Tables, back: &Tables, coarse: usize) -> Result<Tiled> {
        let (above, back_above) = (&tables[..coarse], &back[..coarse]);
        Ok(Tiled {
            smooth: PerLevel::tiled(target, SMOOTH, above)?,
            restrict: PerLevel::new(target, "multigrid/plain", "restriction", back_above)?,
            prolong: PerLevel::tiled(target, PROLONG, back_above)?,
            smooth_back: PerLevel::tiled(target, SMOOTH, back_above)?,
            prolong_fwd: PerLevel::tiled(target, PROLONG, above)?,
            sor: [PerLevel::tiled(target, SOR, &tables[..1])?, PerLevel::tiled(target, SOR, &back[..1])?],
        })
    }

    /// Two sweeps on level `l` (a level above the coarse solve): one dispatch, x -> y, or on an
    /// odd seam two, x -> y -> x (`Hierarchy::smoothed_in_y`).
    pub fn encode_smooth(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        h.tile(pass, launch, &self.smooth, l);
        if h.odd_seam(l) {
            h.tile(pass, launch, &self.smooth_back, l);
        }
    }

    /// Level `l`'s smoothed iterate, in y, restricted onto level `l + 1` (its x zeroed).
    pub fn encode_restrict(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        let c = &h.levels[l + 1];
        launch.go(pass, &self.restrict.kernel, &self.restrict.groups[l], cell_groups(c, h.block), ctl::cells_slot(l + 1));
    }

    /// Level `l + 1`'s correction added to level `l`, then two sweeps: one dispatch, y -> x, or
    /// on an odd seam two, x -> y -> x.
    pub fn encode_prolong(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        if h.odd_seam(l) {
            h.tile(pass, launch, &self.prolong_fwd, l);
            h.tile(pass, launch, &self.smooth_back, l);
        } else {
            h.tile(pass, launch, &self.prolong, l);
        }
    }

    /// Four sweeps on level 0, x in p before and after (a tile dispatch is two sweeps, and the
    /// level's x must end where it started).
    pub fn encode_polish(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        if h.odd_seam(0) {
            // each smoothing block two sweeps, x -> y -> x
            self.encode_smooth(h, pass, launch, 0);
            self.encode_smooth(h, pass, launch, 0);
        } else {
            h.tile(pass, launch, &self.smooth, 0);
            h.tile(pass, launch, &self.smooth_back, 0);
        }
    }

    /// Two SOR sweeps on level 0, one dispatch: p -> p_out when `in_out` is false, else back;
    /// flips it. On an odd seam a dispatch is one sweep: two, there and back.
    pub fn encode_sor(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, in_out: &mut bool) {
        for _ in 0..1 + h.odd_seam(0) as u32 {
            h.tile(pass, launch, &self.sor[*in_out as usize], 0);
            *in_out = !*in_out;
        }
    }
}
