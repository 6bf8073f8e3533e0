//! The one table of scene keys: for each, its type, unit, accepted range, slider range, default
//! and help text. Validation checks every range here (validate.rs keeps only what ties keys
//! together), `--set` refuses a key that is not here, the panel's controls take their tooltip
//! and slider range from here, and tests check docs/scenes.md's key tables and the panel's keys
//! against it, both ways. `{side}` stands for left, right, bottom and top; `[]` for each entry of
//! a list.

use crate::error::Result;

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
pub const MAX_AMOUNT: f32 = 1e6;

/// What a key's value is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    Number,
    Whole,
    Bool,
    /// One of these words.
    Word(&'static [&'static str]),
    /// `[x, y]`.
    Pair,
    /// `[r, g, b]`.
    Colour,
    Text,
    /// `grid.dye_scale`: a whole number or "auto".
    NumberOrWord,
}

/// The values a key accepts (what validation refuses with one line naming the key).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Accepts {
    /// Anything of its type (finite where a number).
    Any,
    Finite,
    Positive,
    AtLeastZero,
    /// lo ≤ x ≤ hi.
    Between(f64, f64),
    /// lo < x ≤ hi.
    AboveUpTo(f64, f64),
    /// lo < x < hi.
    Open(f64, f64),
    /// Every component at most this in size.
    Magnitude(f64),
    /// Checked in validate.rs, with the keys it depends on (named in the help).
    Special,
}

/// One key of the scene format.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    /// Dotted path, as `--set` takes it.
    pub path: &'static str,
    pub kind: Kind,
    /// "–" where it has none.
    pub unit: &'static str,
    pub accepts: Accepts,
    /// The panel's slider range, where the panel has a slider.
    pub slider: Option<(f64, f64)>,
    /// As docs/scenes.md writes it.
    pub default: &'static str,
    /// The panel's tooltip.
    pub help: &'static str,
}

const fn key(
    path: &'static str,
    kind: Kind,
    unit: &'static str,
    accepts: Accepts,
    slider: Option<(f64, f64)>,
    default: &'static str,
    help: &'static str,
) -> Key {
    Key { path, kind, unit, accepts, slider, default, help }
}

use Accepts::*;
use Kind::*;

const SCHEMES: &[&str] = &["semi-lagrangian", "maccormack", "bfecc"];
const INK_SCHEMES: &[&str] = &["semi-lagrangian", "maccormack", "bfecc", "conservative"];

