//! Checks a TOML type cannot make: each key's range (from the table in keys.rs), then what ties
//! keys together (sides, shapes, the domain) and what
//! needs the grid itself (inflows into solid cells). Each failure is one line naming the key.

use super::keys::{MAX_GRAVITY, MAX_SWEEPS, MAX_VCYCLES};
use super::scene::*;
use super::source::Source;
use crate::error::Result;

impl Scene {
    /// Checks values a TOML type cannot: ranges, finiteness, consistency of sides and shapes.
    pub fn validate(&self, _source: &Source) -> Result<()> {
        let g = &self.grid;
        if g.nx < 2 || g.ny < 2 {
            crate::fail!("grid {}x{}: expected grid.nx and grid.ny of at least 2 cells", g.nx, g.ny);
        }
        if g.nx > 1 << 16 || g.ny > 1 << 16 {
            crate::fail!("grid {}x{}: expected at most 65536 cells a side", g.nx, g.ny);
        }
        // every key's own range, from the table of keys; below, what ties keys together
        let value = toml::Value::try_from(self).map_err(|e| crate::error!("scene: {e}"))?;
        super::keys::check_ranges(&value)?;
        match &g.dye_scale {
            DyeScale::Scale(k) if (1..=DYE_MAX_SCALE).contains(k) => {}
            DyeScale::Word(w) if w == "auto" => {}
            DyeScale::Scale(k) => crate::fail!("grid.dye_scale = {k}: expected a whole number from 1 to {DYE_MAX_SCALE}, or \"auto\""),
            DyeScale::Word(w) => crate::fail!("grid.dye_scale = \"{w}\": expected a whole number from 1 to {DYE_MAX_SCALE}, or \"auto\""),
        }
        if self.advection.velocity == Scheme::Conservative {
            crate::fail!(
                "advection.velocity = \"conservative\": the flux form is for ink and density only; use semi-lagrangian, maccormack or bfecc"
            );
        }
        finite_all("forces.gravity", &self.forces.gravity)?;
        let g = self.forces.gravity;
        if (g[0] as f64).hypot(g[1] as f64) > MAX_GRAVITY as f64 {
            crate::fail!(
                "forces.gravity = {g:?}: expected at most {MAX_GRAVITY} m/s² in size (about 100 g; Earth's is 9.81), or the buoyancy it drives is no longer a flow the grid can hold"
            );
        }
        let s = &self.solver;
        for kind in [SolverKind::Multigrid, SolverKind::Mgpcg, SolverKind::Jacobi, SolverKind::Sor] {
            let (most, what) = match kind {
                SolverKind::Multigrid => (MAX_VCYCLES, "V-cycles"),
                SolverKind::Mgpcg => (MAX_VCYCLES, "iterations"),
                _ => (MAX_SWEEPS, "sweeps"),
            };
            let n = if kind == s.kind { s.cap() } else { s.cap_of(kind) };
            if !(0..=most).contains(&n) {
                let via = if kind == s.kind { " (solver.iterations sets it for the solver.kind in use)" } else { "" };
                crate::fail!(
                    "{} = {n}: expected a whole number from 0 to {most} {what}{via}; more never help: raise solver.tolerance or use multigrid",
                    kind.cap_key()
                );
            }
        }
        let b = &self.boundary;
        for (a, z) in [(&b.left, &b.right), (&b.bottom, &b.top)] {
            let (pa, pz) = (a.kind == BoundaryKind::Periodic, z.kind == BoundaryKind::Periodic);
            if pa != pz {
                let (na, nz) = if std::ptr::eq(a, &b.left) { ("left", "right") } else { ("bottom", "top") };
                crate::fail!("boundary.{na} and boundary.{nz}: a periodic side needs a periodic opposite side");
            }
        }
        let (w, h) = self.size();
        for (n, o) in self.obstacles.iter().enumerate() {
            let (lo, hi) = match o {
                Obstacle::Circle { center, radius } => ([center[0] - radius, center[1] - radius], [center[0] + radius, center[1] + radius]),
                Obstacle::Rect { min, max } | Obstacle::Mask { min, max, .. } => {
                    if !(min[0] < max[0] && min[1] < max[1]) {
                        crate::fail!("obstacles[{n}]: expected min < max on both axes, got min {min:?} max {max:?}");
                    }
                    (*min, *max)
                }
            };
            if hi[0] <= 0.0 || hi[1] <= 0.0 || lo[0] >= w || lo[1] >= h {
                crate::fail!("obstacles[{n}] lies outside the domain [0, {w}] x [0, {h}] metres");
            }
        }
        let inside = |p: [f32; 2]| (0.0..=w).contains(&p[0]) && (0.0..=h).contains(&p[1]);
        for (n, e) in self.emitters.iter().enumerate() {
            if !inside(e.position) {
                crate::fail!("emitters[{n}] at {:?} lies outside the domain [0, {w}] x [0, {h}] metres", e.position);
            }
        }
        for (n, bl) in self.blobs.iter().enumerate() {
            if !inside(bl.center) {
                crate::fail!("blobs[{n}] at {:?} lies outside the domain [0, {w}] x [0, {h}] metres", bl.center);
            }
        }
        Ok(())
    }

    /// Checks what needs the grid itself (masks, inflows into solids). Call once the grid is
    /// known to fit the device: it allocates a cell array.
    pub fn validate_geometry(&self, source: &Source) -> Result<()> {
        let b = &self.boundary;
        let solid = self.solid_mask(source)?;
        let (nx, ny) = (self.grid.nx as usize, self.grid.ny as usize);
        for (name, side) in b.sides() {
            if side.kind != BoundaryKind::Inflow {
                continue;
            }
            let cells: Vec<usize> = match name {
                "left" => (0..ny).map(|j| j * nx).collect(),
                "right" => (0..ny).map(|j| j * nx + nx - 1).collect(),
                "bottom" => (0..nx).collect(),
                _ => (0..nx).map(|i| (ny - 1) * nx + i).collect(),
            };
            if cells.iter().any(|&c| solid[c] > 0.5) {
                crate::fail!("boundary.{name} is an inflow into solid cells: move the obstacle off that side or make it a wall");
            }
        }
        Ok(())
    }
}

fn finite_all(key: &str, xs: &[f32]) -> Result<()> {
    if xs.iter().any(|x| !x.is_finite()) {
        crate::fail!("{key} = {xs:?}: expected finite numbers");
    }
    Ok(())
}
