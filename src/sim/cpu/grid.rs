//! CPU twin of shaders/shared/grid.wgsl: boundary classification and the staggered samplers,
//! written as plainly as the WGSL so the two can be read side by side.
//! Over 400 lines on purpose: it mirrors the prelude (itself over 400, for the reason it gives)
//! function by function.

use crate::sim::fields::Fields;
use crate::sim::params::*;

pub fn wrap(i: i32, n: i32) -> i32 {
    ((i % n) + n) % n
}

/// The side a cell index outside a `w` × `h` grid lies beyond (`None`: inside). A corner counts as
/// its top or bottom side, as `side_outside` in the WGSL prelude.
pub fn side_outside(a: i32, b: i32, w: i32, h: i32) -> Option<usize> {
    if b >= h {
        Some(SIDE_TOP)
    } else if b < 0 {
        Some(SIDE_BOTTOM)
    } else if a >= w {
        Some(SIDE_RIGHT)
    } else if a < 0 {
        Some(SIDE_LEFT)
    } else {
        None
    }
}

pub struct Grid<'a> {
    pub f: &'a Fields,
    pub p: &'a Params,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Neighbour {
    None,
    Fluid(i32, i32),
    Dirichlet,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Face {
    pub fixed: bool,
    pub value: f32,
}

/// One point of a bilinear lattice: array index, weight, and the ghost map `value * scale + offset`
/// (identity inside the domain).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LatticePoint {
    pub k: usize,
    pub w: f32,
    pub scale: f32,
    pub offset: f32,
}

impl LatticePoint {
    /// This point's value of a field stored `stride` values a point, channel `ch`.
    pub fn value(&self, a: &[f32], stride: usize, ch: usize) -> f32 {
        a[stride * self.k + ch] * self.scale + self.offset
    }
    /// The value at the side itself, midway between a ghost and its inside point (the wall's or
    /// inflow's own speed; the value itself inside): what the MacCormack limiter bounds by.
    pub fn at_side(&self, a: &[f32], stride: usize, ch: usize) -> f32 {
        0.5 * (a[stride * self.k + ch] * (1.0 + self.scale) + self.offset)
    }
}

/// Four lattice points around a sample (order: (i0, j0), (i1, j0), (i0, j1), (i1, j1)).
pub type Lattice = [LatticePoint; 4];

pub struct Span {
    pub i0: i32,
    pub i1: i32,
    pub t: f32,
}

pub fn span_clamped(g: f32, last: i32) -> Span {
    let c = g.clamp(0.0, last as f32);
    let i0 = (c.floor() as i32).min((last - 1).max(0));
    let i1 = (i0 + 1).min(last);
    Span { i0, i1, t: c - i0 as f32 }
}

/// Along a non-periodic axis whose end samples lie half a cell inside the sides: reaches half a
/// cell beyond them into the ghost samples -1 and last + 1 (grid.wgsl `span_ghosted`).
pub fn span_ghosted(g: f32, last: i32) -> Span {
    let c = g.clamp(-0.5, last as f32 + 0.5);
    let i0 = (c.floor() as i32).clamp(-1, last);
    Span { i0, i1: i0 + 1, t: c - i0 as f32 }
}

pub fn span_wrapped(g: f32, n: i32) -> Span {
    let f = g.floor();
    let i0 = wrap(f as i32, n);
    Span { i0, i1: wrap(i0 + 1, n), t: g - f }
}

fn mix(a: f32, b: f32, t: f32) -> f32 {
    a * (1.0 - t) + b * t
}

impl<'a> Grid<'a> {
    pub fn new(f: &'a Fields, p: &'a Params) -> Self {
        Grid { f, p }
    }
    pub fn nx(&self) -> i32 {
        self.p.nx as i32
    }
    pub fn ny(&self) -> i32 {
        self.p.ny as i32
    }
    pub fn px(&self) -> bool {
        self.p.periodic_x()
    }
    pub fn py(&self) -> bool {
        self.p.periodic_y()
    }
    pub fn cell(&self, i: i32, j: i32) -> usize {
        (j * self.nx() + i) as usize
    }
    pub fn ui(&self, i: i32, j: i32) -> usize {
        (j * (self.nx() + 1) + i) as usize
    }
    pub fn vi(&self, i: i32, j: i32) -> usize {
        (j * self.nx() + i) as usize
    }
    pub fn is_solid(&self, i: i32, j: i32) -> bool {
        self.f.solid[self.cell(i, j)] > 0.5
    }

