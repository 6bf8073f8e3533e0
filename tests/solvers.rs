//! The pressure solvers (src/sim/solver.rs): each multigrid pass and SOR against the CPU reference
//! (src/sim/cpu/multigrid.rs), a manufactured Poisson problem per solver under walls, solids, an
//! outflow and periodic sides, multigrid projection to 1e-5, and the three solvers agreeing.

mod common;
use common::*;
use smokebox::config::SolverConfig;
use smokebox::config::SolverKind;
use smokebox::sim::buffers::read_buffers;
use smokebox::sim::cpu::multigrid::{Mg, sor};
use smokebox::sim::fields::Fields;
use smokebox::sim::init::enforce_faces;
use smokebox::sim::params::*;
use smokebox::sim::solver::SolveReport;
use smokebox::sim::{Simulation, cpu};

const REL: f32 = 2e-5;

fn settings(kind: SolverKind, iterations: u32, tolerance: f32) -> SolverConfig {
    SolverConfig { kind, iterations: iterations as i64, tolerance, warm_start: false, ..Default::default() }
}

fn params(nx: usize, ny: usize, kinds: [u32; 4]) -> Params {
    with_boundaries(box_params(nx, ny, 0.05, 0.02), kinds)
}

/// Reads the GPU's level buffers back into an `Mg`.
fn download_mg(sim: &Simulation) -> Mg {
    let s = &sim.stages.projection.solvers;
    let data = read_buffers(&sim.device, &sim.queue, &[&s.mg_x, &s.mg_rhs, &s.mg_res, &s.mg_stencil]);
    Mg {
        levels: s.levels.clone(),
        x: data[0].clone(),
        rhs: data[1].clone(),
        res: data[2].clone(),
        stencil: data[3].iter().map(|v| v.to_bits()).collect(),
    }
}

fn upload_mg(sim: &Simulation, mg: &Mg) {
    let s = &sim.stages.projection.solvers;
    sim.queue.write_buffer(&s.mg_x, 0, bytemuck::cast_slice(&mg.x));
    sim.queue.write_buffer(&s.mg_rhs, 0, bytemuck::cast_slice(&mg.rhs));
    sim.queue.write_buffer(&s.mg_res, 0, bytemuck::cast_slice(&mg.res));
}

/// Records `f` in one compute pass and waits for it.
fn run(sim: &Simulation, f: impl FnOnce(&mut wgpu::ComputePass<'_>)) {
    sim.queue.write_buffer(&sim.buffers.params, 0, bytemuck::bytes_of(&sim.params));
    let mut encoder = sim.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        f(&mut pass);
    }
    sim.queue.submit([encoder.finish()]);
    sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
}

fn solve_report(sim: &Simulation) -> SolveReport {
    let s = &sim.stages.projection.solvers;
    SolveReport::from_words(&read_buffers(&sim.device, &sim.queue, &[&s.control])[0])
}

fn random_state(nx: usize, ny: usize, kinds: [u32; 4], seed: u64, solids: f32) -> (Fields, Params) {
    let p = params(nx, ny, kinds);
    let mut f = random_fields(nx, ny, seed, solids);
    if kinds[0] == BC_INFLOW {
        for j in 0..ny {
            f.solid[j * nx] = 0.0;
        }
    }
    enforce_faces(&mut f, &p);
    (f, p)
}

