// Shared by every multigrid pass (composed after the prelude): indexing of the bound level.
// All levels' rhs and stencils live in one buffer each at per-level offsets; the iterate x of
// level 0 is `p` itself and coarser levels' x live in `mg_x[k % 2]` (src/sim/multigrid.rs), so a level's x and
// its coarser neighbour's (`mg_xc`) are two buffers.
// The operator on every level is the Jacobi one (pressure.wgsl): count * x - sum(fluid nbrs) = rhs,
// with rhs = -rho h^2 div / dt on level 0; coarser levels reuse the same boundary kinds (walls and
// inflows Neumann, outflow a p = 0 ghost, periodic wrap) on their own solid masks.

// The `Level` struct is in shared/grid.wgsl; `level` is declared by each pass.

const MG_SOLID: u32 = 128u;
// A coarse ghost's stencil flag in the prolongation (multigrid/quad.wgsl `reaches`): the cell
// beyond an outflow, whose x is 0.
const MG_GHOST: u32 = 256u;

// Over-relaxation of the smoothing sweeps (not of the bottom solve): red-black SOR a little over 1
// smooths the 5-point Laplacian better than Gauss-Seidel (Yavneh 1996, "On red-black SOR smoothing
// in multigrid"). At 128² (the bench's plume, dye scale 2) the residual after two V-cycles went
// from 1.1e-4 to 4.9e-5, under the default tolerance: a V-cycle fewer a step. 1.15 did better
// still on closed and periodic boxes but slowed the V-cycle's slowest mode with an outflow side
// (tests/multigrid_contraction.rs). CPU twin: src/sim/cpu/multigrid.rs `SMOOTH_OMEGA`.
const SMOOTH_OMEGA: f32 = 1.1;

fn lnx() -> i32 { return i32(level.nx); }
fn lny() -> i32 { return i32(level.ny); }
// Index of (i, j) of this level in the per-level buffers (rhs, stencil) and in its x.
fn lidx(i: i32, j: i32) -> u32 { return level.off + u32(j * lnx() + i); }
fn xidx(i: i32, j: i32) -> u32 { return level.x_off + u32(j * lnx() + i); }
fn stencil_count(s: u32) -> f32 { return f32((s >> 4u) & 7u); }

// Which coarse faces a fine cell's correction may cross: those of its parent (packed stencil
// `parent`) towards its side (si, sj), each open only where the finer faces across it are
// (setup.wgsl `fine_face_open`); `fx`, `fy` the flags of those faces. Behind a closed face the
// bilinear prolongation takes the parent's value, as for a solid neighbour.
struct Joins {
    x: bool,
    y: bool,
    fx: u32,
    fy: u32,
}

fn joins(parent: u32, si: i32, sj: i32) -> Joins {
    let fx = select(STENCIL_RIGHT, STENCIL_LEFT, si < 0);
    let fy = select(STENCIL_TOP, STENCIL_BOTTOM, sj < 0);
    return Joins((parent & fx) != 0u, (parent & fy) != 0u, fx, fy);
}

// The weight of an outflow (p = 0 ghost) neighbour on level k: level 0's ghost centre, where p = 0,
// lies half a fine cell beyond the side, which from a coarse cell's centre is H/2 + h/2 away, not
// H: weight H / (H/2 + h/2) = 2^(k+1) / (2^k + 1), exactly 1 on level 0. Without it the coarse
// operators put the boundary farther out than the fine one and the V-cycle stalls as the grid
// grows (tests/multigrid_contraction.rs). CPU twin: src/sim/cpu/multigrid.rs `outflow_weight`.
fn outflow_weight(k: u32) -> f32 {
    let t = f32(1u << k);
    return 2.0 * t / (t + 1.0);
}

// The colours of a sweep on a w x h level. Red-black by i + j gives the last column of an odd
// periodic axis the colour of its neighbour across the seam (column 0): updated together, that
// pair stalled or diverged SOR at ω near 2 (tests/odd_seam.rs). So the last column (row) is a
// seam of its own, coloured 2 and 3 by i + j and relaxed after red and black: no two cells of one
// colour are neighbours, every sweep is a true Gauss-Seidel ordering, and SOR converges at any
// 0 < ω < 2. The corner of two odd seams stays red: its four neighbours are all seam cells. CPU
// twin: src/sim/cpu/multigrid.rs `on_seam`, `colour`, `colours`.
fn on_seam(i: i32, j: i32, w: i32, h: i32) -> bool {
    return (periodic_x() && (w & 1) == 1 && i == w - 1) != (periodic_y() && (h & 1) == 1 && j == h - 1);
}

fn colour(i: i32, j: i32, w: i32, h: i32) -> i32 {
    return ((i + j) & 1) + select(0, 2, on_seam(i, j, w, h));
}

// Colours of a sweep: 4 on a level with an odd periodic axis, else 2 (red, black).
fn sweep_colours(w: i32, h: i32) -> i32 {
    return select(2, 4, (periodic_x() && (w & 1) == 1) || (periodic_y() && (h & 1) == 1));
}

// The diagonal of stencil s on level k: its fluid neighbours plus its weighted outflow ones.
fn diagonal(s: u32, k: u32) -> f32 {
    let fluid = f32(countOneBits(s & 15u));
    return fluid + (stencil_count(s) - fluid) * outflow_weight(k);
}
