//! The stage view's step taken apart (src/sim/stepwise.rs): a step taken stage by stage leaves the
//! state bit for bit as one taken at once, with every solver, and the run goes on alike after it;
//! the divergence after the correction is within the solve's tolerance of the divergence before
//! it; and on a box of white noise the divergence left after 1, 2, 4, … weighted Jacobi sweeps
//! falls at every picture.

mod common;
use common::*;
use smokebox::config::Scene;
use smokebox::sim::Simulation;
use smokebox::sim::buffers::read_buffers;
use smokebox::sim::stepwise::{Stage, Stepwise};

/// `scene` at 32² with `sets`, no CFL sub-steps (the plan follows speeds read back, which the
/// two ways of stepping reduce differently).
fn sim(scene: &str, sets: &[&str]) -> Simulation {
    let mut all = vec!["grid.nx=32".to_string(), "grid.ny=32".into(), "time.max_cfl=0".into()];
    all.extend(sets.iter().map(|s| s.to_string()));
    let (scene, source) = Scene::load(scene, &all).unwrap();
    Simulation::from_scene(&gpu(), &scene, &source).unwrap()
}

/// Takes the next stage in a submission of its own, as the window does, and waits for it.
fn take_stage(sim: &mut Simulation, w: &mut Stepwise) -> Stage {
    let mut encoder = sim.device.create_command_encoder(&Default::default());
    let stage = sim.encode_stage(w, &mut encoder);
    sim.queue.submit([encoder.finish()]);
    sim.after_submit();
    sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    stage
}

/// Takes a whole step stage by stage; returns its stages.
fn stepped(sim: &mut Simulation, w: &mut Stepwise) -> Vec<Stage> {
    let mut stages = vec![take_stage(sim, w)];
    while w.in_step() {
        stages.push(take_stage(sim, w));
    }
    stages
}

/// Every field of the state, as bits.
fn bits(sim: &Simulation) -> Vec<Vec<u32>> {
    let f = sim.download();
    [&f.u, &f.v, &f.p, &f.p_prev, &f.p_prev2, &f.ink, &f.density].iter().map(|x| x.iter().map(|v| v.to_bits()).collect()).collect()
}

fn max_abs_of(sim: &Simulation, buffer: &wgpu::Buffer) -> f32 {
    read_buffers(&sim.device, &sim.queue, &[buffer])[0].iter().fold(0.0f32, |m, v| m.max(v.abs()))
}

#[test]
fn a_step_by_stages_is_bit_for_bit_a_step_with_every_solver() {
    // warm started to the scene's tolerance: the solve that plans from its memory and the last
    // pressures (Jacobi and SOR show several pictures before it, multigrid's one V-cycle none);
    // a fixed count and a finer tolerance from zero, where the V-cycles' pictures come first
    let cases = ["", "solver.tolerance=0", "solver.tolerance=1e-6"];
    for (kind, case) in ["jacobi", "sor", "multigrid", "mgpcg"].into_iter().flat_map(|k| cases.map(|c| (k, c))) {
        let cold = if case.contains("1e-6") { "solver.warm_start=false" } else { "" };
        let count =
            if case.contains("=0") { format!("solver.iterations={}", if kind.ends_with("or") { 40 } else { 6 }) } else { String::new() };
        let sets: Vec<&str> = [format!("solver.kind=\"{kind}\"").leak() as &str, "fluid.viscosity=0.0005", case, cold, count.leak()]
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect();
        let (mut a, mut b) = (sim("plume", &sets), sim("plume", &sets));
        a.run_blocking(6, false);
        b.run_blocking(6, false);
        let mut w = b.stepwise().unwrap();
        for step in 0..2 {
            a.run_blocking(1, false);
            let stages = stepped(&mut b, &mut w);
            println!("{sets:?} step {step}: {stages:?}");
            assert!(stages.contains(&Stage::Viscosity) && stages.contains(&Stage::Solve), "{stages:?}");
            if !case.is_empty() {
                assert!(stages.contains(&Stage::Pressure(2)), "no pictures before the solve: {stages:?}");
            }
            assert_eq!((a.step_index, a.time), (b.step_index, b.time));
            assert!(bits(&a) == bits(&b), "{kind}: step {step} by stages differs from the step at once");
        }
        // the view left, the run goes on from the same state
        a.run_blocking(2, false);
        b.run_blocking(2, false);
        assert!(bits(&a) == bits(&b), "{kind}: the run after the stages differs");
    }
}

