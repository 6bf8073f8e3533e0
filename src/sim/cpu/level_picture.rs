//! CPU reference of shaders/level_picture.wgsl: a multigrid level's values spread over the
//! nx × ny grid, each cell taking the value of the level-l cell that covers it.

/// `values` at `place` = [level nx, level ny, start, l] (src/sim/level_picture.rs `place`) over
/// an nx × ny grid, row by row.
pub fn level_picture(values: &[f32], place: [u32; 4], nx: usize, ny: usize) -> Vec<f32> {
    let [lnx, _lny, start, l] = place.map(|w| w as usize);
    let mut out = vec![0.0; nx * ny];
    for j in 0..ny {
        for i in 0..nx {
            out[j * nx + i] = values[start + (j >> l) * lnx + (i >> l)];
        }
    }
    out
}
