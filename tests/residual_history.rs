//! The residual history the GPU writes for the convergence plot (shaders/solver_gate_check.wgsl
//! `record`): with every unit checked (`Solvers::set_trace`), a solve to a tolerance of a white
//! noise velocity in a closed box records the relative residual after each unit. Weighted Jacobi's
//! falls monotonically and matches the CPU twin's sweeps unit by unit; multigrid's matches the
//! CPU twin's V-cycles within tolerance; SOR's and MGPCG's have a point after each unit too.

mod common;
use common::*;
use smokebox::config::{Scene, SolverKind};
use smokebox::sim::Simulation;
use smokebox::sim::cpu;
use smokebox::sim::cpu::multigrid::Mg;
use smokebox::sim::residual_history::ResidualHistory;

/// `box` at 32² with `kind` to 1e-4 from zero (no warm start), traced, after one step of a
/// white-noise velocity: the history and the state the solve started from (p = 0, its rhs the
/// divergence).
fn traced_solve(kind: &str) -> (Simulation, ResidualHistory, smokebox::sim::fields::Fields) {
    let gpu = gpu();
    let sets = [
        "grid.nx=32".to_string(),
        "grid.ny=32".into(),
        format!("solver.kind=\"{kind}\""),
        "solver.tolerance=1e-4".into(),
        "solver.warm_start=false".into(),
        "forces.gravity=[0.0, 0.0]".into(),
    ];
    let (scene, source) = Scene::load("box", &sets).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    let mut f = sim.download();
    let mut rng = Rng::new(3);
    for j in 0..f.ny {
        for i in 0..=f.nx {
            let k = f.ui(i, j);
            f.u[k] = if i == 0 || i == f.nx { 0.0 } else { 0.3 * rng.signed() };
        }
    }
    for j in 0..=f.ny {
        for i in 0..f.nx {
            let k = f.vi(i, j);
            f.v[k] = if j == 0 || j == f.ny { 0.0 } else { 0.3 * rng.signed() };
        }
    }
    sim.upload(&f);
    sim.stages.solvers.set_trace(true);
    sim.run_blocking(1, true);
    let kind = sim.solver.kind;
    let history = sim.stages.solvers.history_now(&sim.device, &sim.queue, kind);
    let mut start = sim.download();
    start.p.fill(0.0);
    (sim, history, start)
}

#[test]
fn jacobi_history_falls_monotonically_as_the_cpu_twin_does() {
    let (sim, h, mut f) = traced_solve("jacobi");
    println!("jacobi: {} checks, {:?} … {:?}", h.points.len(), h.points.first(), h.points.last());
    assert_eq!(h.kind, Some(SolverKind::Jacobi));
    assert!(h.points.len() >= 5, "too few checks for a traced solve: {:?}", h.points);
    assert_eq!(h.points[0], (0, 1.0), "the check before any sweep sees the whole right-hand side");
    assert!(h.falls_monotonically(), "{:?}", h.points);
    assert!(h.points.last().unwrap().1 <= 1e-4, "the solve ended above its tolerance: {:?}", h.points.last());
    // every unit checked: the sweeps step by one unit (8 sweeps) from check to check
    let step = h.points[1].0;
    assert!(h.points.windows(2).all(|w| w[1].0 - w[0].0 == step), "{:?}", h.points);
    // the CPU twin's sweeps from the same start, checked at the same counts
    let stencil: Vec<u32> =
        smokebox::sim::buffers::read_buffers(&sim.device, &sim.queue, &[&sim.buffers.stencil])[0].iter().map(|v| v.to_bits()).collect();
    let p = sim.params;
    let rhs = cpu::solver_check::reduce_p(&f, &p, &stencil);
    let mut done = 0;
    for &(sweeps, ratio) in &h.points {
        while done < sweeps {
            cpu::pressure::pressure(&mut f, &p);
            done += 1;
        }
        let twin = cpu::solver_check::reduce_p(&f, &p, &stencil) / rhs;
        assert!((ratio - twin).abs() <= 1e-3 * twin + 1e-6, "after {sweeps} sweeps: GPU {ratio:e}, CPU twin {twin:e}");
    }
}

#[test]
fn multigrid_history_matches_the_cpu_twin() {
    let (sim, h, f) = traced_solve("multigrid");
    println!("multigrid: {:?}", h.points);
    assert_eq!(h.kind, Some(SolverKind::Multigrid));
    assert!(h.points.len() >= 2 && h.points[0] == (0, 1.0), "{:?}", h.points);
    assert!(h.falls_monotonically(), "{:?}", h.points);
    let p = sim.params;
    let mut mg = Mg::new(f.nx, f.ny);
    mg.setup(&f, &p);
    let rhs = cpu::solver_check::reduce_mg(&mg);
    let mut done = 0;
    for &(cycles, ratio) in &h.points {
        while done < cycles {
            mg.vcycle(&p);
            done += 1;
        }
        let twin = cpu::solver_check::reduce_mg(&mg) / rhs;
        // float32 round-off in another order: a few per cent of a ratio that falls 1e4-fold
        assert!((ratio - twin).abs() <= 0.05 * twin + 1e-7, "after {cycles} V-cycles: GPU {ratio:e}, CPU twin {twin:e}");
    }
}

/// SOR and MGPCG record their histories the same way: from the whole right-hand side before any
/// unit, a check after each unit (4 SOR sweeps or one MGPCG iteration), down to the tolerance.
#[test]
fn sor_and_mgpcg_record_a_check_after_every_unit() {
    for (kind, unit) in [("sor", 4), ("mgpcg", 1)] {
        let (_, h, _) = traced_solve(kind);
        println!("{kind}: {} checks, last {:?}", h.points.len(), h.points.last());
        assert!(h.points.len() >= 2 && h.points[0] == (0, 1.0), "{kind}: {:?}", h.points);
        assert!(h.points.windows(2).all(|w| w[1].0 - w[0].0 == unit), "{kind}: {:?}", h.points);
        assert!(h.points.last().unwrap().1 <= 1e-4, "{kind} ended above its tolerance: {:?}", h.points.last());
    }
}
