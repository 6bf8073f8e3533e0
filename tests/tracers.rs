//! Tracers and streamlines against flows whose answers are known: particles carried by a uniform
//! flow move U·t, leave through an outflow and never sit in a solid; a streamline in a uniform
//! flow is a straight line along it. And the views: the particles and lines show in the picture.

mod common;
use common::*;
use smokebox::config::SolverConfig;
use smokebox::render::{Overlays, render_rgba};
use smokebox::sim::Simulation;
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;
use smokebox::sim::streamlines::{STREAMLINE_POINTS, SeedGrid};

const NX: usize = 64;
const NY: usize = 32;
const H: f32 = 0.05;
const DT: f32 = 0.02;

/// A uniform flow u = `speed`, v = 0 between free-slip walls at the bottom and top, the left
/// and right sides `sides`, held as it is (`freeze_velocity`): every step carries by the same field.
fn uniform_flow(sides: [u32; 2], speed: f32) -> (Fields, Params) {
    let mut p = box_params(NX, NY, H, DT);
    p.gravity_y = 0.0;
    p.bc_kind = [sides[0], sides[1], BC_WALL, BC_WALL];
    p.bc_slip = [SLIP_FREE; 4];
    p.inflow_u = [speed, 0.0, 0.0, 0.0];
    let mut f = Fields::zeros(NX, NY);
    f.u.iter_mut().for_each(|u| *u = speed);
    (f, p)
}

fn simulation(gpu: &smokebox::gpu::Gpu, f: &Fields, p: Params) -> Simulation {
    let mut sim = Simulation::new(gpu, f, p, SolverConfig::jacobi(40)).unwrap();
    sim.freeze_velocity = true;
    sim
}

fn live(sim: &Simulation) -> Vec<[f32; 4]> {
    sim.read_tracers().into_iter().filter(|t| t[0] >= 0.0).collect()
}

#[test]
fn tracers_move_with_a_uniform_flow() {
    let gpu = gpu();
    let speed = 0.37;
    let (f, p) = uniform_flow([BC_PERIODIC, BC_PERIODIC], speed);
    let mut sim = simulation(&gpu, &f, p);
    let w = NX as f32 * H;
    let mut rng = Rng::new(3);
    let seeds: Vec<[f32; 2]> = (0..500).map(|_| [rng.unit() * w, (0.05 + 0.9 * rng.unit()) * NY as f32 * H]).collect();
    sim.stages.tracers.seed(&seeds);
    let steps = 100;
    sim.run_blocking(steps, false);
    let got = sim.read_tracers();
    let moved = speed * DT * steps as f32;
    for (s, t) in seeds.iter().zip(&got) {
        assert!(t[0] >= 0.0, "a particle from {s:?} was removed in a periodic channel");
        // the distance along x on the periodic axis, and y unchanged
        let dx = (t[0] - s[0]).rem_euclid(w);
        assert!((dx - moved).abs() < 1e-4 * w, "from {s:?}: moved {dx} m along x, expected U·n·dt = {moved} m");
        assert!((t[1] - s[1]).abs() < 1e-5, "from {s:?}: y went from {} to {}", s[1], t[1]);
        // the previous position is one step back
        let back = (t[0] - t[2]).rem_euclid(w);
        assert!((back - speed * DT).abs() < 1e-5, "from {s:?}: last step {back} m, expected {}", speed * DT);
    }
}

#[test]
fn tracers_leave_through_an_outflow() {
    let gpu = gpu();
    let speed = 0.8;
    let (f, p) = uniform_flow([BC_INFLOW, BC_OUTFLOW], speed);
    let mut sim = simulation(&gpu, &f, p);
    sim.stages.tracers.fill(&sim.params);
    let seeds = smokebox::sim::tracers::even_points(NX as f32 * H, NY as f32 * H, smokebox::sim::tracers::TRACER_FILL);
    let w = NX as f32 * H;
    let mut last = usize::MAX;
    for n in [10u64, 60, 120, 180, 205] {
        sim.run_blocking(n - sim.step_index, false);
        let now = live(&sim).len();
        // those that started more than U·t from the outflow are there, the rest have gone
        let travelled = speed * DT * n as f32;
        let expected = seeds.iter().filter(|s| s[0] + travelled <= w).count();
        let near = seeds.iter().filter(|s| (s[0] + travelled - w).abs() < 1e-3).count();
        assert!(now.abs_diff(expected) <= near, "step {n}: {now} particles live, expected {expected}");
        assert!(now <= last, "step {n}: particles came back ({last} before, {now} now)");
        last = now;
    }
    assert_eq!(last, 0, "every particle has crossed the outflow by now");
}

