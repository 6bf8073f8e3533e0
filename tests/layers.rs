//! Layers only point down (config → sim → render → app/ui → cli) and no two files import each
//! other: every `crate::…` and `super::…` path in src/ is resolved to the file it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Rank of a top-level module: a file may use only modules of its own rank or lower.
fn rank(top: &str) -> u32 {
    match top {
        "error" | "output" | "platform" => 0,
        "config" | "gpu" => 1,
        "sim" | "state_io" => 2,
        "render" => 3,
        "app" | "ui" | "bench" => 4,
        "cli" => 5,
        "lib" | "main" | "bin" => 6,
        other => panic!("module {other} has no layer: add it to tests/layers.rs"),
    }
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Module path of a file: src/sim/cpu/grid.rs → [sim, cpu, grid]; src/sim/mod.rs → [sim].
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    parts
}

/// The file that defines the longest prefix of `path` that is a module.
fn file_of(src: &Path, path: &[String]) -> Option<PathBuf> {
    for n in (1..=path.len()).rev() {
        let base = src.join(path[..n].join("/"));
        for candidate in [base.with_extension("rs"), base.join("mod.rs")] {
            if candidate.exists() {
                return Some(candidate);
            }
        }
    }
    None
}

/// Code without `//` comments (doc comments name other files freely).
fn code(text: &str) -> String {
    text.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every module path the text names through `crate::` or `super::`, braces expanded one level.
fn named_paths(text: &str, here: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < bytes.len() {
        let start_crate = bytes[i..].starts_with(b"crate::") && (i == 0 || !ident(bytes[i - 1]));
        let start_super = bytes[i..].starts_with(b"super::") && (i == 0 || !ident(bytes[i - 1]));
        if !(start_crate || start_super) {
            i += 1;
            continue;
        }
        // `super` is the parent of this file's module (src/a/b.rs and src/a/b/mod.rs are both a::b)
        let mut base: Vec<String> = if start_crate { Vec::new() } else { here.to_vec() };
        let mut j = i + if start_crate { "crate::".len() } else { 0 };
        while bytes[j..].starts_with(b"super::") {
            base.pop();
            j += "super::".len();
        }
        let mut segs = base;
        loop {
            let k = j;
            while j < bytes.len() && ident(bytes[j]) {
                j += 1;
            }
            if j == k {
                break;
            }
            segs.push(text[k..j].to_string());
            if bytes[j..].starts_with(b"::") {
                j += 2;
            } else {
                break;
            }
        }
        if bytes[j..].starts_with(b"{") {
            let end = text[j..].find('}').map(|e| j + e).unwrap_or(text.len());
            for item in text[j + 1..end].split(',') {
                let head: Vec<String> = item.trim().split("::").map(|s| s.trim().to_string()).collect();
                let mut p = segs.clone();
                p.extend(head.into_iter().filter(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_')));
                out.push(p);
            }
            j = end;
        } else {
            out.push(segs);
        }
        i = j.max(i + 1);
    }
    out
}

fn imports() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut all = Vec::new();
    files(&src, &mut all);
    let mut map = BTreeMap::new();
    for file in &all {
        let here = module_of(&src, file);
        let text = code(&std::fs::read_to_string(file).unwrap());
        let mut paths = named_paths(&text, &here);
        // `use child::X` where this file declares `mod child;` (a `pub use` re-export of a child is a
        // facade for callers, not a use of the child's code, so it is not counted)
        let children: Vec<&str> =
            text.lines().filter_map(|l| l.trim().trim_start_matches("pub ").strip_prefix("mod ")?.strip_suffix(';')).collect();
        for line in text.lines() {
            if let Some(rest) = line.trim().strip_prefix("use ")
                && let Some(first) = rest.split("::").next()
                && children.contains(&first)
            {
                let mut p = here.clone();
                p.extend(
                    rest.trim_end_matches(';')
                        .split("::")
                        .take(2)
                        .map(|s| s.trim_matches(|c: char| !c.is_alphanumeric() && c != '_').to_string()),
                );
                paths.push(p);
            }
        }
        let mut used = BTreeSet::new();
        for path in paths {
            if let Some(target) = file_of(&src, &path)
                && &target != file
            {
                used.insert(target.strip_prefix(&src).unwrap().to_path_buf());
            }
        }
        map.insert(file.strip_prefix(&src).unwrap().to_path_buf(), used);
    }
    map
}

fn top(file: &Path) -> String {
    let first = file.iter().next().unwrap().to_string_lossy().into_owned();
    first.trim_end_matches(".rs").to_string()
}

#[test]
fn no_file_imports_a_layer_above_it() {
    let mut bad = Vec::new();
    for (file, used) in imports() {
        let r = rank(&top(&file));
        for target in used {
            if rank(&top(&target)) > r {
                bad.push(format!("{} uses {}", file.display(), target.display()));
            }
        }
    }
    assert!(bad.is_empty(), "imports that point up a layer:\n{}", bad.join("\n"));
}

#[test]
fn no_two_files_import_each_other() {
    let map = imports();
    let mut bad = Vec::new();
    for (file, used) in &map {
        for target in used {
            if file < target && map.get(target).is_some_and(|u| u.contains(file)) {
                bad.push(format!("{} <-> {}", file.display(), target.display()));
            }
        }
    }
    assert!(bad.is_empty(), "files that import each other:\n{}", bad.join("\n"));
}

#[test]
fn the_checker_sees_imports() {
    // a check that cannot fail is no check: the map must hold edges we know exist
    let map = imports();
    let sim = &map[Path::new("sim/mod.rs")];
    assert!(sim.contains(Path::new("config/mod.rs")) || sim.contains(Path::new("config/scene.rs")), "{sim:?}");
    assert!(map[Path::new("sim/init.rs")].contains(Path::new("sim/cpu/grid.rs")));
    assert_eq!(rank("app"), 4);
    // and resolves paths the way Rust does
    let here = ["sim".to_string(), "init".to_string()];
    assert_eq!(named_paths("use crate::app::App;", &here), vec![vec!["app".to_string(), "App".to_string()]]);
    assert_eq!(
        named_paths("use super::{fields::Fields, params};", &here),
        vec![vec!["sim".to_string(), "fields".to_string(), "Fields".to_string()], vec!["sim".to_string(), "params".to_string()]]
    );
}

/// The code of a file without its `#[cfg(test)]` items (a test module or function writes temp
/// files freely): everything from the first `#[cfg(test)]` on is the tests, by the house's habit.
fn without_tests(text: &str) -> &str {
    text.split("#[cfg(test)]").next().unwrap_or(text)
}

/// What only the platform seam may call: the OS's files, threads, environment, clock, dialogs.
const OS_CALLS: &[&str] = &["std::fs", "std::thread", "std::env", "std::time::Instant", "std::process", "rfd::", "pollster::"];

fn os_calls_in(text: &str) -> Vec<&'static str> {
    let code = code(without_tests(text));
    OS_CALLS.iter().copied().filter(|c| code.contains(c)).collect()
}

#[test]
fn the_app_reaches_the_os_only_through_the_platform_seam() {
    // DESIGN.md §6: what differs between the desktop and the page lives behind src/platform/
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut bad = Vec::new();
    for dir in ["app", "ui", "render"] {
        let mut all = Vec::new();
        files(&src.join(dir), &mut all);
        for file in all {
            let found = os_calls_in(&std::fs::read_to_string(&file).unwrap());
            if !found.is_empty() {
                bad.push(format!("{}: {}", file.strip_prefix(&src).unwrap().display(), found.join(", ")));
            }
        }
    }
    assert!(bad.is_empty(), "app code that calls the OS itself (use crate::platform):\n{}", bad.join("\n"));
    // and the check sees such a call
    assert_eq!(
        os_calls_in("fn f() { let _ = std::fs::read(\"x\"); }\n#[cfg(test)]\nmod tests { std::thread::spawn(|| ()); }"),
        vec!["std::fs"]
    );
}

/// No source file over 700 lines: a file that long holds more than one concern.
#[test]
fn no_source_file_is_over_700_lines() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = Vec::new();
    files(&root.join("src"), &mut all);
    let shaders = root.join("shaders");
    let mut stack = vec![shaders];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "wgsl") {
                all.push(path);
            }
        }
    }
    assert!(all.len() > 100, "found only {} files", all.len());
    let long: Vec<String> = all
        .iter()
        .filter_map(|f| {
            let n = std::fs::read_to_string(f).unwrap().lines().count();
            (n > 700).then(|| format!("{} ({n} lines)", f.strip_prefix(root).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "files over 700 lines:\n{}", long.join("\n"));
}
