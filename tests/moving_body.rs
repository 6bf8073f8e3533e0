//! A dragged obstacle imposes its velocity on the fluid at its faces (one-way coupling,
//! u·n = U·n; shaders/shared/solid.wgsl `face_speed`, shaders/move_body.wgsl): checks a shared
//! GPU/CPU mistake cannot pass. A disc moving at U through fluid at rest in a closed box, after
//! one projection:
//! - every face between the disc and the fluid carries U·n;
//! - the discrete divergence of every fluid cell, computed here from the faces, is within the
//!   solve's tolerance;
//! - the volume flux through every column of u faces, fluid and disc together, is zero: the box
//!   is closed, so what the disc sweeps forward the fluid carries back (a divergence that left
//!   out the disc's faces would leave U times the disc's chord there);
//! - the flow is potential flow's around a moving cylinder: ahead of the disc the fluid moves
//!   with it, beside it against it, U a²/r² on the axes in an unbounded fluid.
//!
//! And a disc dragged through a still fluid by the steps themselves stirs it: the fluid it
//! passed moves after it (a wake), and the disc's cells sit where it was let go.

mod common;
use common::*;
use smokebox::config::SolverConfig;
use smokebox::sim::Simulation;
use smokebox::sim::body_loads::label_bodies;
use smokebox::sim::fields::Fields;
use smokebox::sim::move_body::BodyShape;
use smokebox::sim::params::*;

const N: usize = 96;
const H: f32 = 1.0 / N as f32;
const RADIUS: f32 = 0.1;
const U: f32 = 1.0;

fn solver() -> SolverConfig {
    SolverConfig { tolerance: 1e-6, warm_start: false, ..SolverConfig::default() }
}

/// A box of still fluid with a disc of cells labelled as the dragged body at the centre.
fn disc_in_a_box() -> (Fields, Params) {
    let mut p = box_params(N, N, H, 0.01);
    p.gravity_y = 0.0;
    let mut f = Fields::zeros(N, N);
    for j in 0..N {
        for i in 0..N {
            let (x, y) = ((i as f32 + 0.5) * H - 0.5, (j as f32 + 0.5) * H - 0.5);
            if x * x + y * y <= RADIUS * RADIUS {
                f.solid[j * N + i] = SOLID_MOVING;
            }
        }
    }
    p.body_velocity = [U, 0.0];
    (f, p)
}

#[test]
fn a_moving_disc_imposes_its_velocity_and_the_projection_keeps_the_box_closed() {
    let gpu = gpu();
    let (f, p) = disc_in_a_box();
    let mut sim = Simulation::new(&gpu, &f, p, solver()).unwrap();
    sim.run_pass("projection");
    let g = sim.download();
    let ui = |i: usize, j: usize| g.u[j * (N + 1) + i];
    let vi = |i: usize, j: usize| g.v[j * N + i];
    let solid = |i: usize, j: usize| g.solid[j * N + i] > 0.5;
    // faces between the disc and the fluid: U·n (n along x on u faces, along y on v faces)
    let mut faces = 0;
    for j in 0..N {
        for i in 1..N {
            if solid(i - 1, j) != solid(i, j) {
                assert_eq!(ui(i, j), U, "u face ({i}, {j}) beside the disc");
                faces += 1;
            }
        }
    }
    for j in 1..N {
        for i in 0..N {
            if solid(i, j - 1) != solid(i, j) {
                assert_eq!(vi(i, j), 0.0, "v face ({i}, {j}) beside the disc");
                faces += 1;
            }
        }
    }
    assert!(faces > 40, "{faces} faces");
    // divergence of every fluid cell from the faces, against the largest before the solve (U/h)
    let mut worst = 0.0f32;
    for j in 0..N {
        for i in 0..N {
            if !solid(i, j) {
                let d = (ui(i + 1, j) - ui(i, j) + vi(i, j + 1) - vi(i, j)) / H;
                worst = worst.max(d.abs());
            }
        }
    }
    assert!(worst <= 1e-3 * U / H, "max |div| {worst} after the projection (U/h = {})", U / H);
    // the flux through each column of u faces: zero in a closed box
    let mut chord_max = 0;
    for i in 1..N {
        let flux: f32 = (0..N).map(|j| ui(i, j) * H).sum();
        let chord = (0..N).filter(|&j| solid(i - 1, j) && solid(i, j)).count();
        chord_max = chord_max.max(chord);
        assert!(
            flux.abs() <= 1e-3 * U * 2.0 * RADIUS,
            "flux {flux} m²/s through column {i} (the disc alone carries {})",
            U * chord as f32 * H
        );
    }
    assert!(chord_max as f32 * H > 1.5 * RADIUS, "the disc spans {chord_max} cells");
    // potential flow: at r = 1.5 a on the axes, U a²/r² = 0.44 U (more in a box: the walls
    // crowd the return flow); ahead with the disc, beside it against it
    let r = 1.5 * RADIUS;
    let ahead = ui(((0.5 + r) / H).round() as usize, N / 2);
    let beside = ui(N / 2, ((0.5 + r) / H) as usize);
    let behind = ui(((0.5 - r) / H).round() as usize, N / 2);
    eprintln!("u/U at 1.5 a: ahead {ahead}, behind {behind}, beside {beside}; max |div| {worst} 1/s");
    assert!((0.3..0.7).contains(&(ahead / U)), "u ahead of the disc {ahead} (potential flow: {})", U / 2.25);
    assert!((0.3..0.7).contains(&(behind / U)), "u behind the disc {behind} (potential flow: {})", U / 2.25);
    assert!((-0.75..-0.3).contains(&(beside / U)), "u beside the disc {beside} (potential flow: {})", -U / 2.25);
    // symmetric above and below the axis of motion
    let above = ui(N / 2 + 20, N / 2 + 20);
    let below = ui(N / 2 + 20, N / 2 - 21);
    assert!((above - below).abs() <= 1e-3 * U, "u above {above}, below {below}");
}

