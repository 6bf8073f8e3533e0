//! The curl (vorticity) the curl view draws, on the CPU: render_field.wgsl `curl_at` as plain
//! loops, for its automatic range (the largest |ω| of a read-back) and for tests.
//!
//! ω = ∂v/∂x − ∂u/∂y is formed where the MAC grid gives it compactly, at the cell corners:
//! ω(i, j) = (v[j][i] − v[j][i−1] − u[j][i] + u[j−1][i]) / h at (i h, j h). A cell shows the mean
//! of its four corners. Faces beyond the domain are clamped to the nearest one, so at the rim
//! only the difference along it counts. Positive ω turns counter-clockwise (y up).

/// u on vertical edges, `(ny, nx + 1)`, clamped to the grid.
fn u_at(u: &[f32], nx: usize, ny: usize, i: i64, j: i64) -> f32 {
    u[j.clamp(0, ny as i64 - 1) as usize * (nx + 1) + i.clamp(0, nx as i64) as usize]
}

/// v on horizontal edges, `(ny + 1, nx)`, clamped to the grid.
fn v_at(v: &[f32], nx: usize, ny: usize, i: i64, j: i64) -> f32 {
    v[j.clamp(0, ny as i64) as usize * nx + i.clamp(0, nx as i64 - 1) as usize]
}

/// ω at corner `(i, j)` (1/s), i in 0..=nx, j in 0..=ny.
pub fn corner_curl(u: &[f32], v: &[f32], nx: usize, ny: usize, h: f32, i: i64, j: i64) -> f32 {
    let dv = v_at(v, nx, ny, i, j) - v_at(v, nx, ny, i - 1, j);
    let du = u_at(u, nx, ny, i, j) - u_at(u, nx, ny, i, j - 1);
    (dv - du) / h
}

/// ω of every cell, row by row from the bottom: what the view tints. The mean of its four
/// corners, with the faces the corners share cancelled (render_field.wgsl `curl_at`).
pub fn cell_curl(u: &[f32], v: &[f32], nx: usize, ny: usize, h: f32) -> Vec<f32> {
    let (uf, vf) = (|i, j| u_at(u, nx, ny, i, j), |i, j| v_at(v, nx, ny, i, j));
    let mut out = Vec::with_capacity(nx * ny);
    for j in 0..ny as i64 {
        for i in 0..nx as i64 {
            let dv = vf(i + 1, j) + vf(i + 1, j + 1) - vf(i - 1, j) - vf(i - 1, j + 1);
            let du = uf(i, j + 1) + uf(i + 1, j + 1) - uf(i, j - 1) - uf(i + 1, j - 1);
            out.push((dv - du) / (4.0 * h));
        }
    }
    out
}

/// The largest |ω| over the cells (the automatic range), at least a tiny positive floor.
pub fn max_abs_curl(u: &[f32], v: &[f32], nx: usize, ny: usize, h: f32) -> f32 {
    cell_curl(u, v, nx, ny, h).iter().fold(0.0f32, |m, w| m.max(w.abs())).max(1e-9)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cell's curl is the mean of its corners' on any field, the rim's clamped faces included.
    #[test]
    fn a_cell_is_the_mean_of_its_corners() {
        let (nx, ny, h) = (7usize, 5usize, 0.3f32);
        let wave = |n: usize, a: f32| (0..n).map(|k| (k as f32 * a).sin() * 3.0 + (k as f32 * 0.37).cos()).collect::<Vec<f32>>();
        let (u, v) = (wave((nx + 1) * ny, 1.3), wave(nx * (ny + 1), 0.7));
        let w = cell_curl(&u, &v, nx, ny, h);
        for j in 0..ny as i64 {
            for i in 0..nx as i64 {
                let c = |a: i64, b: i64| corner_curl(&u, &v, nx, ny, h, a, b);
                let mean = 0.25 * (c(i, j) + c(i + 1, j) + c(i, j + 1) + c(i + 1, j + 1));
                let got = w[j as usize * nx + i as usize];
                assert!((got - mean).abs() <= 1e-5 * mean.abs().max(1.0), "cell ({i}, {j}): {got} against {mean}");
            }
        }
    }

    /// Solid-body rotation u = −Ω (y − yc), v = Ω (x − xc) has ω = 2Ω everywhere, exactly on
    /// the MAC grid away from the rim.
    #[test]
    fn solid_body_rotation_has_twice_its_rate() {
        let (nx, ny, h, omega) = (8usize, 6usize, 0.5f32, 1.5f32);
        let (xc, yc) = (nx as f32 * h / 2.0, ny as f32 * h / 2.0);
        let u: Vec<f32> = (0..ny).flat_map(|j| (0..=nx).map(move |_| -omega * ((j as f32 + 0.5) * h - yc))).collect();
        let v: Vec<f32> = (0..=ny).flat_map(|_| (0..nx).map(move |i| omega * ((i as f32 + 0.5) * h - xc))).collect();
        let w = cell_curl(&u, &v, nx, ny, h);
        for j in 1..ny - 1 {
            for i in 1..nx - 1 {
                assert!((w[j * nx + i] - 2.0 * omega).abs() < 1e-5, "cell ({i}, {j}): {}", w[j * nx + i]);
            }
        }
    }
}
