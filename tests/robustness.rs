//! Small failures a user meets at the edges (issue 13, "Smaller fixes"): window-system noise on
//! headless runs, a surface with no formats, a GPU that runs out of memory or is lost, a closed
//! stdout.

use smokebox::gpu;
use std::process::{Command, Stdio};

fn smokebox() -> Command {
    Command::new(env!("CARGO_BIN_EXE_smokebox"))
}

#[test]
fn a_headless_run_without_a_desktop_session_prints_nothing_on_stderr() {
    // Mesa's device-select layer asks libwayland for a compositor; without XDG_RUNTIME_DIR that
    // printed two "error: XDG_RUNTIME_DIR is invalid" lines per run.
    let out = smokebox()
        .args(["run", "--scene", "box", "--steps", "2", "--set", "grid.nx=16", "--set", "grid.ny=16"])
        .env_remove("XDG_RUNTIME_DIR")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "run failed: {err}");
    assert!(err.trim().is_empty(), "a headless run printed on stderr: {err}");
}

#[test]
fn a_surface_with_no_formats_is_an_error_not_a_panic() {
    use wgpu::TextureFormat::*;
    assert!(gpu::surface_format(&[]).is_err());
    assert_eq!(gpu::surface_format(&[Bgra8UnormSrgb, Bgra8Unorm]).unwrap(), Bgra8Unorm);
    assert_eq!(gpu::surface_format(&[Rgba8UnormSrgb]).unwrap(), Rgba8UnormSrgb);
}

#[test]
fn out_of_memory_and_a_lost_device_are_one_line_with_their_own_status() {
    let oom = wgpu::Error::OutOfMemory { source: Box::new(std::io::Error::other("vkAllocateMemory failed")) };
    let (line, status) = gpu::uncaptured_error_report(&oom);
    assert_eq!(status, gpu::EXIT_GPU_FAILED);
    assert!(line.contains("out of memory") && !line.contains("bug") && !line.contains('\n'), "{line}");
    let (line, status) = gpu::device_lost_report(wgpu::DeviceLostReason::Unknown, "VK_ERROR_DEVICE_LOST\nat submit").unwrap();
    assert_eq!(status, gpu::EXIT_GPU_FAILED);
    assert!(line.contains("lost") && line.contains("VK_ERROR_DEVICE_LOST at submit") && !line.contains('\n'), "{line}");
    assert!(gpu::device_lost_report(wgpu::DeviceLostReason::Destroyed, "").is_none(), "a device destroyed on purpose is no failure");
    assert_ne!(gpu::EXIT_GPU_FAILED, 2, "bad input keeps its own status");
    assert_ne!(gpu::EXIT_GPU_FAILED, gpu::EXIT_BUG);
}

#[test]
fn the_command_line_exits_on_a_fault_and_the_app_records_it_and_ignores_its_consequences() {
    use gpu::{EXIT_BUG, EXIT_GPU_FAILED, Fault, OnFault, Verdict, on_lost, on_uncaptured};
    use wgpu::DeviceLostReason::{Destroyed, Unknown};
    let oom = || wgpu::Error::OutOfMemory { source: Box::new(std::io::Error::other("vkAllocateMemory failed")) };
    let invalid = || wgpu::Error::Validation {
        source: Box::new(std::io::Error::other("device is invalid")),
        description: "device is invalid".into(),
    };
    // the command line: today's lines and statuses, a destroyed device is no failure
    assert!(matches!(on_uncaptured(OnFault::Exit, false, &oom()), Verdict::Exit(l, EXIT_GPU_FAILED) if l.contains("out of memory")));
    assert!(matches!(on_uncaptured(OnFault::Exit, false, &invalid()), Verdict::Exit(l, EXIT_BUG) if l.contains("a bug")));
    assert!(
        matches!(on_lost(OnFault::Exit, false, Unknown, "VK_ERROR_DEVICE_LOST"), Verdict::Exit(l, EXIT_GPU_FAILED) if l.contains("VK_ERROR_DEVICE_LOST"))
    );
    assert_eq!(on_lost(OnFault::Exit, false, Destroyed, ""), Verdict::Ignore);
    // the app: a loss (destroy() included) or out-of-memory is recorded; what follows is ignored
    assert_eq!(
        on_lost(OnFault::Record, false, Unknown, "VK_ERROR_DEVICE_LOST\nat submit"),
        Verdict::Record(Fault::Lost("VK_ERROR_DEVICE_LOST at submit".into()))
    );
    assert_eq!(on_lost(OnFault::Record, false, Destroyed, ""), Verdict::Record(Fault::Lost("the device was destroyed".into())));
    assert_eq!(on_uncaptured(OnFault::Record, false, &oom()), Verdict::Record(Fault::OutOfMemory));
    assert_eq!(on_uncaptured(OnFault::Record, true, &invalid()), Verdict::Ignore);
    assert_eq!(on_lost(OnFault::Record, true, Unknown, "later"), Verdict::Ignore);
    // a validation error with no fault before it stays a bug, in the app too
    assert!(matches!(on_uncaptured(OnFault::Record, false, &invalid()), Verdict::Exit(_, EXIT_BUG)));
    let line = Fault::Lost("VK_ERROR_DEVICE_LOST".into()).recovered();
    assert!(line.contains("lost (VK_ERROR_DEVICE_LOST)") && line.contains("new device") && line.contains("restarted"), "{line}");

    // a real device opened for the app, destroyed: the loss is recorded, the process lives on
    // (wgpu itself drops the errors of work on a lost device), and the first fault is kept
    let headless = gpu::Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let open = || gpu::Gpu::with_adapter(headless.instance.clone(), headless.adapter.clone(), OnFault::Record).unwrap();
    let g = open();
    assert_eq!(g.fault.get(), None);
    g.device.destroy();
    let _ = g.device.poll(wgpu::PollType::wait_indefinitely());
    let destroyed = Some(Fault::Lost("the device was destroyed".into()));
    assert_eq!(g.fault.get(), destroyed);
    g.queue.submit([g.device.create_command_encoder(&Default::default()).finish()]);
    let _ = g.device.poll(wgpu::PollType::Poll);
    assert_eq!(g.fault.get(), destroyed, "the first fault is kept");
    // after a fault (as after an out-of-memory), a validation error (as the error scope shows)
    // reaches the handler and is ignored: without the fault it would end this process with 70
    let g = open();
    g.fault.record(Fault::OutOfMemory);
    let bad = wgpu::BufferDescriptor {
        label: None,
        size: 256,
        usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    };
    let scope = g.device.push_error_scope(wgpu::ErrorFilter::Validation);
    let _ = g.device.create_buffer(&bad);
    assert!(pollster::block_on(scope.pop()).is_some(), "a MAP_READ | STORAGE buffer is a validation error");
    let _ = g.device.create_buffer(&bad);
    assert_eq!(g.fault.get(), Some(Fault::OutOfMemory));
}

