// The plain V-cycle's kernels (level 0's right-hand side, half-sweeps in place on x, restriction),
// written over `Lanes` (shared/lanes1.wgsl, lanes4.wgsl): a cell a thread on any level, or four
// cells of a row a thread on levels whose rows are whole quads (src/sim/multigrid/hierarchy.rs
// `quad_rows`, `restrict_quads`), per lane the same arithmetic in the same order, so the same
// bits. Why four: lavapipe reads storage one lane at a time but every word of a vector in one
// pass over the lanes, and a half-sweep, restriction or load reads 7 to 33 words a cell.
// A unit is what a thread takes: a cell, or a quad. The cell beside a unit is read as one word
// (`mg_x_first`, `mg_x_last`: src/sim/kernel/compose.rs `lane_words!`).

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<Lanes>;
@group(0) @binding(2) var<storage, read_write> mg_rhs: array<Lanes>;
@group(0) @binding(3) var<storage, read> mg_stencil: array<LaneWords>;
@group(0) @binding(4) var<storage, read_write> mg_xc: array<Lanes>;
// level 0's right-hand side and the correction (`load`, whose mg_x is the pressure p)
@group(0) @binding(5) var<storage, read> divergence: array<Lanes>;
@group(0) @binding(6) var<storage, read_write> dp: array<Lanes>;
// A level's x as a texture of units (texel (q, j) = unit q of row j), in and out of the sweeps
// inside a smoothing block of quads (multigrid/quad.wgsl `red_to_tex`, `sweep_tex`;
// src/sim/multigrid/plain.rs `QuadTex`): lavapipe gathers a texture's texels in one pass over the
// lanes, where it reads storage lane by lane behind a bounds check, and a sweep reads five quads
// of x. The level's rhs and stencil go the same way: the block's first sweep copies them in.
@group(0) @binding(7) var x_in: texture_2d<f32>;
@group(0) @binding(8) var x_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(9) var rhs_in: texture_2d<f32>;
@group(0) @binding(10) var rhs_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(11) var stencil_in: texture_2d<u32>;
@group(0) @binding(12) var stencil_out: texture_storage_2d<rgba32uint, write>;

// The residual b - (count x - sum of fluid neighbours) of a unit: x, the values beside it in its
// row (wrapped), the units below and above (wrapped), the stencils and rhs. Added are the
// neighbour differences x_nb - x_c, small and exact where the count x - sum form rounds at |x|
// (at 512² that rounding alone was a 1e-4 relative floor), each only where the stencil says fluid;
// Dirichlet (outflow) neighbours, x_nb = 0, are the count's rest, weighted by level.
fn lanes_residual(s: LaneWords, xc: Lanes, left: f32, right: f32, below: Lanes, above: Lanes, rhs: Lanes) -> Lanes {
    let one = Lanes(1.0);
    var d = Lanes(0.0);
    var fluid = Lanes(0.0);
    var m = lanes_have(s, STENCIL_LEFT);
    d = select(d, d + (lanes_left(left, xc) - xc), m);
    fluid = select(fluid, fluid + one, m);
    m = lanes_have(s, STENCIL_RIGHT);
    d = select(d, d + (lanes_right(xc, right) - xc), m);
    fluid = select(fluid, fluid + one, m);
    m = lanes_have(s, STENCIL_BOTTOM);
    d = select(d, d + (below - xc), m);
    fluid = select(fluid, fluid + one, m);
    m = lanes_have(s, STENCIL_TOP);
    d = select(d, d + (above - xc), m);
    fluid = select(fluid, fluid + one, m);
    return rhs + (d - (lanes_count(s) - fluid) * outflow_weight(level.index) * xc);
}

// Units of a row of this level, and where row j's units start in x and in rhs / stencil.
fn row_units() -> i32 { return lnx() / i32(LANES); }
fn x_row(j: i32) -> i32 { return i32(level.x_off / LANES) + j * row_units(); }
fn l_row(j: i32) -> i32 { return i32(level.off / LANES) + j * row_units(); }

// The units beside unit q and the rows beside row j, wrapped.
fn left_unit(q: i32) -> i32 { return select(q - 1, row_units() - 1, q == 0); }
fn right_unit(q: i32) -> i32 { return select(q + 1, 0, q == row_units() - 1); }
fn row_below(j: i32) -> i32 { return select(j - 1, lny() - 1, j == 0); }
fn row_above(j: i32) -> i32 { return select(j + 1, 0, j == lny() - 1); }

// Whether thread (q, j) has a unit of this level.
fn on_level(q: i32, j: i32) -> bool { return q < row_units() && j < lny(); }

// Unit q of row j: its stencils, values, residuals and rhs.
struct Cells {
    s: LaneWords,
    xc: Lanes,
    r: Lanes,
    rhs: Lanes,
}

