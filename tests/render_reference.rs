//! Headless renders of each overlay on a known state (the `teaching` scene after a few steps),
//! compared with the PNGs in tests/reference/ within a tolerance. The references are written
//! only when SMOKEBOX_BLESS=1; a missing reference fails. On a mismatch the actual image and a
//! difference image are saved next to the reference (`*.actual.png`, `*.diff.png`).

mod common;

use smokebox::config::Scene;
use smokebox::render::{Overlays, render_rgba};
use smokebox::sim::Simulation;
use smokebox::sim::init::initial_fields;
use smokebox::sim::params::Params;
use std::path::PathBuf;

const W: u32 = 320;
const H: u32 = 240;

fn teaching_state() -> Simulation {
    let gpu = common::gpu();
    let (scene, source) = Scene::load("teaching", &[]).unwrap();
    let fields = initial_fields(&scene, &source).unwrap();
    let mut sim = Simulation::new(&gpu, &fields, Params::from_scene(&scene), scene.solver.clone()).unwrap();
    sim.run_blocking(3, false);
    sim
}

fn cases(max_p: f32) -> Vec<(&'static str, Overlays)> {
    let none = Overlays { ink: false, grid_lines: false, numbers: false, ..Overlays::default() };
    vec![
        ("ink", Overlays { ink: true, grid_lines: true, ..none.clone() }),
        ("divergence_before", Overlays { divergence: true, divergence_range: 2.0, ..none.clone() }),
        ("divergence_after", Overlays { divergence: true, divergence_after: true, divergence_range: 2.0, ..none.clone() }),
        ("pressure", Overlays { pressure: true, pressure_auto: false, pressure_range: max_p, ..none.clone() }),
        ("arrows_mac", Overlays { arrows_mac: true, arrow_scale: 2.0, grid_lines: true, ..none.clone() }),
        ("arrows_centre", Overlays { ink: true, arrows_centre: true, arrow_spacing: 2, arrow_scale: 3.0, ..none }),
    ]
}

/// Mean absolute difference per channel (0-255) and the fraction of pixels off by more than 40.
fn compare(a: &[u8], b: &[u8]) -> (f64, f64) {
    let mut sum = 0u64;
    let mut bad = 0usize;
    for (pa, pb) in a.chunks(4).zip(b.chunks(4)) {
        let d = (0..3).map(|k| (pa[k] as i32 - pb[k] as i32).unsigned_abs()).max().unwrap();
        sum += (0..3).map(|k| (pa[k] as i32 - pb[k] as i32).unsigned_abs() as u64).sum::<u64>();
        if d > 40 {
            bad += 1;
        }
    }
    (sum as f64 / (a.len() / 4 * 3) as f64, bad as f64 / (a.len() / 4) as f64)
}

#[test]
fn overlays_match_reference_images() {
    let sim = teaching_state();
    let p = sim.download().p;
    let max_p = p.iter().fold(0.0f32, |m, x| m.max(x.abs())).max(1e-6);
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    let bless = std::env::var("SMOKEBOX_BLESS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut images = Vec::new();
    for (name, overlays) in cases(max_p) {
        let rgba = render_rgba(&sim, &overlays, [0.02, 0.02, 0.03], W, H);
        let path = dir.join(format!("{name}.png"));
        if bless {
            image::save_buffer(&path, &rgba, W, H, image::ExtendedColorType::Rgba8).unwrap();
            continue;
        }
        let Ok(reference) = image::open(&path) else {
            failures.push(format!("{name}: no reference {} (make it with SMOKEBOX_BLESS=1)", path.display()));
            continue;
        };
        let reference = reference.to_rgba8();
        assert_eq!(reference.dimensions(), (W, H), "{name}: reference has another size");
        let (mean, bad) = compare(&rgba, reference.as_raw());
        if mean > 1.5 || bad > 0.005 {
            let actual = dir.join(format!("{name}.actual.png"));
            image::save_buffer(&actual, &rgba, W, H, image::ExtendedColorType::Rgba8).unwrap();
            let diff: Vec<u8> = rgba
                .chunks(4)
                .zip(reference.as_raw().chunks(4))
                .flat_map(|(a, b)| {
                    let d = (0..3).map(|k| (a[k] as i32 - b[k] as i32).unsigned_abs()).max().unwrap().min(255) as u8;
                    [d.saturating_mul(4), d.saturating_mul(4), d.saturating_mul(4), 255]
                })
                .collect();
            image::save_buffer(dir.join(format!("{name}.diff.png")), &diff, W, H, image::ExtendedColorType::Rgba8).unwrap();
            failures.push(format!("{name}: mean difference {mean:.2}, {:.2}% pixels off (see {})", bad * 100.0, actual.display()));
        }
        images.push((name, rgba));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // each overlay shows something of its own
    for (k, (a, ia)) in images.iter().enumerate() {
        for (b, ib) in &images[k + 1..] {
            assert!(compare(ia, ib).0 > 0.5, "{a} and {b} look the same");
        }
    }
}
