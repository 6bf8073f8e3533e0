//! Reading a scene: TOML text, `--set KEY=VALUE` overrides by dotted path, then validation.

use super::scene::{Scene, SolverKind};
use super::source::Source;
use crate::error::Result;

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

/// `solver.kind` as a table holds it, if it does.
fn solver_kind(table: &toml::Table) -> Option<toml::Value> {
    table.get("solver")?.as_table()?.get("kind").cloned()
}

/// The own key of the cap of solver kind `kind` (a TOML value; None where it names none).
fn cap_key(kind: &toml::Value) -> Option<&'static str> {
    let kind: SolverKind = kind.clone().try_into().ok()?;
    Some(kind.cap_key())
}

/// Moves a file's `solver.iterations` (an integer) into the own key of the file's solver kind
/// (multigrid where it names none): it is that solver's cap, and another kind keeps its own.
/// Both written is an error.
fn move_iterations(table: &mut toml::Table, label: &str) -> Result<()> {
    let kind = solver_kind(table).unwrap_or_else(|| toml::Value::String(SolverKind::default().word().into()));
    let Some(own) = cap_key(&kind) else { return Ok(()) };
    let Some(solver) = table.get_mut("solver").and_then(|s| s.as_table_mut()) else { return Ok(()) };
    if !solver.get("iterations").is_some_and(|v| v.is_integer()) {
        return Ok(());
    }
    let leaf = own.trim_start_matches("solver.");
    if solver.contains_key(leaf) {
        crate::fail!("scene {label}: solver.iterations and {own} both set the cap of solver.kind = {kind}: expected one of them");
    }
    let n = solver.remove("iterations").expect("checked above");
    solver.insert(leaf.to_string(), n);
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
        // the old key in a file is the cap of the file's solver
        move_iterations(&mut table, label)?;
        // the grid as written, before overrides, for the resolution rule below
        let written: Scene = toml::Value::Table(table.clone()).try_into().unwrap_or_default();
        let (mut new_nx, mut new_ny, mut cell_set) = (None, None, false);
        let parsed = overrides.iter().map(|o| parse_override(o)).collect::<Result<Vec<_>>>()?;
        // `--set solver.iterations` is the cap of the solver the run uses, named before or after it
        let kind = parsed
            .iter()
            .rev()
            .find(|(k, _)| k == "solver.kind")
            .map(|(_, v)| v.clone())
            .or_else(|| solver_kind(&table))
            .unwrap_or_else(|| toml::Value::String(SolverKind::default().word().into()));
        for (key, value) in parsed {
            let key = match (key.as_str(), cap_key(&kind), value.is_integer()) {
                ("solver.iterations", Some(own), true) => own.to_string(),
                _ => key,
            };
            if !super::keys::settable(&key) {
                let section = key.split('.').next().unwrap_or_default();
                let near: Vec<&str> =
                    super::keys::KEYS.iter().map(|k| k.path).filter(|p| p.starts_with(&format!("{section}."))).take(8).collect();
                let hint = if near.is_empty() { String::new() } else { format!(" ({section} has {})", near.join(", ")) };
                crate::fail!("--set {key}: unknown key: expected a key of the scene format, as docs/scenes.md lists them{hint}");
            }
            match (key.as_str(), value.as_integer()) {
                ("grid.nx", Some(n)) => new_nx = Some(n),
                ("grid.ny", Some(n)) => new_ny = Some(n),
                ("grid.cell_size", _) => cell_set = true,
                _ => {}
            }
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
        // --set grid.nx / grid.ny without grid.cell_size refines the same domain
        if !cell_set && (new_nx.is_some() || new_ny.is_some()) && [new_nx, new_ny].iter().flatten().all(|&n| n >= 2) {
            let mut refined = written;
            refined.refine(new_nx, new_ny);
            scene.grid.nx = refined.grid.nx;
            scene.grid.ny = refined.grid.ny;
            scene.grid.cell_size = refined.grid.cell_size;
        }
        Ok(scene)
    }
}

