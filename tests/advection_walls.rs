//! Advection right at walls and inflows (issue 13, "Advection right at walls"): the velocity
//! MacCormack and BFECC corrections sample with the same wall and inflow ghosts as the
//! semi-Lagrangian step, and BFECC reads a prescribed face's own value. The CPU twins share the
//! lattice helper with the GPU's logic, so the helper is checked against hand-computed numbers
//! and the schemes against exact answers, not only against each other.

mod common;
use common::*;
use smokebox::config::SolverConfig;
use smokebox::sim::cpu::grid::Grid;
use smokebox::sim::fields::Fields;
use smokebox::sim::params::*;
use smokebox::sim::{Simulation, cpu};

#[test]
fn lattice_helper_blends_with_the_lid_and_inflow_ghosts_as_computed_by_hand() {
    // 4 x 4 cells of 1 m; a lid (top wall, no-slip) moving at 1 m/s; a left inflow carrying v = 0.5.
    let mut p = box_params(4, 4, 1.0, 0.1);
    p.bc_speed[SIDE_TOP] = 1.0;
    p.bc_kind[SIDE_LEFT] = BC_INFLOW;
    p.inflow_v[SIDE_LEFT] = 0.5;
    let mut f = Fields::zeros(4, 4);
    for i in 0..=4 {
        let k = f.ui(i, 3);
        f.u[k] = 0.2;
    }
    let k = f.vi(0, 2);
    f.v[k] = 0.1;
    let g = Grid::new(&f, &p);

    // u at (2, 3.75): a quarter of the way from the top row (0.2 at y = 3.5) to its ghost
    // (2·1 − 0.2 = 1.8 at y = 4.5), i.e. linear from 0.2 to the lid's 1.0 at y = 4: 0.6.
    let l = g.u_lattice(2.0, 3.75);
    let weights: Vec<f32> = l.iter().map(|q| q.w).collect();
    assert_eq!(weights, vec![0.75, 0.0, 0.25, 0.0], "u lattice weights");
    assert_eq!((l[0].k, l[2].k), (f.ui(2, 3), f.ui(2, 3)), "both rows read the top row's face");
    assert_eq!((l[0].scale, l[0].offset, l[2].scale, l[2].offset), (1.0, 0.0, -1.0, 2.0), "ghost map of the lid row");
    let value: f32 = l.iter().map(|q| q.w * q.value(&f.u, 1, 0)).sum();
    assert!((value - 0.6).abs() < 1e-6, "u near the lid: {value}, by hand 0.6");
    assert!((g.sample_u_in(&f.u, 2.0, 3.75) - 0.6).abs() < 1e-6, "the semi-Lagrangian sampler agrees");

    // v at (0.25, 2): three quarters of the way from the ghost column (2·0.5 − 0.1 = 0.9 at
    // x = −0.5) to column 0 (0.1 at x = 0.5): linear from the inflow's 0.5 at x = 0, so 0.3.
    let l = g.v_lattice(0.25, 2.0);
    let weights: Vec<f32> = l.iter().map(|q| q.w).collect();
    assert_eq!(weights, vec![0.25, 0.75, 0.0, 0.0], "v lattice weights");
    assert_eq!((l[0].scale, l[0].offset, l[1].scale, l[1].offset), (-1.0, 1.0, 1.0, 0.0), "ghost map of the inflow column");
    let value: f32 = l.iter().map(|q| q.w * q.value(&f.v, 1, 0)).sum();
    assert!((value - 0.3).abs() < 1e-6, "v near the inflow: {value}, by hand 0.3");
}