    pub fn neighbour(&self, i: i32, j: i32, di: i32, dj: i32) -> Neighbour {
        let (mut a, mut b) = (i + di, j + dj);
        let side = side_outside(a, b, self.nx(), self.ny());
        if let Some(side) = side {
            match self.p.bc_kind[side] {
                BC_OUTFLOW => return Neighbour::Dirichlet,
                BC_PERIODIC => {
                    a = wrap(a, self.nx());
                    b = wrap(b, self.ny());
                }
                _ => return Neighbour::None,
            }
        }
        if self.is_solid(a, b) { Neighbour::None } else { Neighbour::Fluid(a, b) }
    }

    /// The value a solid face between cells a and b fixes (shaders/shared/solid.wgsl
    /// `face_speed`): `speed`, the dragged body's velocity along the face's axis, where it joins
    /// the body's cells (`SOLID_MOVING`) to fluid or to each other; 0 beside a still solid.
    pub fn face_speed(&self, a: usize, b: usize, speed: f32) -> f32 {
        let (sa, sb) = (self.f.solid[a], self.f.solid[b]);
        let still = (sa > 0.5 && sa < 1.5) || (sb > 0.5 && sb < 1.5);
        if !still && sa.max(sb) > 1.5 { speed } else { 0.0 }
    }

    pub fn u_face(&self, i: i32, j: i32) -> Face {
        let side = if i == 0 {
            Some(SIDE_LEFT)
        } else if i == self.nx() {
            Some(SIDE_RIGHT)
        } else {
            None
        };
        if let (Some(side), false) = (side, self.px()) {
            match self.p.bc_kind[side] {
                BC_WALL => return Face { fixed: true, value: 0.0 },
                BC_INFLOW => return Face { fixed: true, value: self.p.inflow_u[side] * self.p.inflow_profile(side, j, self.ny()) },
                _ => {
                    let c = if side == SIDE_LEFT { 0 } else { self.nx() - 1 };
                    return Face { fixed: self.is_solid(c, j), value: 0.0 };
                }
            }
        }
        let (l, r) = (wrap(i - 1, self.nx()), wrap(i, self.nx()));
        let fixed = self.is_solid(l, j) || self.is_solid(r, j);
        Face { fixed, value: if fixed { self.face_speed(self.cell(l, j), self.cell(r, j), self.p.body_velocity[0]) } else { 0.0 } }
    }

    pub fn v_face(&self, i: i32, j: i32) -> Face {
        let side = if j == 0 {
            Some(SIDE_BOTTOM)
        } else if j == self.ny() {
            Some(SIDE_TOP)
        } else {
            None
        };
        if let (Some(side), false) = (side, self.py()) {
            match self.p.bc_kind[side] {
                BC_WALL => return Face { fixed: true, value: 0.0 },
                BC_INFLOW => return Face { fixed: true, value: self.p.inflow_v[side] * self.p.inflow_profile(side, i, self.nx()) },
                _ => {
                    let c = if side == SIDE_BOTTOM { 0 } else { self.ny() - 1 };
                    return Face { fixed: self.is_solid(i, c), value: 0.0 };
                }
            }
        }
        let (b, t) = (wrap(j - 1, self.ny()), wrap(j, self.ny()));
        let fixed = self.is_solid(i, b) || self.is_solid(i, t);
        Face { fixed, value: if fixed { self.face_speed(self.cell(i, b), self.cell(i, t), self.p.body_velocity[1]) } else { 0.0 } }
    }

    pub fn u_at(&self, i: i32, j: i32) -> f32 {
        let a = if self.px() { wrap(i, self.nx()) } else { i };
        self.f.u[self.ui(a, j)]
    }
    pub fn v_at(&self, i: i32, j: i32) -> f32 {
        let b = if self.py() { wrap(j, self.ny()) } else { j };
        self.f.v[self.vi(i, b)]
    }
    /// A face's velocity with prescribed faces read as their prescribed value.
    pub fn u_value(&self, i: i32, j: i32) -> f32 {
        let f = self.u_face(i, j);
        if f.fixed { f.value } else { self.u_at(i, j) }
    }
    pub fn v_value(&self, i: i32, j: i32) -> f32 {
        let f = self.v_face(i, j);
        if f.fixed { f.value } else { self.v_at(i, j) }
    }

