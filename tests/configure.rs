//! A running simulation takes every setting of a scene without new pipelines (`configure`), and
//! goes back to time zero by upload (`restore`): the app's Apply and Reset.

use smokebox::config::{Scene, Scheme, SolverKind};
use smokebox::gpu::Gpu;
use smokebox::sim::Simulation;
use smokebox::sim::init::{emitter_splats, initial_fields};
use smokebox::sim::params::Params;

fn small(name: &str) -> (Scene, smokebox::config::Source) {
    Scene::load(name, &["grid.nx=40".into(), "grid.ny=32".into(), "grid.cell_size=0.025".into()]).unwrap()
}

#[test]
fn configure_then_restore_steps_exactly_like_a_fresh_simulation() {
    let gpu = Gpu::headless().unwrap();
    let (first, source) = small("plume");
    let mut second = first.clone();
    second.fluid.viscosity = 0.002;
    second.forces.gravity = [0.3, -4.0];
    second.forces.vorticity = 0.5;
    second.solver.kind = SolverKind::Sor;
    *second.solver.cap_mut() = 17;
    second.advection.ink = Scheme::Maccormack;
    second.emitters[0].velocity = [0.2, 0.8];
    assert_ne!(Params::from_scene(&first), Params::from_scene(&second));

    let mut sim = Simulation::from_scene(&gpu, &first, &source).unwrap();
    sim.run_blocking(4, false);
    sim.configure(&second).unwrap();
    assert_eq!(sim.params, Params::from_scene(&second));
    assert_eq!(sim.solver, second.solver);
    assert_eq!(sim.emitters, emitter_splats(&second));
    let start = initial_fields(&second, &source).unwrap();
    sim.restore(&start);
    assert_eq!((sim.step_index, sim.time), (0, 0.0));
    assert_eq!(sim.download(), start, "restore uploads the initial fields exactly");
    sim.run_blocking(6, false);

    let mut fresh = Simulation::from_scene(&gpu, &second, &source).unwrap();
    fresh.run_blocking(6, false);
    let (a, b) = (sim.download(), fresh.download());
    assert!(a.ink.iter().any(|&x| x != 0.0), "the plume put ink in");
    assert_eq!(a, b, "a configured and restored simulation steps exactly like a new one");
}

#[test]
fn configure_refuses_a_new_grid_size() {
    let gpu = Gpu::headless().unwrap();
    let (scene, source) = small("box");
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    let mut bigger = scene.clone();
    bigger.grid.nx = 41;
    let err = sim.configure(&bigger).unwrap_err().to_string();
    assert!(err.contains("41x32") && err.contains("new simulation"), "{err}");
}
