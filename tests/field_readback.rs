//! The app's non-blocking field read-back returns exactly the pressure and divergence on the
//! GPU, only after the map has arrived, and gives the pressure's min/max; with the edge
//! velocities asked for, the largest |curl| of the CPU twin (the curl view's auto range).

mod common;

use smokebox::render::readback::{EdgeVelocity, FieldReadback};
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
    rb.encode(&mut enc, &sim.buffers.p, (&sim.buffers.divergence, true), None, 2);
    rb.request_map();
    assert!(!rb.collect(), "nothing was copied yet");
    rb.encode(&mut enc, &sim.buffers.p, (&sim.buffers.divergence, true), None, 2);
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
    // the automatic divergence range is the largest |div|, and the snapshot knows which it holds
    let most = fields.divergence.iter().fold(0.0f32, |m, d| m.max(d.abs()));
    assert_eq!(snap.divergence_range(), Some(most));
    assert!(snap.divergence_after);
    assert!(!rb.collect(), "one copy is taken once");
    assert_eq!(rb.curl_max, None, "no velocity was asked for");

    // the curl's auto range: the velocity comes along when asked
    let mut enc = sim.device.create_command_encoder(&Default::default());
    rb.encode(
        &mut enc,
        &sim.buffers.p,
        (&sim.buffers.divergence, false),
        Some(EdgeVelocity { u: &sim.buffers.u, v: &sim.buffers.v, h: 0.1 }),
        1,
    );
    sim.queue.submit([enc.finish()]);
    rb.request_map();
    sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    assert!(rb.collect(), "the maps arrived");
    let want = smokebox::render::curl::max_abs_curl(&fields.u, &fields.v, nx, ny, 0.1);
    assert_eq!(rb.curl_max, Some(want));
}

/// The hover probe reads exactly the cell's faces, pressure, divergence, solid and the dye cell's
/// ink, only once the map has arrived.
#[test]
fn cell_probe_reads_one_cell_and_its_dye() {
    use smokebox::render::readback::CellProbe;
    use smokebox::sim::fields::Fields;
    let gpu = common::gpu();
    let (nx, ny, k) = (10, 7, 3);
    let f = common::random_fields(nx, ny, 11, 0.3);
    let mut fields = Fields { dye_scale: k, ink: (0..3 * k * k * nx * ny).map(|n| n as f32).collect(), ..f };
    fields.solid[3 * nx + 4] = 1.0;
    let sim = Simulation::new(&gpu, &fields, common::box_params(nx, ny, 0.1, 0.01), Default::default()).unwrap();
    let mut probe = CellProbe::new(&sim.device);
    let mut enc = sim.device.create_command_encoder(&Default::default());
    let (i, j, dye) = (4, 3, [13usize, 10usize]);
    probe.encode(&mut enc, &sim, (&sim.buffers.divergence, false), [i, j], dye);
    assert!(!probe.collect(), "nothing before the submit");
    sim.queue.submit([enc.finish()]);
    probe.request_map();
    sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
    assert!(probe.collect());
    let r = probe.latest.clone().unwrap();
    assert_eq!((r.i, r.j), (i, j));
    assert_eq!(r.u_faces, [fields.u[fields.ui(i, j)], fields.u[fields.ui(i + 1, j)]]);
    assert_eq!(r.v_faces, [fields.v[fields.vi(i, j)], fields.v[fields.vi(i, j + 1)]]);
    assert_eq!((r.p, r.divergence, r.solid), (fields.p[fields.cell(i, j)], fields.divergence[fields.cell(i, j)], true));
    let d = fields.dye_cell(dye[0], dye[1]);
    assert_eq!(r.ink, [fields.ink[3 * d], fields.ink[3 * d + 1], fields.ink[3 * d + 2]]);
    assert!(r.text().contains("solid") && r.text().contains("m/s") && r.text().contains("Pa"), "{}", r.text());
    // the readout says which divergence it shows: the solve's input here
    assert!(!r.divergence_after && r.text().contains("div before the solve"), "{}", r.text());
}
