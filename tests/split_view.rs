//! The split view's two runs (src/sim/pair.rs, src/app/split.rs): the pair, stepped together on
//! one device with the same brush strokes, must give bit for bit what two simulations of the
//! two settings give when each is made and stepped on its own device (its own kernels) with the
//! same strokes. A pair that shared a buffer, a bind group or a cached kernel's state between its
//! runs, took a splat into one run only, or stepped one with the other's time step would differ.

mod common;

use smokebox::config::compare::Comparison;
use smokebox::config::{Scene, Source};
use smokebox::sim::Simulation;
use smokebox::sim::fields::Fields;
use smokebox::sim::pair::Pair;
use smokebox::sim::params::{SPLAT_ADD, Splat};

const STEPS: u64 = 14;

/// A brush stroke across the lower middle of the 1 m plume box: a dab a step for steps 2-7,
/// moving right at 1.5 m/s, with ink.
fn dabs(step: u64) -> Vec<Splat> {
    if !(2..8).contains(&step) {
        return Vec::new();
    }
    let x = 0.25 + 0.06 * step as f32;
    vec![Splat { x, y: 0.4, radius: 0.06, mode: SPLAT_ADD, vx: 1.5, vy: 0.3, ink_r: 0.2, ink_g: 0.9, ink_b: 0.5, ..Splat::default() }]
}

/// The plume at 48², its dye grid the flow grid's.
fn scene() -> (Scene, Source) {
    Scene::load("plume", &["grid.nx=48".into(), "grid.ny=48".into(), "grid.dye_scale=1".into()]).unwrap()
}

fn bits(f: &Fields) -> Vec<(&'static str, Vec<u32>)> {
    let b = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
    vec![("u", b(&f.u)), ("v", b(&f.v)), ("p", b(&f.p)), ("ink", b(&f.ink)), ("density", b(&f.density))]
}

fn assert_same(what: &str, a: &Fields, b: &Fields) {
    for ((name, x), (_, y)) in bits(a).iter().zip(bits(b)) {
        let differing = x.iter().zip(&y).filter(|(p, q)| p != q).count();
        assert_eq!(differing, 0, "{what}: {name} differs in {differing} of {} values", x.len());
    }
}

#[test]
fn the_split_pair_equals_two_runs_of_its_settings_with_the_same_strokes() {
    let shared = common::gpu();
    let own = [common::gpu(), common::gpu()];
    let (base, source) = scene();
    for comparison in [Comparison::Solver, Comparison::Vorticity, Comparison::Advection] {
        let halves = comparison.halves(&base, "", &source).unwrap();
        // the split view: the first run, and the pair's second beside it on the same device
        let mut first = Simulation::from_scene(&shared, &halves.scenes[0], &source).unwrap();
        let mut pair = Pair::new(&shared, &first, &halves.scenes[1], &source).unwrap();
        // each setting on its own device
        let mut alone: Vec<Simulation> =
            halves.scenes.iter().zip(&own).map(|(s, gpu)| Simulation::from_scene(gpu, s, &source).unwrap()).collect();
        for step in 0..STEPS {
            for d in dabs(step) {
                pair.add_splat(&mut first, d);
                alone.iter_mut().for_each(|s| s.add_splat(d));
            }
            pair.run_blocking(&mut first, 1);
            alone.iter_mut().for_each(|s| {
                s.run_blocking(1, false);
            });
        }
        let (left, right) = (first.download(), pair.second.download());
        assert_eq!((first.time, pair.second.time), (alone[0].time, alone[1].time), "{comparison:?}: both at the runs' time");
        assert_same(&format!("{comparison:?}, left half"), &left, &alone[0].download());
        assert_same(&format!("{comparison:?}, right half"), &right, &alone[1].download());
        // the stroke reached both halves, and the setting shows
        let ink = |f: &Fields| f.ink.iter().map(|&c| c as f64).sum::<f64>();
        assert!(ink(&left) > 0.0 && ink(&right) > 0.0, "{comparison:?}: no ink");
        let moved = left.u.iter().zip(&right.u).filter(|(a, b)| a != b).count();
        assert!(moved > left.u.len() / 10, "{comparison:?}: the halves' u differ at only {moved} faces");
    }
}

/// In the empty box a dab's ink is all the ink there is: its centre is where the dab went, the
/// same point of the domain in both halves.
#[test]
fn a_stroke_lands_at_the_same_point_in_both_halves() {
    let gpu = common::gpu();
    let (base, source) = Scene::load("box", &["grid.nx=32".into(), "grid.ny=32".into(), "grid.dye_scale=1".into()]).unwrap();
    let halves = Comparison::Solver.halves(&base, "", &source).unwrap();
    let mut first = Simulation::from_scene(&gpu, &halves.scenes[0], &source).unwrap();
    let mut pair = Pair::new(&gpu, &first, &halves.scenes[1], &source).unwrap();
    let (w, h) = base.size();
    pair.add_splat(&mut first, Splat { x: 0.3 * w, y: 0.6 * h, radius: 0.08 * w.min(h), mode: SPLAT_ADD, ink_r: 1.0, ..Splat::default() });
    pair.run_blocking(&mut first, 1);
    let centre = |f: &Fields| {
        let (mut sum, mut at) = (0.0f64, [0.0f64; 2]);
        for j in 0..f.ny {
            for i in 0..f.nx {
                let c = f.ink[(j * f.nx + i) * 3] as f64;
                sum += c;
                at = [at[0] + c * (i as f64 + 0.5), at[1] + c * (j as f64 + 0.5)];
            }
        }
        assert!(sum > 0.0, "no ink");
        [at[0] / sum / f.nx as f64, at[1] / sum / f.ny as f64]
    };
    let (l, r) = (centre(&first.download()), centre(&pair.second.download()));
    for (a, b, want) in [(l[0], r[0], 0.3), (l[1], r[1], 0.6)] {
        assert!((a - want).abs() < 0.02 && (b - want).abs() < 0.02, "ink centres {l:?} and {r:?}, expected ({}, {})", 0.3, 0.6);
        assert!((a - b).abs() < 1e-6, "the halves' ink centres differ: {l:?} {r:?}");
    }
}
