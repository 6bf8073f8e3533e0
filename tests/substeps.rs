//! A safe time step and per-step inputs (issue 13 "A safe time step", issue 12 "Every dab
//! lands"): steps too long for the CFL limit are split into sub-steps or shortened with a warning;
//! several steps recorded into one submission each see their own constants and brush dabs; a dab
//! into a frozen flow is projected.

mod common;
use common::*;
use smokebox::config::{SolverConfig, SolverKind};
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;
use smokebox::sim::substeps::{Plan, plan};
use smokebox::sim::{Simulation, cpu};
use std::process::Command;

#[test]
fn a_step_is_split_at_the_cfl_limit_and_shortened_beyond_the_most_substeps() {
    // 1 m/s on cells of 0.1 m: dt = 0.25 s moves 2.5 cells
    assert_eq!(plan(0.25, 1.0, 0.1, 1.0, 8), Plan { substeps: 3, dt: 0.25 / 3.0, clamped: false });
    assert_eq!(plan(0.05, 1.0, 0.1, 1.0, 8), Plan { substeps: 1, dt: 0.05, clamped: false });
    let p = plan(10.0, 1.0, 0.1, 1.0, 8);
    assert_eq!((p.substeps, p.clamped), (8, true));
    assert!((p.dt - 0.1).abs() < 1e-6, "shortened sub-steps move one cell each: {p:?}");
    assert_eq!(plan(10.0, 1.0, 0.1, 0.0, 8).substeps, 1, "max_cfl = 0 turns sub-steps off");
    assert_eq!(plan(10.0, f32::NAN, 0.1, 1.0, 8).substeps, 1, "no usable speed: one step as asked");
}

fn smokebox(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_smokebox")).args(args).output().unwrap()
}

#[test]
fn drops_at_dt_10_stays_finite_and_bounded_with_one_warning() {
    // before: kinetic energy 2.7e8 J after 20 steps, silently
    let out = smokebox(&["run", "--scene", "drops", "--set", "time.dt=10", "--steps", "20", "--stats"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.contains("warning")).collect();
    assert_eq!(warnings.len(), 1, "expected one warning line, got: {err}");
    assert!(warnings[0].contains("time.max_substeps"), "{}", warnings[0]);
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 20);
    let energy: Vec<f64> = lines.iter().map(|l| l["kinetic_energy"].as_f64().unwrap()).collect();
    let substeps: Vec<u64> = lines.iter().map(|l| l["substeps"].as_u64().unwrap()).collect();
    eprintln!("drops at dt = 10: kinetic energy {energy:?}; sub-steps {substeps:?}");
    assert!(energy.iter().all(|e| e.is_finite() && *e < 1.0), "energy not bounded: {energy:?}");
    assert!(substeps.iter().skip(1).all(|&n| n == 8), "steps after the first should take the most sub-steps: {substeps:?}");
    // a normal dt splits nothing
    let out = smokebox(&["run", "--scene", "drops", "--steps", "3", "--stats"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(text.lines().all(|l| l.contains("\"substeps\":1")), "{text}");
}

/// A dab of red ink (no velocity) at (x, 0.5).
fn dab(x: f32) -> Splat {
    Splat { x, y: 0.5, radius: 0.08, mode: SPLAT_ADD, ink_r: 1.0, ..Default::default() }
}

/// A 32² closed box at rest without gravity: its side, constants and fields.
fn still_box() -> (usize, Params, Fields) {
    let n = 32;
    let mut p = box_params(n, n, 1.0 / n as f32, 0.01);
    p.gravity_y = 0.0;
    (n, p, Fields::zeros(n, n))
}

#[test]
fn several_steps_in_one_submission_each_land_their_own_dab() {
    let gpu = gpu();
    let (n, p, f) = still_box();
    let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::jacobi(4)).unwrap();
    let xs = [0.2f32, 0.5, 0.8];
    let mut encoder = sim.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
    for &x in &xs {
        sim.add_splat(dab(x));
        sim.encode_step(&mut encoder, smokebox::sim::Figures::None, None);
    }
    sim.queue.submit([encoder.finish()]);
    let got = sim.download();
    let ink_at = |x: f32| got.ink[3 * got.cell((x * n as f32) as usize, n / 2)];
    let found: Vec<f32> = xs.iter().map(|&x| ink_at(x)).collect();
    eprintln!("ink under each dab after three steps in one submission: {found:?}");
    for (x, ink) in xs.iter().zip(&found) {
        assert!(*ink > 0.5, "the dab at x = {x} did not land (ink {ink}); all: {found:?}");
    }
    // and not more than once each: the same as three separate steps on the CPU
    let mut want = f.clone();
    for &x in &xs {
        cpu::step(&mut want, &sim.params, &[dab(x)], 4, true, false);
    }
    assert_close("ink after three dabs", &got.ink, &want.ink, 1e-3);
}

/// More steps in one submission than a buffer of step inputs has slots (src/sim/uploads.rs:
/// 64), a dab in every fifth: the same fields as the steps submitted one at a time.
#[test]
fn more_steps_in_one_submission_than_input_slots_each_see_their_own() {
    let gpu = gpu();
    let (_, p, f) = still_box();
    let dabs = |k: usize| k.is_multiple_of(5).then(|| dab(0.1 + 0.8 * k as f32 / 70.0));
    let mut one = Simulation::new(&gpu, &f, p, SolverConfig::jacobi(4)).unwrap();
    let mut encoder = one.device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("frame") });
    for k in 0..70 {
        dabs(k).into_iter().for_each(|d| one.add_splat(d));
        one.encode_step(&mut encoder, smokebox::sim::Figures::None, None);
    }
    one.queue.submit([encoder.finish()]);
    let mut each = Simulation::new(&gpu, &f, p, SolverConfig::jacobi(4)).unwrap();
    for k in 0..70 {
        dabs(k).into_iter().for_each(|d| each.add_splat(d));
        each.run_blocking(1, false);
    }
    let (got, want) = (one.download(), each.download());
    assert!(want.ink.iter().sum::<f32>() > 1.0, "the dabs left no ink");
    assert_close("ink, 70 steps in one submission", &got.ink, &want.ink, 0.0);
    assert_close("u, 70 steps in one submission", &got.u, &want.u, 0.0);
}