    /// Tangential velocity just outside a non-periodic side (the ghost value), as in grid.wgsl:
    /// 2·U_wall − inside at a no-slip wall, 2·U_in − inside at an inflow, else the inside value.
    pub fn tangential_ghost(&self, side: usize, inside: f32, tangential_in: f32) -> f32 {
        match self.p.bc_kind[side] {
            BC_WALL if self.p.bc_slip[side] == SLIP_NO_SLIP => 2.0 * self.p.bc_speed[side] - inside,
            BC_INFLOW => 2.0 * tangential_in - inside,
            _ => inside,
        }
    }

    fn u_row_ghosted(&self, field: &[f32], i: i32, j: i32) -> f32 {
        if j < 0 {
            return self.tangential_ghost(SIDE_BOTTOM, field[self.ui(i, 0)], self.p.inflow_u[SIDE_BOTTOM]);
        }
        if j >= self.ny() {
            return self.tangential_ghost(SIDE_TOP, field[self.ui(i, self.ny() - 1)], self.p.inflow_u[SIDE_TOP]);
        }
        field[self.ui(i, j)]
    }

    fn v_col_ghosted(&self, field: &[f32], i: i32, j: i32) -> f32 {
        if i < 0 {
            return self.tangential_ghost(SIDE_LEFT, field[self.vi(0, j)], self.p.inflow_v[SIDE_LEFT]);
        }
        if i >= self.nx() {
            return self.tangential_ghost(SIDE_RIGHT, field[self.vi(self.nx() - 1, j)], self.p.inflow_v[SIDE_RIGHT]);
        }
        field[self.vi(i, j)]
    }

    /// Ghost map `(scale, offset)` of tangential lattice line `r` of `n` (u rows, v columns):
    /// identity inside, the wall or inflow ghost of [`Self::tangential_ghost`] beyond `low`/`high`.
    fn line_ghost(&self, r: i32, n: i32, low: usize, high: usize, tangential: &[f32; 4]) -> (f32, f32) {
        let side = if r < 0 {
            low
        } else if r >= n {
            high
        } else {
            return (1.0, 0.0);
        };
        let offset = self.tangential_ghost(side, 0.0, tangential[side]);
        let scale = self.tangential_ghost(side, 1.0, tangential[side]) - offset;
        (scale, offset)
    }

    /// The four u-lattice points around (x, y) with their weights and ghost maps, reaching half
    /// a cell beyond the bottom and top into the ghost rows as [`Self::sample_u_in`] does
    /// (grid points are `ui`, rows clamped; the ghost map turns the row's value into the ghost's).
    pub fn u_lattice(&self, x: f32, y: f32) -> Lattice {
        let h = self.p.h;
        let (gx, gy) = (x / h, y / h - 0.5);
        let sx = if self.px() { span_wrapped(gx, self.nx()) } else { span_clamped(gx, self.nx()) };
        let sy = if self.py() { span_wrapped(gy, self.ny()) } else { span_ghosted(gy, self.ny() - 1) };
        let row = |r: i32| (r.clamp(0, self.ny() - 1), self.line_ghost(r, self.ny(), SIDE_BOTTOM, SIDE_TOP, &self.p.inflow_u));
        let ((r0, g0), (r1, g1)) = (row(sy.i0), row(sy.i1));
        let point = |i: i32, r: i32, w: f32, g: (f32, f32)| LatticePoint { k: self.ui(i, r), w, scale: g.0, offset: g.1 };
        [
            point(sx.i0, r0, (1.0 - sx.t) * (1.0 - sy.t), g0),
            point(sx.i1, r0, sx.t * (1.0 - sy.t), g0),
            point(sx.i0, r1, (1.0 - sx.t) * sy.t, g1),
            point(sx.i1, r1, sx.t * sy.t, g1),
        ]
    }

