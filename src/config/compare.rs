//! The split view's comparisons: one scene run twice, with one setting different. Each
//! comparison turns the scene into two scenes (the left and right halves) and names each half by
//! its setting. Three are ready-made; `Setting` takes any `KEY=VALUE` as `--set` does, checked by
//! the scene keys' own validation.

use super::scene::Scene;
use super::source::Source;
use crate::error::Result;
use serde::{Deserialize, Serialize};

/// What the two halves differ in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Comparison {
    /// Semi-Lagrangian against MacCormack transport (velocity and ink).
    #[default]
    Advection,
    /// 20 weighted Jacobi sweeps against multigrid to a relative residual of 1e-4.
    Solver,
    /// Vorticity confinement off against on.
    Vorticity,
    /// The scene as it is against the scene with one `KEY=VALUE` (`view.compare_setting`).
    Setting,
}

/// Every comparison, in the panel's order.
pub const COMPARISONS: [Comparison; 4] = [Comparison::Advection, Comparison::Solver, Comparison::Vorticity, Comparison::Setting];

/// Confinement strength of the "on" half where the scene's own is 0: what `plume` uses.
pub const VORTICITY_ON: f32 = 0.25;

/// The two halves' scenes and what each is called, left then right.
#[derive(Clone, Debug, PartialEq)]
pub struct Halves {
    pub scenes: [Scene; 2],
    pub labels: [String; 2],
}

impl Comparison {
    /// The name the panel's picker shows.
    pub fn title(self) -> &'static str {
        match self {
            Comparison::Advection => "semi-Lagrangian | MacCormack",
            Comparison::Solver => "Jacobi 20 | multigrid to 1e-4",
            Comparison::Vorticity => "vorticity confinement off | on",
            Comparison::Setting => "any setting (KEY=VALUE)",
        }
    }

    /// The left and right halves of `scene` (`setting` is `Setting`'s `KEY=VALUE`). A key of the
    /// grid, `time.dt` or the display is refused: both halves run on one grid with one time
    /// step, and are drawn alike.
    pub fn halves(self, scene: &Scene, setting: &str, source: &Source) -> Result<Halves> {
        let eps = if scene.forces.vorticity > 0.0 { scene.forces.vorticity } else { VORTICITY_ON };
        let (left, right, labels): (Vec<String>, Vec<String>, [String; 2]) = match self {
            Comparison::Advection => (
                vec!["advection.velocity=semi-lagrangian".into(), "advection.ink=semi-lagrangian".into()],
                vec!["advection.velocity=maccormack".into(), "advection.ink=maccormack".into()],
                ["semi-Lagrangian".into(), "MacCormack".into()],
            ),
            Comparison::Solver => (
                vec!["solver.kind=jacobi".into(), "solver.jacobi_iterations=20".into(), "solver.tolerance=0".into()],
                vec!["solver.kind=multigrid".into(), "solver.tolerance=1e-4".into()],
                ["Jacobi, 20 sweeps".into(), "multigrid to 1e-4".into()],
            ),
            Comparison::Vorticity => (
                vec!["forces.vorticity=0".into()],
                vec![format!("forces.vorticity={eps}")],
                ["vorticity confinement off".into(), format!("vorticity confinement ε = {eps}")],
            ),
            Comparison::Setting => {
                let (key, value) = super::parse_override(setting)
                    .map_err(|_| crate::error!("split view: \"{setting}\": expected KEY=VALUE, e.g. advection.velocity=maccormack"))?;
                if key.starts_with("grid.") || key.starts_with("display.") || key == "time.dt" {
                    crate::fail!(
                        "split view: {key}: both halves run on one grid with one time step and are drawn alike; expected a key outside grid.*, display.* and time.dt"
                    );
                }
                let own = value_at(scene, &key).unwrap_or_else(|| "the scene's".into());
                (Vec::new(), vec![setting.trim().to_string()], [format!("{key} = {own}"), format!("{key} = {}", shown(&value))])
            }
        };
        Ok(Halves { scenes: [with_sets(scene, &left, source)?, with_sets(scene, &right, source)?], labels })
    }
}

/// `scene` with `sets` applied as `--set` applies them, validated as a loaded scene is.
pub fn with_sets(scene: &Scene, sets: &[String], source: &Source) -> Result<Scene> {
    if sets.is_empty() {
        return Ok(scene.clone());
    }
    let text = toml::to_string(scene).map_err(|e| crate::error!("scene: {e}"))?;
    let changed = Scene::from_text(&text, &scene.name, sets)?;
    changed.validate(source)?;
    Ok(changed)
}

/// The value of dotted `key` in `scene`, as a label shows it.
fn value_at(scene: &Scene, key: &str) -> Option<String> {
    let root = toml::Value::try_from(scene).ok()?;
    key.split('.').try_fold(&root, |at, part| at.get(part)).map(shown)
}

/// A TOML value without a string's quotes.
fn shown(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plume() -> (Scene, Source) {
        Scene::load("plume", &[]).unwrap()
    }

    #[test]
    fn each_comparison_changes_only_its_own_setting_and_names_both_halves() {
        let (scene, source) = plume();
        let h = Comparison::Solver.halves(&scene, "", &source).unwrap();
        let [l, r] = &h.scenes;
        assert_eq!((l.solver.kind.word(), l.solver.cap(), l.solver.tolerance), ("jacobi", 20, 0.0));
        assert_eq!((r.solver.kind.word(), r.solver.tolerance), ("multigrid", 1e-4));
        // everything else is the scene's own
        let mut same = l.clone();
        same.solver = scene.solver.clone();
        assert_eq!(same, scene);
        let h = Comparison::Vorticity.halves(&scene, "", &source).unwrap();
        assert_eq!((h.scenes[0].forces.vorticity, h.scenes[1].forces.vorticity), (0.0, scene.forces.vorticity));
        assert!(h.labels[1].contains(&scene.forces.vorticity.to_string()), "{:?}", h.labels);
        let h = Comparison::Advection.halves(&scene, "", &source).unwrap();
        assert_ne!(h.scenes[0].advection, h.scenes[1].advection);
    }

    #[test]
    fn any_setting_is_checked_by_the_scene_keys_and_keeps_the_grid() {
        let (scene, source) = plume();
        let h = Comparison::Setting.halves(&scene, "fluid.viscosity=0.001", &source).unwrap();
        assert_eq!(h.scenes[0], scene, "the left half is the scene as it is");
        assert_eq!(h.scenes[1].fluid.viscosity, 0.001);
        assert_eq!(h.labels, ["fluid.viscosity = 0.0".to_string(), "fluid.viscosity = 0.001".to_string()]);
        for (bad, says) in [
            ("no.such_key=1", "unknown key"),
            ("fluid.viscosity=-1", "fluid.viscosity"),
            ("grid.nx=64", "one grid"),
            ("time.dt=0.1", "one time step"),
            ("viscosity", "expected KEY=VALUE"),
        ] {
            let e = Comparison::Setting.halves(&scene, bad, &source).unwrap_err().to_string();
            assert!(e.contains(says) && !e.contains('\n'), "{bad}: {e}");
        }
    }
}