#[test]
fn a_step_by_stages_with_cfl_substeps_is_bit_for_bit_a_step() {
    // a CFL limit of a twentieth of a cell: every step of the plume splits
    let sets = ["grid.nx=32".to_string(), "grid.ny=32".into(), "time.max_cfl=0.05".into()];
    let (scene, source) = Scene::load("plume", &sets).unwrap();
    let (mut a, mut b) =
        (Simulation::from_scene(&gpu(), &scene, &source).unwrap(), Simulation::from_scene(&gpu(), &scene, &source).unwrap());
    a.run_blocking(20, false);
    b.run_blocking(20, false);
    let mut w = b.stepwise().unwrap();
    for step in 0..3 {
        a.run_blocking(1, false);
        stepped(&mut b, &mut w);
        // the window collects the speeds read back every frame
        b.readback.collect();
        println!("step {step}: {} sub-steps, {} stages each", a.last_plan.substeps, w.stages.len());
        assert!(a.last_plan.substeps > 1, "no sub-steps to take apart");
        assert_eq!((a.last_plan.substeps, a.step_index, a.time), (b.last_plan.substeps, b.step_index, b.time));
        assert!(bits(&a) == bits(&b), "step {step} of sub-steps by stages differs from the step at once");
    }
}

#[test]
fn leaving_mid_step_finishes_the_step_as_a_step_would() {
    let (mut a, mut b) = (sim("plume", &[]), sim("plume", &[]));
    a.run_blocking(3, false);
    b.run_blocking(3, false);
    let mut w = b.stepwise().unwrap();
    for _ in 0..3 {
        take_stage(&mut b, &mut w);
    }
    assert!(w.in_step());
    let mut encoder = b.device.create_command_encoder(&Default::default());
    b.finish_stages(&mut w, &mut encoder);
    b.queue.submit([encoder.finish()]);
    b.after_submit();
    a.run_blocking(1, false);
    assert!(!w.in_step());
    assert!(bits(&a) == bits(&b), "a step left mid-way and finished differs from the step at once");
}

#[test]
fn the_divergence_after_the_correction_is_within_the_tolerance() {
    for kind in ["jacobi", "sor", "multigrid", "mgpcg"] {
        let tolerance = 1e-4;
        let sets = [format!("solver.kind=\"{kind}\"").leak() as &str, "solver.tolerance=1e-4"];
        let mut s = sim("plume", &sets);
        s.run_blocking(4, false);
        let mut w = s.stepwise().unwrap();
        // up to the correction, then the two divergences
        while take_stage(&mut s, &mut w) != Stage::Project {}
        let before = max_abs_of(&s, &s.buffers.divergence);
        let after = max_abs_of(&s, &s.div_after.as_ref().unwrap().buffer);
        println!("{kind}: max |div| before {before:e}, after {after:e}");
        assert!(before > 1e-3, "{kind}: nothing to solve ({before:e})");
        assert!(after <= tolerance * before, "{kind}: max |div| after {after:e} > {tolerance} x {before:e}");
    }
}

#[test]
fn the_divergence_left_after_1_2_4_jacobi_sweeps_falls_on_a_box() {
    let sets = ["solver.kind=\"jacobi\"", "solver.tolerance=0", "solver.iterations=256", "solver.warm_start=false"];
    let mut s = sim("box", &["forces.gravity=[0.0, 0.0]"].iter().chain(&sets).copied().collect::<Vec<_>>());
    let mut f = s.download();
    let mut rng = Rng::new(11);
    for j in 0..f.ny {
        for i in 1..f.nx {
            let k = f.ui(i, j);
            f.u[k] = 0.3 * rng.signed();
        }
    }
    for j in 1..f.ny {
        for i in 0..f.nx {
            let k = f.vi(i, j);
            f.v[k] = 0.3 * rng.signed();
        }
    }
    s.upload(&f);
    let mut w = s.stepwise().unwrap();
    let mut left = Vec::new();
    let mut before = 0.0;
    loop {
        match take_stage(&mut s, &mut w) {
            Stage::Divergence => before = max_abs_of(&s, &s.buffers.divergence),
            stage @ (Stage::Pressure(_) | Stage::Solve) => left.push((stage, max_abs_of(&s, &s.div_after.as_ref().unwrap().buffer))),
            Stage::Project => break,
            _ => {}
        }
    }
    println!("before {before:e}: {left:?}");
    let units: Vec<Stage> = left.iter().map(|l| l.0).collect();
    let shown = [1, 2, 4, 8, 16, 32, 64, 128].map(Stage::Pressure);
    assert_eq!(units[..8], shown);
    assert_eq!(units[8], Stage::Solve);
    assert!(left[0].1 < before, "one sweep left {:e} of {before:e}", left[0].1);
    for pair in left.windows(2) {
        assert!(pair[1].1 < pair[0].1, "the divergence left rose: {:?} then {:?}", pair[0], pair[1]);
    }
    // the correction with the solve's pressure leaves what the last picture showed
    let after = max_abs_of(&s, &s.div_after.as_ref().unwrap().buffer);
    assert!((after - left[8].1).abs() <= 1e-6 * before, "{after:e} against {:e}", left[8].1);
}

