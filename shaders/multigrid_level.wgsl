// Shared by every multigrid pass (composed after the prelude): indexing of the bound level.
// All levels' rhs and stencils live in one buffer each at per-level offsets; the iterate x of
// level 0 is `p` itself and coarser levels' x live in `mg_x[k % 2]` (src/sim/multigrid.rs), so a level's x and
// its coarser neighbour's (`mg_xc`) are two buffers.
// The operator on every level is the Jacobi one (pressure.wgsl): count * x - sum(fluid nbrs) = rhs,
// with rhs = -rho h^2 div / dt on level 0; coarser levels reuse the same boundary kinds (walls and
// inflows Neumann, outflow a p = 0 ghost, periodic wrap) on their own solid masks.

// The `Level` struct is in shared/grid.wgsl; `level` (slot 18) is declared by each pass.

const MG_SOLID: u32 = 128u;

fn lnx() -> i32 { return i32(level.nx); }
fn lny() -> i32 { return i32(level.ny); }
// Index of (i, j) of this level in the per-level buffers (rhs, stencil) and in its x.
fn lidx(i: i32, j: i32) -> u32 { return level.off + u32(j * lnx() + i); }
fn xidx(i: i32, j: i32) -> u32 { return level.x_off + u32(j * lnx() + i); }
fn stencil_count(s: u32) -> f32 { return f32((s >> 4u) & 7u); }
