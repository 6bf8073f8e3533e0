//! Multigrid level layout (the data the GPU multigrid, its gate and the CPU twin share):
//! level 0 is the simulation grid, each coarser level has
//! ceil(n / 2) cells per axis (non-power-of-two grids coarsen with a short last cell), down to at
//! most `BOTTOM` cells per side. Levels that fit `COARSE_SIDE` x `COARSE_SIDE` are solved together
//! in one dispatch in workgroup memory (shaders/multigrid/coarse.wgsl); the finer ones take three
//! dispatches a V-cycle each (smooth, restrict, prolong + smooth; shaders/multigrid_*.wgsl).
//!
//! Per-level arrays (rhs, stencil) share one buffer each, every level at `off`. The iterate x of
//! level 0 is the pressure's correction `dp` (src/sim/buffers.rs), which starts from zero each
//! solve against the residual of the pressure `p` it corrects (`load`); coarser levels' x live in `mg_x[k % 2]` at
//! `x_off` (two buffers, so a level's x and its coarser neighbour's are never one buffer bound
//! twice, which WebGPU forbids where one binding writes). The tile smoothers read a halo that neighbouring workgroups own, so they cannot work in
//! place: a level's pre-smoother writes its second buffer y (`p_out` on level 0, `mg_y` below),
//! and restriction and the prolongation + post-smoother read y, the latter writing x again. `LevelDesc` (`level`, one small buffer per level) says where a level and its
//! neighbours lie.

use bytemuck::{Pod, Zeroable};

/// Largest side of a level solved in workgroup memory (shaders/multigrid/coarse.wgsl), where the
/// device profile does not ask for less (`DeviceProfile::coarse_side`).
pub const COARSE_SIDE: usize = 32;
/// Cells of workgroup memory the coarse solve needs: a 32 x 32 level and the 16 x 16 below it.
pub const COARSE_CELLS: usize = 1280;
/// Largest side of the bottom level, solved exactly (shaders/multigrid/bottom.wgsl: x = M rhs, M
/// its operator's inverse, at most 256 x 257 words). Coarsening further (to 4) made the V-cycle stall or diverge with outflow and odd periodic sides: the coarse
/// operators of this plain geometric coarsening drift from the fine one near those boundaries.
pub const BOTTOM: usize = 16;
/// Most levels (enough for 2^17 cells per side).
pub const MAX_LEVELS: usize = 16;
/// Red-black smoothing sweeps (SOR at shaders/multigrid/level.wgsl `SMOOTH_OMEGA`) before and
/// after the coarse-grid correction (the tile kernels run both of a side's sweeps in one dispatch).
pub const PRE_SMOOTH: u32 = 2;
pub const POST_SMOOTH: u32 = 2;
/// Most cells of the level a CPU adapter's V-cycle takes with the coarse solve in one dispatch of
/// one workgroup (shaders/multigrid/lower.wgsl): 64², where the level's ten dispatches cost more
/// in lavapipe's thread wake-ups than one thread takes for their work.
pub const LOWER_CELLS: usize = 4096;

/// The tile of the fused smoothers (shaders/multigrid/tile.wgsl, pressure.wgsl): each workgroup
/// owns `TILE` x `TILE` cells and loads a halo of `HALO` cells around them, enough for four
/// Jacobi sweeps or two red-black sweeps without leaving workgroup memory.
pub const TILE: u32 = 24;
pub const HALO: u32 = 4;

/// Keep in sync with `struct Level` in shaders/shared/grid.wgsl (tests/layout.rs compares them).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Pod, Zeroable)]
pub struct LevelDesc {
    pub nx: u32,
    pub ny: u32,
    pub off: u32,
    pub index: u32,
    pub fine_nx: u32,
    pub fine_ny: u32,
    pub fine_off: u32,
    /// Where this level's x lies in the buffer bound as its x (`dp` for level 0, else `mg_x[k % 2]`).
    pub x_off: u32,
    pub coarse_nx: u32,
    pub coarse_ny: u32,
    pub coarse_off: u32,
    /// Where the next coarser level's x lies in its buffer (`mg_x[(k + 1) % 2]`).
    pub coarse_x_off: u32,
}

impl LevelDesc {
    pub fn cells(&self) -> usize {
        (self.nx * self.ny) as usize
    }
    /// Whether the coarse solve (one workgroup) takes this level, its sides `side` at most.
    pub fn fits_workgroup(&self, side: usize) -> bool {
        self.nx as usize <= side && self.ny as usize <= side
    }
}

/// The levels of an nx x ny grid, finest first, with offsets into the shared level buffers.
pub fn levels(nx: usize, ny: usize) -> Vec<LevelDesc> {
    let mut dims = vec![(nx, ny)];
    while let Some(&(w, h)) = dims.last() {
        if (w <= BOTTOM && h <= BOTTOM) || dims.len() == MAX_LEVELS {
            break;
        }
        dims.push((w.div_ceil(2), h.div_ceil(2)));
    }
    let mut offsets = Vec::new();
    let mut off = 0;
    for &(w, h) in &dims {
        offsets.push(off);
        off += w * h;
    }
    let n0 = nx * ny;
    let x_off = |k: usize| if k == 0 { 0 } else { (offsets[k] - n0) as u32 };
    let at = |k: usize| dims.get(k).map(|&(w, h)| (w as u32, h as u32, offsets[k] as u32, x_off(k))).unwrap_or_default();
    (0..dims.len())
        .map(|k| {
            let (nx, ny, off, x_off) = at(k);
            let (fine_nx, fine_ny, fine_off, _) = if k > 0 { at(k - 1) } else { (0, 0, 0, 0) };
            let (coarse_nx, coarse_ny, coarse_off, coarse_x_off) = at(k + 1);
            LevelDesc { nx, ny, off, index: k as u32, fine_nx, fine_ny, fine_off, x_off, coarse_nx, coarse_ny, coarse_off, coarse_x_off }
        })
        .collect()
}

/// Cells over all levels (the length of each per-level buffer).
pub fn total_cells(levels: &[LevelDesc]) -> usize {
    levels.iter().map(LevelDesc::cells).sum()
}

/// The first level the one-workgroup coarse solve takes, its sides `side` at most
/// (`COARSE_SIDE` or less; every level from it down fits).
pub fn coarse_level(levels: &[LevelDesc], side: usize) -> usize {
    levels.iter().position(|l| l.fits_workgroup(side.min(COARSE_SIDE))).unwrap_or(levels.len() - 1)
}

/// Workgroups of a tile kernel over an nx x ny level.
pub fn tile_groups(nx: u32, ny: u32) -> [u32; 3] {
    [nx.div_ceil(TILE), ny.div_ceil(TILE), 1]
}

const _: () = assert!(TILE + 2 * HALO == 32);

/// Workgroups of a cell kernel over level `l`, `block` cells each (`kernel::cell_block`).
pub fn cell_groups(l: &LevelDesc, block: [u32; 2]) -> [u32; 3] {
    [l.nx.div_ceil(block[0]), l.ny.div_ceil(block[1]), 1]
}