/// A shear flow entering through one side: the tangential velocity grows linearly across the
/// domain up to the inflow's own tangential speed at the inflow side, and the normal velocity
/// is uniform, so every back-trace moves a quarter-and-more of a cell towards the inflow side.
/// Along `axis` 1 the inflow is the top side (u(y) = U y / H, v = −c); along `axis` 0 it is the
/// right side (v(x) = U x / W, u = −c). The other axis is periodic, the opposite side an outflow.
fn sheared_inflow(n: usize, axis: usize, scheme: u32) -> (Fields, Params, f32) {
    let h = 1.0 / n as f32;
    let (speed, c) = (1.0f32, 0.5f32);
    let dt = 0.3 * h / c;
    let mut p = box_params(n, n, h, dt);
    p.gravity_y = 0.0;
    p.schemes = [scheme, 0, 0, 0];
    let mut f = Fields::zeros(n, n);
    if axis == 1 {
        p.bc_kind = [BC_PERIODIC, BC_PERIODIC, BC_OUTFLOW, BC_INFLOW];
        p.inflow_u[SIDE_TOP] = speed;
        p.inflow_v[SIDE_TOP] = -c;
        for j in 0..n {
            for i in 0..=n {
                let k = f.ui(i, j);
                f.u[k] = speed * (j as f32 + 0.5) * h;
            }
        }
        f.v.fill(-c);
    } else {
        p.bc_kind = [BC_OUTFLOW, BC_INFLOW, BC_PERIODIC, BC_PERIODIC];
        p.inflow_v[SIDE_RIGHT] = speed;
        p.inflow_u[SIDE_RIGHT] = -c;
        for j in 0..=n {
            for i in 0..n {
                let k = f.vi(i, j);
                f.v[k] = speed * (i as f32 + 0.5) * h;
            }
        }
        f.u.fill(-c);
    }
    (f, p, c * dt)
}

/// The largest error of the tangential velocity against the exact U (s + shift) / L over every
/// line of faces but the one next to the outflow (whose zero-gradient ghost is not linear).
fn tangential_error(f: &Fields, axis: usize, shift: f32, h: f32) -> f32 {
    let n = f.nx;
    let mut e = 0.0f32;
    for a in 1..n {
        for b in 0..n {
            let (got, s) = if axis == 1 { (f.u[f.ui(b, a)], (a as f32 + 0.5) * h) } else { (f.v[f.vi(a, b)], (a as f32 + 0.5) * h) };
            e = e.max((got - (s + shift)).abs());
        }
    }
    e
}

#[test]
fn corrected_velocity_carries_a_linear_shear_exactly_up_to_the_inflow_side() {
    // Semi-Lagrangian interpolation of a linear profile is exact, ghost included; MacCormack and
    // BFECC must be too. Sampling without the ghost clips the line next to the inflow to its own
    // value, an error of 0.3 h U / L (0.019 here).
    let gpu = gpu();
    let n = 16;
    let h = 1.0 / n as f32;
    for axis in [1, 0] {
        for (name, scheme) in [("semi-lagrangian", SCHEME_SEMI_LAGRANGIAN), ("maccormack", SCHEME_MACCORMACK), ("bfecc", SCHEME_BFECC)] {
            let (f, p, shift) = sheared_inflow(n, axis, scheme);
            let mut c = f.clone();
            cpu::advect(&mut c, &p, false);
            let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::default()).unwrap();
            sim.run_pass("advect");
            let g = sim.download();
            let (ec, eg) = (tangential_error(&c, axis, shift, h), tangential_error(&g, axis, shift, h));
            eprintln!("axis {axis} {name:16}: max error against the exact shear, CPU {ec:.2e}, GPU {eg:.2e}");
            assert!(ec < 2e-5 && eg < 2e-5, "{name} (axis {axis}) is off the exact linear shear: CPU {ec:e}, GPU {eg:e}");
        }
    }
}