#[test]
fn substeps_of_one_step_each_see_their_own_time_step() {
    // a uniform flow of 1 m/s carrying ink with the CFL limit at 1 cell: a step of 3.5 cells
    // becomes 4 sub-steps, and the ink must move 3.5 cells in all, as 4 separate steps of dt/4 do
    let gpu = gpu();
    let n = 32;
    let h = 1.0 / n as f32;
    let dt = 3.5 * h;
    let mut p = box_params(n, n, h, dt);
    p.bc_kind = [BC_PERIODIC; 4];
    p.gravity_y = 0.0;
    let mut f = Fields::zeros(n, n);
    f.u.fill(1.0);
    for j in 0..n {
        for i in 8..12 {
            let c = f.cell(i, j);
            f.ink[3 * c] = 1.0;
        }
    }
    let settings = SolverConfig { iterations: Some(0), ..Default::default() };
    let mut sim = Simulation::new(&gpu, &f, p, settings.clone()).unwrap();
    sim.freeze_velocity = true;
    sim.max_cfl = 1.0;
    sim.max_substeps = 8;
    sim.run_blocking(1, false);
    assert_eq!(sim.last_plan.substeps, 4);
    assert!((sim.time - dt as f64).abs() < 1e-6, "time advanced by {} for a step of {dt}", sim.time);
    let split = sim.download();
    let mut p4 = p;
    p4.dt = dt / 4.0;
    let mut four = Simulation::new(&gpu, &f, p4, settings).unwrap();
    four.freeze_velocity = true;
    four.run_blocking(4, false);
    assert_close("ink after 4 sub-steps vs 4 steps", &split.ink, &four.download().ink, 1e-6);
}

#[test]
fn a_dab_into_a_frozen_flow_is_projected() {
    let gpu = gpu();
    let (_, p, f) = still_box();
    let settings = SolverConfig { iterations: Some(200), tolerance: 1e-5, kind: SolverKind::Multigrid, ..Default::default() };
    let mut sim = Simulation::new(&gpu, &f, p, settings).unwrap();
    sim.freeze_velocity = true;
    let push = Splat { x: 0.5, y: 0.5, radius: 0.15, mode: SPLAT_ADD, vx: 2.0, ink_r: 1.0, ..Default::default() };
    // the dab alone, unprojected
    let mut raw = f.clone();
    cpu::sources(&mut raw, &p, &[push]);
    let before = cpu::stats::max_divergence(&raw, &p);
    sim.add_splat(push);
    sim.run_blocking(1, false);
    let got = sim.download();
    let after = cpu::stats::max_divergence(&got, &p);
    eprintln!("max |div| of a dab into a frozen flow: {before:.3e} painted, {after:.3e} after the step");
    assert!(after < 1e-3 * before, "the dab's velocity was not projected: {before} -> {after}");
    assert!(cpu::stats::max_speed(&got) > 0.1, "the dab's velocity is gone");
}

