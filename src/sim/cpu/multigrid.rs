//! CPU reference of the multigrid passes (shaders/multigrid_*.wgsl): the same level layout
//! (src/sim/multigrid.rs), the same packed stencils, plain loops. `Mg` mirrors the GPU's level
//! buffers, except that x holds every level (the GPU keeps level 0's x, the pressure's
//! correction, in `dp`, the rest in `mg_x`). The single-step methods (`relax`, `residual`, `restrict`, `prolong`) are the
//! building blocks; `*_pass` are the twins of the fused GPU dispatches.

use super::grid::wrap;
use crate::sim::fields::Fields;
use crate::sim::multigrid::levels::LevelDesc;
use crate::sim::params::*;

// The cycle, written down here from its definition rather than imported from the GPU module, so a
// changed constant on one side shows up as a mismatch in the GPU-vs-CPU tests (tests/solvers.rs).
/// Red-black sweeps before and after the coarse-grid correction.
const PRE_SMOOTH: u32 = 2;
const POST_SMOOTH: u32 = 2;
/// Over-relaxation of those sweeps (red-black SOR smooths better than Gauss-Seidel).
const SMOOTH_OMEGA: f32 = 1.1;
/// Coarsening stops at a level of at most this many cells a side, solved exactly ...
const BOTTOM_SIDE: usize = 16;
/// ... or, while its inverse is being found a chunk a step (obstacles painted), relaxed by this
/// many SOR sweeps at this factor.
const BOTTOM_SWEEPS: u32 = 48;
const BOTTOM_OMEGA: f32 = 1.6;
/// Levels of at most this many cells a side are solved together in one workgroup on the GPU.
const ONE_WORKGROUP_SIDE: u32 = 32;

pub const MG_SOLID: u32 = 128;
const LEFT: u32 = 1;
const RIGHT: u32 = 2;
const BOTTOM: u32 = 4;
const TOP: u32 = 8;

/// The level buffers of the GPU solver.
#[derive(Clone, Debug, PartialEq)]
pub struct Mg {
    pub levels: Vec<LevelDesc>,
    pub x: Vec<f32>,
    pub rhs: Vec<f32>,
    pub res: Vec<f32>,
    pub stencil: Vec<u32>,
    /// Whether the x and y sides are periodic (`setup` sets it from the params).
    pub periodic: [bool; 2],
}

fn count(s: u32) -> f32 {
    ((s >> 4) & 7) as f32
}

/// Neighbour indices (left, right, bottom, top) of (i, j) on a w x h grid, wrapped.
fn neighbours(w: i32, h: i32, i: i32, j: i32) -> [(i32, i32, u32); 4] {
    [(wrap(i - 1, w), j, LEFT), (wrap(i + 1, w), j, RIGHT), (i, wrap(j - 1, h), BOTTOM), (i, wrap(j + 1, h), TOP)]
}

/// The residual of cell `c` = (i, j) of a level (w x h at offset `off`) with stencil `s`, in the
/// cancellation-free form of shaders/multigrid/plain.wgsl `lanes_residual`.
/// The weight of an outflow (p = 0) neighbour on level `l`: level 0's ghost centre, where p = 0,
/// lies half a fine cell beyond the side; a coarse cell's centre is H/2 from the side, so that
/// point is H/2 + h/2 away instead of H: weight H / (H/2 + h/2) = 2^(l+1) / (2^l + 1).
pub fn outflow_weight(l: usize) -> f32 {
    let t = (1u32 << l) as f32;
    2.0 * t / (t + 1.0)
}

/// Whether cell (i, j) of a w x h level is a seam cell (`seams`: x, y periodic): on an odd periodic
/// axis the last column (row). Red-black colouring by i + j would give it the colour of its
/// neighbour across the seam; it gets colours of its own (`colour`), so every sub-sweep updates
/// only cells that are not neighbours: a true Gauss-Seidel ordering, convergent at any 0 < ω < 2.
/// The corner of two odd seams is not one: its four neighbours all are, none of them the plain
/// colours (multigrid/level.wgsl `on_seam`).
fn on_seam(seams: [bool; 2], w: i32, h: i32, i: i32, j: i32) -> bool {
    (seams[0] && w % 2 == 1 && i == w - 1) != (seams[1] && h % 2 == 1 && j == h - 1)
}