fn cells_at(q: i32, j: i32) -> Cells {
    let row = x_row(j);
    let s = mg_stencil[l_row(j) + q];
    let xc = mg_x[row + q];
    let left = mg_x_last(u32(row + left_unit(q)));
    let right = mg_x_first(u32(row + right_unit(q)));
    let rhs = mg_rhs[l_row(j) + q];
    return Cells(s, xc, lanes_residual(s, xc, left, right, mg_x[x_row(row_below(j)) + q], mg_x[x_row(row_above(j)) + q], rhs), rhs);
}

// `cells_at` from the textures.
fn cells_in(q: i32, j: i32) -> Cells {
    let at = vec2<i32>(q, j);
    let s = lane_words_texel(textureLoad(stencil_in, at, 0));
    let xc = lanes_texel(textureLoad(x_in, at, 0));
    let left = last_lane(lanes_texel(textureLoad(x_in, vec2<i32>(left_unit(q), j), 0)));
    let right = first_lane(lanes_texel(textureLoad(x_in, vec2<i32>(right_unit(q), j), 0)));
    let below = lanes_texel(textureLoad(x_in, vec2<i32>(q, row_below(j)), 0));
    let above = lanes_texel(textureLoad(x_in, vec2<i32>(q, row_above(j)), 0));
    let rhs = lanes_texel(textureLoad(rhs_in, at, 0));
    return Cells(s, xc, lanes_residual(s, xc, left, right, below, above, rhs), rhs);
}

// Level 0's rhs for the correction dp: b - A p, b from the divergence (zero on solid cells), and
// dp = 0 (multigrid/setup.wgsl has why the solve works on dp).
@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn load(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let row = x_row(j);
    let c = l_row(j) + q;
    let s = mg_stencil[c];
    let b = -params.rho * params.h * params.h * divergence[c] / params.dt;
    let left = mg_x_last(u32(row + left_unit(q)));
    let right = mg_x_first(u32(row + right_unit(q)));
    let r = lanes_residual(s, mg_x[row + q], left, right, mg_x[x_row(row_below(j)) + q], mg_x[x_row(row_above(j)) + q], b);
    mg_rhs[c] = select(r, Lanes(0.0), lanes_count(s) == Lanes(0.0));
    dp[c] = Lanes(0.0);
}

// A unit relaxed (over-relaxed by omega), kept on the cells of colour `parity` (red 0, black 1, by
// i + j). A quad's other two cells are written back as read: they are the neighbours other
// threads read, and no thread changes them in this dispatch.
fn relaxed(c: Cells, q: i32, j: i32, parity: u32, omega: f32) -> Lanes {
    let fluid = Lanes(countOneBits(c.s & LaneWords(15u)));
    let diagonal = fluid + (lanes_count(c.s) - fluid) * outflow_weight(level.index);
    let value = select(c.xc + omega * c.r / diagonal, Lanes(0.0), lanes_count(c.s) == Lanes(0.0));
    let mine = ((LANE_INDEX + LaneWords(u32(q) * LANES + u32(j))) & LaneWords(1u)) == LaneWords(parity);
    return select(c.xc, value, mine);
}

// A half-sweep of unit q of row j in place on x.
fn sweep_at(q: i32, j: i32, parity: u32, omega: f32) {
    if !on_level(q, j) { return; }
    mg_x[x_row(j) + q] = relaxed(cells_at(q, j), q, j, parity, omega);
}

// The colour a half-sweep relaxes (0 red, 1 black) and whether it is the SOR solver's (over-
// relaxed by params.sor_omega) or the smoother's (SMOOTH_OMEGA): pipeline constants, so the four
// half-sweeps share one entry point (src/sim/multigrid/plain.rs).
override PARITY: u32 = 0u;
override SOR: bool = false;

// Thread (x, j) takes unit `sweep_unit` of row j: a cell a thread, only the cells of the colour,
// so no thread idles; a quad a thread, every quad. The cells of an odd periodic seam have colours
// of their own (`seam_half_sweep`; no quad level has one). A workgroup
// covers a cell block (DeviceProfile::cell_block): the gated (indirect) launch shares its counts.
@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn half_sweep(@builtin(global_invocation_id) id: vec3<u32>) {
    let j = i32(id.y);
    let q = sweep_unit(i32(id.x), j, PARITY);
    if LANES == 1u && on_seam(q, j, lnx(), lny()) { return; }
    sweep_at(q, j, PARITY, select(SMOOTH_OMEGA, params.sor_omega, SOR));
}

