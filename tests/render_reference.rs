//! Headless renders of each overlay on a known state (the `teaching` scene after a few steps,
//! refined to 32, 128 and 512 cells across by `--set grid.nx`), compared with the PNGs in
//! tests/reference/ (`NAME_N.png`) within a tolerance: every overlay must read at every size. The references are written
//! only when SMOKEBOX_BLESS=1; a missing reference fails. On a mismatch the actual image and a
//! difference image are saved next to the reference (`*.actual.png`, `*.diff.png`).

mod common;

use smokebox::config::Scene;
use smokebox::render::{Overlays, render_rgba};
use smokebox::sim::Simulation;
use smokebox::sim::init::initial_fields;
use smokebox::sim::params::Params;
use std::path::PathBuf;

const W: u32 = 384;
const H: u32 = 288;
/// Cells across: 12, 1.3 and 0.75 pixels a cell at W.
const SIZES: [usize; 3] = [32, 128, 512];

fn teaching_state(nx: usize) -> Simulation {
    let gpu = common::gpu();
    let (scene, source) = Scene::load("teaching", &[format!("grid.nx={nx}")]).unwrap();
    let fields = initial_fields(&scene, &source).unwrap();
    let mut sim = Simulation::new(&gpu, &fields, Params::from_scene(&scene), scene.solver.clone()).unwrap();
    sim.run_blocking(3, false);
    sim
}

/// The largest |p| and |ω| of a state: the tints' ranges.
fn ranges(sim: &Simulation) -> (f32, f32) {
    let f = sim.download();
    let max_p = f.p.iter().fold(0.0f32, |m, x| m.max(x.abs())).max(1e-6);
    (max_p, smokebox::render::curl::max_abs_curl(&f.u, &f.v, f.nx, f.ny, sim.params.h))
}

