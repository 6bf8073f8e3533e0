//! The device profiles select the variants docs/architecture.md's "What runs where" table says
//! they do: each row's family, and each class's column, read from the document and compared with
//! `DeviceProfile::variants`.

use smokebox::sim::kernel::{DeviceClass, DeviceProfile};

/// The table's rows: family, then the cells of the gpu, software, browser and browser-software
/// columns.
fn table() -> Vec<(String, [String; 4])> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/architecture.md")).unwrap();
    let section = doc.split("\n## What runs where\n").nth(1).expect("docs/architecture.md has a section \"What runs where\"");
    let section = section.split("\n## ").next().unwrap();
    let mut lines = section.lines().filter(|l| l.starts_with('|'));
    let head: Vec<&str> = lines.next().expect("the table's head").split('|').map(str::trim).collect();
    assert_eq!(&head[1..6], ["kernel family", "gpu", "software", "browser", "browser-software"], "the table's columns");
    lines
        .skip(1) // |---|
        .map(|l| {
            let cells: Vec<String> = l.split('|').map(|c| c.trim().trim_matches('*').to_string()).collect();
            (cells[1].clone(), [cells[2].clone(), cells[3].clone(), cells[4].clone(), cells[5].clone()])
        })
        .collect()
}

#[test]
fn each_class_runs_what_the_architecture_table_says() {
    let rows = table();
    for (column, class) in DeviceClass::ALL.into_iter().enumerate() {
        let variants = DeviceProfile::of_class(class).variants();
        for (family, variant) in &variants {
            let row = rows.iter().find(|r| r.0 == *family).unwrap_or_else(|| panic!("no row for {family:?} in the table"));
            assert_eq!(&row.1[column], variant, "{family}, {}", class.name());
        }
        for (family, _) in &rows {
            assert!(variants.iter().any(|v| v.0 == family), "the table's row {family:?} is no family of the profiles");
        }
    }
    // a check that cannot fail is no check: the classes differ where the table says they do
    assert_ne!(DeviceProfile::GPU.variants(), DeviceProfile::SOFTWARE.variants());
    assert_ne!(DeviceProfile::BROWSER.variants(), DeviceProfile::BROWSER_SOFTWARE.variants());
    assert!(rows.len() >= 6, "{rows:?}");
}

#[test]
fn a_profile_is_named_in_one_line() {
    let p = DeviceProfile::parse("browser,solver_tiles=0,textures=1").unwrap();
    assert_eq!(p, DeviceProfile { solver_tiles: false, textures: true, ..DeviceProfile::BROWSER });
    let e = DeviceProfile::parse("software,cell_blocks=8x8").unwrap_err();
    assert!(e.contains("cell_blocks=8x8") && e.contains("expected") && !e.contains('\n'), "{e}");
}

#[test]
fn a_bad_profile_stops_the_command_line_with_status_2() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_smokebox"))
        .args(["run", "--scene", "box", "--steps", "1"])
        .env("SMOKEBOX_PROFILE", "fast")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("SMOKEBOX_PROFILE") && err.contains("\"fast\""), "{err}");
    assert!(out.stdout.is_empty());
}
