// Shared by the multigrid passes that relax or measure (composed after multigrid/level.wgsl): the
// residual of one cell.

// The buffers it reads (level, mg_x, mg_rhs, ...) are declared by the pass that takes this part.

// The residual b - (count x - sum of fluid neighbours) of cell (i, j) with stencil s, in the form
// that avoids cancellation: the neighbour differences x_nb - x_c are small and exact where the
// count x - sum form rounds at |x| (at 512^2 that rounding alone was a 1e-4 relative floor).
fn residual_for(i: i32, j: i32, s: u32, b: f32) -> f32 {
    let w = lnx();
    let h = lny();
    let base = level.x_off;
    let xc = mg_x[xidx(i, j)];
    var d = 0.0;
    var fluid = 0.0;
    if (s & STENCIL_LEFT) != 0u { d += mg_x[base + u32(j * w + select(i - 1, w - 1, i == 0))] - xc; fluid += 1.0; }
    if (s & STENCIL_RIGHT) != 0u { d += mg_x[base + u32(j * w + select(i + 1, 0, i == w - 1))] - xc; fluid += 1.0; }
    if (s & STENCIL_BOTTOM) != 0u { d += mg_x[base + u32(select(j - 1, h - 1, j == 0) * w + i)] - xc; fluid += 1.0; }
    if (s & STENCIL_TOP) != 0u { d += mg_x[base + u32(select(j + 1, 0, j == h - 1) * w + i)] - xc; fluid += 1.0; }
    // Dirichlet (outflow) neighbours are the count's rest, each x_nb = 0, weighted by level
    return b + (d - (stencil_count(s) - fluid) * outflow_weight(level.index) * xc);
}

// The residual of cell (i, j) of the level, against its own rhs.
fn local_residual(i: i32, j: i32, s: u32) -> f32 {
    return residual_for(i, j, s, mg_rhs[lidx(i, j)]);
}
