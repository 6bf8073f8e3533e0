//! Physics on lavapipe: rest stays rest, projection removes divergence, solids let nothing
//! through, mirror symmetry holds, and a uniform flow carries ink the expected distance.

mod common;
use common::*;
use smokebox::config::SolverConfig;
use smokebox::config::{Scene, Source};
use smokebox::sim::fields::Fields;
use smokebox::sim::init::{enforce_faces, initial_fields};
use smokebox::sim::params::*;
use smokebox::sim::{Simulation, cpu::grid::Grid};

#[test]
fn fluid_at_rest_stays_exactly_at_rest() {
    let gpu = gpu();
    let (scene, source) = Scene::load("box", &[]).unwrap();
    let f = initial_fields(&scene, &source).unwrap();
    let mut sim = Simulation::new(&gpu, &f, Params::from_scene(&scene), scene.solver.clone()).unwrap();
    let stats = sim.run_blocking(50, true);
    let got = sim.download();
    for (name, a) in [("u", &got.u), ("v", &got.v), ("p", &got.p), ("ink", &got.ink), ("density", &got.density)] {
        assert!(a.iter().all(|&x| x == 0.0), "{name} moved from rest: max {}", max_abs(a));
    }
    assert_eq!(stats.len(), 50);
    assert!(stats.iter().all(|s| s.kinetic_energy == 0.0 && s.div_max_after == 0.0));
}

#[test]
fn projection_of_white_noise_reduces_divergence_a_thousandfold() {
    let gpu = gpu();
    let (nx, ny) = (32, 32);
    let p = box_params(nx, ny, 1.0 / 32.0, 0.01);
    let mut f = random_fields(nx, ny, 7, 0.0);
    f.p.fill(0.0);
    f.ink.fill(0.0);
    f.density.fill(0.0);
    enforce_faces(&mut f, &p);
    let mut sim =
        Simulation::new(&gpu, &f, p, SolverConfig { iterations: Some(6000), warm_start: false, ..SolverConfig::jacobi(40) }).unwrap();
    let s = sim.run_blocking(1, true)[0];
    let ratio = s.div_max_before / s.div_max_after;
    assert!(ratio >= 1000.0, "max |div| fell only {ratio}x ({} -> {})", s.div_max_before, s.div_max_after);
}

#[test]
fn no_velocity_through_solid_faces() {
    let gpu = gpu();
    let (nx, ny) = (48, 40);
    let p = box_params(nx, ny, 0.02, 0.01);
    let mut f = random_fields(nx, ny, 11, 0.2);
    enforce_faces(&mut f, &p);
    let mut sim = Simulation::new(&gpu, &f, p, SolverConfig { iterations: Some(30), ..SolverConfig::jacobi(40) }).unwrap();
    for round in 0..3 {
        sim.run_pass("project");
        let got = sim.download();
        let g = Grid::new(&got, &p);
        for j in 0..ny as i32 {
            for i in 0..=nx as i32 {
                if g.u_face(i, j).fixed {
                    assert_eq!(got.u[g.ui(i, j)], 0.0, "round {round}: u through solid/wall face ({i},{j})");
                }
            }
        }
        for j in 0..=ny as i32 {
            for i in 0..nx as i32 {
                if g.v_face(i, j).fixed {
                    assert_eq!(got.v[g.vi(i, j)], 0.0, "round {round}: v through solid/wall face ({i},{j})");
                }
            }
        }
        sim.run_blocking(5, false);
    }
}

fn mirror_error(f: &Fields) -> f32 {
    let (nx, ny) = (f.nx, f.ny);
    let mut e = 0.0f32;
    for j in 0..ny {
        for i in 0..=nx {
            e = e.max((f.u[f.ui(i, j)] + f.u[f.ui(nx - i, j)]).abs());
        }
        for i in 0..nx {
            let (a, b) = (f.cell(i, j), f.cell(nx - 1 - i, j));
            for k in 0..3 {
                e = e.max((f.ink[3 * a + k] - f.ink[3 * b + k]).abs());
            }
        }
    }
    for j in 0..=ny {
        for i in 0..nx {
            e = e.max((f.v[f.vi(i, j)] - f.v[f.vi(nx - 1 - i, j)]).abs());
        }
    }
    e
}

#[test]
fn mirror_symmetric_setup_stays_symmetric() {
    let gpu = gpu();
    // two mirrored swirling drops, a centred rising jet and a centred obstacle
    let text = r#"
        [grid]
        nx = 64
        ny = 48
        cell_size = 0.015625
        [[blobs]]
        center = [0.3, 0.4]
        radius = 0.15
        ink = [1.0, 0.5, 0.0]
        swirl = 5.0
        [[blobs]]
        center = [0.7, 0.4]
        radius = 0.15
        ink = [1.0, 0.5, 0.0]
        swirl = -5.0
        [[obstacles]]
        shape = "rect"
        min = [0.4, 0.55]
        max = [0.6, 0.6]
        [[emitters]]
        position = [0.5, 0.1]
        radius = 0.08
        velocity = [0.0, 1.0]
        ink = [0.0, 0.5, 1.0]
    "#;
    let scene = Scene::from_text(text, "mirror", &["grid.dye_scale=1".into()]).unwrap();
    let source = Source::Builtin("mirror");
    let f = initial_fields(&scene, &source).unwrap();
    assert!(mirror_error(&f) < 1e-6);
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    sim.run_blocking(100, false);
    let got = sim.download();
    let scale = max_abs(&got.u).max(max_abs(&got.v)).max(max_abs(&got.ink));
    let e = mirror_error(&got);
    assert!(scale > 0.1, "the set-up should be moving (scale {scale})");
    assert!(e <= 1e-4 * scale, "mirror symmetry broken by {e} (scale {scale})");
}

#[test]
fn uniform_flow_carries_an_ink_blob_the_expected_distance() {
    let gpu = gpu();
    // periodic in x, free of walls along the flow: u = U everywhere is divergence free
    let (nx, ny, h, dt, speed) = (64usize, 32usize, 1.0 / 64.0, 0.01f32, 0.5f32);
    let mut p = box_params(nx, ny, h, dt);
    p.bc_kind = [BC_PERIODIC, BC_PERIODIC, BC_WALL, BC_WALL];
    let mut f = Fields::zeros(nx, ny);
    f.u.fill(speed);
    for j in 0..ny {
        for i in 0..nx {
            let (x, y) = ((i as f32 + 0.5) * h, (j as f32 + 0.5) * h);
            let r2 = (x - 0.25).powi(2) + (y - 0.25).powi(2);
            let c = f.cell(i, j);
            f.ink[3 * c] = (-r2 / (2.0 * 0.05f32.powi(2))).exp();
        }
    }
    let centroid = |f: &Fields| -> f64 {
        let (mut m, mut mx) = (0.0f64, 0.0f64);
        for j in 0..ny {
            for i in 0..nx {
                let w = f.ink[3 * f.cell(i, j)] as f64;
                m += w;
                mx += w * (i as f64 + 0.5) * h as f64;
            }
        }
        mx / m
    };
    let x0 = centroid(&f);
    let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::jacobi(40)).unwrap();
    let steps = 80;
    sim.run_blocking(steps, false);
    let got = sim.download();
    let moved = centroid(&got) - x0;
    let expected = (speed * dt * steps as f32) as f64;
    assert!((moved - expected).abs() < 0.25 * h as f64, "blob moved {moved} m, expected {expected} m");
    // the flow itself stays uniform
    assert!(max_diff(&got.u, &vec![speed; got.u.len()]) < 1e-5);
}