    /// The four v-lattice points around (x, y), with ghost columns beyond the left and right.
    pub fn v_lattice(&self, x: f32, y: f32) -> Lattice {
        let h = self.p.h;
        let (gx, gy) = (x / h - 0.5, y / h);
        let sx = if self.px() { span_wrapped(gx, self.nx()) } else { span_ghosted(gx, self.nx() - 1) };
        let sy = if self.py() { span_wrapped(gy, self.ny()) } else { span_clamped(gy, self.ny()) };
        let col = |c: i32| (c.clamp(0, self.nx() - 1), self.line_ghost(c, self.nx(), SIDE_LEFT, SIDE_RIGHT, &self.p.inflow_v));
        let ((c0, g0), (c1, g1)) = (col(sx.i0), col(sx.i1));
        let point = |c: i32, j: i32, w: f32, g: (f32, f32)| LatticePoint { k: self.vi(c, j), w, scale: g.0, offset: g.1 };
        [
            point(c0, sy.i0, (1.0 - sx.t) * (1.0 - sy.t), g0),
            point(c1, sy.i0, sx.t * (1.0 - sy.t), g1),
            point(c0, sy.i1, (1.0 - sx.t) * sy.t, g0),
            point(c1, sy.i1, sx.t * sy.t, g1),
        ]
    }

    /// Bilinear sample on the u lattice; within half a cell of the bottom or top side it blends
    /// with the ghost row.
    pub fn sample_u_in(&self, field: &[f32], x: f32, y: f32) -> f32 {
        let h = self.p.h;
        let (gx, gy) = (x / h, y / h - 0.5);
        let sx = if self.px() { span_wrapped(gx, self.nx()) } else { span_clamped(gx, self.nx()) };
        let sy = if self.py() { span_wrapped(gy, self.ny()) } else { span_ghosted(gy, self.ny() - 1) };
        let a = mix(self.u_row_ghosted(field, sx.i0, sy.i0), self.u_row_ghosted(field, sx.i1, sy.i0), sx.t);
        let b = mix(self.u_row_ghosted(field, sx.i0, sy.i1), self.u_row_ghosted(field, sx.i1, sy.i1), sx.t);
        mix(a, b, sy.t)
    }

    /// Bilinear sample on the v lattice, with ghost columns beyond the left and right sides.
    pub fn sample_v_in(&self, field: &[f32], x: f32, y: f32) -> f32 {
        let h = self.p.h;
        let (gx, gy) = (x / h - 0.5, y / h);
        let sx = if self.px() { span_wrapped(gx, self.nx()) } else { span_ghosted(gx, self.nx() - 1) };
        let sy = if self.py() { span_wrapped(gy, self.ny()) } else { span_clamped(gy, self.ny()) };
        let a = mix(self.v_col_ghosted(field, sx.i0, sy.i0), self.v_col_ghosted(field, sx.i1, sy.i0), sx.t);
        let b = mix(self.v_col_ghosted(field, sx.i0, sy.i1), self.v_col_ghosted(field, sx.i1, sy.i1), sx.t);
        mix(a, b, sy.t)
    }

    pub fn velocity_at(&self, x: f32, y: f32) -> (f32, f32) {
        (self.sample_u_in(&self.f.u, x, y), self.sample_v_in(&self.f.v, x, y))
    }

    pub fn clamp_to_domain(&self, x: f32, y: f32) -> (f32, f32) {
        let (sx, sy) = (self.p.nx as f32 * self.p.h, self.p.ny as f32 * self.p.h);
        (if self.px() { x } else { x.clamp(0.0, sx) }, if self.py() { y } else { y.clamp(0.0, sy) })
    }

    /// The one midpoint trace over a signed step (dt > 0: back in time), end point unclamped
    /// (`trace_raw` in WGSL).
    pub fn trace_raw(&self, x: f32, y: f32, dt: f32) -> (f32, f32) {
        let (u0, v0) = self.velocity_at(x, y);
        let (mx, my) = self.clamp_to_domain(x - 0.5 * dt * u0, y - 0.5 * dt * v0);
        let (u1, v1) = self.velocity_at(mx, my);
        (x - dt * u1, y - dt * v1)
    }

