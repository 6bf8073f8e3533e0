//! The scene format (DESIGN.md §5): one plain struct with a default for every key, read from TOML.
//! Every key, its unit and default is documented in docs/scenes.md. Reading (with `--set`
//! overrides) is in overrides.rs, checks in validate.rs, built-ins and files in source.rs.
//! Over 400 lines on purpose: one plain struct per section of the format, each key documented
//! with its unit where it is declared, so the format reads in one place.

use serde::{Deserialize, Serialize};

/// Advection scheme codes as the shaders read them (`Params::schemes`: x velocity, y ink, z density).
pub const SCHEME_SEMI_LAGRANGIAN: u32 = 0;
pub const SCHEME_MACCORMACK: u32 = 1;
pub const SCHEME_BFECC: u32 = 2;
pub const SCHEME_CONSERVATIVE: u32 = 3;

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Scene {
    /// Shown in the app and written to meta.json.
    pub name: String,
    pub description: String,
    pub grid: GridConfig,
    pub time: TimeConfig,
    pub fluid: FluidConfig,
    pub solver: SolverConfig,
    pub advection: AdvectionConfig,
    pub forces: ForcesConfig,
    pub boundary: Boundaries,
    pub obstacles: Vec<Obstacle>,
    pub emitters: Vec<Emitter>,
    pub blobs: Vec<Blob>,
    pub layers: Vec<Layer>,
    pub display: DisplayConfig,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct GridConfig {
    /// Cells across and up.
    pub nx: i64,
    pub ny: i64,
    /// Cell side, metres.
    pub cell_size: f32,
    /// The dye (ink) grid is this whole multiple k of the flow grid, or "auto" (`DyeScale`).
    pub dye_scale: DyeScale,
}

impl Default for GridConfig {
    fn default() -> Self {
        GridConfig { nx: 128, ny: 128, cell_size: 1.0 / 128.0, dye_scale: DyeScale::default() }
    }
}

/// `grid.dye_scale`: a whole number k ≥ 1, or the word "auto" (the default): k so that the dye
/// grid is about `DYE_TARGET` cells across, within `DYE_MAX_CELLS`.
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(untagged)]
pub enum DyeScale {
    Scale(i64),
    Word(String),
}

impl Default for DyeScale {
    fn default() -> Self {
        DyeScale::Word("auto".into())
    }
}

/// Dye cells across the longer side that "auto" aims for (about a window's resolution).
pub const DYE_TARGET: usize = 512;
/// At most this many dye cells under "auto" (about 40 MB of ink buffers, within every device's
/// 128 MiB binding limit).
pub const DYE_MAX_CELLS: usize = 1 << 20;
/// The largest scale a scene may ask for.
pub const DYE_MAX_SCALE: i64 = 16;

