//! Scenes: a TOML file (DESIGN.md §5) read into one plain struct with a default for every key,
//! `--set` overrides by dotted path, validation with one-line errors, and the built-in library.
//! Every key, its unit and default is documented in docs/scenes.md.

use crate::error::{Error, Result};
use crate::sim::fields::Fields;
use crate::sim::params::*;
use crate::sim::{SolverSettings, cpu::grid::falloff};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// Built-in scenes, embedded in the binary: (name, TOML).
pub const BUILTIN: &[(&str, &str)] = &[
    ("box", include_str!("../assets/scenes/box.toml")),
    ("cavity", include_str!("../assets/scenes/cavity.toml")),
    ("drops", include_str!("../assets/scenes/drops.toml")),
    ("logo", include_str!("../assets/scenes/logo.toml")),
    ("paint", include_str!("../assets/scenes/paint.toml")),
    ("periodic", include_str!("../assets/scenes/periodic.toml")),
    ("plume", include_str!("../assets/scenes/plume.toml")),
    ("rayleigh-taylor", include_str!("../assets/scenes/rayleigh-taylor.toml")),
    ("teaching", include_str!("../assets/scenes/teaching.toml")),
    ("wind-tunnel", include_str!("../assets/scenes/wind-tunnel.toml")),
];

/// Built-in obstacle masks, embedded: (file name, PNG bytes).
pub const BUILTIN_MASKS: &[(&str, &[u8])] = &[("logo.png", include_bytes!("../assets/masks/logo.png"))];

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
}

impl Default for GridConfig {
    fn default() -> Self {
        GridConfig { nx: 128, ny: 128, cell_size: 1.0 / 128.0 }
    }
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
    /// Jacobi sweeps of the implicit viscosity solve per step (used only when viscosity > 0).
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
    #[default]
    Jacobi,
    /// Red-black Gauss-Seidel with over-relaxation `solver.omega`.
    Sor,
    /// Geometric multigrid V-cycles (src/sim/multigrid.rs).
    Multigrid,
}

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct SolverConfig {
    pub kind: SolverKind,
    /// Jacobi or SOR sweeps, or multigrid V-cycles, per step (at most, with a tolerance).
    pub iterations: i64,
    /// Relative residual at which to stop (0: run all iterations).
    pub tolerance: f32,
    /// Weight of the Jacobi update, (0, 1].
    pub jacobi_weight: f32,
    /// Over-relaxation factor for SOR, (0, 2).
    pub omega: f32,
    /// Start from the last step's pressure.
    pub warm_start: bool,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig { kind: SolverKind::Jacobi, iterations: 40, tolerance: 0.0, jacobi_weight: 0.8, omega: 1.9, warm_start: true }
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

impl Default for Emitter {
    fn default() -> Self {
        Emitter { position: [0.5, 0.1], radius: 0.05, velocity: [0.0, 0.5], ink: [1.0, 1.0, 1.0], density: 0.0, rate: EMITTER_RATE }
    }
}

/// Default emitter rate, 1/s: at dt = 0.01 s the centre of the disk takes 86 % of the way to
/// the emitter's values each step, much as the old per-step blend (100 %) did.
pub const EMITTER_RATE: f32 = 200.0;

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
    /// Background colour [r, g, b], 0..1.
    pub background: [f32; 3],
}

impl Default for DisplayConfig {
    fn default() -> Self {
        DisplayConfig { steps_per_frame: 1, ink: true, divergence: false, pressure: false, velocity: false, background: [0.02, 0.02, 0.03] }
    }
}

/// Where a scene came from: a built-in name or a file.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    Builtin(&'static str),
    File(PathBuf),
}

impl Source {
    /// Finds a built-in by name, else a file by path.
    pub fn find(name_or_path: &str) -> Result<Source> {
        if let Some((name, _)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            return Ok(Source::Builtin(name));
        }
        let path = PathBuf::from(name_or_path);
        if path.exists() {
            return Ok(Source::File(path));
        }
        let names: Vec<&str> = BUILTIN.iter().map(|(n, _)| *n).collect();
        Err(crate::error!("unknown scene '{name_or_path}': expected a built-in scene ({}) or the path of a .toml file", names.join(", ")))
    }

    pub fn label(&self) -> String {
        match self {
            Source::Builtin(n) => n.to_string(),
            Source::File(p) => p.display().to_string(),
        }
    }

