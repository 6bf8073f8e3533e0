//! Implicit viscosity converges (issue 13, "Viscosity that converges"): one step of
//! (I − νΔt∇²) u = u* is checked against its exact discrete solution on eigenmodes of the
//! discrete Laplacian, for a = νΔt/h² from 0.1 to 1000, on the GPU and its CPU twin. A fixed
//! handful of plain Jacobi sweeps leaves most of the error at a ≫ 1 (0.995 a sweep at a = 50).

mod common;
use common::*;
use smokebox::config::{FluidConfig, SolverConfig};
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;
use smokebox::sim::{Simulation, cpu, viscosity};

/// The default cap on sweeps: the tolerance, not the cap, must decide in every case here.
fn max_sweeps() -> u32 {
    FluidConfig::default().viscosity_iterations as u32
}

/// One implicit step on the GPU and on the CPU.
fn implicit_step(f: &Fields, p: Params) -> (Fields, Fields) {
    let gpu = gpu();
    let mut sim = Simulation::new(&gpu, f, p, SolverConfig::default()).unwrap();
    sim.run_pass("viscosity");
    let mut c = f.clone();
    cpu::viscosity(&mut c, &p, max_sweeps());
    (sim.download(), c)
}

/// max |got − want| / max |u*|.
fn relative_error(got: &[f32], want: &[f32], start: &[f32]) -> f32 {
    max_diff(got, want) / max_abs(start)
}

#[test]
fn a_periodic_mode_decays_by_the_exact_implicit_factor_at_any_a() {
    // u = cos(2π y), v = cos(2π x) on a periodic 32² grid: eigenmodes of the discrete Laplacian
    // with eigenvalue −(4/h²) sin²(π h), so one implicit step divides them by 1 + 4a sin²(π h).
    let n = 32;
    let h = 1.0 / n as f32;
    let mut f = Fields::zeros(n, n);
    for j in 0..n {
        for i in 0..=n {
            let k = f.ui(i, j);
            f.u[k] = (std::f32::consts::TAU * (j as f32 + 0.5) * h).cos();
        }
    }
    for j in 0..=n {
        for i in 0..n {
            let k = f.vi(i, j);
            f.v[k] = (std::f32::consts::TAU * (i as f32 + 0.5) * h).cos();
        }
    }
    for a in [0.1f32, 1.0, 50.0, 1000.0] {
        let dt = 0.01;
        let mut p = box_params(n, n, h, dt);
        p.bc_kind = [BC_PERIODIC; 4];
        p.viscosity = a * h * h / dt;
        let factor = 1.0 / (1.0 + 4.0 * a * (std::f32::consts::PI * h).sin().powi(2));
        let want_u: Vec<f32> = f.u.iter().map(|x| x * factor).collect();
        let want_v: Vec<f32> = f.v.iter().map(|x| x * factor).collect();
        let (g, c) = implicit_step(&f, p);
        let e = [relative_error(&g.u, &want_u, &f.u), relative_error(&g.v, &want_v, &f.v), relative_error(&c.u, &want_u, &f.u)];
        eprintln!(
            "periodic a = {a}: factor {factor:.5}, {} sweeps; error GPU u {:.1e} v {:.1e}, CPU u {:.1e}",
            viscosity::sweeps(&p, max_sweeps()),
            e[0],
            e[1],
            e[2]
        );
        assert!(e.iter().all(|&x| x < 5e-5), "a = {a}: implicit viscosity off the exact solution by {e:?}");
    }
}

#[test]
fn the_lowest_channel_mode_between_no_slip_walls_decays_by_the_exact_factor() {
    // u = sin(π (j + ½)/ny) between still no-slip walls (ghost = −inside): the slowest mode for
    // Jacobi, with eigenvalue −(4/h²) sin²(π/(2 ny)).
    let (nx, ny) = (8, 48);
    let h = 1.0 / ny as f32;
    let mut f = Fields::zeros(nx, ny);
    for j in 0..ny {
        for i in 0..=nx {
            let k = f.ui(i, j);
            f.u[k] = (std::f32::consts::PI * (j as f32 + 0.5) / ny as f32).sin();
        }
    }
    for a in [1.0f32, 52.0] {
        let dt = 0.01;
        let mut p = box_params(nx, ny, h, dt);
        p.bc_kind = [BC_PERIODIC, BC_PERIODIC, BC_WALL, BC_WALL];
        p.viscosity = a * h * h / dt;
        let factor = 1.0 / (1.0 + 4.0 * a * (std::f32::consts::PI / (2.0 * ny as f32)).sin().powi(2));
        let want: Vec<f32> = f.u.iter().map(|x| x * factor).collect();
        let (g, c) = implicit_step(&f, p);
        let (eg, ec) = (relative_error(&g.u, &want, &f.u), relative_error(&c.u, &want, &f.u));
        eprintln!("channel a = {a}: factor {factor:.5}, {} sweeps; error GPU {eg:.1e}, CPU {ec:.1e}", viscosity::sweeps(&p, max_sweeps()));
        assert!(eg < 5e-5 && ec < 5e-5, "a = {a}: channel mode off the exact implicit solution: GPU {eg:e}, CPU {ec:e}");
        assert!(max_abs(&g.v) == 0.0, "v appeared from nothing");
    }
}

#[test]
fn sweep_count_follows_the_chebyshev_bound() {
    let mut p = box_params(8, 8, 0.1, 0.01);
    p.viscosity = 0.0;
    assert_eq!(viscosity::sweeps(&p, 100), 0, "no viscosity, no sweeps");
    let mut counts = Vec::new();
    for a in [0.1f32, 1.0, 52.0] {
        p.viscosity = a * p.h * p.h / p.dt;
        counts.push(viscosity::sweeps(&p, 10_000));
    }
    eprintln!("sweeps for a = 0.1, 1, 52: {counts:?}");
    // ½√(8a)·ln(2/tol) grows as √a, far below plain Jacobi's ~4a·ln(1/tol)
    assert!(counts[0] <= 10 && (18..=26).contains(&counts[1]) && (110..=140).contains(&counts[2]), "{counts:?}");
    assert_eq!(viscosity::sweeps(&p, 40), 40, "the cap holds");
}