#[test]
fn bfecc_reads_the_inflow_face_value_next_to_the_inflow() {
    // u = 1 + x/2 in a channel (inflow u = 1 on the left, outflow on the right, free-slip walls):
    // linear in x, so the exact answer after one step is known to O(dt³) and the scheme's
    // correction is tiny; reading 0 instead of the inflow's 1 on the inflow face pulls the first
    // interior face down to its limiter's bound 1, an error of about 0.5 · 0.6 h · 1/2.
    let gpu = gpu();
    let n = 16;
    let h = 1.0 / n as f32;
    let mut p = box_params(n, n, h, 0.6 * h);
    p.gravity_y = 0.0;
    p.bc_kind = [BC_INFLOW, BC_OUTFLOW, BC_WALL, BC_WALL];
    p.bc_slip = [SLIP_NO_SLIP, SLIP_NO_SLIP, SLIP_FREE, SLIP_FREE];
    p.inflow_u[SIDE_LEFT] = 1.0;
    let mut f = Fields::zeros(n, n);
    for j in 0..n {
        for i in 0..=n {
            let k = f.ui(i, j);
            f.u[k] = 1.0 + 0.5 * i as f32 * h;
        }
    }
    let mut results = Vec::new();
    for scheme in [SCHEME_SEMI_LAGRANGIAN, SCHEME_BFECC] {
        let mut p = p;
        p.schemes = [scheme, 0, 0, 0];
        let mut c = f.clone();
        cpu::advect(&mut c, &p, false);
        let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::default()).unwrap();
        sim.run_pass("advect");
        results.push((c, sim.download()));
    }
    // Semi-Lagrangian interpolates the linear field exactly at its foot point: the reference.
    for j in 0..n {
        let k = f.ui(1, j);
        let (sl, bf_cpu, bf_gpu) = (results[0].0.u[k], results[1].0.u[k], results[1].1.u[k]);
        assert!((bf_cpu - sl).abs() < 1e-4, "row {j}: CPU BFECC {bf_cpu} far from semi-Lagrangian {sl}");
        assert!((bf_gpu - sl).abs() < 1e-4, "row {j}: GPU BFECC {bf_gpu} far from semi-Lagrangian {sl}");
    }
    let k = f.ui(1, n / 2);
    eprintln!("face 1: semi-Lagrangian {}, BFECC CPU {}, GPU {}", results[0].0.u[k], results[1].0.u[k], results[1].1.u[k]);
}

#[test]
fn bfecc_on_the_gpu_ignores_stale_scratch_on_a_face_that_turned_solid() {
    // The GPU's scratch buffer keeps whatever an earlier step left; a face that just became solid
    // must read as its prescribed 0 in the BFECC correction, as on the CPU.
    let gpu = gpu();
    let n = 16;
    let mut f = random_fields(n, n, 3, 0.0);
    let p0 = box_params(n, n, 1.0 / n as f32, 0.02);
    let mut p = p0;
    p.schemes = [SCHEME_BFECC, 0, 0, 0];
    let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::default()).unwrap();
    sim.run_pass("advect"); // fills the scratch with this field's values
    for j in 5..9 {
        for i in 5..9 {
            let c = f.cell(i, j);
            f.solid[c] = 1.0;
        }
    }
    sim.upload(&f);
    sim.run_pass("advect");
    let got = sim.download();
    let mut want = f.clone();
    cpu::advect(&mut want, &p, false);
    assert_close("u after BFECC with a new solid", &got.u, &want.u, 1e-4);
    assert_close("v after BFECC with a new solid", &got.v, &want.v, 1e-4);
}

#[test]
fn corrected_velocity_makes_no_value_beyond_the_lid_speed() {
    // Rough velocities in [0, U] under a lid moving at U: the limiter bounds by the lid's own speed
    // (midway between the top row and its ghost), not by the ghost 2U − u, which could let a
    // corrected value run up to 2U.
    let gpu = gpu();
    let n = 16;
    let mut rng = Rng::new(21);
    let lid = 1.0f32;
    let mut f = Fields::zeros(n, n);
    for x in f.u.iter_mut() {
        *x = lid * rng.unit();
    }
    for x in f.v.iter_mut() {
        *x = 0.5 * rng.signed();
    }
    for scheme in [SCHEME_MACCORMACK, SCHEME_BFECC] {
        let mut p = box_params(n, n, 1.0 / n as f32, 0.05);
        p.bc_kind = [BC_PERIODIC, BC_PERIODIC, BC_WALL, BC_WALL];
        p.bc_speed[SIDE_TOP] = lid;
        p.schemes = [scheme, 0, 0, 0];
        let mut g = f.clone();
        smokebox::sim::init::enforce_faces(&mut g, &p);
        let mut c = g.clone();
        cpu::advect(&mut c, &p, false);
        let mut sim = Simulation::new(&gpu, &g, p, SolverConfig::default()).unwrap();
        sim.run_pass("advect");
        let got = sim.download();
        for (who, u) in [("CPU", &c.u), ("GPU", &got.u)] {
            let (lo, hi) = u.iter().fold((f32::MAX, f32::MIN), |(lo, hi), &x| (lo.min(x), hi.max(x)));
            assert!(lo >= -1e-6 && hi <= lid + 1e-6, "scheme {scheme} on the {who}: u in [{lo}, {hi}], outside [0, {lid}]");
        }
    }
}