#[test]
fn multigrid_passes_match_cpu() {
    let gpu = gpu();
    // odd sizes: coarse levels have short last cells; three levels (37x29 -> 19x15 -> 10x8)... and 40x36
    for (nx, ny) in [(37, 29), (40, 36)] {
        for (name, kinds) in boundary_cases() {
            if kinds[0] == BC_PERIODIC && (nx % 2 == 1 || ny % 2 == 1) {
                // red-black colouring does not close around an odd periodic axis: the two seam
                // cells share a colour, so their order within a sweep is unspecified on the GPU
                // and no exact CPU comparison exists (convergence is tested below)
                continue;
            }
            let (f, p) = random_state(nx, ny, kinds, 7, 0.2);
            let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::default()).unwrap();
            let s = &sim.stages.projection.solvers;
            assert!(s.levels.len() >= 2, "{nx}x{ny} should have coarse levels");
            // set-up: stencils of every level, level 0's rhs; level 0's stencil is Jacobi's
            let mut encoder = sim.device.create_command_encoder(&Default::default());
            s.encode_copy_in(&mut encoder, &sim.buffers.p);
            sim.queue.write_buffer(&sim.buffers.params, 0, bytemuck::bytes_of(&sim.params));
            sim.queue.submit([encoder.finish()]);
            run(&sim, |pass| s.encode_mg_setup(pass));
            let got = download_mg(&sim);
            let mut want = Mg::new(nx, ny);
            want.setup(&f, &sim.params);
            let ctx = format!("{name} {nx}x{ny}");
            assert_eq!(got.stencil, want.stencil, "{ctx}: packed stencils");
            let n0 = nx * ny;
            assert_close(&format!("{ctx} rhs"), &got.rhs[..n0], &want.rhs[..n0], REL);
            sim.run_pass("pressure");
            let jacobi = read_buffers(&sim.device, &sim.queue, &[&sim.buffers.stencil])[0].iter().map(|v| v.to_bits()).collect::<Vec<_>>();
            assert_eq!(&jacobi[..], &got.stencil[..n0].iter().map(|s| s & 127).collect::<Vec<_>>()[..], "{ctx}: level 0 = Jacobi stencil");
            // random x, rhs on every level, then each pass on level 0 and 1
            let mut rng = Rng::new(11);
            let mut state = got.clone();
            for v in state.x.iter_mut().chain(state.rhs.iter_mut()).chain(state.res.iter_mut()) {
                *v = rng.signed();
            }
            let s = &sim.stages.projection.solvers;
            type Step<'a> = (&'a str, Box<dyn Fn(&mut wgpu::ComputePass<'_>) + 'a>, Box<dyn Fn(&mut Mg)>);
            let p = sim.params;
            let steps: Vec<Step> = vec![
                ("smooth 0", Box::new(|pass| s.encode_smooth(pass, 0, false)), Box::new(|m| m.smooth(0))),
                ("smooth 1", Box::new(|pass| s.encode_smooth(pass, 1, false)), Box::new(|m| m.smooth(1))),
                ("residual 0", Box::new(|pass| s.encode_residual(pass, 0, false)), Box::new(|m| m.residual(0))),
                ("residual 1", Box::new(|pass| s.encode_residual(pass, 1, false)), Box::new(|m| m.residual(1))),
                ("restrict 0", Box::new(|pass| s.encode_restrict(pass, 0, false)), Box::new(|m| m.restrict(0))),
                ("prolong 0", Box::new(|pass| s.encode_prolong(pass, 0, false)), Box::new(move |m| m.prolong(0, &p))),
            ];
            for (label, gpu_step, cpu_step) in &steps {
                upload_mg(&sim, &state);
                run(&sim, |pass| gpu_step(pass));
                let got = download_mg(&sim);
                let mut want = state.clone();
                cpu_step(&mut want);
                for (field, g, w) in [("x", &got.x, &want.x), ("rhs", &got.rhs, &want.rhs), ("res", &got.res, &want.res)] {
                    assert_close(&format!("{ctx} {label} {field}"), g, w, REL);
                }
            }
            drop(steps);
            let mut sim2 = Simulation::new(&gpu, &f, p, settings(SolverKind::Sor, 1, 0.0)).unwrap();
            sim2.solver.warm_start = true;
            sim2.run_pass("pressure");
            let mut want = f.clone();
            sor(&mut want, &sim2.params);
            assert_close(&format!("{ctx} sor sweep"), &sim2.download().p, &want.p, REL);
        }
    }
}

/// A smooth known pressure on the fluid cells; the divergence that makes it the solution.
fn manufactured(nx: usize, ny: usize, kinds: [u32; 4]) -> (Fields, Params, Vec<f32>) {
    let p = params(nx, ny, kinds);
    let mut f = Fields::zeros(nx, ny);
    for j in 0..ny {
        for i in 0..nx {
            if (5..9).contains(&i) && (4..8).contains(&j) || (i == 15 && j == 3) {
                f.solid[j * nx + i] = 1.0;
            }
        }
    }
    let mut exact = vec![0.0; nx * ny];
    for j in 0..ny {
        for i in 0..nx {
            let (x, y) = (i as f32 / nx as f32, j as f32 / ny as f32);
            if f.solid[j * nx + i] < 0.5 {
                exact[j * nx + i] = (6.2831853 * x).sin() * (1.0 + y) + 0.5 * (3.0 * y).cos();
            }
        }
    }
    // rhs = A exact, i.e. divergence = -(dt / rho h^2) A exact
    let mut mg = Mg::new(nx, ny);
    mg.setup(&f, &p);
    mg.x[..nx * ny].copy_from_slice(&exact);
    mg.rhs.iter_mut().for_each(|r| *r = 0.0);
    mg.residual(0);
    for c in 0..nx * ny {
        f.divergence[c] = mg.res[c] * p.dt / (p.rho * p.h * p.h);
    }
    (f, p, exact)
}