/// Every key of the scene format.
pub const KEYS: &[Key] = &[
    key("name", Text, "–", Any, None, "the file name", "Shown in the app and written to meta.json."),
    key("description", Text, "–", Any, None, "\"\"", "Shown by smokebox scenes and under the scene picker."),
    key(
        "grid.nx",
        Whole,
        "cells",
        Between(2.0, 65536.0),
        Some((2.0, 4096.0)),
        "128",
        "Cells across the domain. Keeping the domain, more cells are finer cells.",
    ),
    key(
        "grid.ny",
        Whole,
        "cells",
        Between(2.0, 65536.0),
        Some((2.0, 4096.0)),
        "128",
        "Cells up the domain. Keeping the domain, more cells are finer cells.",
    ),
    key(
        "grid.cell_size",
        Number,
        "m",
        Positive,
        Some((1e-5, 10.0)),
        "1/128",
        "Side of one square cell, metres: the domain is nx·h by ny·h metres.",
    ),
    key(
        "grid.dye_scale",
        NumberOrWord,
        "–",
        Special,
        Some((1.0, 16.0)),
        "\"auto\"",
        "The ink lives on its own grid this many times finer than the flow, so it stays sharp (grid.dye_scale). Auto: about 512 dye cells across.",
    ),
    key(
        "time.dt",
        Number,
        "s",
        Positive,
        Some((0.0005, 0.05)),
        "0.01",
        "Simulated seconds per step. Smaller is more accurate and slower to watch.",
    ),
    key(
        "time.max_cfl",
        Number,
        "cells",
        Between(0.0, 100.0),
        Some((0.0, 10.0)),
        "1.0",
        "Cells the fastest fluid may cross in one sub-step: a longer step is split (0: never split).",
    ),
    key(
        "time.max_substeps",
        Whole,
        "–",
        Between(1.0, 1000.0),
        Some((1.0, 64.0)),
        "8",
        "Most sub-steps one step may be split into; a step that needs more is shortened, with a warning.",
    ),
    key("fluid.density", Number, "kg/m³", Positive, Some((0.1, 10.0)), "1.0", "Ambient density of the fluid: pressure scales with it."),
    key(
        "fluid.viscosity",
        Number,
        "m²/s",
        AtLeastZero,
        Some((0.0, 0.05)),
        "0.0",
        "Kinematic viscosity: how fast velocity differences diffuse (0: none; air is 1.5e-5).",
    ),
    key(
        "fluid.viscosity_iterations",
        Whole,
        "sweeps",
        Between(0.0, 10_000.0),
        Some((0.0, 5000.0)),
        "2000",
        "Most sweeps of the implicit viscosity solve each step (used when ν > 0).",
    ),
    key("fluid.ink_dissipation", Number, "1/s", AtLeastZero, Some((0.0, 2.0)), "0.0", "Ink fades as exp(−rate·t): 1/s."),
    key(
        "fluid.density_drain",
        Number,
        "1/s",
        AtLeastZero,
        Some((0.0, 2.0)),
        "0.0",
        "Density deviation relaxes to ambient as exp(−rate·t): 1/s.",
    ),
    key(
        "solver.kind",
        Word(&["multigrid", "mgpcg", "jacobi", "sor"]),
        "–",
        Any,
        None,
        "\"multigrid\"",
        "The pressure solver: multigrid V-cycles, conjugate gradients preconditioned by a V-cycle (mgpcg), weighted Jacobi sweeps or SOR.",
    ),
    key(
        "solver.iterations",
        Whole,
        "sweeps or V-cycles",
        Special,
        None,
        "the kind's own",
        "The cap of the solver named by solver.kind: sets solver.multigrid_iterations, solver.mgpcg_iterations, solver.jacobi_iterations or solver.sor_iterations.",
    ),
    key(
        "solver.multigrid_iterations",
        Whole,
        "V-cycles",
        Special,
        Some((0.0, 200.0)),
        "20",
        "Multigrid V-cycles per step (at most, with a tolerance), up to 200; kept while another solver is in use.",
    ),
    key(
        "solver.mgpcg_iterations",
        Whole,
        "iterations",
        Special,
        Some((0.0, 200.0)),
        "100",
        "MGPCG iterations per step, a V-cycle each (at most, with a tolerance), up to 200; kept while another solver is in use. Thin walls with gaps take tens (baffles six cells apart at 128²: up to 67).",
    ),
    key(
        "solver.jacobi_iterations",
        Whole,
        "sweeps",
        Special,
        Some((0.0, 10_000.0)),
        "2000",
        "Weighted Jacobi sweeps per step (at most, with a tolerance), up to 10 000; kept while another solver is in use.",
    ),
    key(
        "solver.sor_iterations",
        Whole,
        "sweeps",
        Special,
        Some((0.0, 10_000.0)),
        "1000",
        "SOR sweeps per step (at most, with a tolerance), up to 10 000; kept while another solver is in use.",
    ),
    key(
        "solver.tolerance",
        Number,
        "–",
        AtLeastZero,
        Some((0.0, 0.1)),
        "1e-4",
        "Stop when max |div| after / before falls below this (dimensionless). 0: run every iteration.",
    ),
    key(
        "solver.jacobi_weight",
        Number,
        "–",
        AboveUpTo(0.0, 1.0),
        Some((0.1, 1.0)),
        "0.8",
        "Weight of each Jacobi update, (0, 1]: below 1 damps the checkerboard mode of a closed box.",
    ),
    key(
        "solver.omega",
        Number,
        "–",
        Open(0.0, 2.0),
        Some((1.0, 1.99)),
        "1.9",
        "SOR over-relaxation factor, in (0, 2) (dimensionless; used by sor).",
    ),
    key("solver.warm_start", Bool, "–", Any, None, "true", "Start each solve from the last step's pressure, scaled to fit this step."),
    key(
        "advection.velocity",
        Word(SCHEMES),
        "–",
        Special,
        None,
        "\"semi-lagrangian\"",
        "How velocity is carried: semi-lagrangian (smooth, diffusive), maccormack or bfecc (sharper).",
    ),
    key(
        "advection.ink",
        Word(INK_SCHEMES),
        "–",
        Any,
        None,
        "\"semi-lagrangian\"",
        "How ink is carried; conservative: flux form, keeps the total exactly.",
    ),
    key("advection.density", Word(INK_SCHEMES), "–", Any, None, "the ink's", "How density is carried; left out: as the ink."),
    key("advection.freeze_velocity", Bool, "–", Any, None, "false", "Velocity stays as it is; ink and density are still carried by it."),
    key(
        "forces.gravity",
        Pair,
        "m/s²",
        Special,
        Some((-20.0, 20.0)),
        "[0.0, -9.81]",
        "Gravity [x, y], m/s² (−9.81 along y on Earth), at most 1000 in size. Heavy fluid (positive density deviation) falls along it.",
    ),
    key(
        "forces.vorticity",
        Number,
        "–",
        Between(0.0, MAX_VORTICITY as f64),
        Some((0.0, 2.0)),
        "0.0",
        "Vorticity confinement strength (dimensionless): puts back small swirls that numerical diffusion smooths away. 0: off.",
    ),
    key("forces.damping", Number, "1/s", AtLeastZero, Some((0.0, 2.0)), "0.0", "Velocity decays as exp(−rate·t): 1/s."),
    key(
        "boundary.{side}.kind",
        Word(&["wall", "inflow", "outflow", "periodic"]),
        "–",
        Special,
        None,
        "\"wall\"",
        "wall: solid; inflow: fluid enters at a set velocity; outflow: fluid leaves freely; periodic: wraps to the opposite side",
    ),
    key(
        "boundary.{side}.slip",
        Word(&["no-slip", "free-slip"]),
        "–",
        Any,
        None,
        "\"no-slip\"",
        "no-slip: fluid sticks to the wall; free-slip: it glides along it",
    ),
    key(
        "boundary.{side}.speed",
        Number,
        "m/s",
        Magnitude(MAX_SPEED as f64),
        Some((-5.0, 5.0)),
        "0.0",
        "Tangential speed of the wall, m/s, positive along +x (bottom, top) or +y (left, right): a lid that drives the flow.",
    ),
    key(
        "boundary.{side}.velocity",
        Pair,
        "m/s",
        Magnitude(MAX_SPEED as f64),
        Some((-5.0, 5.0)),
        "[0.0, 0.0]",
        "Velocity [x, y] of the entering fluid, m/s.",
    ),
    key(
        "boundary.{side}.profile",
        Word(&["uniform", "parabolic"]),
        "–",
        Any,
        None,
        "\"uniform\"",
        "Inflows: uniform, or parabolic: the normal velocity falls from `velocity` at the side's middle to 0 at its ends (mean: two thirds of it)",
    ),
    key("boundary.{side}.ink", Colour, "–", Finite, None, "[0.0, 0.0, 0.0]", "Ink the entering fluid carries, r g b concentration."),
    key(
        "boundary.{side}.density",
        Number,
        "kg/m³",
        Any,
        Some((-1.0, 1.0)),
        "0.0",
        "Density deviation of the entering fluid, kg/m³ (negative: light).",
    ),
    key(
        "obstacles[].shape",
        Word(&["circle", "rect", "mask"]),
        "–",
        Any,
        None,
        "",
        "The obstacle's shape: a circle, a rectangle or a PNG mask.",
    ),
    key("obstacles[].center", Pair, "m", Finite, None, "", "A circle's centre [x, y], metres."),
    key("obstacles[].radius", Number, "m", Positive, None, "", "A circle's radius, metres."),
    key("obstacles[].min", Pair, "m", Finite, None, "", "A rectangle's or mask's lower-left corner, metres."),
    key("obstacles[].max", Pair, "m", Finite, None, "", "A rectangle's or mask's upper-right corner, metres."),
    key("obstacles[].file", Text, "–", Any, None, "", "A mask's PNG: next to the scene file, in the working folder, or built in."),
    key(
        "obstacles[].channel",
        Word(&["alpha", "luminance"]),
        "–",
        Any,
        None,
        "\"alpha\"",
        "What makes a mask pixel solid: alpha at or above the threshold, or luminance at or below it.",
    ),
    key("obstacles[].threshold", Number, "–", Between(0.0, 1.0), None, "0.5", "A mask's threshold, 0 … 1."),
    key("emitters[].position", Pair, "m", Finite, None, "[0.5, 0.1]", "The emitter's centre [x, y], metres."),
    key("emitters[].radius", Number, "m", Positive, None, "0.05", "The emitter's radius, metres."),
    key(
        "emitters[].velocity",
        Pair,
        "m/s",
        Magnitude(MAX_SPEED as f64),
        None,
        "[0.0, 0.5]",
        "The velocity the emitter drives inside its disk, m/s.",
    ),
    key("emitters[].ink", Colour, "–", Magnitude(MAX_AMOUNT as f64), None, "[1.0, 1.0, 1.0]", "The ink it keeps in its disk, [r, g, b]."),
    key(
        "emitters[].density",
        Number,
        "kg/m³",
        Magnitude(MAX_AMOUNT as f64),
        None,
        "0.0",
        "The density deviation it keeps in its disk (negative: light, rises).",
    ),
    key(
        "emitters[].rate",
        Number,
        "1/s",
        Between(0.0, MAX_AMOUNT as f64),
        None,
        "200",
        "How fast its centre relaxes toward its values, per second.",
    ),
    key("blobs[].center", Pair, "m", Finite, None, "[0.5, 0.5]", "The blob's centre [x, y], metres."),
    key("blobs[].radius", Number, "m", Positive, None, "0.1", "The blob's radius, metres."),
    key("blobs[].ink", Colour, "–", Magnitude(MAX_AMOUNT as f64), None, "[1.0, 1.0, 1.0]", "Ink at its centre, [r, g, b]."),
    key("blobs[].density", Number, "kg/m³", Magnitude(MAX_AMOUNT as f64), None, "0.0", "Density deviation inside, kg/m³."),
    key("blobs[].velocity", Pair, "m/s", Magnitude(MAX_SPEED as f64), None, "[0.0, 0.0]", "Velocity inside at time zero, m/s."),
    key(
        "blobs[].swirl",
        Number,
        "rad/s",
        Magnitude(MAX_SPEED as f64),
        None,
        "0.0",
        "Rigid rotation inside at time zero, counter-clockwise positive.",
    ),
    key("layers[].bottom", Number, "m", Finite, None, "0.0", "The band's lower edge, metres."),
    key("layers[].top", Number, "m", Finite, None, "0.0", "The band's upper edge, metres."),
    key("layers[].ink", Colour, "–", Finite, None, "[0.0, 0.0, 0.0]", "Ink in the band, [r, g, b]."),
    key("layers[].density", Number, "kg/m³", Finite, None, "0.0", "Density deviation in the band, kg/m³."),
    key(
        "layers[].amplitude",
        Number,
        "m",
        Finite,
        None,
        "0.0",
        "Displacement of the lower edge, metres: amplitude · cos(2π · waves · x / width).",
    ),
    key("layers[].waves", Number, "–", Finite, None, "0.0", "Cosine waves across the domain's width."),
    key(
        "display.steps_per_frame",
        Whole,
        "steps",
        Between(1.0, 64.0),
        Some((1.0, 64.0)),
        "1",
        "Steps asked for each displayed frame; the app takes fewer when frames run long, unless Statistics → every step is on.",
    ),
    key("display.ink", Bool, "–", Any, None, "true", "Show the ink when the scene opens."),
    key("display.divergence", Bool, "–", Any, None, "false", "Show the divergence tint when the scene opens."),
    key("display.pressure", Bool, "–", Any, None, "false", "Show the pressure tint when the scene opens."),
    key("display.velocity", Bool, "–", Any, None, "false", "Show the velocity arrows at cell centres when the scene opens."),
    key(
        "display.edge_velocity",
        Bool,
        "–",
        Any,
        None,
        "false",
        "Show the arrows on the MAC edges (u and v where the solver keeps them) when the scene opens.",
    ),
    key(
        "display.grid_lines",
        Bool,
        "–",
        Any,
        None,
        "false",
        "Show the cell outlines when the scene opens (drawn where cells are at least 8 px wide).",
    ),
    key(
        "display.numbers",
        Bool,
        "–",
        Any,
        None,
        "false",
        "Print the shown field's value in each cell when the scene opens (where cells are large enough).",
    ),
    key("display.background", Colour, "–", Any, None, "[0.02, 0.02, 0.03]", "Colour behind the ink (r, g, b in 0..1)."),
    key("display.caption", Text, "–", Any, None, "\"\"", "One line on the field naming what to look at."),
];

