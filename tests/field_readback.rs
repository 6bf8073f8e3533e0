//! The app's non-blocking field read-back returns exactly the pressure and divergence on the
//! GPU, only after the map has arrived, and gives the pressure's min/max.

mod common;

use smokebox::render::readback::FieldReadback;
use smokebox::sim::Simulation;

#[test]
fn readback_returns_the_fields_once_mapped() {
    let gpu = common::gpu();
    let (nx, ny) = (12, 9);
    let fields = common::random_fields(nx, ny, 7, 0.0);
    let sim = Simulation::new(&gpu, &fields, common::box_params(nx, ny, 0.1, 0.01), Default::default()).unwrap();
    let mut rb = FieldReadback::new(&sim.device, nx, ny);
    let mut enc = sim.device.create_command_encoder(&Default::default());
    // the first frames wait for `every`
    rb.encode(&mut enc, &sim.buffers.p, &sim.buffers.divergence, 2);
    rb.request_map();
    assert!(!rb.collect(), "nothing was copied yet");
    rb.encode(&mut enc, &sim.buffers.p, &sim.buffers.divergence, 2);
    sim.queue.submit([enc.finish()]);
    rb.request_map();
    sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    assert!(rb.collect(), "the map arrived");
    let snap = rb.latest.clone().unwrap();
    assert_eq!(snap.p, fields.p);
    assert_eq!(snap.divergence, fields.divergence);
    let lo = fields.p.iter().copied().fold(f32::INFINITY, f32::min);
    let hi = fields.p.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    assert_eq!(snap.pressure_range(), Some((lo, hi)));
    assert!(!rb.collect(), "one copy is taken once");
}