/// Runs smokebox with its stdout a pipe whose reading end is already closed.
fn into_closed_pipe(args: &[&str]) -> std::process::Output {
    let mut child = smokebox().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_stdout_ends_quietly() {
    for args in [&["scenes"][..], &["run", "--scene", "box", "--steps", "50", "--stats", "--set", "grid.nx=16", "--set", "grid.ny=16"]] {
        let out = into_closed_pipe(args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked") && !err.contains("Broken pipe"), "{args:?}: {err}");
        assert!(err.trim().is_empty(), "{args:?} printed on stderr: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}

/// Ink at the centre of an emitter after `t_end` seconds of steps of `dt` in a still fluid.
fn emitted_ink(dt: f32, t_end: f32) -> (f32, f32) {
    use smokebox::config::SolverConfig;
    use smokebox::sim::fields::Fields;
    use smokebox::sim::params::*;
    use smokebox::sim::{Simulation, cpu};
    let gpu = gpu::Gpu::headless().unwrap();
    let n = 16;
    let h = 1.0 / n as f32;
    let p = Params { nx: n as u32, ny: n as u32, h, dt, rho: 1.0, jacobi_weight: 0.8, sor_omega: 1.9, ..Params::default() };
    let emitter = Splat { x: 0.5, y: 0.5, radius: 0.25, mode: SPLAT_BLEND, ink_r: 1.0, rate: 5.0, ..Default::default() };
    let f = Fields::zeros(n, n);
    let mut sim = Simulation::new(&gpu, &f, p, SolverConfig::default()).unwrap();
    sim.emitters = vec![emitter];
    let steps = (t_end / dt).round() as u64;
    sim.run_blocking(steps, false);
    let got = sim.download();
    let mut c = f.clone();
    for _ in 0..steps {
        cpu::sources(&mut c, &p, &[emitter]);
    }
    let k = 3 * got.cell(n / 2, n / 2);
    (got.ink[k], c.ink[k])
}

#[test]
fn an_emitter_fills_at_the_same_rate_whatever_the_time_step() {
    // relaxation at 5/s times the falloff at the cell centre nearest the disk's centre: the same
    // ink after 0.4 s in 40 steps or 10 (the old per-step blend filled 4x faster at dt = 0.01)
    let (fine, fine_cpu) = emitted_ink(0.01, 0.4);
    let (coarse, coarse_cpu) = emitted_ink(0.04, 0.4);
    eprintln!("ink at the centre after 0.4 s: dt 0.01 -> {fine} (CPU {fine_cpu}), dt 0.04 -> {coarse} (CPU {coarse_cpu})");
    assert!((fine - coarse).abs() < 1e-4, "emitter strength depends on dt: {fine} vs {coarse}");
    assert!((fine - fine_cpu).abs() < 1e-5 && (coarse - coarse_cpu).abs() < 1e-5, "GPU and CPU differ");
    let w = (1.0f32 - (0.5f32 / 16.0).powi(2) * 2.0 / 0.0625).powi(2); // falloff at the nearest centre
    let want = 1.0 - (-5.0 * 0.4 * w).exp();
    assert!((fine - want).abs() < 1e-4, "ink {fine}, expected 1 − exp(−rate t w) = {want}");
}