/// The `--set KEY=VALUE` overrides that turn `base` into `scene` (every setting that differs, by
/// dotted path; a bare word for a string): what a shareable link of the web page holds.
pub fn overrides_between(base: &Scene, scene: &Scene) -> Vec<String> {
    /// A value as TOML, floats at f32's shortest (the scene's numbers are f32: 0.001, not
    /// 0.0010000000474974513).
    fn text(v: &toml::Value) -> String {
        match v {
            toml::Value::Float(f) => {
                let t = format!("{}", *f as f32);
                if t.contains(['.', 'e', 'i', 'N']) { t } else { format!("{t}.0") }
            }
            toml::Value::Array(a) => format!("[{}]", a.iter().map(text).collect::<Vec<_>>().join(", ")),
            other => other.to_string(),
        }
    }
    fn walk(prefix: &str, a: Option<&toml::Value>, b: &toml::Value, out: &mut Vec<String>) {
        match (a, b) {
            (Some(toml::Value::Table(ta)), toml::Value::Table(tb)) => {
                for (k, vb) in tb {
                    let key = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
                    walk(&key, ta.get(k), vb, out);
                }
            }
            (Some(va), vb) if va == vb => {}
            (_, toml::Value::String(s)) if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c)) => {
                let plain = parse_override(&format!("{prefix}={s}")).is_ok_and(|(_, v)| v == toml::Value::String(s.clone()));
                out.push(if plain { format!("{prefix}={s}") } else { format!("{prefix}={}", text(b)) });
            }
            (_, vb) => out.push(format!("{prefix}={}", text(vb))),
        }
    }
    let (Ok(a), Ok(b)) = (toml::Value::try_from(base), toml::Value::try_from(scene)) else { return Vec::new() };
    let mut out = Vec::new();
    walk("", Some(&a), &b, &mut out);
    out
}

#[cfg(test)]
mod link_tests {
    use crate::config::Scene;
    use crate::config::overrides::overrides_between;

    #[test]
    fn the_overrides_between_two_scenes_rebuild_the_second() {
        let (base, _) = Scene::load("cavity", &[]).unwrap();
        let sets = ["solver.kind=sor".to_string(), "fluid.viscosity=0.001".to_string(), "forces.gravity=[0.0, -2.5]".to_string()];
        let (changed, _) = Scene::load("cavity", &sets).unwrap();
        let found = overrides_between(&base, &changed);
        assert!(found.contains(&"solver.kind=sor".to_string()), "{found:?}");
        assert!(
            found.contains(&"fluid.viscosity=0.001".to_string()) && found.contains(&"forces.gravity=[0.0, -2.5]".to_string()),
            "{found:?}"
        );
        let (again, _) = Scene::load("cavity", &found).unwrap();
        assert_eq!(again, changed);
        assert!(overrides_between(&base, &base).is_empty());
    }

    /// Each solver kind has its own cap (issue 57, item 4): switching kinds keeps each one's,
    /// in a scene read with `--set`, in the panel's edits and in a link.
    #[test]
    fn each_solver_keeps_its_own_cap() {
        use crate::config::SolverKind::*;
        let (cavity, _) = Scene::load("cavity", &[]).unwrap();
        assert_eq!((cavity.solver.cap(), cavity.solver.iterations), (4, None), "cavity's 4 V-cycles, in their own key");
        // switched to SOR, it gets SOR's own cap, not multigrid's 4 V-cycles as sweeps
        let (sor, _) = Scene::load("cavity", &["solver.kind=sor".to_string()]).unwrap();
        assert_eq!((sor.solver.cap(), sor.solver.cap_of(Multigrid)), (1000, 4));
        // the old key is the cap of the kind the run uses, named before or after it
        for sets in [["solver.iterations=77", "solver.kind=jacobi"], ["solver.kind=jacobi", "solver.iterations=77"]] {
            let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
            let (s, _) = Scene::load("cavity", &sets).unwrap();
            assert_eq!((s.solver.cap(), s.solver.cap_of(Multigrid), s.solver.cap_of(Sor)), (77, 4, 1000), "{sets:?}");
        }
        // a file's old key is the cap of the file's kind only
        let old = "[solver]\nkind = \"jacobi\"\niterations = 40\n";
        let s = Scene::from_text(old, "old", &[]).unwrap();
        assert_eq!((s.solver.cap_of(Jacobi), s.solver.cap_of(Multigrid)), (40, 20));
        let s = Scene::from_text(old, "old", &["solver.kind=multigrid".to_string()]).unwrap();
        assert_eq!(s.solver.cap(), 20, "multigrid does not take Jacobi's 40 sweeps");
        // back and forth, as the panel switches: each kind's cap stays its own
        let mut c = cavity.solver.clone();
        c.kind = Sor;
        *c.cap_mut() = 40;
        c.kind = Multigrid;
        assert_eq!(c.cap(), 4);
        *c.cap_mut() = 6;
        c.kind = Sor;
        assert_eq!(c.cap(), 40);
        c.kind = Multigrid;
        assert_eq!(c.cap(), 6);
        // a link carries each changed cap by its own key and rebuilds the same settings
        let mut changed = cavity.clone();
        changed.solver = c;
        let found = overrides_between(&cavity, &changed);
        assert!(
            found.contains(&"solver.sor_iterations=40".to_string()) && found.contains(&"solver.multigrid_iterations=6".to_string()),
            "{found:?}"
        );
        assert!(!found.iter().any(|f| f.starts_with("solver.iterations")), "{found:?}");
        let (again, _) = Scene::load("cavity", &found).unwrap();
        assert_eq!(again, changed);
    }
}