/// The sub-sweep of cell (i, j): 0 red, 1 black, 2 and 3 the seam's red and black.
fn colour(seams: [bool; 2], w: i32, h: i32, i: i32, j: i32) -> i32 {
    (i + j) % 2 + if on_seam(seams, w, h, i, j) { 2 } else { 0 }
}

/// Sub-sweeps of a sweep of a w x h level: 4 with an odd periodic axis, else 2 (red, black).
pub fn colours(seams: [bool; 2], w: usize, h: usize) -> i32 {
    if (seams[0] && w % 2 == 1) || (seams[1] && h % 2 == 1) { 4 } else { 2 }
}

/// The diagonal of cell stencil `s` on level `l`: fluid neighbours plus weighted outflow ones.
fn diagonal(s: u32, l: usize) -> f32 {
    let fluid = (s & (LEFT | RIGHT | BOTTOM | TOP)).count_ones() as f32;
    fluid + (count(s) - fluid) * outflow_weight(l)
}

fn local_residual(mg: &Mg, l: usize, i: i32, j: i32, s: u32) -> f32 {
    let (w, h, off) = mg.dims(l);
    let xc = mg.x[off + (j * w + i) as usize];
    let (mut d, mut fluid) = (0.0f32, 0.0f32);
    for (a, b, flag) in neighbours(w, h, i, j) {
        if s & flag != 0 {
            d += mg.x[off + (b * w + a) as usize] - xc;
            fluid += 1.0;
        }
    }
    mg.rhs[off + (j * w + i) as usize] + (d - (count(s) - fluid) * outflow_weight(l) * xc)
}

impl Mg {
    pub fn new(nx: usize, ny: usize) -> Mg {
        let levels = levels(nx, ny);
        let n = levels.iter().map(LevelDesc::cells).sum();
        Mg { levels, x: vec![0.0; n], rhs: vec![0.0; n], res: vec![0.0; n], stencil: vec![0; n], periodic: [false; 2] }
    }

    fn dims(&self, l: usize) -> (i32, i32, usize) {
        let d = &self.levels[l];
        (d.nx as i32, d.ny as i32, d.off as usize)
    }