// The seam cells of colour 2 + PARITY, a cell a thread (multigrid/level.wgsl `colour`; no quad
// level has a seam): thread t, counted across the dispatch whatever its shape, takes seam column
// cell (w - 1, t), then seam row cell (t - h, h - 1) short of the corner, which the column has.
@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn seam_half_sweep(@builtin(global_invocation_id) id: vec3<u32>, @builtin(num_workgroups) n: vec3<u32>) {
    let t = i32(id.x + id.y * n.x * (BLOCK_X / LANES));
    let w = lnx();
    let h = lny();
    var c = vec2<i32>(w - 1, t);
    if t >= h { c = vec2<i32>(t - h, h - 1); }
    if t >= w + h - 1 || !on_seam(c.x, c.y, w, h) || colour(c.x, c.y, w, h) != 2 + i32(PARITY) { return; }
    // `relaxed` keeps the cells whose i + j parity it is given: this cell's own
    let own = u32((c.x + c.y) & 1);
    mg_x[x_row(c.y) + c.x] = relaxed(cells_at(c.x, c.y), c.x, c.y, own, select(SMOOTH_OMEGA, params.sor_omega, SOR));
}

// Whether a restriction's fine level comes in whole pairs of units and of rows: so with quads.
const QUAD_PAIRS: bool = LANES == 4u;

// Two units' residuals, each zero on solid cells and where the unit does not exist.
struct Pair {
    a: Lanes,
    b: Lanes,
}

fn children(a: Lanes, b: Lanes, sa: LaneWords, sb: LaneWords, b_exists: bool) -> Pair {
    let zero = Lanes(0.0);
    return Pair(select(zero, a, lanes_count(sa) > zero), select(zero, b, (lanes_count(sb) > zero) & LaneFlags(b_exists)));
}

// The residuals of units q and q + 1 of fine row j, both rows' neighbours read once. On a row of
// odd width a cell a thread, the last cell has no q + 1: its right neighbour wraps to cell 0. Rows
// of quads come in whole pairs (src/sim/multigrid/hierarchy.rs `restrict_quads`), so there q + 1
// always exists and the wrap and the masks fold away (`QUAD_PAIRS`).
fn residual_pair(q: i32, j: i32) -> Pair {
    let row = x_row(j);
    let qb = select(right_unit(q), q + 1, QUAD_PAIRS);
    let xa = mg_x[row + q];
    let xb = mg_x[row + qb];
    let left = mg_x_last(u32(row + left_unit(q)));
    let right = mg_x_first(u32(row + right_unit(qb)));
    let jb = x_row(row_below(j));
    let ja = x_row(row_above(j));
    let sa = mg_stencil[l_row(j) + q];
    let sb = mg_stencil[l_row(j) + qb];
    let ra = lanes_residual(sa, xa, left, first_lane(xb), mg_x[jb + q], mg_x[ja + q], mg_rhs[l_row(j) + q]);
    let rb = lanes_residual(sb, xb, last_lane(xa), right, mg_x[jb + qb], mg_x[ja + qb], mg_rhs[l_row(j) + qb]);
    return children(ra, rb, sa, sb, QUAD_PAIRS || q + 1 < row_units());
}

// A fine row's pair added to the coarse cells' sum: the children di = 0 (the even cells of the
// pair), then di = 1. Adding a zero leaves the sum's bits as they are (it starts at +0), so the
// solid and missing children are skipped in effect.
fn restricted(sum: Lanes, r: Pair) -> Lanes {
    return (sum + lanes_even(r.a, r.b)) + lanes_odd(r.a, r.b);
}

// The coarse unit's rhs (zero where solid) and x (zero).
fn restriction_store(t: i32, j: i32, sum: Lanes) {
    let cw = i32(level.coarse_nx / LANES);
    let c = i32(level.coarse_off / LANES) + j * cw + t;
    mg_rhs[c] = select(sum, Lanes(0.0), lanes_count(mg_stencil[c]) == Lanes(0.0));
    mg_xc[i32(level.coarse_x_off / LANES) + j * cw + t] = Lanes(0.0);
}

// Whether thread (t, j) has a coarse unit.
fn on_coarse(t: i32, j: i32) -> bool { return t < i32(level.coarse_nx / LANES) && j < i32(level.coarse_ny); }

// Coarse unit t of coarse row j: the sum of its children's residuals (units 2t, 2t + 1 of fine
// rows 2j, 2j + 1), in the order (0, 0), (1, 0), (0, 1), (1, 1); the operator is scaled by h^2,
// so four h^2-residuals make the (2h)^2 one. Children past an odd edge do not exist.
fn restriction_at(t: i32, j: i32) {
    var sum = restricted(Lanes(0.0), residual_pair(2 * t, 2 * j));
    if QUAD_PAIRS || 2 * j + 1 < lny() { sum = restricted(sum, residual_pair(2 * t, 2 * j + 1)); }
    restriction_store(t, j, sum);
}

// Run with the fine level's descriptor over the coarse level's units.
@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn restriction(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = i32(id.x);
    let j = i32(id.y);
    if !on_coarse(t, j) { return; }
    restriction_at(t, j);
}
