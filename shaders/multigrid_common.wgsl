// Shared by every multigrid pass (composed after the prelude, before the pass): the level
// descriptor and the level buffers, slots 18-23. All levels live in a few big buffers at per-level
// offsets; `level` is a small per-level buffer saying where this level and its neighbours lie.
// The operator on every level is the Jacobi one (pressure.wgsl): count * x - sum(fluid nbrs) = rhs,
// with rhs = -rho h^2 div / dt on level 0; coarser levels reuse the same boundary kinds (walls and
// inflows Neumann, outflow a p = 0 ghost, periodic wrap) on their own solid masks.

// The level descriptor `Level` and the level buffers (slots 18-23) are in the binding table of
// shared/grid.wgsl.

const MG_SOLID: u32 = 128u;

fn lnx() -> i32 { return i32(level.nx); }
fn lny() -> i32 { return i32(level.ny); }
fn lidx(i: i32, j: i32) -> u32 { return level.off + u32(j * lnx() + i); }
fn stencil_count(s: u32) -> f32 { return f32((s >> 4u) & 7u); }

// The residual rhs - (count x - sum of fluid neighbours) of cell (i, j) with stencil s, in the form
// that avoids cancellation: the neighbour differences x_nb - x_c are small and exact where the
// count x - sum form rounds at |x| (at 512^2 that rounding alone was a 1e-4 relative floor).
fn local_residual(i: i32, j: i32, s: u32) -> f32 {
    let w = lnx();
    let h = lny();
    let base = level.off;
    let xc = mg_x[lidx(i, j)];
    var d = 0.0;
    var fluid = 0.0;
    if (s & STENCIL_LEFT) != 0u { d += mg_x[base + u32(j * w + select(i - 1, w - 1, i == 0))] - xc; fluid += 1.0; }
    if (s & STENCIL_RIGHT) != 0u { d += mg_x[base + u32(j * w + select(i + 1, 0, i == w - 1))] - xc; fluid += 1.0; }
    if (s & STENCIL_BOTTOM) != 0u { d += mg_x[base + u32(select(j - 1, h - 1, j == 0) * w + i)] - xc; fluid += 1.0; }
    if (s & STENCIL_TOP) != 0u { d += mg_x[base + u32(select(j + 1, 0, j == h - 1) * w + i)] - xc; fluid += 1.0; }
    // Dirichlet (outflow) neighbours are the count's rest, each x_nb = 0
    return mg_rhs[lidx(i, j)] + (d - (stencil_count(s) - fluid) * xc);
}

// One relaxation of cell (i, j) in place, over-relaxed by omega (1: Gauss-Seidel), as an update by
// the local residual (x += omega r / count) so that converged cells stay put to the last bit.
fn relax(i: i32, j: i32, omega: f32) {
    let c = lidx(i, j);
    let s = mg_stencil[c];
    let count = stencil_count(s);
    if count == 0.0 {
        mg_x[c] = 0.0;
        return;
    }
    mg_x[c] += omega * local_residual(i, j, s) / count;
}