    /// `mark` and `pack` on every level, then `load`.
    pub fn setup(&mut self, f: &Fields, p: &Params) {
        self.periodic = [p.bc_kind[0] == BC_PERIODIC, p.bc_kind[2] == BC_PERIODIC];
        for l in 0..self.levels.len() {
            let (w, h, off) = self.dims(l);
            for j in 0..h {
                for i in 0..w {
                    let solid = if l == 0 {
                        f.solid[(j * w + i) as usize] > 0.5
                    } else {
                        let (fw, fh, foff) = self.dims(l - 1);
                        let mut all = true;
                        for (di, dj) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                            let (a, b) = (2 * i + di, 2 * j + dj);
                            if a < fw && b < fh && self.stencil[foff + (b * fw + a) as usize] & MG_SOLID == 0 {
                                all = false;
                            }
                        }
                        all
                    };
                    self.stencil[off + (j * w + i) as usize] = if solid { MG_SOLID } else { 0 };
                }
            }
            let solid_at = |st: &[u32], a: i32, b: i32| st[off + (b * w + a) as usize] & MG_SOLID != 0;
            let mut packed = self.stencil.clone();
            for j in 0..h {
                for i in 0..w {
                    if solid_at(&self.stencil, i, j) {
                        continue;
                    }
                    let (mut flags, mut n) = (0u32, 0u32);
                    for (k, (di, dj)) in [(-1, 0), (1, 0), (0, -1), (0, 1)].into_iter().enumerate() {
                        let (a, b) = (i + di, j + dj);
                        let side = super::grid::side_outside(a, b, w, h);
                        let kind = match side.map(|s| p.bc_kind[s]) {
                            Some(BC_OUTFLOW) => 2,
                            Some(BC_PERIODIC) | None => {
                                if solid_at(&self.stencil, wrap(a, w), wrap(b, h)) || (l > 0 && !self.fine_face_open(l, i, j, k)) {
                                    0
                                } else {
                                    1
                                }
                            }
                            Some(_) => 0,
                        };
                        if kind == 1 {
                            flags |= 1 << k;
                        }
                        if kind != 0 {
                            n += 1;
                        }
                    }
                    packed[off + (j * w + i) as usize] = flags | (n << 4);
                }
            }
            self.stencil = packed;
        }
        self.load(f, p);
    }

    /// Level 0's rhs for the correction to the pressure `f.p`: b - A p, b from the divergence
    /// (zero on solid cells), and x = 0 (shaders/multigrid/plain.wgsl `load`).
    pub fn load(&mut self, f: &Fields, p: &Params) {
        let (w, h, _) = self.dims(0);
        self.x[..f.p.len()].copy_from_slice(&f.p);
        for c in 0..f.p.len() {
            let s = self.stencil[c];
            self.rhs[c] = -p.rho * p.h * p.h * f.divergence[c] / p.dt;
            let (i, j) = (c as i32 % w, c as i32 / w);
            debug_assert!(j < h);
            self.rhs[c] = if count(s) > 0.0 { local_residual(self, 0, i, j, s) } else { 0.0 };
        }
        self.x[..f.p.len()].fill(0.0);
    }

    /// Whether any face of level `l - 1` across side `k` (0 left, 1 right, 2 bottom, 3 top) of
    /// cell (i, j) of level `l` is open: a coarse face is open only where the fine cells on its
    /// two sides are joined, so a one-cell wall stays a wall on the coarse levels
    /// (shaders/multigrid/setup.wgsl `fine_face_open`).
    fn fine_face_open(&self, l: usize, i: i32, j: i32, k: usize) -> bool {
        let (fw, fh, foff) = self.dims(l - 1);
        let flag = [LEFT, RIGHT, BOTTOM, TOP][k];
        let edge = |c: i32, n: i32, high: bool| if high { (c + 1).min(n - 1) } else { c };
        (0..2).any(|t| {
            let (a, b) = if k < 2 { (edge(2 * i, fw, k == 1), 2 * j + t) } else { (2 * i + t, edge(2 * j, fh, k == 3)) };
            a < fw && b < fh && self.stencil[foff + (b * fw + a) as usize] & flag != 0
        })
    }

    /// One colour of a sweep on level `l` (`colour`: 0 red, 1 black, 2 and 3 the odd seam's),
    /// over-relaxed by `omega`. No two cells of a colour are neighbours, so the order within it
    /// does not matter (the GPU updates them all at once).
    pub fn relax(&mut self, l: usize, colour_: i32, omega: f32) {
        let (w, h, off) = self.dims(l);
        let seams = self.periodic;
        let mut updates = Vec::new();
        for j in 0..h {
            for i in 0..w {
                if colour(seams, w, h, i, j) != colour_ {
                    continue;
                }
                let c = off + (j * w + i) as usize;
                let s = self.stencil[c];
                let x = if count(s) == 0.0 { 0.0 } else { self.x[c] + omega * local_residual(self, l, i, j, s) / diagonal(s, l) };
                updates.push((c, x));
            }
        }
        for (c, x) in updates {
            self.x[c] = x;
        }
    }

    /// Sub-sweeps of one sweep on level `l` (`colours`).
    pub fn colours(&self, l: usize) -> i32 {
        colours(self.periodic, self.levels[l].nx as usize, self.levels[l].ny as usize)
    }

    /// One sweep on level `l` over-relaxed by `omega`: red, black, then the odd seam's colours.
    pub fn sweep(&mut self, l: usize, omega: f32) {
        for c in 0..self.colours(l) {
            self.relax(l, c, omega);
        }
    }

    /// One smoothing sweep, over-relaxed by `SMOOTH_OMEGA` (multigrid/smooth `half_sweep` red and black and, on
    /// an odd periodic axis, the seam's two).
    pub fn smooth(&mut self, l: usize) {
        self.sweep(l, SMOOTH_OMEGA);
    }

    pub fn residual(&mut self, l: usize) {
        let (w, h, off) = self.dims(l);
        for j in 0..h {
            for i in 0..w {
                let c = off + (j * w + i) as usize;
                let s = self.stencil[c];
                self.res[c] = if count(s) > 0.0 { local_residual(self, l, i, j, s) } else { 0.0 };
            }
        }
    }

    /// Level `l`'s residual summed onto level `l + 1`'s rhs; its x set to zero.
    pub fn restrict(&mut self, l: usize) {
        let (fw, fh, foff) = self.dims(l);
        let (w, h, off) = self.dims(l + 1);
        for j in 0..h {
            for i in 0..w {
                let c = off + (j * w + i) as usize;
                let mut sum = 0.0;
                for (di, dj) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    let (a, b) = (2 * i + di, 2 * j + dj);
                    if a < fw && b < fh {
                        sum += self.res[foff + (b * fw + a) as usize];
                    }
                }
                self.rhs[c] = if count(self.stencil[c]) == 0.0 { 0.0 } else { sum };
                self.x[c] = 0.0;
            }
        }
    }

    /// Level `l + 1`'s correction interpolated bilinearly and added to level `l`.
    pub fn prolong(&mut self, l: usize, p: &Params) {
        let (w, h, off) = self.dims(l);
        let (cw, ch, coff) = self.dims(l + 1);
        // a coarse neighbour's value where the coarse face to it is open (`joined`), else the
        // parent's: no correction crosses a wall the coarse level keeps
        let coarse = |x: &[f32], ci: i32, cj: i32, parent: f32, joined: bool| -> f32 {
            let side = super::grid::side_outside(ci, cj, cw, ch);
            match side.map(|s| p.bc_kind[s]) {
                Some(BC_OUTFLOW) => return 0.0,
                Some(BC_PERIODIC) | None => {}
                Some(_) => return parent,
            }
            if joined { x[coff + (wrap(cj, ch) * cw + wrap(ci, cw)) as usize] } else { parent }
        };
        let stencil_at = |ci: i32, cj: i32| self.stencil[coff + (wrap(cj, ch) * cw + wrap(ci, cw)) as usize];
        let mut x = self.x.clone();
        for j in 0..h {
            for i in 0..w {
                let c = off + (j * w + i) as usize;
                if count(self.stencil[c]) == 0.0 {
                    continue;
                }
                let (pi, pj) = (i / 2, j / 2);
                let (si, sj) = (if i % 2 == 0 { -1 } else { 1 }, if j % 2 == 0 { -1 } else { 1 });
                let parent = self.x[coff + (pj * cw + pi) as usize];
                let (fx, fy) = (if si < 0 { LEFT } else { RIGHT }, if sj < 0 { BOTTOM } else { TOP });
                let ps = stencil_at(pi, pj);
                let (jx, jy) = (ps & fx != 0, ps & fy != 0);
                let jd = (jx && stencil_at(pi + si, pj) & fy != 0) || (jy && stencil_at(pi, pj + sj) & fx != 0);
                let e = 0.5625 * parent
                    + 0.1875 * (coarse(&self.x, pi + si, pj, parent, jx) + coarse(&self.x, pi, pj + sj, parent, jy))
                    + 0.0625 * coarse(&self.x, pi + si, pj + sj, parent, jd);
                x[c] += e;
            }
        }
        self.x = x;
    }
}

