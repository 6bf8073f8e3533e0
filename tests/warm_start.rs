//! The warm start of the pressure solve (src/sim/warm_start.rs): β against hand-computed cases,
//! the GPU pass against its CPU twin, and the instability it removes: warm-started solves that stop
//! short with an error operator that flips sign (SOR with ω near 2, Jacobi with weight 1 and an odd
//! count, one Jacobi sweep) once grew without bound in a box at rest (the seed-7 soak's NaN).

mod common;
use common::*;
use smokebox::config::{SolverConfig, SolverKind};
use smokebox::sim::cpu::grid::{Grid, Neighbour};
use smokebox::sim::cpu::warm_start::{warm_factor, warm_weights};
use smokebox::sim::fields::Fields;
use smokebox::sim::init::enforce_faces;
use smokebox::sim::params::*;
use smokebox::sim::{Simulation, cpu};

/// A p (count p_c - sum of fluid neighbours; outflow ghosts 0), written by hand from the stencil's
/// definition (DESIGN.md §2) with the grid's neighbour rule.
fn apply_a(f: &Fields, p: &Params) -> Vec<f32> {
    let g = Grid::new(f, p);
    let mut out = vec![0.0; f.p.len()];
    for j in 0..g.ny() {
        for i in 0..g.nx() {
            if g.is_solid(i, j) {
                continue;
            }
            let c = g.cell(i, j);
            let mut sum = 0.0f64;
            for (di, dj) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
                match g.neighbour(i, j, di, dj) {
                    Neighbour::Fluid(a, b) => sum += f.p[c] as f64 - f.p[g.cell(a, b)] as f64,
                    Neighbour::Dirichlet => sum += f.p[c] as f64,
                    Neighbour::None => {}
                }
            }
            out[c] = sum as f32;
        }
    }
    out
}

/// Grids of the GPU-against-CPU test: rows that are not whole quads (warm_start.wgsl, a cell a
/// thread) and rows that are (warm_start_quad.wgsl).
const SIZES: [(usize, usize); 2] = [(37, 29), (40, 28)];

/// A state whose right-hand side b = -rho h^2 div / dt is `k` A p (plus `noise` of white noise).
fn with_rhs(kinds: [u32; 4], seed: u64, k: f32, noise: f32) -> (Fields, Params) {
    sized_with_rhs(SIZES[0], kinds, seed, k, noise)
}

fn sized_with_rhs((nx, ny): (usize, usize), kinds: [u32; 4], seed: u64, k: f32, noise: f32) -> (Fields, Params) {
    let p = with_boundaries(box_params(nx, ny, 0.05, 0.02), kinds);
    let mut f = random_fields(nx, ny, seed, 0.15);
    if kinds[0] == BC_INFLOW {
        (0..ny).for_each(|j| f.solid[j * nx] = 0.0);
    }
    enforce_faces(&mut f, &p);
    let ap = apply_a(&f, &p);
    let mut rng = Rng::new(seed + 1);
    for (c, d) in f.divergence.iter_mut().enumerate() {
        let b = k * ap[c] + noise * rng.signed();
        *d = -b * p.dt / (p.rho * p.h * p.h);
    }
    (f, p)
}

/// A state with a random pressure p1 and one of the step before, p0, whose right-hand side is
/// A (k1 p1 + k2 (p1 - p0)) (plus `noise` of white noise): a start in their span can be exact.
fn with_pair(kinds: [u32; 4], seed: u64, k1: f32, k2: f32, noise: f32) -> (Fields, Params) {
    sized_with_pair(SIZES[0], kinds, seed, k1, k2, noise)
}

fn sized_with_pair(size: (usize, usize), kinds: [u32; 4], seed: u64, k1: f32, k2: f32, noise: f32) -> (Fields, Params) {
    sized_with_three(size, kinds, seed, [k1, k2, 0.0], noise, false)
}