#[test]
fn a_dump_with_substeps_continues_bit_for_bit() {
    // the sub-step count follows the speed, which a loaded state must reproduce exactly
    let dir = std::env::temp_dir().join(format!("smokebox-substeps-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let path = |n: &str| dir.join(n).to_str().unwrap().to_string();
    let common = [
        "--scene",
        "drops",
        "--set",
        "grid.nx=48",
        "--set",
        "grid.ny=48",
        "--set",
        "grid.cell_size=0.020833334",
        "--set",
        "time.dt=0.1",
        "--set",
        "time.max_cfl=0.25",
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["run"];
        args.extend_from_slice(&common);
        args.extend_from_slice(extra);
        let out = smokebox(&args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    let whole = run(&["--steps", "16", "--stats", "--dump", &path("whole")]);
    run(&["--steps", "8", "--dump", &path("half")]);
    let out = smokebox(&["run", "--load", &path("half"), "--steps", "8", "--dump", &path("rest")]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let substeps: Vec<u64> =
        whole.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["substeps"].as_u64().unwrap()).collect();
    eprintln!("sub-steps of the 16 steps: {substeps:?}");
    assert!(substeps.iter().any(|&n| n > 1), "no step was split: {substeps:?}");
    for file in ["u.npy", "v.npy", "ink.npy", "density.npy"] {
        let a = std::fs::read(dir.join("whole").join(file)).unwrap();
        let b = std::fs::read(dir.join("rest").join(file)).unwrap();
        assert!(a == b, "{file} differs between 16 steps and 8 + 8 from a dump");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The sub-steps count what buoyancy can add over dt from the first step: `drops` at 64² with
/// time.dt = 10 starts at rest, and its first step, taken unsplit, would reach 0.13 J (34× the
/// most a normal 2000-step run reaches); it is split (and shortened, with the warning) like any
/// other.
#[test]
fn the_first_step_from_rest_counts_buoyancy() {
    let gpu = gpu();
    let sets = ["grid.nx=64".to_string(), "grid.ny=64".into(), "time.dt=10".into()];
    let (scene, source) = smokebox::config::Scene::load("drops", &sets).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    assert_eq!(sim.max_speed, 0.0, "drops start at rest");
    let s = sim.run_blocking(1, true)[0];
    assert_eq!(s.substeps, scene.time.max_substeps as u32, "{s:?}");
    assert!(sim.take_warning().is_some_and(|w| w.contains("sub-steps")));
    assert!(s.kinetic_energy < 1e-3, "{s:?}");
    assert!(s.max_speed * sim.last_plan.dt <= 1.0001 * sim.params.h * scene.time.max_cfl, "{s:?} {:?}", sim.last_plan);
    // the bound itself: |g| max|density| / rho dt
    use smokebox::sim::substeps::{buoyancy_speed, density_with_splats};
    assert!((buoyancy_speed(10.0, [0.0, -9.81], 1.0, 0.05) - 4.905).abs() < 1e-4);
    assert_eq!(buoyancy_speed(1.0, [0.0, 3e38], 1e-30, 1.0), f32::INFINITY);
    let dab = smokebox::sim::params::Splat { density: 0.5, mode: smokebox::sim::params::SPLAT_ADD, ..Default::default() };
    assert_eq!(density_with_splats(0.25, &[dab, dab]), 1.25);
}

#[test]
fn confinement_adds_no_more_speed_than_the_substeps_allow_for() {
    // the bound the sub-steps use, against the pass's CPU twin on white noise (walls, periodic,
    // solids): one application of confinement over dt changes no face by more than 2|ε| S dt
    use smokebox::sim::substeps::confinement_speed;
    assert_eq!(confinement_speed(0.1, 0.0, 3.0), 0.0);
    assert!((confinement_speed(0.01, 5.0, 2.0) - 2.0 * (0.1f32.exp() - 1.0)).abs() < 1e-6);
    assert_eq!(confinement_speed(1.0, 1000.0, 1.0), f32::INFINITY);
    let (nx, ny, h, dt) = (24, 20, 0.05, 0.01);
    let mut seen = 0.0f32;
    for (seed, kinds) in [(1, [BC_WALL; 4]), (2, [BC_PERIODIC; 4]), (3, [BC_WALL; 4])] {
        let f = common::random_fields(nx, ny, seed, if seed == 3 { 0.2 } else { 0.0 });
        let mut p = common::box_params(nx, ny, h, dt);
        p.bc_kind = kinds;
        p.vorticity = 3.0;
        let speed = common::max_abs(&f.u).max(common::max_abs(&f.v));
        let mut g = f.clone();
        cpu::vorticity(&mut g, &p);
        let change = common::max_diff(&f.u, &g.u).max(common::max_diff(&f.v, &g.v));
        let bound = 2.0 * p.vorticity * speed * dt;
        assert!(change > 0.0 && change <= bound * 1.0001, "seed {seed}: confinement changed a face by {change}, bound {bound}");
        assert!(bound <= confinement_speed(dt, p.vorticity, speed));
        seen = seen.max(change / bound);
    }
    println!("largest change a step: {seen:.3} of 2|ε| S dt");
    // and the bound is not loose by orders of magnitude on noise
    assert!(seen > 0.05, "largest change {seen} of the bound");
}