#[test]
fn tracers_never_sit_in_a_solid_and_stay_inside_walls() {
    let gpu = gpu();
    // a swirl in a closed box around a block of solid cells
    let mut f = stirring(NX, NY, 1, H, 1.5);
    for j in 10..20 {
        for i in 25..35 {
            f.solid[j * NX + i] = 1.0;
        }
    }
    smokebox::sim::init::enforce_faces(&mut f, &box_params(NX, NY, H, DT));
    let mut p = box_params(NX, NY, H, DT);
    p.gravity_y = 0.0;
    let mut sim = simulation(&gpu, &f, p);
    sim.stages.tracers.fill(&sim.params);
    let seeded = smokebox::sim::tracers::even_points(NX as f32 * H, NY as f32 * H, smokebox::sim::tracers::TRACER_FILL).len();
    let (w, h) = (NX as f32 * H, NY as f32 * H);
    for _ in 0..6 {
        sim.run_blocking(10, false);
        for t in live(&sim) {
            assert!((0.0..=w).contains(&t[0]) && (0.0..=h).contains(&t[1]), "a particle at {t:?} left the walled box");
            let (i, j) = ((t[0] / H).floor() as usize, (t[1] / H).floor() as usize);
            assert!(f.solid[j.min(NY - 1) * NX + i.min(NX - 1)] < 0.5, "a particle sits in solid cell ({i}, {j}): {t:?}");
        }
    }
    let left = live(&sim).len();
    // the ones seeded in the block went at once; in a closed box the rest stay
    assert!(left < seeded && left > seeded * 8 / 10, "{left} of {seeded} particles left");
}

#[test]
fn streamlines_follow_a_uniform_flow() {
    let gpu = gpu();
    let (f, p) = uniform_flow([BC_PERIODIC, BC_PERIODIC], 0.6);
    let sim = simulation(&gpu, &f, p);
    let grid = SeedGrid::new(NX, NY, H, 4.0);
    let vertices = sim.run_streamlines(&grid);
    let segments = STREAMLINE_POINTS - 1;
    let mut drawn = 0;
    for (n, line) in vertices.chunks(2 * segments).enumerate() {
        let seed_y = ((n / grid.across as usize) as f32 + 0.5) * grid.spacing;
        for s in line.chunks(2) {
            assert!((s[0][1] - seed_y).abs() < 1e-5 && (s[1][1] - seed_y).abs() < 1e-5, "line {n}: segment {s:?} off y = {seed_y}");
            if s[0] != s[1] {
                drawn += 1;
                // along +x, one step long
                let dx = s[1][0] - s[0][0];
                assert!((dx - grid.step).abs() < 1e-4, "line {n}: segment {s:?} is {dx} m along x, expected {}", grid.step);
            }
        }
    }
    // only the segments that cross the periodic side are left out
    assert!(drawn >= grid.lines() * (segments - 1), "{drawn} segments drawn of {}", grid.lines() * segments);
}

/// Pixels of an RGBA image close to `colour`.
fn pixels_like(rgba: &[u8], colour: [u8; 3], within: i32) -> Vec<usize> {
    rgba.chunks(4).enumerate().filter(|(_, px)| (0..3).all(|c| (px[c] as i32 - colour[c] as i32).abs() <= within)).map(|(n, _)| n).collect()
}

