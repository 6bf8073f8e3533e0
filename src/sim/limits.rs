//! What a grid needs of the device and the machine: checked before any buffer is made (and
//! before a state's fields are read), so a grid that does not fit is a one-line error instead of
//! a failed allocation. The command line, the window's `--load`, a dropped or opened state and a
//! new grid in the panel all ask this one check.

use crate::error::Result;

/// `check_dye_fits` with the dye on the flow grid.
pub fn check_fits(limits: &wgpu::Limits, nx: usize, ny: usize) -> Result<()> {
    check_dye_fits(limits, nx, ny, 1)
}

/// A size in MB, or in GB from 1 GiB up (binary units, as memory is counted).
pub fn size_text(bytes: u64) -> String {
    if bytes >= 1 << 30 {
        format!("{:.1} GB", bytes as f64 / (1u64 << 30) as f64)
    } else {
        format!("{:.1} MB", bytes as f64 / (1u64 << 20) as f64)
    }
}

/// Bytes the fields of a state take in the computer's memory while they are loaded or made
/// (`Fields`: u, v, p, divergence, density, solid and the ink on the dye grid).
pub fn host_bytes(nx: usize, ny: usize, k: usize) -> u64 {
    let (nx, ny, k) = (nx as u64, ny as u64, k as u64);
    4 * (ny * (nx + 1) + (ny + 1) * nx + 4 * nx * ny + 3 * k * k * nx * ny)
}

/// Memory the system can still give (Linux `MemAvailable`; None elsewhere or unreadable).
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The largest buffer is ink (3 floats a dye cell): it must fit the device's storage binding
/// limit, and the dye grid its dispatch limit; the fields must fit the memory the system has.
pub fn check_dye_fits(limits: &wgpu::Limits, nx: usize, ny: usize, k: usize) -> Result<()> {
    let max_binding = limits.max_storage_buffer_binding_size.min(limits.max_buffer_size);
    let largest = 3 * 4 * (k * k) as u64 * nx as u64 * ny as u64;
    let groups = limits.max_compute_workgroups_per_dimension as u64 * 8;
    let state = super::buffers::bytes_for(nx, ny, k);
    let (ink, most, state_text) = (size_text(largest), size_text(max_binding), size_text(state));
    if k > 1 && largest > max_binding {
        crate::fail!(
            "grid.dye_scale = {k} on a {nx}x{ny} grid does not fit this GPU: the ink buffer needs {ink} but a storage buffer may hold {most} ({state_text} of GPU memory in all); use a smaller grid.dye_scale"
        );
    }
    let (w, h) = ((k * nx) as u64, (k * ny) as u64);
    if largest > max_binding || w.max(nx as u64 + 1) > groups || h.max(ny as u64 + 1) > groups {
        let side = ((max_binding / 12) as f64).sqrt().floor() as u64;
        let side = side.min(groups - 1);
        crate::fail!(
            "grid {nx}x{ny} does not fit this GPU: the ink buffer needs {ink} but a storage buffer may hold {most} ({state_text} of GPU memory in all); the largest square grid that fits is {side}x{side}"
        );
    }
    let host = host_bytes(nx, ny, k);
    if let Some(free) = available_memory().filter(|&free| host > free) {
        crate::fail!(
            "grid {nx}x{ny} (dye grid {k}x finer) does not fit this computer's memory: its fields need {} but {} is available ({state_text} of GPU memory besides)",
            size_text(host),
            size_text(free)
        );
    }
    Ok(())
}