/// `sized_with_pair` with the pressure two steps before, p00, too (`with_p00`; else it stays
/// zero, and g = p1 - 2 p0 lies in the span of p1 and d): b = A (k1 p1 + k2 d + k3 g), g = d - (p0 - p00).
fn sized_with_three(size: (usize, usize), kinds: [u32; 4], seed: u64, k: [f32; 3], noise: f32, with_p00: bool) -> (Fields, Params) {
    let (mut f, p) = sized_with_rhs(size, kinds, seed, 0.0, 0.0);
    let mut rng = Rng::new(seed + 2);
    f.p_prev.iter_mut().for_each(|x| *x = rng.signed());
    if with_p00 {
        f.p_prev2.iter_mut().for_each(|x| *x = rng.signed());
    }
    let answer: Vec<f32> = (0..f.p.len())
        .map(|c| {
            let (p1, p0, p00) = (f.p[c], f.p_prev[c], f.p_prev2[c]);
            k[0] * p1 + k[1] * (p1 - p0) + k[2] * ((p1 - p0) - (p0 - p00))
        })
        .collect();
    let ap = apply_a(&Fields { p: answer, ..f.clone() }, &p);
    for (c, d) in f.divergence.iter_mut().enumerate() {
        let b = ap[c] + noise * rng.signed();
        *d = -b * p.dt / (p.rho * p.h * p.h);
    }
    (f, p)
}

#[test]
fn the_start_is_the_answer_where_that_lies_in_the_span_of_the_last_two() {
    for (name, kinds) in boundary_cases() {
        for (k1, k2) in [(1.0, 1.0), (0.8, -0.5), (1.3, 2.0), (0.0, 0.7)] {
            let (f, p) = with_pair(kinds, 5, k1, k2, 0.0);
            let [a, c, e] = warm_weights(&f, &p);
            assert!((a - k1).abs() < 1e-3 && (c - k2).abs() < 1e-3, "{name}: weights ({a}, {c}), want ({k1}, {k2})");
            // no pressure two steps before: g = p1 - 2 p0 is in the pair's span, and dropped
            assert_eq!(e, 0.0, "{name}: g's weight without p00");
        }
        // no change since the step before (p0 = p1), or no step before (p0 = 0, so d = p1):
        // nothing to extrapolate along, and the start is β p1
        let (mut f, p) = with_rhs(kinds, 3, 0.5, 0.0);
        for p0 in [f.p.clone(), vec![0.0; f.p.len()]] {
            f.p_prev = p0;
            let [a, c, e] = warm_weights(&f, &p);
            assert!(
                (a - 0.5).abs() < 1e-4 && c == 0.0 && e == 0.0,
                "{name}: weights ({a}, {c}, {e}) without a change to follow, want (0.5, 0, 0)"
            );
        }
    }
}

#[test]
fn the_start_is_the_answer_where_that_lies_in_the_span_of_the_last_three() {
    for (name, kinds) in boundary_cases() {
        for k in [[1.0, 1.0, 0.5], [0.8, -0.5, 1.2], [1.3, 2.0, -0.7], [0.0, 0.0, 0.6]] {
            let (f, p) = sized_with_three(SIZES[0], kinds, 5, k, 0.0, true);
            let w = warm_weights(&f, &p);
            assert!(w.iter().zip(&k).all(|(a, b)| (a - b).abs() < 1e-3), "{name}: weights {w:?}, want {k:?}");
        }
        // a change at a steady rate (p0 - p00 = p1 - p0, so g = 0 but for round-off): the pair's
        // start, whatever weight g's round-off gets
        let (mut f, p) = sized_with_three(SIZES[0], kinds, 5, [0.9, 0.6, 0.0], 0.0, false);
        f.p_prev2 = f.p.iter().zip(&f.p_prev).map(|(p1, p0)| 2.0 * p0 - p1).collect();
        let [a, c, _] = warm_weights(&f, &p);
        assert!((a - 0.9).abs() < 1e-3 && (c - 0.6).abs() < 1e-3, "{name}: weights ({a}, {c}), want (0.9, 0.6)");
        let mut started = f.clone();
        cpu::warm_start(&mut started, &p, true);
        let pair: Vec<f32> = f.p.iter().zip(&f.p_prev).map(|(p1, p0)| 0.9 * p1 + 0.6 * (p1 - p0)).collect();
        assert_close(&format!("{name}: the start at a steady rate"), &started.p, &pair, 1e-3);
    }
}