#[test]
fn the_views_draw_tracers_where_they_were_seeded_and_streamlines() {
    let gpu = gpu();
    let (f, p) = uniform_flow([BC_PERIODIC, BC_PERIODIC], 0.3);
    let mut sim = simulation(&gpu, &f, p);
    // a disc of particles around (1.0, 0.8) m
    let (cx, cy, r) = (1.0f32, 0.8f32, 0.2f32);
    let seeds: Vec<[f32; 2]> = (0..400)
        .map(|k| (k as f32 * 2.4, r * ((k as f32 + 0.5) / 400.0).sqrt()))
        .map(|(a, d)| [cx + d * a.cos(), cy + d * a.sin()])
        .collect();
    sim.stages.tracers.seed(&seeds);
    sim.run_blocking(1, false);
    let (width, height) = (512u32, 256u32);
    let background = [0.0, 0.0, 0.0];
    let plain = render_rgba(&sim, &Overlays { ink: false, ..Overlays::default() }, background, width, height);
    let tracers = render_rgba(&sim, &Overlays { ink: false, tracers: true, ..Overlays::default() }, background, width, height);
    if let Ok(dir) = std::env::var("SMOKEBOX_TEST_PNG_DIR") {
        image::save_buffer(format!("{dir}/tracers.png"), &tracers, width, height, image::ExtendedColorType::Rgba8).unwrap();
    }
    let yellow = [255, 209, 38];
    assert!(pixels_like(&plain, yellow, 40).is_empty(), "tracer colour without the tracers view");
    let dots = pixels_like(&tracers, yellow, 40);
    assert!(dots.len() > 200, "only {} pixels of the tracer colour", dots.len());
    // every one within the disc, moved by one step (8 px a metre... 160 px a metre here)
    let ppm = width as f32 / (NX as f32 * H);
    let moved = 0.3 * DT;
    for n in &dots {
        let (x, y) = ((n % width as usize) as f32 + 0.5, (n / width as usize) as f32 + 0.5);
        let (mx, my) = (x / ppm, (height as f32 - y) / ppm);
        let d = (mx - cx - moved).hypot(my - cy);
        assert!(d < r + 3.0 / ppm, "a tracer pixel at {mx}, {my} m lies {d} m from the disc's centre");
    }
    let lines = render_rgba(&sim, &Overlays { ink: false, streamlines: true, ..Overlays::default() }, background, width, height);
    if let Ok(dir) = std::env::var("SMOKEBOX_TEST_PNG_DIR") {
        image::save_buffer(format!("{dir}/streamlines.png"), &lines, width, height, image::ExtendedColorType::Rgba8).unwrap();
    }
    // the pixels the view changed, each of the streamlines' pale blue-grey over black (where
    // the ends of two lines overlap, once more blended over itself)
    let changed: Vec<usize> = (0..plain.len() / 4).filter(|&n| plain[4 * n..4 * n + 3] != lines[4 * n..4 * n + 3]).collect();
    let pale = |px: &[u8]| px[2] >= px[1] && px[1] >= px[0] && px[0] >= 140 && px[2] - px[0] >= 20;
    let drawn: Vec<usize> = changed.iter().copied().filter(|&n| pale(&lines[4 * n..4 * n + 3])).collect();
    let odd = changed.len() - drawn.len();
    assert!(odd <= changed.len() / 20, "{odd} of the {} pixels the streamlines changed are not their colour", changed.len());
    // horizontal lines: whole rows of the picture lit at the seeds' heights
    assert!(drawn.len() > width as usize * 4, "only {} streamline pixels", drawn.len());
    let rows: std::collections::BTreeSet<usize> = drawn.iter().map(|n| n / width as usize).collect();
    let full = rows.iter().filter(|&&y| drawn.iter().filter(|&&n| n / width as usize == y).count() > width as usize / 2).count();
    assert!(full >= 4, "{full} rows mostly lit by streamlines, expected one a row of seeds");
}

#[test]
fn the_window_field_image_shows_tracers_and_streamlines() {
    use smokebox::render::{RenderParams, TintRanges, image_rgba};
    let gpu = gpu();
    let (f, p) = uniform_flow([BC_PERIODIC, BC_PERIODIC], 0.3);
    let mut sim = simulation(&gpu, &f, p);
    // particles on the lower half only
    let seeds: Vec<[f32; 2]> = (0..2000).map(|k| [(k % 100) as f32 * 0.032 + 0.01, (k / 100) as f32 * 0.035 + 0.05]).collect();
    sim.stages.tracers.seed(&seeds);
    sim.run_blocking(1, false);
    let size = [256u32, 128];
    let ppc = size[0] as f32 / NX as f32;
    let params = |o: &Overlays| RenderParams::new(&sim, o, [0.0; 3], ppc, TintRanges::set(o));
    let plain = image_rgba(&sim, &params(&Overlays { ink: false, ..Overlays::default() }), size);
    let both = Overlays { ink: false, tracers: true, streamlines: true, ..Overlays::default() };
    // the streamlines are traced ahead of the image, as the window's frame does
    let grid = smokebox::render::marks::seed_grid(&sim, &both, ppc);
    sim.run_streamlines(&grid);
    let image = image_rgba(&sim, &params(&both), size);
    if let Ok(dir) = std::env::var("SMOKEBOX_TEST_PNG_DIR") {
        image::save_buffer(format!("{dir}/field_image.png"), &image, size[0], size[1], image::ExtendedColorType::Rgba8).unwrap();
    }
    let w = size[0] as usize;
    let yellow: Vec<usize> = pixels_like(&image, [255, 209, 38], 40);
    assert!(pixels_like(&plain, [255, 209, 38], 40).is_empty(), "tracer colour without the view");
    assert!(yellow.len() > 500, "only {} tracer pixels in the field image", yellow.len());
    // every one in the band the particles were seeded in (the image's lower half, y up)
    let top = (0.05 + 19.0 * 0.035 + 2.0 * H) / (NY as f32 * H);
    for n in &yellow {
        let up = 1.0 - (n / w) as f32 / size[1] as f32;
        assert!(up <= top, "a tracer pixel at row {} lies above the seeded band", n / w);
    }
    let lines = pixels_like(&image, [158, 173, 191], 12);
    let rows: std::collections::BTreeSet<usize> = lines.iter().map(|n| n / w).collect();
    assert!(rows.len() >= 2 && lines.len() > w, "streamlines in the field image: {} pixels on {} rows", lines.len(), rows.len());
}
