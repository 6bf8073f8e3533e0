//! Checks a TOML type cannot make: ranges, finiteness, consistency of sides and shapes, and what
//! needs the grid itself (inflows into solid cells). Each failure is one line naming the key.

use super::scene::*;
use super::source::Source;
use crate::error::{Error, Result};

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
        positive("grid.cell_size", g.cell_size, "metres")?;
        match &g.dye_scale {
            DyeScale::Scale(k) if (1..=DYE_MAX_SCALE).contains(k) => {}
            DyeScale::Word(w) if w == "auto" => {}
            DyeScale::Scale(k) => crate::fail!("grid.dye_scale = {k}: expected a whole number from 1 to {DYE_MAX_SCALE}, or \"auto\""),
            DyeScale::Word(w) => crate::fail!("grid.dye_scale = \"{w}\": expected a whole number from 1 to {DYE_MAX_SCALE}, or \"auto\""),
        }
        positive("time.dt", self.time.dt, "seconds")?;
        if !(self.time.max_cfl.is_finite() && (0.0..=100.0).contains(&self.time.max_cfl)) {
            crate::fail!("time.max_cfl = {}: expected a number of cells from 0 (no sub-steps) to 100", self.time.max_cfl);
        }
        if !(1..=1000).contains(&self.time.max_substeps) {
            crate::fail!("time.max_substeps = {}: expected a whole number from 1 to 1000", self.time.max_substeps);
        }
        positive("fluid.density", self.fluid.density, "kg/m³")?;
        non_negative("fluid.viscosity", self.fluid.viscosity, "m²/s")?;
        non_negative("fluid.ink_dissipation", self.fluid.ink_dissipation, "1/s")?;
        non_negative("fluid.density_drain", self.fluid.density_drain, "1/s")?;
        non_negative("forces.vorticity", self.forces.vorticity, "")?;
        if self.forces.vorticity > MAX_VORTICITY {
            crate::fail!("forces.vorticity = {}: expected a confinement strength from 0 to {MAX_VORTICITY}", self.forces.vorticity);
        }
        if self.advection.velocity == Scheme::Conservative {
            crate::fail!(
                "advection.velocity = \"conservative\": the flux form is for ink and density only; use semi-lagrangian, maccormack or bfecc"
            );
        }
        non_negative("forces.damping", self.forces.damping, "1/s")?;
        non_negative("solver.tolerance", self.solver.tolerance, "")?;
        finite_all("forces.gravity", &self.forces.gravity)?;
        let g = self.forces.gravity;
        if (g[0] as f64).hypot(g[1] as f64) > MAX_GRAVITY as f64 {
            crate::fail!(
                "forces.gravity = {g:?}: expected at most {MAX_GRAVITY} m/s² in size (about 100 g; Earth's is 9.81), or the buoyancy it drives is no longer a flow the grid can hold"
            );
        }
        if !(0..=10_000).contains(&self.fluid.viscosity_iterations) {
            crate::fail!("fluid.viscosity_iterations = {}: expected a whole number from 0 to 10000", self.fluid.viscosity_iterations);
        }
        let s = &self.solver;
        let (most, what) = if s.kind == SolverKind::Multigrid { (MAX_VCYCLES, "V-cycles") } else { (MAX_SWEEPS, "sweeps") };
        if !(0..=most).contains(&s.iterations) {
            crate::fail!(
                "solver.iterations = {}: expected a whole number from 0 to {most} {what} for solver.kind = \"{}\" (more never help: raise solver.tolerance or use multigrid)",
                s.iterations,
                format!("{:?}", s.kind).to_lowercase()
            );
        }
        if !(s.jacobi_weight > 0.0 && s.jacobi_weight <= 1.0) {
            crate::fail!("solver.jacobi_weight = {}: expected a number in (0, 1]", s.jacobi_weight);
        }
        if !(s.omega > 0.0 && s.omega < 2.0) {
            crate::fail!("solver.omega = {}: expected a number in (0, 2)", s.omega);
        }
        if !(1..=64).contains(&self.display.steps_per_frame) {
            crate::fail!("display.steps_per_frame = {}: expected 1 to 64", self.display.steps_per_frame);
        }
        let b = &self.boundary;
        for (a, z) in [(&b.left, &b.right), (&b.bottom, &b.top)] {
            let (pa, pz) = (a.kind == BoundaryKind::Periodic, z.kind == BoundaryKind::Periodic);
            if pa != pz {
                let (na, nz) = if std::ptr::eq(a, &b.left) { ("left", "right") } else { ("bottom", "top") };
                crate::fail!("boundary.{na} and boundary.{nz}: a periodic side needs a periodic opposite side");
            }
        }
        for (name, side) in b.sides() {
            non_negative_or_any(&format!("boundary.{name}.speed"), side.speed)?;
            bounded_all(&format!("boundary.{name}.speed"), &[side.speed], MAX_SPEED, "m/s")?;
            finite_all(&format!("boundary.{name}.velocity"), &side.velocity)?;
            bounded_all(&format!("boundary.{name}.velocity"), &side.velocity, MAX_SPEED, "m/s")?;
            finite_all(&format!("boundary.{name}.ink"), &side.ink)?;
        }
        let (w, h) = self.size();
        for (n, o) in self.obstacles.iter().enumerate() {
            let (lo, hi) = match o {
                Obstacle::Circle { center, radius } => {
                    positive(&format!("obstacles[{n}].radius"), *radius, "metres")?;
                    ([center[0] - radius, center[1] - radius], [center[0] + radius, center[1] + radius])
                }
                Obstacle::Rect { min, max } | Obstacle::Mask { min, max, .. } => {
                    if let Obstacle::Mask { threshold, .. } = o
                        && !(0.0..=1.0).contains(threshold)
                    {
                        crate::fail!("obstacles[{n}].threshold = {threshold}: expected a number from 0 to 1");
                    }
                    finite_all(&format!("obstacles[{n}].min"), min)?;
                    finite_all(&format!("obstacles[{n}].max"), max)?;
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
            positive(&format!("emitters[{n}].radius"), e.radius, "metres")?;
            finite_all(&format!("emitters[{n}].position"), &e.position)?;
            finite_all(&format!("emitters[{n}].velocity"), &e.velocity)?;
            bounded_all(&format!("emitters[{n}].velocity"), &e.velocity, MAX_SPEED, "m/s")?;
            bounded_all(&format!("emitters[{n}].ink"), &e.ink, MAX_AMOUNT, "")?;
            bounded_all(&format!("emitters[{n}].density"), &[e.density], MAX_AMOUNT, "kg/m³")?;
            if !(e.rate.is_finite() && (0.0..=MAX_AMOUNT).contains(&e.rate)) {
                crate::fail!("emitters[{n}].rate = {}: expected a number from 0 to {MAX_AMOUNT:e} per second", e.rate);
            }
            if !inside(e.position) {
                crate::fail!("emitters[{n}] at {:?} lies outside the domain [0, {w}] x [0, {h}] metres", e.position);
            }
        }
        for (n, l) in self.layers.iter().enumerate() {
            finite_all(&format!("layers[{n}]"), &[l.bottom, l.top, l.density, l.amplitude, l.waves, l.ink[0], l.ink[1], l.ink[2]])?;
        }
        for (n, bl) in self.blobs.iter().enumerate() {
            positive(&format!("blobs[{n}].radius"), bl.radius, "metres")?;
            finite_all(&format!("blobs[{n}].center"), &bl.center)?;
            bounded_all(&format!("blobs[{n}].ink"), &bl.ink, MAX_AMOUNT, "")?;
            bounded_all(&format!("blobs[{n}].density"), &[bl.density], MAX_AMOUNT, "kg/m³")?;
            bounded_all(&format!("blobs[{n}].velocity"), &bl.velocity, MAX_SPEED, "m/s")?;
            bounded_all(&format!("blobs[{n}].swirl"), &[bl.swirl], MAX_SPEED, "1/s")?;
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

fn positive(key: &str, x: f32, unit: &str) -> Result<()> {
    if !(x.is_finite() && x > 0.0) {
        return Err(Error(format!("{key} = {x}: expected a finite number greater than 0 {unit}").trim_end().to_string()));
    }
    Ok(())
}

fn non_negative(key: &str, x: f32, unit: &str) -> Result<()> {
    if !(x.is_finite() && x >= 0.0) {
        return Err(Error(format!("{key} = {x}: expected a finite number of at least 0 {unit}").trim_end().to_string()));
    }
    Ok(())
}

fn non_negative_or_any(key: &str, x: f32) -> Result<()> {
    if !x.is_finite() {
        crate::fail!("{key} = {x}: expected a finite number");
    }
    Ok(())
}

/// Largest |velocity| (m/s) and |swirl| (1/s) a blob, emitter, wall or inflow may set: far
/// beyond any smoke, well inside f32, so energies and their sums stay finite.
pub const MAX_SPEED: f32 = 1e4;
/// Largest |gravity| (m/s²).
pub const MAX_GRAVITY: f32 = 1e3;
/// Largest vorticity confinement strength ε.
pub const MAX_VORTICITY: f32 = 1e3;
/// Most Jacobi or SOR sweeps a step: beyond, a tolerance is better met by multigrid.
pub const MAX_SWEEPS: i64 = 10_000;
/// Most multigrid V-cycles a step: each cuts the residual about tenfold, so 200 are far past f32.
pub const MAX_VCYCLES: i64 = 200;
/// Largest |ink|, |density| (kg/m³) and emitter rate (1/s).
const MAX_AMOUNT: f32 = 1e6;

fn bounded_all(key: &str, xs: &[f32], limit: f32, unit: &str) -> Result<()> {
    if xs.iter().any(|x| !(x.is_finite() && x.abs() <= limit)) {
        let shown = if xs.len() == 1 { format!("{}", xs[0]) } else { format!("{xs:?}") };
        return Err(Error(format!("{key} = {shown}: expected finite numbers of at most {limit:e} in size {unit}").trim_end().to_string()));
    }
    Ok(())
}

fn finite_all(key: &str, xs: &[f32]) -> Result<()> {
    if xs.iter().any(|x| !x.is_finite()) {
        crate::fail!("{key} = {xs:?}: expected finite numbers");
    }
    Ok(())
}