/// The key at a dotted path (`boundary.left.speed` finds `boundary.{side}.speed`,
/// `emitters[2].rate` and `emitters.rate` find `emitters[].rate`).
pub fn find(path: &str) -> Option<&'static Key> {
    let general = general_path(path);
    KEYS.iter().find(|k| k.path == general)
}

/// A path with its side named `{side}` and its list index written `[]`.
fn general_path(path: &str) -> String {
    let mut parts: Vec<String> = path.split('.').map(|p| p.split('[').next().unwrap_or(p).to_string()).collect();
    if parts.len() >= 2 && parts[0] == "boundary" {
        parts[1] = "{side}".into();
    }
    if let Some(first) = parts.first_mut()
        && ["obstacles", "emitters", "blobs", "layers"].contains(&first.as_str())
    {
        first.push_str("[]");
    }
    parts.join(".")
}

/// The panel's tooltip for a key (the key's path itself where the table lacks it, which the
/// tests refuse).
pub fn help(path: &str) -> &'static str {
    find(path).map_or("", |k| k.help)
}

/// The panel's slider range for a key, as f32.
pub fn slider(path: &str) -> std::ops::RangeInclusive<f32> {
    let (lo, hi) = find(path).and_then(|k| k.slider).unwrap_or((0.0, 1.0));
    lo as f32..=hi as f32
}

