//! The one table of scene keys (src/config/keys.rs) against the docs' key tables and the panel,
//! both ways: every key in docs/scenes.md and in the panel is in the table, with the docs' unit
//! and default, and every key of the table is in the docs and in the panel (or left out of the
//! panel with a reason). Also: every key of the format itself (the default scene with one entry
//! of each list, as TOML) is in the table, and each key the table has is one `--set` takes.

use smokebox::config::keys::{self, KEYS};
use smokebox::config::{Blob, Emitter, Layer, Obstacle, Scene};
use smokebox::ui::scene_settings::{NOT_IN_PANEL, SCENE_KEYS};

/// (key as the table writes it, unit, default) of each row of docs/scenes.md's key tables, and
/// the text of the obstacles section (its table is by shape, not by key).
fn docs_rows() -> (Vec<(String, String, String)>, String) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenes.md")).unwrap();
    let keys = &text[text.find("\n## Keys").unwrap()..text.find("\n## Worked example").unwrap()];
    let (mut rows, mut obstacles, mut prefix) = (Vec::new(), String::new(), String::new());
    for line in keys.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            prefix = match heading {
                h if h.starts_with("`[boundary.") => "boundary.{side}.".into(),
                h if h.starts_with("`[[") => format!("{}[].", h.trim_matches(|c| "`[]".contains(c))),
                _ => String::new(),
            };
            continue;
        }
        if prefix == "obstacles[]." {
            obstacles.push_str(line);
            obstacles.push('\n');
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || !cells[1].starts_with('`') || cells[1] == "key" {
            continue;
        }
        let key = format!("{prefix}{}", cells[1].trim_matches('`'));
        rows.push((key, cells[2].to_string(), cells[3].trim_matches('`').to_string()));
    }
    (rows, obstacles)
}

#[test]
fn every_key_of_the_docs_is_in_the_table_with_its_unit_and_default_and_back() {
    let (rows, obstacles) = docs_rows();
    assert!(rows.len() > 50, "only {} rows read from docs/scenes.md", rows.len());
    for (key, unit, default) in &rows {
        let k = keys::find(key).unwrap_or_else(|| panic!("docs/scenes.md documents {key}, which the table of keys lacks"));
        assert_eq!(k.path, key, "docs/scenes.md's {key} is not written as the table's key");
        assert_eq!(k.unit, unit, "{key}: unit in the docs {unit:?}, in the table {:?}", k.unit);
        assert_eq!(k.default.trim_matches('`'), default, "{key}: default in the docs {default:?}, in the table {:?}", k.default);
    }
    for k in KEYS {
        if let Some(leaf) = k.path.strip_prefix("obstacles[].") {
            assert!(obstacles.contains(leaf), "docs/scenes.md's obstacles section does not mention {leaf}");
        } else {
            assert!(rows.iter().any(|(key, ..)| key == k.path), "the table's {} has no row in docs/scenes.md", k.path);
        }
    }
}

#[test]
fn every_key_of_the_panel_is_in_the_table_and_back() {
    for (key, label) in SCENE_KEYS {
        assert!(keys::find(key).is_some(), "the panel's '{label}' edits {key}, which the table of keys lacks");
    }
    for (key, _) in NOT_IN_PANEL {
        assert!(keys::settable(key), "NOT_IN_PANEL names {key}, which the table of keys lacks");
    }
    for k in KEYS {
        let in_panel = SCENE_KEYS.iter().any(|(key, _)| *key == k.path);
        let section = k.path.split(['.', '[']).next().unwrap();
        let left_out = NOT_IN_PANEL.iter().any(|(key, _)| *key == k.path || *key == section);
        assert!(in_panel || left_out, "the table's {} has no control in the panel and no reason (NOT_IN_PANEL)", k.path);
        assert!(!k.help.is_empty(), "{} has no help text", k.path);
        if k.slider.is_some() {
            assert!(in_panel, "{} has a slider range but no control", k.path);
        }
    }
}

#[test]
fn every_key_of_the_format_is_in_the_table() {
    let mut scene = Scene::default();
    scene.emitters.push(Emitter::default());
    scene.blobs.push(Blob::default());
    scene.layers.push(Layer::default());
    scene.obstacles.push(Obstacle::Circle { center: [0.5, 0.5], radius: 0.1 });
    scene.obstacles.push(Obstacle::Mask {
        file: "logo.png".into(),
        min: [0.1, 0.1],
        max: [0.2, 0.2],
        channel: Default::default(),
        threshold: 0.5,
    });
    scene.advection.density = Some(Default::default());
    // the old key, which reading a scene moves into the own key of its kind
    scene.solver.iterations = Some(20);
    fn walk(prefix: &str, v: &toml::Value, out: &mut Vec<String>) {
        match v {
            toml::Value::Table(t) => {
                for (k, v) in t {
                    walk(&if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") }, v, out);
                }
            }
            toml::Value::Array(a) if a.first().is_some_and(|x| x.is_table()) => {
                for x in a {
                    walk(&format!("{prefix}[0]"), x, out);
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }
    let mut found = Vec::new();
    walk("", &toml::Value::try_from(&scene).unwrap(), &mut found);
    assert!(found.len() > 50, "{found:?}");
    for key in &found {
        assert!(keys::find(key).is_some(), "the scene format has {key}, which the table of keys lacks");
        assert!(keys::settable(key), "--set would refuse {key}");
    }
    for k in KEYS {
        let general = |p: &str| keys::find(p).map(|f| f.path);
        assert!(found.iter().any(|f| general(f) == Some(k.path)), "the table's {} is not a key of the format", k.path);
    }
}

/// The built-in scenes and docs/scenes.md's table of them, both ways: a scene added without a
/// row (as `teaching` once was) or a row left for a scene that is gone fails here.
#[test]
fn every_builtin_scene_has_a_row_in_the_docs_and_every_row_a_scene() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/scenes.md")).unwrap();
    let table = text
        .split("## Built-in scenes")
        .nth(1)
        .and_then(|s| s.split("\n###").next())
        .expect("docs/scenes.md has its Built-in scenes section");
    let rows: Vec<&str> = table.lines().filter_map(|l| l.strip_prefix("| `")).filter_map(|l| l.split('`').next()).collect();
    let builtin: Vec<&str> = smokebox::config::BUILTIN.iter().map(|(n, _)| *n).collect();
    assert!(builtin.len() >= 10, "{builtin:?}");
    for name in &builtin {
        assert!(rows.contains(name), "docs/scenes.md's table of built-in scenes has no row for {name} (rows: {rows:?})");
    }
    for row in &rows {
        assert!(builtin.contains(row), "docs/scenes.md's table has a row for {row}, which is not a built-in scene");
    }
}