/// The scale "auto" picks for an nx × ny flow grid.
pub fn auto_dye_scale(nx: usize, ny: usize) -> usize {
    let longest = nx.max(ny).max(1);
    let mut k = ((DYE_TARGET as f64 / longest as f64).round() as usize).clamp(1, DYE_MAX_SCALE as usize);
    while k > 1 && k * k * nx * ny > DYE_MAX_CELLS {
        k -= 1;
    }
    k
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct TimeConfig {
    /// Simulation time step, seconds.
    pub dt: f32,
    /// CFL limit: cells the fastest fluid may cross in one sub-step (0: never split a step).
    pub max_cfl: f32,
    /// Most sub-steps one step may be split into; a dt that needs more is shortened, with a warning.
    pub max_substeps: i64,
}

impl Default for TimeConfig {
    fn default() -> Self {
        TimeConfig { dt: 0.01, max_cfl: 1.0, max_substeps: 8 }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct FluidConfig {
    /// Ambient density ρ, kg/m³.
    pub density: f32,
    /// Kinematic viscosity ν, m²/s.
    pub viscosity: f32,
    /// Ink fades as exp(-rate·t); 1/s.
    pub ink_dissipation: f32,
    /// Density deviation relaxes to ambient as exp(-rate·t); 1/s.
    pub density_drain: f32,
    /// At most this many Chebyshev sweeps of the implicit viscosity solve a step; it stops once
    /// its error bound is met (used only when viscosity > 0).
    pub viscosity_iterations: i64,
}

impl Default for FluidConfig {
    fn default() -> Self {
        FluidConfig { density: 1.0, viscosity: 0.0, ink_dissipation: 0.0, density_drain: 0.0, viscosity_iterations: 2000 }
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SolverKind {
    Jacobi,
    /// Red-black Gauss-Seidel with over-relaxation `solver.omega`.
    Sor,
    /// Geometric multigrid V-cycles (src/sim/multigrid/), the default.
    #[default]
    Multigrid,
    /// Conjugate gradients preconditioned by one V-cycle an iteration (src/sim/mgpcg.rs):
    /// converges where thin walls cost plain V-cycles their contraction (`logo`, and the boxes
    /// made for painting walls: `box`, `paint`).
    Mgpcg,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SolverConfig {
    pub kind: SolverKind,
    /// The cap of the solver in use (`kind`): sweeps or V-cycles. Reading a scene moves the key
    /// `solver.iterations` into that kind's own key (`Scene::from_text`), so it stays None there;
    /// where code sets it, it is the cap of `kind` (`cap`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iterations: Option<i64>,
    /// Most multigrid V-cycles per step (at most, with a tolerance).
    pub multigrid_iterations: i64,
    /// Most MGPCG iterations (a V-cycle each) per step.
    pub mgpcg_iterations: i64,
    /// Most weighted Jacobi sweeps per step.
    pub jacobi_iterations: i64,
    /// Most SOR sweeps per step.
    pub sor_iterations: i64,
    /// Relative residual at which to stop (0: run all iterations).
    pub tolerance: f32,
    /// Weight of the Jacobi update, (0, 1].
    pub jacobi_weight: f32,
    /// Over-relaxation factor for SOR, (0, 2).
    pub omega: f32,
    /// Start from the last step's pressure.
    pub warm_start: bool,
}

impl SolverConfig {
    /// The seed's solver: `iterations` weighted-Jacobi sweeps a step, no tolerance (the `teaching`
    /// scene; tests that compare against the CPU's Jacobi step).
    pub fn jacobi(iterations: u32) -> SolverConfig {
        SolverConfig { kind: SolverKind::Jacobi, jacobi_iterations: iterations as i64, tolerance: 0.0, ..Default::default() }
    }

    /// Sweeps or V-cycles per step of the solver in use (at most, with a tolerance).
    pub fn cap(&self) -> i64 {
        self.iterations.unwrap_or(self.cap_of(self.kind))
    }

    /// The cap of solver `kind`, kept while another kind is in use.
    pub fn cap_of(&self, kind: SolverKind) -> i64 {
        match kind {
            SolverKind::Multigrid => self.multigrid_iterations,
            SolverKind::Mgpcg => self.mgpcg_iterations,
            SolverKind::Jacobi => self.jacobi_iterations,
            SolverKind::Sor => self.sor_iterations,
        }
    }

    /// The cap of solver `kind`, to change (the cap of `kind` set through `iterations` moves
    /// into its own field first).
    pub fn cap_of_mut(&mut self, kind: SolverKind) -> &mut i64 {
        if let Some(n) = self.iterations.take() {
            *self.cap_of_mut(self.kind) = n;
        }
        match kind {
            SolverKind::Multigrid => &mut self.multigrid_iterations,
            SolverKind::Mgpcg => &mut self.mgpcg_iterations,
            SolverKind::Jacobi => &mut self.jacobi_iterations,
            SolverKind::Sor => &mut self.sor_iterations,
        }
    }

    /// The cap of the solver in use, to change.
    pub fn cap_mut(&mut self) -> &mut i64 {
        self.cap_of_mut(self.kind)
    }
}

impl SolverKind {
    /// The word `solver.kind` takes.
    pub fn word(self) -> &'static str {
        match self {
            SolverKind::Multigrid => "multigrid",
            SolverKind::Mgpcg => "mgpcg",
            SolverKind::Jacobi => "jacobi",
            SolverKind::Sor => "sor",
        }
    }

    /// The key of its own cap (`solver.sor_iterations`).
    pub fn cap_key(self) -> &'static str {
        match self {
            SolverKind::Multigrid => "solver.multigrid_iterations",
            SolverKind::Mgpcg => "solver.mgpcg_iterations",
            SolverKind::Jacobi => "solver.jacobi_iterations",
            SolverKind::Sor => "solver.sor_iterations",
        }
    }
}

impl Default for SolverConfig {
    fn default() -> Self {
        // multigrid to 1e-4 relative: incompressible at every size (issue 11); at most 20 V-cycles.
        // SOR's 1000 sweeps take cavity (64²) from rest to 1e-4 (224 on its first step) and
        // plume at 128² on every step (592 at most); Jacobi's 2000 take cavity's running steps
        // (its first two from rest run all 2000 and are counted above the tolerance)
        SolverConfig {
            kind: SolverKind::Multigrid,
            iterations: None,
            multigrid_iterations: 20,
            // MGPCG from rest around logo's letters took 20-30 iterations to 1e-4 at 128²
            mgpcg_iterations: 100,
            jacobi_iterations: 2000,
            sor_iterations: 1000,
            tolerance: 1e-4,
            jacobi_weight: 0.8,
            omega: 1.9,
            warm_start: true,
        }
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Scheme {
    #[default]
    SemiLagrangian,
    Maccormack,
    Bfecc,
    /// Flux form, ink and density only.
    Conservative,
}

impl Scheme {
    pub fn code(self) -> u32 {
        match self {
            Scheme::SemiLagrangian => SCHEME_SEMI_LAGRANGIAN,
            Scheme::Maccormack => SCHEME_MACCORMACK,
            Scheme::Bfecc => SCHEME_BFECC,
            Scheme::Conservative => SCHEME_CONSERVATIVE,
        }
    }
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct AdvectionConfig {
    /// Scheme for the edge velocities.
    pub velocity: Scheme,
    /// Scheme for ink (and for density unless `density` is given).
    pub ink: Scheme,
    /// Scheme for density; absent: the same as ink.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub density: Option<Scheme>,
    /// Velocity stays as it is; ink and density are still carried by it.
    pub freeze_velocity: bool,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct ForcesConfig {
    /// Gravity, m/s², [x, y].
    pub gravity: [f32; 2],
    /// Vorticity confinement strength ε (0: off).
    pub vorticity: f32,
    /// Momentum damping rate, 1/s: velocity decays as exp(-rate·t).
    pub damping: f32,
}

impl Default for ForcesConfig {
    fn default() -> Self {
        ForcesConfig { gravity: [0.0, -9.81], vorticity: 0.0, damping: 0.0 }
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum BoundaryKind {
    #[default]
    Wall,
    Inflow,
    Outflow,
    Periodic,
}

#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Slip {
    #[default]
    NoSlip,
    FreeSlip,
}

/// How an inflow's normal velocity varies along its side.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum InflowProfile {
    /// The same everywhere.
    #[default]
    Uniform,
    /// 4 s (1 − s) of the velocity at a fraction s along the side: the velocity is the centre's,
    /// the mean two thirds of it (a channel's developed laminar flow).
    Parabolic,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Boundary {
    pub kind: BoundaryKind,
    /// Walls: no-slip or free-slip.
    pub slip: Slip,
    /// Walls: tangential speed, m/s, positive along +x (bottom, top) or +y (left, right).
    pub speed: f32,
    /// Inflows: velocity [x, y], m/s.
    pub velocity: [f32; 2],
    /// Inflows: the profile of the normal velocity along the side.
    pub profile: InflowProfile,
    /// Inflows: ink carried in, [r, g, b].
    pub ink: [f32; 3],
    /// Inflows: density deviation carried in, kg/m³.
    pub density: f32,
}

#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Boundaries {
    pub left: Boundary,
    pub right: Boundary,
    pub bottom: Boundary,
    pub top: Boundary,
}

impl Boundaries {
    pub fn sides(&self) -> [(&'static str, &Boundary); 4] {
        [("left", &self.left), ("right", &self.right), ("bottom", &self.bottom), ("top", &self.top)]
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, tag = "shape", rename_all = "kebab-case")]
pub enum Obstacle {
    /// A disk: centre [x, y] and radius, metres.
    Circle { center: [f32; 2], radius: f32 },
    /// An axis-aligned rectangle from `min` to `max` corners, metres.
    Rect { min: [f32; 2], max: [f32; 2] },
    /// A PNG image stretched over the rectangle `min`..`max` (metres): a cell is solid where the
    /// pixel under its centre passes the threshold (see [`MaskChannel`]).
    Mask {
        /// A built-in mask (`logo.png`) or a PNG path, relative to the scene file.
        file: String,
        min: [f32; 2],
        max: [f32; 2],
        #[serde(default)]
        channel: MaskChannel,
        /// 0..1.
        #[serde(default = "half")]
        threshold: f32,
    },
}

fn half() -> f32 {
    0.5
}

/// Which part of a mask pixel decides solidity.
#[derive(Clone, Copy, Debug, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum MaskChannel {
    /// Solid where alpha ≥ threshold (opaque shapes on a transparent background).
    #[default]
    Alpha,
    /// Solid where luminance ≤ threshold (dark shapes on a light background).
    Luminance,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Emitter {
    /// Centre [x, y], metres.
    pub position: [f32; 2],
    /// Radius, metres.
    pub radius: f32,
    /// Velocity the emitter drives its disk toward, m/s.
    pub velocity: [f32; 2],
    /// Ink concentration it keeps in its disk, [r, g, b].
    pub ink: [f32; 3],
    /// Density deviation it keeps in its disk, kg/m³ (negative: light, rises).
    pub density: f32,
    /// How fast the disk relaxes toward those values at its centre, 1/s (per second, so the
    /// emitter's strength does not depend on the time step).
    pub rate: f32,
}

/// Default emitter rate, 1/s: at dt = 0.01 s the centre of the disk takes 86 % of the way to
/// the emitter's values each step, much as the old per-step blend (100 %) did.
pub const EMITTER_RATE: f32 = 200.0;

impl Default for Emitter {
    fn default() -> Self {
        Emitter { position: [0.5, 0.1], radius: 0.05, velocity: [0.0, 0.5], ink: [1.0, 1.0, 1.0], density: 0.0, rate: EMITTER_RATE }
    }
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Blob {
    /// Centre [x, y], metres.
    pub center: [f32; 2],
    /// Radius, metres.
    pub radius: f32,
    /// Ink inside, [r, g, b] (at the centre; smooth falloff to the rim).
    pub ink: [f32; 3],
    /// Density deviation inside, kg/m³.
    pub density: f32,
    /// Initial velocity inside, m/s.
    pub velocity: [f32; 2],
    /// Initial rigid rotation inside, rad/s (counter-clockwise positive).
    pub swirl: f32,
}

impl Default for Blob {
    fn default() -> Self {
        Blob { center: [0.5, 0.5], radius: 0.1, ink: [1.0, 1.0, 1.0], density: 0.0, velocity: [0.0, 0.0], swirl: 0.0 }
    }
}

/// A horizontal band of ink and density, from `bottom` to `top` (metres), whose lower edge is
/// displaced by `amplitude` · cos(2π · waves · x / width): a Rayleigh–Taylor interface.
#[derive(Clone, Debug, Default, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Layer {
    pub bottom: f32,
    pub top: f32,
    pub ink: [f32; 3],
    /// Density deviation, kg/m³.
    pub density: f32,
    /// Displacement of the lower edge, metres.
    pub amplitude: f32,
    /// Cosine waves across the domain width.
    pub waves: f32,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct DisplayConfig {
    /// Simulation steps per displayed frame in the app.
    pub steps_per_frame: i64,
    pub ink: bool,
    pub divergence: bool,
    pub pressure: bool,
    pub velocity: bool,
    /// Arrows on the MAC edges (key 4).
    pub edge_velocity: bool,
    /// Cell outlines (key 6).
    pub grid_lines: bool,
    /// The shown field's value printed in each large cell (key 7).
    pub numbers: bool,
    /// Background colour [r, g, b], 0..1.
    pub background: [f32; 3],
    /// One line on the field naming what to look at ("" for none).
    pub caption: String,
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig {
            steps_per_frame: 1,
            ink: true,
            divergence: false,
            pressure: false,
            velocity: false,
            edge_velocity: false,
            grid_lines: false,
            numbers: false,
            background: [0.02, 0.02, 0.03],
            caption: String::new(),
        }
    }
}

impl Scene {
    /// The dye grid's scale k (1 where the key is invalid; `validate` reports that).
    pub fn dye_scale(&self) -> usize {
        match &self.grid.dye_scale {
            DyeScale::Scale(k) => (*k).clamp(1, DYE_MAX_SCALE) as usize,
            DyeScale::Word(_) => auto_dye_scale(self.grid.nx.max(1) as usize, self.grid.ny.max(1) as usize),
        }
    }

    /// A new resolution that keeps the domain in metres (DESIGN.md §5, `grid.nx`): the cell size
    /// scales. Given one count, the other follows the domain's aspect; given both with another
    /// aspect, the cells are sized so the new domain still covers the old one, so blobs,
    /// emitters and obstacles keep their places in metres.
    pub fn refine(&mut self, nx: Option<i64>, ny: Option<i64>) {
        let (w, h) = self.size();
        let (nx, ny, cell) = match (nx, ny) {
            (Some(nx), None) => {
                let cell = w / nx.max(1) as f32;
                (nx, ((h / cell).round() as i64).max(2), cell)
            }
            (None, Some(ny)) => {
                let cell = h / ny.max(1) as f32;
                (((w / cell).round() as i64).max(2), ny, cell)
            }
            (Some(nx), Some(ny)) => (nx, ny, (w / nx.max(1) as f32).max(h / ny.max(1) as f32)),
            (None, None) => return,
        };
        self.grid.nx = nx;
        self.grid.ny = ny;
        self.grid.cell_size = cell;
    }

    /// Domain width and height, metres.
    pub fn size(&self) -> (f32, f32) {
        (self.grid.nx as f32 * self.grid.cell_size, self.grid.ny as f32 * self.grid.cell_size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_dye_is_about_512_across_within_the_cell_budget() {
        assert_eq!(auto_dye_scale(128, 128), 4);
        assert_eq!(auto_dye_scale(256, 128), 2);
        assert_eq!(auto_dye_scale(1024, 1024), 1);
        assert_eq!(auto_dye_scale(16, 12), 16, "capped at DYE_MAX_SCALE");
        for (nx, ny) in [(48, 40), (300, 300), (700, 20), (2, 2)] {
            let k = auto_dye_scale(nx, ny);
            assert!(k >= 1 && k * k * nx * ny <= DYE_MAX_CELLS.max(nx * ny), "{nx}x{ny}: k = {k}");
        }
    }

    #[test]
    fn refine_keeps_the_domain_in_metres() {
        let mut s = Scene { grid: GridConfig { nx: 64, ny: 32, cell_size: 1.0 / 32.0, ..Default::default() }, ..Default::default() };
        s.refine(Some(128), None);
        assert_eq!((s.grid.nx, s.grid.ny), (128, 64));
        assert_eq!(s.size(), (2.0, 1.0));
        s.refine(None, Some(16));
        assert_eq!((s.grid.nx, s.grid.ny, s.size()), (32, 16, (2.0, 1.0)));
        // another aspect: the new domain covers the old one
        s.refine(Some(40), Some(40));
        let (w, h) = s.size();
        assert!(w >= 2.0 - 1e-5 && h >= 1.0 - 1e-5, "{w} x {h}");
    }
}