impl Mg {
    /// multigrid/smooth: PRE_SMOOTH red-black sweeps on level `l`.
    pub fn smooth_pass(&mut self, l: usize) {
        for _ in 0..PRE_SMOOTH {
            self.smooth(l);
        }
    }

    /// multigrid/plain `restriction`: level `l`'s residual restricted onto level `l + 1`.
    pub fn restrict_pass(&mut self, l: usize) {
        self.residual(l);
        self.restrict(l);
    }

    /// multigrid/prolong: level `l + 1`'s correction added to level `l`, then POST_SMOOTH sweeps.
    pub fn prolong_pass(&mut self, l: usize, p: &Params) {
        self.prolong(l, p);
        for _ in 0..POST_SMOOTH {
            self.smooth(l);
        }
    }

    /// multigrid/bottom: the bottom level's inverse operator, by columns padded to whole quads
    /// (column j, row i at j * stride + i), with the pinned cells' rows and columns zero: a
    /// solid cell, and the last cell of a fluid component without an outflow face (singular:
    /// p there is fixed only up to a constant). Gauss-Jordan in place without pivoting, the
    /// GPU's order of operations.
    pub fn bottom_inverse(&self) -> Vec<f32> {
        let l = self.levels.len() - 1;
        let (w, h, off) = self.dims(l);
        let n = (w * h) as usize;
        let s = n.div_ceil(4) * 4;
        let st = &self.stencil[off..off + n];
        let mut m = vec![0.0f32; s * n];
        let nbs = |c: usize| neighbours(w, h, c as i32 % w, c as i32 / w).map(|(a, b, flag)| ((b * w + a) as usize, flag));
        for c in 0..n {
            if count(st[c]) > 0.0 {
                m[c * s + c] = diagonal(st[c], l);
                for (nb, flag) in nbs(c) {
                    if st[c] & flag != 0 {
                        m[nb * s + c] -= 1.0;
                    }
                }
            }
        }
        // components: the smallest index of each, spread over fluid neighbours
        let mut label: Vec<Option<usize>> = (0..n).map(|c| (count(st[c]) > 0.0).then_some(c)).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for c in 0..n {
                let Some(mut least) = label[c] else { continue };
                for (nb, flag) in nbs(c) {
                    if st[c] & flag != 0 {
                        least = least.min(label[nb].expect("a fluid neighbour"));
                    }
                }
                if Some(least) < label[c] {
                    label[c] = Some(least);
                    changed = true;
                }
            }
        }
        let (mut open, mut last) = (vec![false; n], vec![0; n]);
        for c in 0..n {
            if let Some(r) = label[c] {
                open[r] |= count(st[c]) > (st[c] & (LEFT | RIGHT | BOTTOM | TOP)).count_ones() as f32;
                last[r] = c;
            }
        }
        let pinned: Vec<bool> = (0..n).map(|c| label[c].is_none_or(|r| !open[r] && last[r] == c)).collect();
        for k in 0..n {
            if pinned[k] {
                for i in 0..n {
                    m[k * s + i] = 0.0;
                    m[i * s + k] = 0.0;
                }
                continue;
            }
            let piv = 1.0 / m[k * s + k];
            for j in (0..n).filter(|&j| j != k) {
                m[j * s + k] *= piv;
            }
            for i in (0..n).filter(|&i| i != k) {
                let f = m[k * s + i];
                for j in (0..n).filter(|&j| j != k) {
                    m[j * s + i] -= f * m[j * s + k];
                }
                m[k * s + i] = -f * piv;
            }
            m[k * s + k] = piv;
        }
        m
    }

    /// The bottom's exact solve (shaders/multigrid/coarse_levels.wgsl `s_bottom`): x = M rhs.
    pub fn bottom_solve(&mut self) {
        let l = self.levels.len() - 1;
        let (w, h, off) = self.dims(l);
        let n = (w * h) as usize;
        let s = n.div_ceil(4) * 4;
        let m = self.bottom_inverse();
        for i in 0..n {
            self.x[off + i] = (0..n).map(|j| m[j * s + i] * self.rhs[off + j]).sum();
        }
    }

    /// multigrid/coarse: one V-cycle of the levels from `first` down, the bottom level solved
    /// exactly (`bottom_solve`).
    pub fn coarse_pass(&mut self, first: usize, p: &Params) {
        self.coarse_pass_with(first, p, true);
    }

    /// `coarse_pass` while the bottom's inverse is not ready: BOTTOM_SWEEPS SOR sweeps there.
    pub fn coarse_pass_relaxed(&mut self, first: usize, p: &Params) {
        self.coarse_pass_with(first, p, false);
    }

    fn coarse_pass_with(&mut self, first: usize, p: &Params, exact: bool) {
        let last = self.levels.len() - 1;
        for k in first..last {
            self.smooth_pass(k);
            self.restrict_pass(k);
        }
        if exact {
            self.bottom_solve();
        } else {
            for _ in 0..BOTTOM_SWEEPS {
                self.sweep(last, BOTTOM_OMEGA);
            }
        }
        for k in (first..last).rev() {
            self.prolong_pass(k, p);
        }
    }

    /// multigrid/lower: level `l`'s pre-smoothing and restriction, the coarse solve from `l + 1`
    /// down, then the correction and the post-smoothing (a CPU adapter's one dispatch).
    pub fn lower_pass(&mut self, l: usize, p: &Params) {
        self.smooth_pass(l);
        self.restrict_pass(l);
        self.coarse_pass(l + 1, p);
        self.prolong_pass(l, p);
    }

    /// The polish of a solve to a tolerance (src/sim/multigrid.rs `encode_polish`): `sweeps`
    /// smoothing sweeps on level 0.
    pub fn polish(&mut self, sweeps: u32) {
        for _ in 0..sweeps {
            self.smooth(0);
        }
    }

    /// One V-cycle on level 0, as the GPU records it.
    pub fn vcycle(&mut self, p: &Params) {
        let first =
            self.levels.iter().position(|l| l.nx <= ONE_WORKGROUP_SIDE && l.ny <= ONE_WORKGROUP_SIDE).unwrap_or(self.levels.len() - 1);
        for l in 0..first {
            self.smooth_pass(l);
            self.restrict_pass(l);
        }
        self.coarse_pass(first, p);
        for l in (0..first).rev() {
            self.prolong_pass(l, p);
        }
    }
}