/// The panel's slider range for a whole-number key.
pub fn slider_whole(path: &str) -> std::ops::RangeInclusive<i64> {
    let (lo, hi) = find(path).and_then(|k| k.slider).unwrap_or((0.0, 1.0));
    lo as i64..=hi as i64
}

/// `--set KEY`: a key of the table, a section or list of it, or a part of a list entry.
pub fn settable(path: &str) -> bool {
    let general = general_path(path);
    KEYS.iter().any(|k| k.path == general || k.path.starts_with(&format!("{general}.")))
}

/// Checks every value of `scene` (as TOML) against its key's accepted range: the first that is
/// out of range is a one-line error naming it.
pub fn check_ranges(scene: &toml::Value) -> Result<()> {
    for k in KEYS {
        for (name, value) in values_at(scene, k.path) {
            check(k, &name, value)?;
        }
    }
    Ok(())
}

/// Each value a key has in `scene`, with its concrete path (`boundary.left.speed`,
/// `emitters[0].rate`).
fn values_at<'a>(scene: &'a toml::Value, path: &str) -> Vec<(String, &'a toml::Value)> {
    let mut found = vec![(String::new(), scene)];
    for part in path.split('.') {
        let mut next = Vec::new();
        for (name, v) in found {
            let join = |p: &str| if name.is_empty() { p.to_string() } else { format!("{name}.{p}") };
            if part == "{side}" {
                for side in ["left", "right", "bottom", "top"] {
                    next.extend(v.get(side).map(|x| (join(side), x)));
                }
            } else if let Some(list) = part.strip_suffix("[]") {
                if let Some(items) = v.get(list).and_then(|l| l.as_array()) {
                    next.extend(items.iter().enumerate().map(|(n, x)| (join(&format!("{list}[{n}]")), x)));
                }
            } else {
                next.extend(v.get(part).map(|x| (join(part), x)));
            }
        }
        found = next;
    }
    found
}