#[test]
fn beta_is_the_best_multiple_of_the_last_pressure() {
    for (name, kinds) in boundary_cases() {
        // b = k A p: the exact solution is k p (up to the null space), so β = k, clamped to [0, 1]
        for (k, want) in [(1.0, 1.0), (0.5, 0.5), (0.25, 0.25), (2.0, 1.0), (-1.0, 0.0)] {
            let (f, p) = with_rhs(kinds, 3, k, 0.0);
            let beta = warm_factor(&f, &p);
            assert!((beta - want).abs() < 1e-4, "{name}, b = {k} A p: β {beta}, want {want}");
        }
        // no last pressure: a cold start
        let (mut f, p) = with_rhs(kinds, 3, 0.5, 0.0);
        f.p.fill(0.0);
        assert_eq!(warm_factor(&f, &p), 0.0, "{name}: p = 0");
    }
}

#[test]
fn warm_start_matches_cpu() {
    let gpu = gpu();
    for ((name, kinds), size) in boundary_cases().into_iter().flat_map(|c| SIZES.map(|s| (c, s))) {
        let name = format!("{name}, {}x{}", size.0, size.1);
        for kind in [SolverKind::Jacobi, SolverKind::Multigrid] {
            let (f, p) = sized_with_rhs(size, kinds, 7, 0.3, 0.05);
            let solver = SolverConfig { kind, iterations: Some(1), tolerance: 0.0, warm_start: true, ..Default::default() };
            let mut sim = Simulation::new(&gpu, &f, p, solver).unwrap();
            sim.run_pass("solve"); // sets up the stencils
            sim.upload(&f);
            sim.run_pass("warm_start");
            let mut want = f.clone();
            cpu::warm_start(&mut want, &p, false);
            let beta = warm_factor(&f, &p);
            assert!(beta > 0.2 && beta < 0.4, "{name}: β {beta} (b = 0.3 A p + noise)");
            assert_close(&format!("{name}, {kind:?}: p"), &sim.download().p, &want.p, 1e-4);
        }
        // with the pressures of the step before and of the one before that: a solve to a
        // tolerance starts from the three's mix, one of a fixed count from β p1 all the same;
        // p_prev becomes the last p either way, p_prev2 the one before only for a tolerance
        for kind in [SolverKind::Jacobi, SolverKind::Multigrid] {
            for (tolerance, with_p00) in [(1e-4, true), (1e-4, false), (0.0, true)] {
                let (f, p) = sized_with_three(size, kinds, 9, [0.9, 0.6, 0.4 * with_p00 as u32 as f32], 0.05, with_p00);
                let solver = SolverConfig { kind, iterations: Some(1), tolerance, warm_start: true, ..Default::default() };
                let mut sim = Simulation::new(&gpu, &f, p, solver).unwrap();
                sim.run_pass("solve");
                sim.upload(&f);
                sim.run_pass("warm_start");
                let pair = tolerance > 0.0;
                let mut want = f.clone();
                cpu::warm_start(&mut want, &p, pair);
                let [a, c, e] = warm_weights(&f, &p);
                let k3 = if with_p00 { 0.4 } else { 0.0 };
                assert!(
                    (a - 0.9).abs() < 0.05 && (c - 0.6).abs() < 0.05 && (e - k3).abs() < 0.05,
                    "{name}: weights ({a}, {c}, {e}), want about (0.9, 0.6, {k3})"
                );
                assert_eq!(e == 0.0, !with_p00, "{name}: g dropped exactly where it is in the pair's span");
                let got = sim.download();
                let ctx = format!("{name}, {kind:?}, tolerance {tolerance}, p00 {with_p00}");
                assert_close(&format!("{ctx}: p"), &got.p, &want.p, 1e-4);
                let p00 = if pair { &f.p_prev } else { &f.p_prev2 };
                assert_eq!(&got.p_prev2, p00, "{ctx}: p_prev2 after the start");
                if !pair {
                    let beta = warm_factor(&f, &p);
                    let scaled: Vec<f32> = f.p.iter().map(|x| beta * x).collect();
                    assert_eq!(want.p, scaled, "{ctx}: a fixed count starts from β p1");
                }
                assert_eq!(got.p_prev, f.p, "{ctx}: p_prev is the last pressure after the start");
            }
        }
    }
}

fn kinetic(f: &Fields) -> f64 {
    f.u.iter().chain(&f.v).map(|&x| (x as f64) * (x as f64)).sum()
}