fn cases((max_p, max_w): (f32, f32)) -> Vec<(&'static str, Overlays)> {
    let none = Overlays { ink: false, grid_lines: false, numbers: false, ..Overlays::default() };
    let ink = Overlays { ink: true, ..none.clone() };
    vec![
        ("ink", ink.clone()),
        ("shading", Overlays { shading: true, ..ink.clone() }),
        ("grid", Overlays { grid_lines: true, ..ink.clone() }),
        // tints over the ink, which shows through
        ("divergence_before", Overlays { divergence: true, divergence_range: 2.0, ..ink.clone() }),
        ("divergence_after", Overlays { divergence: true, divergence_after: true, divergence_range: 2.0, ..ink.clone() }),
        ("pressure", Overlays { pressure: true, pressure_auto: false, pressure_range: max_p, ..ink.clone() }),
        ("curl", Overlays { curl: true, curl_auto: false, curl_range: max_w, ..ink.clone() }),
        ("arrows_mac", Overlays { arrows_mac: true, ..none.clone() }),
        ("arrows_centre", Overlays { arrows_centre: true, arrow_pixels: 16.0, ..ink }),
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
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/reference");
    let bless = std::env::var("SMOKEBOX_BLESS").is_ok_and(|v| v == "1");
    let mut failures = Vec::new();
    for n in SIZES {
        let sim = teaching_state(n);
        let mut images = Vec::new();
        for (case, overlays) in cases(ranges(&sim)) {
            let name = format!("{case}_{n}");
            let rgba = render_rgba(&sim, &overlays, [0.02, 0.02, 0.03], W, H);
            let path = dir.join(format!("{name}.png"));
            images.push((name.clone(), rgba.clone()));
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
        }
        // each overlay shows something of its own at this size (grid lines only where drawable)
        for (k, (a, ia)) in images.iter().enumerate() {
            for (b, ib) in &images[k + 1..] {
                let same_without_grid = b.starts_with("grid") && n > 32;
                let d = compare(ia, ib).0;
                if same_without_grid {
                    assert!(d == 0.0 || !a.starts_with("ink"), "{b}: grid lines drawn where cells are too small");
                } else {
                    assert!(d > 0.2, "{a} and {b} look the same (mean difference {d:.3})");
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The window's field image (a compute pass: src/render/cached.rs) shows what the headless draw (a
/// fragment pass) shows, overlay by overlay, where each pixel of the draw covers one of the image.
#[test]
fn the_window_field_image_is_the_draw() {
    use smokebox::render::{RenderParams, TintRanges, image_rgba};
    let sim = teaching_state(32);
    let s = 8;
    let size = [sim.nx as u32 * s, sim.ny as u32 * s];
    let background = [0.02, 0.02, 0.03];
    for (case, overlays) in cases(ranges(&sim)) {
        let drawn = render_rgba(&sim, &overlays, background, size[0], size[1]);
        let params = RenderParams::new(&sim, &overlays, background, s as f32, TintRanges::set(&overlays));
        let image = image_rgba(&sim, &params, size);
        // (an arrow's or a line's edge may fall on a pixel's centre, where the two round apart)
        let (mean, bad) = compare(&image, &drawn);
        assert!(mean < 0.1 && bad < 0.002, "{case}: the image and the draw differ: mean {mean:.3}, {:.2}% pixels", bad * 100.0);
    }
}

/// With one pixel a dye cell (a software adapter's field image), the ink read at each pixel's own
/// dye cell (`DYE_PIXELS`) gives the image the four-cell blend gives, on a grid whose sides are not
/// powers of two.
#[test]
fn one_pixel_a_dye_cell_reads_that_cell() {
    use smokebox::render::cached::one_pixel_a_dye_cell;
    use smokebox::render::{RenderParams, TintRanges, flags::DYE_PIXELS, image_rgba};
    use smokebox::sim::fields::Fields;
    let gpu = common::gpu();
    let (nx, ny, k) = (20, 13, 3);
    let f = common::random_fields(nx, ny, 5, 0.0);
    let ink = (0..3 * k * k * nx * ny).map(|n| ((n * 7919) % 1000) as f32 / 400.0).collect();
    let fields = Fields { dye_scale: k, ink, solid: vec![0.0; nx * ny], ..f };
    let sim = Simulation::new(&gpu, &fields, common::box_params(nx, ny, 0.1, 0.01), Default::default()).unwrap();
    let size = [(nx * k) as u32, (ny * k) as u32];
    for overlays in [Overlays::default(), Overlays { shading: true, ..Overlays::default() }] {
        let params = RenderParams::new(&sim, &overlays, [0.02, 0.02, 0.03], 6.0, TintRanges::set(&overlays));
        assert!(one_pixel_a_dye_cell(size, &params));
        let blended = image_rgba(&sim, &params, size);
        let read = image_rgba(&sim, &RenderParams { flags: params.flags | DYE_PIXELS, ..params }, size);
        let worst = blended.iter().zip(&read).map(|(a, b)| a.abs_diff(*b)).max().unwrap();
        assert!(worst <= 1, "shading {}: the images differ by up to {worst}", overlays.shading);
        // the ink differs from cell to cell, so reading a neighbour's would show
        let w = size[0] as usize * 4;
        let (shifted, _) = compare(&read[4..], &blended[..blended.len() - 4]);
        let (up, _) = compare(&read[w..], &blended[..blended.len() - w]);
        assert!(shifted > 10.0 && up > 10.0, "the ink is too even to tell cells apart: {shifted:.1}, {up:.1}");
    }
}

/// Overlays say whether they can be drawn at a zoom, and why not.
#[test]
fn overlays_report_what_they_cannot_draw() {
    use smokebox::render::{arrow_spacing, text_colour_on, why_not_drawable};
    assert!(why_not_drawable("grid", 12.0, 400).is_none());
    let why = why_not_drawable("grid", 3.0, 16384).expect("grid lines at 3 px a cell");
    assert!(why.contains("3.0 px") && why.contains("8 px"), "{why}");
    assert!(why_not_drawable("numbers", 20.0, 400).is_some());
    assert!(why_not_drawable("numbers", 50.0, 100_000).unwrap().contains("4096"));
    assert!(why_not_drawable("arrows", 0.5, 1 << 20).is_none(), "arrows thin out instead");
    // one arrow per edge only where cells are large enough, and it says why not
    assert!(why_not_drawable("mac-arrows", 12.0, 400).is_none());
    assert!(why_not_drawable("mac-arrows", 5.0, 400).unwrap().contains("key 5"));
    // cell arrows the asked pixels apart on screen (at least 16), never closer than a cell
    assert_eq!(arrow_spacing(24.0, 1.0), 24.0);
    assert_eq!(arrow_spacing(8.0, 1.0), 16.0);
    assert_eq!(arrow_spacing(24.0, 30.0), 1.0);
    assert_eq!(arrow_spacing(24.0, 12.0), 2.0);
    assert_eq!(text_colour_on([0.02, 0.02, 0.05]), [255, 255, 255]);
    assert_eq!(text_colour_on([0.95, 0.35, 0.1]), [0, 0, 0]);
}

/// Issue 58: grid lines are thin lines, one pixel wide at each cell edge, not the dots or
/// two-pixel bands they were: on `teaching` at its own 16 × 12 cells (24 px a cell at W), a row
/// through the middle of a cell row crosses 16 lines, each one pixel wide, a cell apart.
#[test]
fn grid_lines_are_one_pixel_wide() {
    let gpu = common::gpu();
    let (scene, source) = Scene::load("teaching", &[]).unwrap();
    let sim = Simulation::new(&gpu, &initial_fields(&scene, &source).unwrap(), Params::from_scene(&scene), scene.solver.clone()).unwrap();
    let plain = Overlays { ink: false, grid_lines: false, numbers: false, ..Overlays::default() };
    let background = [0.02, 0.02, 0.03];
    let without = render_rgba(&sim, &plain, background, W, H);
    let with = render_rgba(&sim, &Overlays { grid_lines: true, ..plain }, background, W, H);
    let ppc = W as usize / sim.nx;
    assert_eq!(ppc * sim.ny, H as usize, "the grid fills the image");
    // the middle of cell row 5, away from the obstacle (columns 11-12) and the rims
    let y = H as usize - (5 * ppc + ppc / 2);
    let line: Vec<usize> = (0..W as usize).filter(|&x| with[4 * (y * W as usize + x)] != without[4 * (y * W as usize + x)]).collect();
    // (the obstacle's cells and the walls' 2-pixel rim are drawn over the lines)
    let solid = |x: usize| (11..13).contains(&(x / ppc)) || x < 2 || x + 2 >= W as usize;
    let line: Vec<usize> = line.into_iter().filter(|&x| !solid(x)).collect();
    let expected: Vec<usize> = (0..sim.nx).map(|i| i * ppc).filter(|&x| !solid(x)).collect();
    assert_eq!(line, expected, "grid-line pixels of a row: one at each cell's left edge, none beside it");
    let _ = image::save_buffer(
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("teaching_grid_lines.png"),
        &with,
        W,
        H,
        image::ExtendedColorType::Rgba8,
    );
}
