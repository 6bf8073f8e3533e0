//! The "divergence after projection" buffer holds the divergence of the velocity right after the
//! correction: its max |div| is the stats' div_max_after, far below the divergence the solver saw.

mod common;

use smokebox::config::Scene;
use smokebox::sim::Simulation;

fn read(sim: &Simulation, buffer: &wgpu::Buffer) -> Vec<f32> {
    let staging = sim.device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: buffer.size(),
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    });
    let mut enc = sim.device.create_command_encoder(&Default::default());
    enc.copy_buffer_to_buffer(buffer, 0, &staging, 0, buffer.size());
    sim.queue.submit([enc.finish()]);
    staging.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("map"));
    sim.device.poll(wgpu::PollType::wait_indefinitely()).expect("poll");
    let data = staging.slice(..).get_mapped_range().expect("mapped");
    bytemuck::cast_slice(&data).to_vec()
}

#[test]
fn divergence_after_projection_matches_the_stats_and_keeps_the_step_divergence() {
    let gpu = common::gpu();
    let sets = [
        "grid.nx=24".to_string(),
        "grid.ny=20".to_string(),
        "grid.cell_size=0.041666668".to_string(),
        "solver.kind=\"multigrid\"".to_string(),
    ];
    let (scene, source) = Scene::load("plume", &sets).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    sim.enable_div_after().unwrap();
    let stats = sim.run_blocking(3, true);
    let last = stats.last().expect("stats of the last step");
    let after = read(&sim, &sim.div_after.as_ref().unwrap().buffer);
    let before = read(&sim, &sim.buffers.divergence);
    let max_after = common::max_abs(&after);
    let max_before = common::max_abs(&before);
    assert!(
        (max_after - last.div_max_after).abs() <= 1e-3 * last.div_max_after.max(1e-6),
        "after-projection buffer max {max_after:e}, stats {:e}",
        last.div_max_after
    );
    assert!((max_before - last.div_max_before).abs() <= 1e-3 * last.div_max_before, "the step's divergence was overwritten");
    assert!(max_after < 0.1 * max_before, "projection should remove most divergence: {max_before:e} -> {max_after:e}");
}