/// A closed 32² box of random, unprojected velocity left to settle with no forces: each solve
/// stops short, so the next step sees its leftover divergence. Before the scaled warm start,
/// SOR ω = 1.98 with 22 sweeps reached |p| ~ 1e19 in 100 steps and NaN by 200; Jacobi with weight
/// 1 and 21 sweeps 3e32; one Jacobi sweep hovered at |p| ~ 13 (a checkerboard).
#[test]
fn warm_started_solves_that_stop_short_stay_bounded_at_rest() {
    let gpu = gpu();
    // with a tolerance out of reach the solves stop short too, from the pair's start
    let cases = [
        ("SOR ω 1.98, 22 sweeps", SolverKind::Sor, 22, 1.98, 0.8, 0.0),
        ("Jacobi weight 1, 21 sweeps", SolverKind::Jacobi, 21, 1.9, 1.0, 0.0),
        ("Jacobi weight 0.8, 1 sweep", SolverKind::Jacobi, 1, 1.9, 0.8, 0.0),
        ("multigrid, 1 V-cycle", SolverKind::Multigrid, 1, 1.9, 0.8, 0.0),
        ("SOR ω 1.98, at most 24 sweeps to 1e-9", SolverKind::Sor, 24, 1.98, 0.8, 1e-9),
        ("Jacobi weight 1, at most 24 sweeps to 1e-9", SolverKind::Jacobi, 24, 1.9, 1.0, 1e-9),
        ("multigrid, at most 1 V-cycle to 1e-9", SolverKind::Multigrid, 1, 1.9, 0.8, 1e-9),
    ];
    for (name, kind, iterations, omega, weight, tolerance) in cases {
        let (nx, ny) = (32, 32);
        let mut f = random_fields(nx, ny, 3, 0.0);
        f.p.fill(0.0);
        let mut p = box_params(nx, ny, 1.0 / 32.0, 0.0094);
        p.gravity_y = 0.0;
        p.sor_omega = omega;
        p.jacobi_weight = weight;
        enforce_faces(&mut f, &p);
        let solver = SolverConfig {
            kind,
            iterations: Some(iterations),
            tolerance,
            warm_start: true,
            omega,
            jacobi_weight: weight,
            ..Default::default()
        };
        let mut sim = Simulation::new(&gpu, &f, p, solver).unwrap();
        sim.run_blocking(1, false);
        let first = sim.download();
        let (e0, p0) = (kinetic(&first), max_abs(&first.p));
        let mut worst = 0.0f32;
        for _ in 0..6 {
            sim.run_blocking(50, false);
            let g = sim.download();
            assert!(g.p.iter().chain(&g.u).chain(&g.v).all(|x| x.is_finite()), "{name}: not finite");
            worst = worst.max(max_abs(&g.p));
            assert!(kinetic(&g) <= 1.01 * e0, "{name}: kinetic energy grew from {e0:.3e} to {:.3e}", kinetic(&g));
        }
        eprintln!("{name}: max |p| {p0:.3e} after the first step, at most {worst:.3e} over 300 more");
        assert!(worst <= 2.0 * p0, "{name}: |p| grew from {p0:.3e} to {worst:.3e}");
    }
}

/// The warm start's sums sit beside the statistics' partial sums, which a step holds across the
/// solve: a step's max |div| before is still that of its divergence (an early version of the
/// warm start wrote over it, and `--stats` reported ratios of 1e26).
#[test]
fn statistics_survive_the_warm_start() {
    let gpu = gpu();
    let (nx, ny) = (48, 40);
    let mut f = random_fields(nx, ny, 11, 0.1);
    f.p.iter_mut().for_each(|x| *x *= 0.01);
    let p = box_params(nx, ny, 1.0 / 48.0, 0.01);
    enforce_faces(&mut f, &p);
    let solver = SolverConfig { kind: SolverKind::Multigrid, iterations: Some(2), tolerance: 0.0, warm_start: true, ..Default::default() };
    let mut sim = Simulation::new(&gpu, &f, p, solver).unwrap();
    let stats = sim.run_blocking(1, true);
    let g = sim.download();
    let before = g.divergence.iter().zip(&g.solid).filter(|(_, s)| **s < 0.5).map(|(d, _)| d.abs()).fold(0.0f32, f32::max);
    let s = stats.last().unwrap();
    assert!(before > 0.0 && (s.div_max_before - before).abs() <= 1e-5 * before, "div before: stats {} fields {before}", s.div_max_before);
}