fn solve(gpu: &smokebox::gpu::Gpu, f: &Fields, p: Params, s: SolverConfig) -> (Vec<f32>, SolveReport) {
    let mut sim = Simulation::new(gpu, f, p, s).unwrap();
    sim.run_pass("solve");
    (sim.download().p, solve_report(&sim))
}

fn minus_mean(x: &[f32], f: &Fields) -> Vec<f32> {
    let fluid: Vec<usize> = (0..x.len()).filter(|&c| f.solid[c] < 0.5).collect();
    let mean = fluid.iter().map(|&c| x[c] as f64).sum::<f64>() / fluid.len() as f64;
    (0..x.len()).map(|c| if f.solid[c] < 0.5 { x[c] - mean as f32 } else { 0.0 }).collect()
}

#[test]
fn each_solver_solves_a_manufactured_problem() {
    let gpu = gpu();
    let (nx, ny) = (22, 18);
    let cases = [
        ("periodic sides, wall below, outflow above", [BC_PERIODIC, BC_PERIODIC, BC_WALL, BC_OUTFLOW], true),
        ("walls", [BC_WALL; 4], false),
        ("periodic", [BC_PERIODIC; 4], false),
    ];
    for (name, kinds, dirichlet) in cases {
        let (f, p, exact) = manufactured(nx, ny, kinds);
        for (kind, iterations, tol) in [(SolverKind::Jacobi, 20000, 1e-4), (SolverKind::Sor, 4000, 1e-5), (SolverKind::Multigrid, 60, 1e-5)]
        {
            let (got, report) = solve(&gpu, &f, p, settings(kind, iterations, tol));
            assert!(report.converged && report.ratio <= tol, "{name} {kind:?}: stopped at {report:?}, tolerance {tol}");
            assert!(report.iterations < iterations, "{name} {kind:?}: ran all {iterations}");
            let (a, b) = if dirichlet { (got.clone(), exact.clone()) } else { (minus_mean(&got, &f), minus_mean(&exact, &f)) };
            let err = max_diff(&a, &b) / max_abs(&b);
            assert!(err < 2e-2, "{name} {kind:?}: error {err} against the known pressure ({report:?})");
        }
    }
}

/// max |div| of a state on the CPU (solid cells excluded by the reference).
fn max_div(f: &Fields, p: &Params) -> f32 {
    let mut g = f.clone();
    cpu::divergence(&mut g, p);
    max_abs(&g.divergence)
}

#[test]
fn multigrid_projection_reaches_1e5() {
    let gpu = gpu();
    for (name, kinds) in boundary_cases() {
        let (f, p) = random_state(45, 38, kinds, 3, 0.12);
        let before = max_div(&f, &p);
        let mut sim = Simulation::new(&gpu, &f, p, settings(SolverKind::Multigrid, 40, 1e-5)).unwrap();
        sim.run_pass("projection");
        let after = max_div(&sim.download(), &p);
        let report = solve_report(&sim);
        assert!(after <= 1e-5 * before * 1.01, "{name}: max |div| {after:e} after, {before:e} before ({report:?})");
        assert!(report.iterations <= 40, "{name}: {report:?}");
    }
}

#[test]
fn solvers_agree_on_the_pressure() {
    let gpu = gpu();
    for (name, kinds, dirichlet) in
        [("open top", [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], true), ("walls", [BC_WALL; 4], false), ("periodic", [BC_PERIODIC; 4], false)]
    {
        let (mut f, p) = random_state(20, 16, kinds, 5, 0.1);
        cpu::divergence(&mut f, &p);
        let mut results = Vec::new();
        for (kind, iterations) in [(SolverKind::Jacobi, 30000), (SolverKind::Sor, 5000), (SolverKind::Multigrid, 60)] {
            let (got, report) = solve(&gpu, &f, p, settings(kind, iterations, 1e-6));
            assert!(report.converged, "{name} {kind:?}: {report:?}");
            results.push(if dirichlet { got } else { minus_mean(&got, &f) });
        }
        let scale = max_abs(&results[2]);
        for k in 0..2 {
            let d = max_diff(&results[k], &results[2]) / scale;
            assert!(d < 1e-3, "{name}: solver {k} differs from multigrid by {d:e} of the pressure scale");
        }
    }
}