    fn text(&self) -> Result<String> {
        match self {
            Source::Builtin(n) => Ok(BUILTIN.iter().find(|(b, _)| b == n).map(|(_, t)| t.to_string()).unwrap_or_default()),
            Source::File(p) => std::fs::read_to_string(p).map_err(|e| crate::error!("cannot read scene file {}: {e}", p.display())),
        }
    }
}

/// Parses `--set KEY=VALUE`: the value is a TOML value, and a bare word is a string.
pub fn parse_override(text: &str) -> Result<(String, toml::Value)> {
    let (key, value) =
        text.split_once('=').ok_or_else(|| crate::error!("--set {text}: expected KEY=VALUE, e.g. --set fluid.viscosity=0.01"))?;
    let key = key.trim();
    if key.is_empty() || key.split('.').any(|p| p.trim().is_empty()) {
        crate::fail!("--set {text}: expected a dotted key such as solver.iterations");
    }
    let value = value.trim();
    let parsed = toml::from_str::<toml::Table>(&format!("x = {value}"))
        .ok()
        .and_then(|mut t| t.remove("x"))
        .unwrap_or_else(|| toml::Value::String(value.to_string()));
    Ok((key.to_string(), parsed))
}

fn apply_override(table: &mut toml::Table, key: &str, value: toml::Value) -> Result<()> {
    let parts: Vec<&str> = key.split('.').collect();
    let mut t = table;
    for (n, part) in parts.iter().enumerate() {
        if n + 1 == parts.len() {
            t.insert(part.to_string(), value);
            return Ok(());
        }
        let entry = t.entry(part.to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
        t = match entry {
            toml::Value::Table(inner) => inner,
            _ => crate::fail!("--set {key}: '{}' is not a table", parts[..=n].join(".")),
        };
    }
    Ok(())
}

/// Line number (1-based) of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

impl Scene {
    /// Loads a scene by name or path and applies `--set` overrides, then validates it.
    pub fn load(name_or_path: &str, overrides: &[String]) -> Result<(Scene, Source)> {
        let source = Source::find(name_or_path)?;
        let scene = Scene::from_text(&source.text()?, &source.label(), overrides)?;
        scene.validate(&source)?;
        Ok((scene, source))
    }

    /// Parses TOML text and applies overrides (not yet validated).
    pub fn from_text(text: &str, label: &str, overrides: &[String]) -> Result<Scene> {
        let mut table: toml::Table = toml::from_str(text).map_err(|e| {
            let at = e.span().map(|s| format!(" line {}", line_of(text, s.start))).unwrap_or_default();
            crate::error!("scene {label}{at}: malformed TOML: {}", e.message())
        })?;
        for o in overrides {
            let (key, value) = parse_override(o)?;
            apply_override(&mut table, &key, value)?;
        }
        let mut scene: Scene = serde_path_to_error::deserialize(toml::Value::Table(table)).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let msg = inner.message().to_string();
            let msg = msg.replace("unknown field", "unknown key");
            if path == "." || path.is_empty() {
                crate::error!("scene {label}: {msg}")
            } else {
                crate::error!("scene {label}: key {path}: {msg}")
            }
        })?;
        if scene.name.is_empty() {
            scene.name = label.to_string();
        }
        Ok(scene)
    }

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
        if self.advection.velocity == Scheme::Conservative {
            crate::fail!(
                "advection.velocity = \"conservative\": the flux form is for ink and density only; use semi-lagrangian, maccormack or bfecc"
            );
        }
        non_negative("forces.damping", self.forces.damping, "1/s")?;
        non_negative("solver.tolerance", self.solver.tolerance, "")?;
        finite_all("forces.gravity", &self.forces.gravity)?;
        if !(0..=10_000).contains(&self.fluid.viscosity_iterations) {
            crate::fail!("fluid.viscosity_iterations = {}: expected a whole number from 0 to 10000", self.fluid.viscosity_iterations);
        }
        let s = &self.solver;
        if !(0..=100_000).contains(&s.iterations) {
            crate::fail!("solver.iterations = {}: expected a whole number from 0 to 100000", s.iterations);
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
            finite_all(&format!("boundary.{name}.velocity"), &side.velocity)?;
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
        for (n, e) in self.emitters.iter().enumerate() {
            positive(&format!("emitters[{n}].radius"), e.radius, "metres")?;
            finite_all(&format!("emitters[{n}].position"), &e.position)?;
            finite_all(&format!("emitters[{n}].velocity"), &e.velocity)?;
            if !(e.rate.is_finite() && e.rate >= 0.0) {
                crate::fail!("emitters[{n}].rate = {}: expected a finite number of at least 0 per second", e.rate);
            }
        }
        for (n, l) in self.layers.iter().enumerate() {
            finite_all(&format!("layers[{n}]"), &[l.bottom, l.top, l.density, l.amplitude, l.waves, l.ink[0], l.ink[1], l.ink[2]])?;
        }
        for (n, bl) in self.blobs.iter().enumerate() {
            positive(&format!("blobs[{n}].radius"), bl.radius, "metres")?;
            finite_all(&format!("blobs[{n}].center"), &bl.center)?;
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

    /// Domain width and height, metres.
    pub fn size(&self) -> (f32, f32) {
        (self.grid.nx as f32 * self.grid.cell_size, self.grid.ny as f32 * self.grid.cell_size)
    }

    /// 1 for solid cells, 0 for fluid.
    pub fn solid_mask(&self, source: &Source) -> Result<Vec<f32>> {
        let (nx, ny, h) = (self.grid.nx as usize, self.grid.ny as usize, self.grid.cell_size);
        let mut solid = vec![0.0f32; nx * ny];
        for (n, o) in self.obstacles.iter().enumerate() {
            let image = match o {
                Obstacle::Mask { file, .. } => Some(crate::mask::load(source, file, &format!("obstacles[{n}]"))?),
                _ => None,
            };
            for j in 0..ny {
                for i in 0..nx {
                    let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                    let inside = match o {
                        Obstacle::Circle { center, radius } => (x - center[0]).powi(2) + (y - center[1]).powi(2) <= radius * radius,
                        Obstacle::Rect { min, max } => x >= min[0] && x <= max[0] && y >= min[1] && y <= max[1],
                        Obstacle::Mask { min, max, channel, threshold, .. } => {
                            image.as_ref().is_some_and(|m| m.solid_at(*min, *max, x, y, *channel, *threshold))
                        }
                    };
                    if inside {
                        solid[j * nx + i] = 1.0;
                    }
                }
            }
        }
        Ok(solid)
    }

    /// The shader constants for this scene.
    pub fn params(&self) -> Params {
        let mut p = Params {
            nx: self.grid.nx as u32,
            ny: self.grid.ny as u32,
            h: self.grid.cell_size,
            dt: self.time.dt,
            rho: self.fluid.density,
            viscosity: self.fluid.viscosity,
            jacobi_weight: self.solver.jacobi_weight,
            sor_omega: self.solver.omega,
            gravity_x: self.forces.gravity[0],
            gravity_y: self.forces.gravity[1],
            vorticity: self.forces.vorticity,
            damping: self.forces.damping,
            ink_dissipation: self.fluid.ink_dissipation,
            density_drain: self.fluid.density_drain,
            schemes: [
                self.advection.velocity.code(),
                self.advection.ink.code(),
                self.advection.density.unwrap_or(self.advection.ink).code(),
                0,
            ],
            ..Params::default()
        };
        for (n, (_, side)) in self.boundary.sides().into_iter().enumerate() {
            p.bc_kind[n] = match side.kind {
                BoundaryKind::Wall => BC_WALL,
                BoundaryKind::Inflow => BC_INFLOW,
                BoundaryKind::Outflow => BC_OUTFLOW,
                BoundaryKind::Periodic => BC_PERIODIC,
            };
            p.bc_slip[n] = match side.slip {
                Slip::NoSlip => SLIP_NO_SLIP,
                Slip::FreeSlip => SLIP_FREE,
            };
            p.bc_speed[n] = side.speed;
            p.inflow_u[n] = side.velocity[0];
            p.inflow_v[n] = side.velocity[1];
            p.inflow_density[n] = side.density;
            p.inflow_ink_r[n] = side.ink[0];
            p.inflow_ink_g[n] = side.ink[1];
            p.inflow_ink_b[n] = side.ink[2];
        }
        p
    }

    pub fn solver_settings(&self) -> SolverSettings {
        SolverSettings {
            iterations: self.solver.iterations as u32,
            kind: self.solver.kind,
            tolerance: self.solver.tolerance,
            warm_start: self.solver.warm_start,
            freeze_velocity: self.advection.freeze_velocity,
            viscosity_iterations: self.fluid.viscosity_iterations as u32,
        }
    }

    /// Emitters as splats that blend toward their values every step.
    pub fn emitter_splats(&self) -> Vec<Splat> {
        self.emitters
            .iter()
            .map(|e| Splat {
                x: e.position[0],
                y: e.position[1],
                radius: e.radius,
                mode: SPLAT_BLEND,
                vx: e.velocity[0],
                vy: e.velocity[1],
                density: e.density,
                ink_r: e.ink[0],
                ink_g: e.ink[1],
                ink_b: e.ink[2],
                rate: e.rate,
                ..Splat::default()
            })
            .collect()
    }

    /// The state at time zero: obstacles, blobs of ink, density and velocity, prescribed faces.
    pub fn initial_fields(&self, source: &Source) -> Result<Fields> {
        self.validate_geometry(source)?;
        let (nx, ny, h) = (self.grid.nx as usize, self.grid.ny as usize, self.grid.cell_size);
        let mut f = Fields::zeros(nx, ny);
        f.solid = self.solid_mask(source)?;
        for b in &self.blobs {
            let velocity_at = |x: f32, y: f32| -> (f32, f32) {
                let w = falloff(((x - b.center[0]).powi(2) + (y - b.center[1]).powi(2)).sqrt(), b.radius);
                (w * (b.velocity[0] - b.swirl * (y - b.center[1])), w * (b.velocity[1] + b.swirl * (x - b.center[0])))
            };
            for j in 0..ny {
                for i in 0..=nx {
                    let k = f.ui(i, j);
                    f.u[k] += velocity_at(i as f32 * h, (j as f32 + 0.5) * h).0;
                }
            }
            for j in 0..=ny {
                for i in 0..nx {
                    let k = f.vi(i, j);
                    f.v[k] += velocity_at((i as f32 + 0.5) * h, j as f32 * h).1;
                }
            }
            for j in 0..ny {
                for i in 0..nx {
                    let c = f.cell(i, j);
                    if f.solid[c] > 0.5 {
                        continue;
                    }
                    let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                    let w = falloff(((x - b.center[0]).powi(2) + (y - b.center[1]).powi(2)).sqrt(), b.radius);
                    for k in 0..3 {
                        f.ink[3 * c + k] += w * b.ink[k];
                    }
                    f.density[c] += w * b.density;
                }
            }
        }
        let width = nx as f32 * h;
        for l in &self.layers {
            for j in 0..ny {
                for i in 0..nx {
                    let c = f.cell(i, j);
                    let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
                    let edge = l.bottom + l.amplitude * (std::f32::consts::TAU * l.waves * x / width).cos();
                    // the share of the cell above the lower edge, so sub-cell displacements count
                    let share = ((y + 0.5 * h - edge) / h).clamp(0.0, 1.0);
                    if f.solid[c] < 0.5 && y <= l.top {
                        for k in 0..3 {
                            f.ink[3 * c + k] += share * l.ink[k];
                        }
                        f.density[c] += share * l.density;
                    }
                }
            }
        }
        enforce_faces(&mut f, &self.params());
        Ok(f)
    }
}

/// Sets every prescribed face to its value and makes periodic duplicate faces equal.
pub fn enforce_faces(f: &mut Fields, p: &Params) {
    let old = f.clone();
    let g = crate::sim::cpu::grid::Grid::new(&old, p);
    for j in 0..f.ny as i32 {
        for i in 0..=f.nx as i32 {
            let face = g.u_face(i, j);
            let k = g.ui(i, j);
            if face.fixed {
                f.u[k] = face.value;
            } else if g.px() && i == g.nx() {
                f.u[k] = old.u[g.ui(0, j)];
            }
        }
    }
    for j in 0..=f.ny as i32 {
        for i in 0..f.nx as i32 {
            let face = g.v_face(i, j);
            let k = g.vi(i, j);
            if face.fixed {
                f.v[k] = face.value;
            } else if g.py() && j == g.ny() {
                f.v[k] = old.v[g.vi(i, 0)];
            }
        }
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

fn finite_all(key: &str, xs: &[f32]) -> Result<()> {
    if xs.iter().any(|x| !x.is_finite()) {
        crate::fail!("{key} = {xs:?}: expected finite numbers");
    }
    Ok(())
}

/// Resolves a file named in a scene: next to the scene file, else relative to the working folder.
pub fn resolve_path(source: &Source, file: &str) -> PathBuf {
    if let Source::File(scene) = source
        && let Some(dir) = scene.parent()
    {
        let candidate = dir.join(file);
        if candidate.exists() {
            return candidate;
        }
    }
    Path::new(file).to_path_buf()
}