fn check(k: &Key, name: &str, value: &toml::Value) -> Result<()> {
    let numbers: Vec<f64> = match value {
        toml::Value::Float(x) => vec![*x],
        toml::Value::Integer(n) => vec![*n as f64],
        toml::Value::Array(a) => a.iter().filter_map(|x| x.as_float().or(x.as_integer().map(|n| n as f64))).collect(),
        _ => return Ok(()),
    };
    let ok = |x: &f64| match k.accepts {
        Any | Special => true,
        Finite => x.is_finite(),
        Positive => x.is_finite() && *x > 0.0,
        AtLeastZero => x.is_finite() && *x >= 0.0,
        Between(lo, hi) => x.is_finite() && (lo..=hi).contains(x),
        AboveUpTo(lo, hi) => *x > lo && *x <= hi,
        Open(lo, hi) => *x > lo && *x < hi,
        Magnitude(most) => x.is_finite() && x.abs() <= most,
    };
    if numbers.iter().all(ok) {
        return Ok(());
    }
    // the scene's numbers are f32: show them so (0.1, not 0.10000000149011612)
    let shown = match value {
        toml::Value::Integer(n) => n.to_string(),
        _ if numbers.len() == 1 && !matches!(value, toml::Value::Array(_)) => format!("{}", numbers[0] as f32),
        _ => format!("{:?}", numbers.iter().map(|&x| x as f32).collect::<Vec<_>>()),
    };
    let unit = match k.unit {
        "–" => String::new(),
        "s" => " seconds".into(),
        "m" => " metres".into(),
        u => format!(" {u}"),
    };
    let expected = match (k.accepts, k.kind) {
        (Finite, _) => "finite numbers".to_string(),
        (Positive, _) => format!("a finite number greater than 0{unit}"),
        (AtLeastZero, _) => format!("a finite number of at least 0{unit}"),
        (Between(lo, hi), Whole) => format!("a whole number from {lo} to {hi}"),
        (Between(lo, hi), _) => format!("a number from {lo} to {hi}{unit}"),
        (AboveUpTo(lo, hi), _) => format!("a number in ({lo}, {hi}]"),
        (Open(lo, hi), _) => format!("a number in ({lo}, {hi})"),
        (Magnitude(most), _) => format!("finite numbers of at most {most:e} in size{unit}"),
        (Any | Special, _) => unreachable!("always accepted above"),
    };
    crate::fail!("{name} = {shown}: expected {expected}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Scene;

    #[test]
    fn each_default_in_the_table_is_the_formats_default() {
        let scene = toml::Value::try_from(Scene::default()).unwrap();
        let mut compared = 0;
        for k in KEYS.iter().filter(|k| !k.path.contains('[') && !k.path.contains('{')) {
            let Ok(written) = toml::from_str::<toml::Table>(&format!("x = {}", k.default)) else { continue };
            let Some(actual) = values_at(&scene, k.path).first().map(|(_, v)| (*v).clone()) else { continue };
            // numbers as f32, whole or not: the table writes 200 where the format holds 200.0
            fn as_f32(v: &toml::Value) -> toml::Value {
                match v {
                    toml::Value::Float(x) => toml::Value::Float(*x as f32 as f64),
                    toml::Value::Integer(n) => toml::Value::Float(*n as f32 as f64),
                    toml::Value::Array(a) => toml::Value::Array(a.iter().map(as_f32).collect()),
                    other => other.clone(),
                }
            }
            assert_eq!(as_f32(&written["x"]), as_f32(&actual), "{}: the table says {}", k.path, k.default);
            compared += 1;
        }
        assert!(compared > 30, "only {compared} defaults compared");
    }

    #[test]
    fn paths_find_their_key() {
        assert_eq!(find("boundary.left.speed").unwrap().path, "boundary.{side}.speed");
        assert_eq!(find("emitters[3].rate").unwrap().path, "emitters[].rate");
        assert!(find("grid.nxx").is_none());
        assert!(settable("grid") && settable("boundary.top") && settable("obstacles") && !settable("grid.nxx"));
    }
}
