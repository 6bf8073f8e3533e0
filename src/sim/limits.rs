//! What a grid needs of the device: checked before any buffer is made, so a grid that does not
//! fit is a one-line error instead of a failed allocation.

use crate::error::Result;

/// `check_dye_fits` with the dye on the flow grid.
pub fn check_fits(limits: &wgpu::Limits, nx: usize, ny: usize) -> Result<()> {
    check_dye_fits(limits, nx, ny, 1)
}

/// The largest buffer is ink (3 floats a dye cell): it must fit the device's storage binding
/// limit, and the dye grid its dispatch limit.
pub fn check_dye_fits(limits: &wgpu::Limits, nx: usize, ny: usize, k: usize) -> Result<()> {
    let max_binding = (limits.max_storage_buffer_binding_size as u64).min(limits.max_buffer_size);
    let largest = 3 * 4 * (k * k) as u64 * nx as u64 * ny as u64;
    let groups = limits.max_compute_workgroups_per_dimension as u64 * 8;
    if k > 1 && largest > max_binding {
        crate::fail!(
            "grid.dye_scale = {k} on a {nx}x{ny} grid does not fit this GPU: the ink buffer needs {largest} bytes but a storage buffer may hold {max_binding}; use a smaller grid.dye_scale"
        );
    }
    let (w, h) = ((k * nx) as u64, (k * ny) as u64);
    if largest > max_binding || w.max(nx as u64 + 1) > groups || h.max(ny as u64 + 1) > groups {
        let side = ((max_binding / 12) as f64).sqrt().floor() as u64;
        let side = side.min(groups - 1);
        crate::fail!(
            "grid {nx}x{ny} does not fit this GPU: the ink buffer needs {largest} bytes but a storage buffer may hold {max_binding}; the largest square grid that fits is {side}x{side}"
        );
    }
    Ok(())
}