/// The multigrid level stages at 128² (levels 64², 32², 16²): they follow the first V-cycle with
/// the sizes of the levels the V-cycle leaves in the level buffers, each picture is its level's
/// cells spread over 2^l × 2^l blocks, and the restricted residual conserves the sum of the
/// right-hand side. The restriction sums the fine residuals of each 2×2 block, and in a closed box
/// Σ A·x = 0 (every face's flux enters one cell and leaves its neighbour), so on every level
/// Σ rhs = Σ b of level 0 whatever the smoothing did; a picture of the wrong level, part or offset
/// breaks it. The step taken with these stages stays bit for bit a step taken at once.
#[test]
fn multigrid_level_pictures_show_the_vcycle_and_conserve_the_residuals_sum() {
    // the device's V-cycle and the other (a GPU's tiled kernels, a CPU adapter's plain ones)
    for tiled in [false, true] {
        level_pictures(tiled);
    }
}

fn level_pictures(tiled: bool) {
    use smokebox::sim::level_picture::LevelPart;
    let sets = ["grid.nx=128", "grid.ny=128", "solver.kind=\"multigrid\"", "solver.tolerance=0", "solver.iterations=4"];
    let (mut a, mut b) = (sim("plume", &sets), sim("plume", &sets));
    a.stages.solvers.mg.tiled = tiled;
    b.stages.solvers.mg.tiled = tiled;
    a.run_blocking(4, false);
    b.run_blocking(4, false);
    let mut w = b.stepwise().unwrap();
    let levels = smokebox::sim::multigrid::levels(128, 128);
    let shown = b.stages.solvers.mg.levels_in_buffers();
    assert!(shown >= 1, "no level of 128² in the level buffers");
    a.run_blocking(1, false);
    let (mut rhs_sum, mut seen) = (None, Vec::new());
    loop {
        let stage = take_stage(&mut b, &mut w);
        if stage == Stage::Pressure(1) {
            // level 0's b, as the first V-cycle loaded it
            let rhs = &read_buffers(&b.device, &b.queue, &[&b.stages.solvers.mg.buffers.mg_rhs])[0];
            rhs_sum = Some(rhs[..128 * 128].iter().map(|&v| v as f64).sum::<f64>());
        }
        if let Stage::Level { level, nx, ny, part } = stage {
            let l = level as usize;
            assert_eq!([nx, ny], [levels[l].nx, levels[l].ny], "level {l}'s size");
            let picture = &read_buffers(&b.device, &b.queue, &[&b.div_after.as_ref().unwrap().buffer])[0];
            let side = 1usize << l;
            for j in 0..128 {
                for i in 0..128 {
                    let corner = picture[(j / side * side) * 128 + i / side * side];
                    assert_eq!(picture[j * 128 + i].to_bits(), corner.to_bits(), "level {l}: cell {i},{j} off its block");
                }
            }
            let sum = picture.iter().map(|&v| v as f64).sum::<f64>() / (side * side) as f64;
            let size = picture.iter().map(|&v| v.abs() as f64).sum::<f64>() / (side * side) as f64;
            assert!(size > 0.0, "level {l} {part:?}: an empty picture");
            if part == LevelPart::Residual {
                let b0 = rhs_sum.expect("the first V-cycle before its levels");
                assert!((sum - b0).abs() <= 1e-4 * size, "level {l}: Σ rhs {sum:e}, level 0's Σ b {b0:e} (Σ|rhs| {size:e})");
            }
            println!("tiled {tiled}, level {l} {part:?}: Σ {sum:e}, Σ|.| {size:e}, b0 {rhs_sum:?}");
            seen.push((l, part));
        }
        if !w.in_step() {
            break;
        }
    }
    let down: Vec<_> = (1..=shown).map(|l| (l, LevelPart::Residual)).collect();
    let up: Vec<_> = (1..=shown).rev().map(|l| (l, LevelPart::Correction)).collect();
    assert_eq!(seen, [down, up].concat());
    assert!(bits(&a) == bits(&b), "the step with level pictures differs from the step at once");
}