#[test]
fn a_disc_dragged_through_still_fluid_leaves_a_wake_and_rests_where_it_was_let_go() {
    let gpu = gpu();
    let (mut f, mut p) = disc_in_a_box();
    p.body_velocity = [0.0, 0.0];
    f.solid.iter_mut().for_each(|s| *s = s.min(1.0));
    p.dt = 0.005;
    let mut sim = Simulation::new(&gpu, &f, p, solver()).unwrap();
    sim.pick_body(BodyShape::Circle { center: [0.5, 0.5], radius: RADIUS });
    // 0.3 m to the right at 2 m/s: a few cells a step, over 30 steps
    let steps = 30;
    for k in 1..=steps {
        sim.drag_body_to([0.5 + 0.3 * k as f32 / steps as f32, 0.5]);
        sim.run_blocking(1, false);
    }
    sim.release_body();
    sim.run_blocking(2, false);
    assert!(!sim.dragging(), "the body was let go");
    let g = sim.download();
    // the disc's cells are still solids at the new place, none left at the old
    let at = |x: f32, y: f32| g.solid[(y / H) as usize * N + (x / H) as usize];
    assert_eq!(at(0.8, 0.5), 1.0, "the disc rests at x = 0.8");
    assert_eq!(at(0.45, 0.5), 0.0, "the disc left x = 0.45");
    // exactly the cells whose centres lie in the disc at its new place, still solids again
    for j in 0..N {
        for i in 0..N {
            let (x, y) = ((i as f32 + 0.5) * H - 0.8, (j as f32 + 0.5) * H - 0.5);
            let want = if x * x + y * y <= RADIUS * RADIUS { 1.0 } else { 0.0 };
            assert_eq!(g.solid[j * N + i], want, "cell ({i}, {j}) after the drag");
        }
    }
    // the wake: the fluid where the disc passed follows it (u > 0 along the path behind it;
    // the state after a step is advected, so no exact flux holds here: the first test has that)
    let u_mid = |x: f32| g.u[(N / 2) * (N + 1) + (x / H).round() as usize];
    for x in [0.5, 0.6] {
        assert!(u_mid(x) > 0.05, "u = {} at x = {x} on the disc's path: no wake", u_mid(x));
    }
    // far from the path the fluid has barely moved
    assert!(g.u[5 * (N + 1) + 5].abs() < 0.05 && g.v[5 * N + 5].abs() < 0.05);
}

/// A body dragged elsewhere feels the flow on its new faces: the bodies listed for the forces
/// after a move and after the drop are exactly those labelled from the GPU's own solid cells, and
/// the wind tunnel's cylinder, dragged 0.3 m downstream, still takes a drag like the one it took
/// before (a list left at the old place would sum the pressure of fluid cells on both sides of
/// nothing there).
#[test]
fn a_dragged_body_feels_the_flow_where_it_went() {
    let gpu = gpu();
    let sets: Vec<String> = ["grid.nx=128", "grid.ny=64", "grid.cell_size=0.015625"].iter().map(|s| s.to_string()).collect();
    let (scene, source) = smokebox::config::Scene::load("wind-tunnel", &sets).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    let drag_of = |stats: &[smokebox::sim::stats::StepStats]| stats.iter().map(|s| s.bodies[0][0]).sum::<f32>() / stats.len() as f32;
    let before = drag_of(&sim.run_blocking(60, true)[40..]);
    let listed = |sim: &Simulation| {
        let want = label_bodies(&sim.download(), &sim.params);
        assert_eq!(sim.stages.body_loads.bodies, want, "the bodies listed for the forces are not the GPU's");
        want
    };
    sim.pick_body(BodyShape::Circle { center: [0.5, 0.505], radius: 0.08 });
    sim.drag_body_to([0.8, 0.505]);
    sim.run_blocking(2, false);
    assert!(sim.dragging());
    listed(&sim);
    sim.release_body();
    sim.run_blocking(8, false);
    assert!(!sim.dragging(), "the body was let go");
    let bodies = listed(&sim);
    let b = bodies.bodies[0];
    let centre = (b.min[0] + b.max[0]) as f32 / 2.0 + 0.5;
    assert!((centre * 0.015625 - 0.8).abs() < 0.02, "the body's cells centre on x = {}", centre * 0.015625);
    let after = drag_of(&sim.run_blocking(60, true)[40..]);
    println!("drag before the move {before:.3} N/m, after {after:.3}");
    assert!(before > 0.0 && after > 0.5 * before && after < 2.0 * before, "drag {before} before the move, {after} after");
}