/// A solve to a tolerance from a warm start is opened by the warm start's scaling (no
/// `reduce_rhs` or `gate_start` dispatch): the same control words, dispatch arguments and first
/// gate's arguments as `Check::encode_start` writes, with max |b| over the cells that have an
/// equation; and a zero right-hand side found solved at once.
#[test]
fn a_warm_start_opens_the_gate_as_gate_start_does() {
    use smokebox::sim::buffers::read_buffers;
    use smokebox::sim::solver_check::ctl;
    let gpu = gpu();
    let run = |sim: &Simulation, f: &dyn Fn(&mut wgpu::ComputePass<'_>)| {
        let mut encoder = sim.device.create_command_encoder(&Default::default());
        f(&mut encoder.begin_compute_pass(&Default::default()));
        sim.queue.submit([encoder.finish()]);
        sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    };
    for ((name, kinds), size) in boundary_cases().into_iter().flat_map(|c| SIZES.map(|s| (c, s))) {
        for kind in [SolverKind::Jacobi, SolverKind::Multigrid] {
            for zero in [false, true] {
                let ctx = format!("{name}, {}x{}, {kind:?}{}", size.0, size.1, if zero { ", b = 0" } else { "" });
                let (mut f, p) = sized_with_pair(size, kinds, 13, 0.9, 0.6, 0.05);
                // no equation at a fluid cell walled in on every side: nothing to measure there
                let g = Grid::new(&f, &p);
                let measured: Vec<bool> = (0..g.ny())
                    .flat_map(|j| (0..g.nx()).map(move |i| (i, j)))
                    .map(|(i, j)| {
                        let open = [(-1, 0), (1, 0), (0, -1), (0, 1)]
                            .iter()
                            .any(|&(di, dj)| !matches!(g.neighbour(i, j, di, dj), Neighbour::None));
                        !g.is_solid(i, j) && open
                    })
                    .collect();
                let mut want = 0.0f32;
                for (d, m) in f.divergence.iter_mut().zip(&measured) {
                    if zero || !m {
                        *d = 0.0;
                    }
                    want = want.max((p.rho * p.h * p.h * *d / p.dt).abs());
                }
                let solver = SolverConfig { kind, iterations: Some(4), tolerance: 1e-4, warm_start: true, ..Default::default() };
                let mut sim = Simulation::new(&gpu, &f, p, solver).unwrap();
                sim.run_pass("solve"); // sets up the stencils
                let s = &sim.stages.solvers;
                let (control, args, opening) = (s.control.clone(), s.args.clone(), s.check.opening_args().clone());
                let junk = |sim: &Simulation| {
                    sim.queue.write_buffer(&control, 4, bytemuck::cast_slice(&[7.0f32, 0.0, 5.0, 9.0]));
                    sim.queue.write_buffer(&args, 0, bytemuck::cast_slice(&[99u32; 3 * ctl::ARG_SLOTS]));
                    sim.queue.write_buffer(&opening, 0, bytemuck::cast_slice(&[99u32; 3]));
                };
                let read = |sim: &Simulation| -> (Vec<u32>, Vec<u32>, Vec<u32>) {
                    let w = read_buffers(&sim.device, &sim.queue, &[&control, &args, &opening]);
                    let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
                    (bits(&w[0][1..5]), bits(&w[1][..3 * ctl::ARG_SLOTS]), bits(&w[2][..3]))
                };
                sim.upload(&f);
                junk(&sim);
                sim.run_pass("warm_start");
                let warm = read(&sim);
                sim.upload(&f);
                junk(&sim);
                run(&sim, &|pass| sim.stages.solvers.check.encode_start(pass));
                let start = read(&sim);
                let b = f32::from_bits(warm.0[0]);
                assert!((b - want).abs() <= 1e-6 * want, "{ctx}: max |b| {b:e}, want {want:e}");
                assert!(
                    (b - f32::from_bits(start.0[0])).abs() <= 1e-6 * want,
                    "{ctx}: max |b| {b:e}, gate_start's {:e}",
                    f32::from_bits(start.0[0])
                );
                assert_eq!(warm.0[1..], start.0[1..], "{ctx}: done, ratio and units run");
                assert_eq!(warm.0[1], zero as u32, "{ctx}: solved at once exactly where b = 0");
                assert_eq!(warm.1, start.1, "{ctx}: the gated dispatches' arguments");
                assert_eq!(warm.2, start.2, "{ctx}: the first gate's arguments");
                assert_eq!(warm.2[0], !zero as u32, "{ctx}: the first gate open exactly where b != 0");
            }
        }
    }
}
