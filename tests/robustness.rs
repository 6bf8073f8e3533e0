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
