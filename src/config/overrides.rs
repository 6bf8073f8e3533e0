//! Reading a scene: TOML text, `--set KEY=VALUE` overrides by dotted path, then validation.

use super::scene::Scene;
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
}