/// The levels of an nx x ny grid, finest first: each coarser level ceil(n / 2) cells a side until
/// both sides are at most BOTTOM_SIDE; every level's arrays one after the other in one buffer, and
/// x below level 0 counted from level 1 (the GPU's layout, src/sim/levels.rs, by the same rule).
pub fn levels(nx: usize, ny: usize) -> Vec<LevelDesc> {
    let mut dims = vec![(nx as u32, ny as u32)];
    while let Some(&(w, h)) = dims.last() {
        if w as usize <= BOTTOM_SIDE && h as usize <= BOTTOM_SIDE {
            break;
        }
        dims.push((w.div_ceil(2), h.div_ceil(2)));
    }
    let offsets: Vec<u32> = dims.iter().scan(0, |off, &(w, h)| Some(std::mem::replace(off, *off + w * h))).collect();
    let n0 = (nx * ny) as u32;
    let x_off = |k: usize| offsets[k].saturating_sub(n0);
    (0..dims.len())
        .map(|k| {
            let (nx, ny) = dims[k];
            let (fine_nx, fine_ny, fine_off) = if k > 0 { (dims[k - 1].0, dims[k - 1].1, offsets[k - 1]) } else { (0, 0, 0) };
            let (coarse_nx, coarse_ny, coarse_off, coarse_x_off) =
                if k + 1 < dims.len() { (dims[k + 1].0, dims[k + 1].1, offsets[k + 1], x_off(k + 1)) } else { (0, 0, 0, 0) };
            LevelDesc {
                nx,
                ny,
                off: offsets[k],
                index: k as u32,
                fine_nx,
                fine_ny,
                fine_off,
                x_off: x_off(k),
                coarse_nx,
                coarse_ny,
                coarse_off,
                coarse_x_off,
            }
        })
        .collect()
}