    /// Midpoint back-trace over one step, end point unclamped.
    pub fn trace_back_raw(&self, x: f32, y: f32) -> (f32, f32) {
        self.trace_raw(x, y, self.p.dt)
    }

    /// The non-periodic side a back-traced point left the domain through (`side_crossed` in WGSL).
    pub fn side_crossed(&self, bx: f32, by: f32) -> Option<usize> {
        let (sx, sy) = (self.p.nx as f32 * self.p.h, self.p.ny as f32 * self.p.h);
        if by > sy && !self.py() {
            Some(SIDE_TOP)
        } else if by < 0.0 && !self.py() {
            Some(SIDE_BOTTOM)
        } else if bx > sx && !self.px() {
            Some(SIDE_RIGHT)
        } else if bx < 0.0 && !self.px() {
            Some(SIDE_LEFT)
        } else {
            None
        }
    }

    pub fn trace_back(&self, x: f32, y: f32) -> (f32, f32) {
        let (bx, by) = self.trace_back_raw(x, y);
        self.clamp_to_domain(bx, by)
    }

    /// Cell-centred bilinear stencil with solid cells weighted zero and the rest renormalised.
    pub fn cell_stencil(&self, x: f32, y: f32) -> [(i32, i32, f32); 4] {
        self.lattice_stencil(x, y, 1)
    }

    /// The same on the dye grid: (a, b) are dye cells.
    pub fn dye_stencil(&self, x: f32, y: f32) -> [(i32, i32, f32); 4] {
        self.lattice_stencil(x, y, self.dye_k())
    }

    /// Cell-centred stencil on the lattice k times finer than the flow grid; a fine cell is solid
    /// when its flow cell is (grid.wgsl `lattice_stencil`).
    pub fn lattice_stencil(&self, x: f32, y: f32, k: i32) -> [(i32, i32, f32); 4] {
        let fh = self.p.h / k as f32;
        let (n_x, n_y) = (self.nx() * k, self.ny() * k);
        let sx = if self.px() { span_wrapped(x / fh - 0.5, n_x) } else { span_clamped(x / fh - 0.5, n_x - 1) };
        let sy = if self.py() { span_wrapped(y / fh - 0.5, n_y) } else { span_clamped(y / fh - 0.5, n_y - 1) };
        let mut s = [
            (sx.i0, sy.i0, (1.0 - sx.t) * (1.0 - sy.t)),
            (sx.i1, sy.i0, sx.t * (1.0 - sy.t)),
            (sx.i0, sy.i1, (1.0 - sx.t) * sy.t),
            (sx.i1, sy.i1, sx.t * sy.t),
        ];
        let open: Vec<f32> = s.iter().map(|&(a, b, _)| if self.is_solid(a / k, b / k) { 0.0 } else { 1.0 }).collect();
        let total: f32 = s.iter().zip(&open).map(|(c, o)| c.2 * o).sum();
        for (c, o) in s.iter_mut().zip(&open) {
            c.2 = if total > 0.0 { c.2 * o / total } else { 0.0 };
        }
        s
    }

    /// The dye grid's scale k, its size, cell side and indexing (grid.wgsl `dye_*`).
    pub fn dye_k(&self) -> i32 {
        self.f.dye_scale as i32
    }
    pub fn dye_nx(&self) -> i32 {
        self.nx() * self.dye_k()
    }
    pub fn dye_ny(&self) -> i32 {
        self.ny() * self.dye_k()
    }
    pub fn dye_h(&self) -> f32 {
        self.p.h / self.dye_k() as f32
    }
    pub fn dye_idx(&self, a: i32, b: i32) -> usize {
        (b * self.dye_nx() + a) as usize
    }
    pub fn dye_centre(&self, a: i32, b: i32) -> (f32, f32) {
        ((a as f32 + 0.5) * self.dye_h(), (b as f32 + 0.5) * self.dye_h())
    }
    pub fn dye_solid(&self, a: i32, b: i32) -> bool {
        self.is_solid(a / self.dye_k(), b / self.dye_k())
    }
}

pub fn falloff(d: f32, radius: f32) -> f32 {
    let x = (1.0 - (d * d) / (radius * radius)).clamp(0.0, 1.0);
    x * x
}
