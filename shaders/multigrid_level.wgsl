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

// The weight of an outflow (p = 0 ghost) neighbour on level k: level 0's ghost centre, where p = 0,
// lies half a fine cell beyond the side, which from a coarse cell's centre is H/2 + h/2 away, not
// H: weight H / (H/2 + h/2) = 2^(k+1) / (2^k + 1), exactly 1 on level 0. Without it the coarse
// operators put the boundary farther out than the fine one and the V-cycle stalls as the grid
// grows (tests/multigrid_contraction.rs). CPU twin: src/sim/cpu/multigrid.rs `outflow_weight`.
fn outflow_weight(k: u32) -> f32 {
    let t = f32(1u << k);
    return 2.0 * t / (t + 1.0);
}

// The diagonal of stencil s on level k: its fluid neighbours plus its weighted outflow ones.
fn diagonal(s: u32, k: u32) -> f32 {
    let fluid = f32(countOneBits(s & 15u));
    return fluid + (stencil_count(s) - fluid) * outflow_weight(k);
}
