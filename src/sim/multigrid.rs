//! Multigrid level layout: level 0 is the simulation grid, each coarser level has
//! ceil(n / 2) cells per axis (non-power-of-two grids coarsen with a short last cell), down to at
//! most `COARSEST` cells per side, where the coarse solve takes over. All levels share a few big
//! buffers (slots 19-23), each level at its own offset; `LevelDesc` (slot 18, one small buffer per
//! level) tells a pass where its level and its neighbours lie. Shaders: shaders/multigrid_*.wgsl.

use bytemuck::{Pod, Zeroable};

/// Largest side of the coarsest level (the coarse solve runs it in one 16 x 16 workgroup).
pub const COARSEST: usize = 16;
/// Most levels (enough for 2^19 cells per side).
pub const MAX_LEVELS: usize = 16;
/// Red-black Gauss-Seidel sweeps before and after the coarse-grid correction.
pub const PRE_SMOOTH: u32 = 2;
pub const POST_SMOOTH: u32 = 2;

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
    pub _p1: u32,
    pub coarse_nx: u32,
    pub coarse_ny: u32,
    pub coarse_off: u32,
    pub _p2: u32,
}

impl LevelDesc {
    pub fn cells(&self) -> usize {
        (self.nx * self.ny) as usize
    }
}

/// The levels of an nx x ny grid, finest first, with offsets into the shared level buffers.
pub fn levels(nx: usize, ny: usize) -> Vec<LevelDesc> {
    let mut dims = vec![(nx, ny)];
    while let Some(&(w, h)) = dims.last() {
        if (w <= COARSEST && h <= COARSEST) || dims.len() == MAX_LEVELS {
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
    let at = |k: usize| dims.get(k).map(|&(w, h)| (w as u32, h as u32, offsets[k] as u32)).unwrap_or_default();
    (0..dims.len())
        .map(|k| {
            let (nx, ny, off) = at(k);
            let (fine_nx, fine_ny, fine_off) = if k > 0 { at(k - 1) } else { (0, 0, 0) };
            let (coarse_nx, coarse_ny, coarse_off) = at(k + 1);
            LevelDesc { nx, ny, off, index: k as u32, fine_nx, fine_ny, fine_off, _p1: 0, coarse_nx, coarse_ny, coarse_off, _p2: 0 }
        })
        .collect()
}

/// Cells over all levels (the length of each level buffer).
pub fn total_cells(levels: &[LevelDesc]) -> usize {
    levels.iter().map(LevelDesc::cells).sum()
}
