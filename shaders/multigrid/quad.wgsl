// The plain multigrid kernels of a CPU adapter (red, black, restriction, prolongation; in place on
// x) four cells of a row a thread, on levels whose rows are whole quads (src/sim/multigrid.rs
// `quad_level`): the same arithmetic as multigrid_smooth, multigrid_restrict and
// multigrid_prolong `add`, lane by lane in the same order, so the results are bit for bit the
// same. Why: lavapipe reads storage one lane at a time but every word of a vector in one pass over
// the lanes (shared/lanes4.wgsl), and a plain half-sweep, restriction or prolongation reads
// 7 to 33 words a cell.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs): the buffers of the plain kernels, as quads.
@group(0) @binding(0) var<storage, read> level: Level;
@group(0) @binding(1) var<storage, read_write> mg_x: array<vec4<f32>>;
@group(0) @binding(2) var<storage, read_write> mg_rhs: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read> mg_stencil: array<vec4<u32>>;
@group(0) @binding(4) var<storage, read_write> mg_xc: array<vec4<f32>>;
// level 0's right-hand side and the correction (`load`)
@group(0) @binding(5) var<storage, read> divergence: array<vec4<f32>>;
@group(0) @binding(12) var<storage, read_write> dp: array<vec4<f32>>;
// A level's x as a texture of quads (texel (q, j) = quad q of row j), in and out of the sweeps
// inside a smoothing block (`red_to_tex` .. `black_from_tex`; src/sim/multigrid.rs `QuadTex`):
// lavapipe gathers a texture's texels in one pass over the lanes, where it reads storage lane by
// lane behind a bounds check, and a sweep reads five quads of x. The level's rhs and stencil go
// the same way: the block's first sweep copies them in.
@group(0) @binding(6) var x_in: texture_2d<f32>;
@group(0) @binding(7) var x_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(8) var rhs_in: texture_2d<f32>;
@group(0) @binding(9) var rhs_out: texture_storage_2d<rgba32float, write>;
@group(0) @binding(10) var stencil_in: texture_2d<u32>;
@group(0) @binding(11) var stencil_out: texture_storage_2d<rgba32uint, write>;

fn has(s: vec4<u32>, side: u32) -> vec4<bool> { return (s & vec4<u32>(side)) != vec4<u32>(0u); }
fn counts(s: vec4<u32>) -> vec4<f32> { return vec4<f32>((s >> vec4<u32>(4u)) & vec4<u32>(7u)); }

// multigrid_common `local_residual` of four cells: xc, their left and right neighbours' values
// (wrapped), the rows below and above (wrapped), their stencils and rhs. A neighbour is added
// only where the stencil says fluid, as there.
fn quad_residual(s: vec4<u32>, xc: vec4<f32>, left: f32, right: f32, below: vec4<f32>, above: vec4<f32>, rhs: vec4<f32>) -> vec4<f32> {
    let one = vec4<f32>(1.0);
    var d = vec4<f32>(0.0);
    var fluid = vec4<f32>(0.0);
    var m = has(s, STENCIL_LEFT);
    d = select(d, d + (vec4<f32>(left, xc.xyz) - xc), m);
    fluid = select(fluid, fluid + one, m);
    m = has(s, STENCIL_RIGHT);
    d = select(d, d + (vec4<f32>(xc.yzw, right) - xc), m);
    fluid = select(fluid, fluid + one, m);
    m = has(s, STENCIL_BOTTOM);
    d = select(d, d + (below - xc), m);
    fluid = select(fluid, fluid + one, m);
    m = has(s, STENCIL_TOP);
    d = select(d, d + (above - xc), m);
    fluid = select(fluid, fluid + one, m);
    return rhs + (d - (counts(s) - fluid) * outflow_weight(level.index) * xc);
}

// Quads of a row of this level, and where row j's quads start in x and in rhs / stencil.
fn row_quads() -> i32 { return lnx() / 4; }
fn x_row(j: i32) -> i32 { return i32(level.x_off / 4u) + j * row_quads(); }
fn l_row(j: i32) -> i32 { return i32(level.off / 4u) + j * row_quads(); }

// Quad q of row j: its stencils, values and residuals (`quad_residual`, neighbours wrapped).
struct Quad {
    s: vec4<u32>,
    xc: vec4<f32>,
    r: vec4<f32>,
    rhs: vec4<f32>,
}

// The rows above and below a quad and its neighbours' lanes, wrapped.
fn left_quad(q: i32) -> i32 { return select(q - 1, row_quads() - 1, q == 0); }
fn right_quad(q: i32) -> i32 { return select(q + 1, 0, q == row_quads() - 1); }
fn row_below(j: i32) -> i32 { return select(j - 1, lny() - 1, j == 0); }
fn row_above(j: i32) -> i32 { return select(j + 1, 0, j == lny() - 1); }

fn quad_at(q: i32, j: i32) -> Quad {
    let row = x_row(j);
    let s = mg_stencil[l_row(j) + q];
    let xc = mg_x[row + q];
    let left = mg_x[row + left_quad(q)].w;
    let right = mg_x[row + right_quad(q)].x;
    let rhs = mg_rhs[l_row(j) + q];
    return Quad(s, xc, quad_residual(s, xc, left, right, mg_x[x_row(row_below(j)) + q], mg_x[x_row(row_above(j)) + q], rhs), rhs);
}

// `quad_at` from the textures.
fn quad_in(q: i32, j: i32) -> Quad {
    let at = vec2<i32>(q, j);
    let s = textureLoad(stencil_in, at, 0);
    let xc = textureLoad(x_in, at, 0);
    let left = textureLoad(x_in, vec2<i32>(left_quad(q), j), 0).w;
    let right = textureLoad(x_in, vec2<i32>(right_quad(q), j), 0).x;
    let below = textureLoad(x_in, vec2<i32>(q, row_below(j)), 0);
    let above = textureLoad(x_in, vec2<i32>(q, row_above(j)), 0);
    let rhs = textureLoad(rhs_in, at, 0);
    return Quad(s, xc, quad_residual(s, xc, left, right, below, above, rhs), rhs);
}

// multigrid/smooth.wgsl `relax_colour` four cells a thread: thread (q, j) computes quad q of row j and
// keeps the update on the cells of colour `parity`. The other two lanes are written back as read:
// they are the neighbours other threads read, and no thread changes them in this dispatch.
fn relaxed_quad(quad: Quad, j: i32, parity: u32, omega: f32) -> vec4<f32> {
    let s = quad.s;
    let xc = quad.xc;
    let fluid = vec4<f32>(countOneBits(s & vec4<u32>(15u)));
    let diagonal = fluid + (counts(s) - fluid) * outflow_weight(level.index);
    let relaxed = select(xc + omega * quad.r / diagonal, vec4<f32>(0.0), counts(s) == vec4<f32>(0.0));
    let mine = ((vec4<u32>(0u, 1u, 2u, 3u) + u32(j)) & vec4<u32>(1u)) == vec4<u32>(parity);
    return select(xc, relaxed, mine);
}

// Whether thread (q, j) has a quad of this level.
fn on_level(q: i32, j: i32) -> bool { return q < row_quads() && j < lny(); }

// A half-sweep in place on x (the buffer).
fn quad_sweep(id: vec3<u32>, parity: u32, omega: f32) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    mg_x[x_row(j) + q] = relaxed_quad(quad_at(q, j), j, parity, omega);
}

// multigrid/setup.wgsl `load` four cells a thread, with mg_x bound to the pressure p there too:
// level 0's rhs b - A p, b from the divergence (zero on solid cells), and dp = 0.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn load(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let row = x_row(j);
    let c = l_row(j) + q;
    let s = mg_stencil[c];
    let xc = mg_x[row + q];
    let b = -params.rho * params.h * params.h * divergence[c] / params.dt;
    let r = quad_residual(s, xc, mg_x[row + left_quad(q)].w, mg_x[row + right_quad(q)].x, mg_x[x_row(row_below(j)) + q], mg_x[x_row(row_above(j)) + q], b);
    mg_rhs[c] = select(r, vec4<f32>(0.0), counts(s) == vec4<f32>(0.0));
    dp[c] = vec4<f32>(0.0);
}

// The colour a half-sweep relaxes (0 red, 1 black; the first of `pair_tex`'s two) and whether
// it is the SOR solver's or the smoother's: pipeline constants, as in multigrid/smooth.wgsl.
override PARITY: u32 = 0u;
override SOR: bool = false;

// A workgroup of BLOCK_X / 4 x BLOCK_Y threads covers a cell block (DeviceProfile::cell_block),
// as the plain kernels do: the gated (indirect) launch shares their counts.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn half_sweep(@builtin(global_invocation_id) id: vec3<u32>) {
    quad_sweep(id, PARITY, select(SMOOTH_OMEGA, params.sor_omega, SOR));
}

// A smoothing block's half-sweeps through the level's two textures (src/sim/multigrid/plain.rs
// `QuadTex`): the first red reads x and writes a texture, black and red go from texture to
// texture in one dispatch (`pair_tex`), the last black writes x back (or, before a restriction,
// restricts too: `black_restriction_tex`). Each writes every lane of its quad, so the texture it
// writes is the whole level. The same arithmetic as `half_sweep`.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn red_to_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let quad = quad_at(q, j);
    textureStore(x_out, vec2<i32>(q, j), relaxed_quad(quad, j, 0u, SMOOTH_OMEGA));
    textureStore(rhs_out, vec2<i32>(q, j), quad.rhs);
    textureStore(stencil_out, vec2<i32>(q, j), quad.s);
}

@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn black_from_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let x = relaxed_quad(quad_in(q, j), j, 1u, SMOOTH_OMEGA);
    mg_x[x_row(j) + q] = x;
    // x in the texture too: the polish's block ends here, and x is in a after every block
    textureStore(x_out, vec2<i32>(q, j), x);
}


// The residuals of quads q and q + 1 of fine row j (both rows' neighbours read once), and their
// stencils.
struct Pair {
    a: vec4<f32>,
    b: vec4<f32>,
    sa: vec4<u32>,
    sb: vec4<u32>,
}

fn residual_pair(q: i32, j: i32) -> Pair {
    let row = x_row(j);
    let xa = mg_x[row + q];
    let xb = mg_x[row + q + 1];
    let left = mg_x[row + left_quad(q)].w;
    let right = mg_x[row + right_quad(q + 1)].x;
    let jb = x_row(row_below(j));
    let ja = x_row(row_above(j));
    let sa = mg_stencil[l_row(j) + q];
    let sb = mg_stencil[l_row(j) + q + 1];
    let ra = quad_residual(sa, xa, left, xb.x, mg_x[jb + q], mg_x[ja + q], mg_rhs[l_row(j) + q]);
    let rb = quad_residual(sb, xb, xa.w, right, mg_x[jb + q + 1], mg_x[ja + q + 1], mg_rhs[l_row(j) + q + 1]);
    return Pair(ra, rb, sa, sb);
}

// A fine row's pair of quads added to four coarse cells' sum: children di = 0 are the even lanes
// of the two quads, di = 1 the odd ones; solid children skipped.
fn restricted(sum: vec4<f32>, r: Pair) -> vec4<f32> {
    let fa = counts(r.sa) > vec4<f32>(0.0);
    let fb = counts(r.sb) > vec4<f32>(0.0);
    let even = select(sum, sum + vec4<f32>(r.a.xz, r.b.xz), vec4<bool>(fa.xz, fb.xz));
    return select(even, even + vec4<f32>(r.a.yw, r.b.yw), vec4<bool>(fa.yw, fb.yw));
}

// The four coarse cells' rhs (zero where solid) and x (zero).
fn restriction_store(t: i32, j: i32, sum: vec4<f32>) {
    let cw = i32(level.coarse_nx) / 4;
    let c = i32(level.coarse_off / 4u) + j * cw + t;
    mg_rhs[c] = select(sum, vec4<f32>(0.0), counts(mg_stencil[c]) == vec4<f32>(0.0));
    mg_xc[i32(level.coarse_x_off / 4u) + j * cw + t] = vec4<f32>(0.0);
}

// Whether thread (t, j) has four coarse cells.
fn on_coarse(t: i32, j: i32) -> bool { return t < i32(level.coarse_nx) / 4 && j < i32(level.coarse_ny); }

// multigrid_restrict `main` four coarse cells a thread: thread (t, j) takes coarse cells 4t..4t+3
// of coarse row j, the fine quads 2t and 2t + 1 of fine rows 2j and 2j + 1 (fine rows of whole
// pairs of quads and an even count of rows, so every child exists). Children are summed in the
// same order, (0, 0), (1, 0), (0, 1), (1, 1), solid ones skipped.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn restriction(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = i32(id.x);
    let j = i32(id.y);
    if !on_coarse(t, j) { return; }
    let sum = restricted(vec4<f32>(0.0), residual_pair(2 * t, 2 * j));
    restriction_store(t, j, restricted(sum, residual_pair(2 * t, 2 * j + 1)));
}

// One word of the coarse level's x and stencil (cell c of it), read through the quads.
fn xc_at(c: u32) -> f32 {
    let k = level.coarse_x_off + c;
    return mg_xc[k / 4u][k % 4u];
}
fn sc_at(c: u32) -> u32 {
    let k = level.coarse_off + c;
    return mg_stencil[k / 4u][k % 4u];
}

// Coarse cells 2q - 1 .. 2q + 2 of coarse row cj (x, then stencil): two quads of the row (rows of
// whole quads, `quad_prolong`). 2q - 1 is the last lane of the quad before the parents' when q is
// even, the second of theirs when q is odd. At the row's ends the quad beyond is not read (the
// nearest one stands in): `add` puts the lane outside the level in place.
struct CoarseRow {
    x: vec4<f32>,
    s: vec4<u32>,
}

fn coarse_span(q: i32, cj: i32) -> CoarseRow {
    let quads = i32(level.coarse_nx) / 4;
    let k0 = max((q - 1) >> 1u, 0);
    let k1 = min(((q - 1) >> 1u) + 1, quads - 1);
    let xr = i32(level.coarse_x_off / 4u) + cj * quads;
    let sr = i32(level.coarse_off / 4u) + cj * quads;
    let x0 = mg_xc[xr + k0];
    let x1 = mg_xc[xr + k1];
    let s0 = mg_stencil[sr + k0];
    let s1 = mg_stencil[sr + k1];
    if (q & 1) == 0 {
        return CoarseRow(vec4<f32>(x0.w, x1.xyz), vec4<u32>(s0.w, s1.xyz));
    }
    return CoarseRow(vec4<f32>(x0.yzw, x1.x), vec4<u32>(s0.yzw, s1.x));
}

// Coarse cell (ci, cj), which may lie outside the level, as a lane of a `CoarseRow`: what
// multigrid_tile `coarse_value` gives there, through the same select as a solid neighbour. The
// wrapped cell (periodic); 0 with a fluid stencil (outflow); a solid stencil, so that the parent
// stands in (wall, inflow).
// Whether coarse neighbours with stencils `s` lend their values: joined to the parent, or a
// ghost beyond an outflow (x = 0).
fn reaches(s: vec4<u32>, joined: vec4<bool>) -> vec4<bool> {
    return (joined | ((s & vec4<u32>(MG_GHOST)) != vec4<u32>(0u))) & (counts(s) != vec4<f32>(0.0));
}

struct CoarseCell {
    x: f32,
    s: u32,
}

fn coarse_cell(ci: i32, cj: i32) -> CoarseCell {
    let n = across(ci, cj, i32(level.coarse_nx), i32(level.coarse_ny));
    if n.kind == NB_DIRICHLET { return CoarseCell(0.0, (1u << 4u) | MG_GHOST); }
    if n.kind == NB_NONE { return CoarseCell(0.0, 0u); }
    let c = u32(n.cell.y * i32(level.coarse_nx) + n.cell.x);
    return CoarseCell(xc_at(c), sc_at(c));
}

// `coarse_cell` of a cell outside the level where no axis can be periodic (the switches,
// shaders/shared/grid.wgsl): a ghost, x = 0, whose stencil only the side's kind decides (fluid
// beyond an outflow, solid beyond a wall or inflow), with no read.
fn ghost_stencil(ci: i32, cj: i32) -> u32 {
    let side = side_outside(ci, cj, i32(level.coarse_nx), i32(level.coarse_ny));
    return select(0u, (1u << 4u) | MG_GHOST, params.bc_kind[side] == BC_OUTFLOW);
}

// `coarse_cell` of a cell outside the level: a ghost where no axis can be periodic.
fn outside_cell(ci: i32, cj: i32) -> CoarseCell {
    if PERIODIC_X || PERIODIC_Y { return coarse_cell(ci, cj); }
    return CoarseCell(0.0, ghost_stencil(ci, cj));
}

// A span's lanes beyond the row's ends (lane 0 of quad 0, lane 3 of the last) set to their
// ghosts, where no axis can be periodic: by select, as the threads at the level's edges lie in
// every other vector of a row on a CPU adapter, which runs a branch for the whole vector (the
// general path there was most of the prolongation's time).
fn with_ghosts(row: CoarseRow, q: i32, cj: i32) -> CoarseRow {
    var r = row;
    let first = q == 0;
    let last = q == row_quads() - 1;
    r.x.x = select(r.x.x, 0.0, first);
    r.s.x = select(r.s.x, ghost_stencil(-1, cj), first);
    r.x.w = select(r.x.w, 0.0, last);
    r.s.w = select(r.s.w, ghost_stencil(i32(level.coarse_nx), cj), last);
    return r;
}

// `coarse_span` of a row outside the level, cell by cell.
fn edge_span(q: i32, cj: i32) -> CoarseRow {
    var row: CoarseRow;
    for (var k = 0; k < 4; k++) {
        let c = outside_cell(2 * q - 1 + k, cj);
        row.x[k] = c.x;
        row.s[k] = c.s;
    }
    return row;
}

// A span's lane k set to coarse cell (ci, cj), which lies outside the level.
fn with_cell(row: CoarseRow, k: i32, ci: i32, cj: i32) -> CoarseRow {
    var r = row;
    let c = outside_cell(ci, cj);
    r.x[k] = c.x;
    r.s[k] = c.s;
    return r;
}

// multigrid_prolong `add` four cells a thread: thread (q, j) adds the correction to quad q of row
// j. Its parents are coarse cells 2q, 2q + 1 of row j / 2; the neighbours beside them 2q - 1 ..
// 2q + 2 in rows j / 2 and the one above or below, read as quads; only what lies outside the
// level is read cell by cell. (The threads at an edge once took multigrid_tile `prolonged` lane
// by lane; on a CPU adapter, half the prolongation's time went there.)
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn add(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    mg_x[x_row(j) + q] = prolonged(q, j);
}

// `add` from the level's texture a into b (`x_in` -> `x_out`), for a smoothing block that starts
// from the textures (src/sim/multigrid.rs `encode_prolong_smoothed`): a holds x and the stencil
// texture the level's stencils since this V-cycle's pre-smoothing (`black_from_tex`), so only the
// coarse level is read from storage.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn add_from_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let at = vec2<i32>(q, j);
    textureStore(x_out, at, corrected(q, j, textureLoad(x_in, at, 0), textureLoad(stencil_in, at, 0)));
}

// Quad q of fine row j with the coarse correction added.
fn prolonged(q: i32, j: i32) -> vec4<f32> {
    return corrected(q, j, mg_x[x_row(j) + q], mg_stencil[l_row(j) + q]);
}

// Quad q of fine row j, x with stencils s, with the coarse correction added.
fn corrected(q: i32, j: i32, x: vec4<f32>, s: vec4<u32>) -> vec4<f32> {
    let w = row_quads();
    let fine = counts(s) > vec4<f32>(0.0);
    let pj = j / 2;
    let cj = pj + select(1, -1, j % 2 == 0);
    var r0 = coarse_span(q, pj);
    var r1: CoarseRow;
    if cj >= 0 && cj < i32(level.coarse_ny) {
        r1 = coarse_span(q, cj);
    } else {
        r1 = edge_span(q, cj);
    }
    // the lane beyond either end of the row: only the threads there (a CPU adapter runs a branch
    // for every lane of its vector when one lane takes it, so it stays small)
    if PERIODIC_X || PERIODIC_Y {
        if q == 0 {
            r0 = with_cell(r0, 0, -1, pj);
            r1 = with_cell(r1, 0, -1, cj);
        }
        if q == w - 1 {
            r0 = with_cell(r0, 3, 2 * q + 2, pj);
            r1 = with_cell(r1, 3, 2 * q + 2, cj);
        }
    } else {
        r0 = with_ghosts(r0, q, pj);
        r1 = with_ghosts(r1, q, cj);
    }
    // lanes: cells 4q .. 4q + 3; parents 2q, 2q, 2q + 1, 2q + 1 (span lanes 1, 1, 2, 2); the
    // neighbour beside 2q - 1, 2q + 1, 2q, 2q + 2 (span lanes 0, 2, 1, 3)
    // each value stands where its coarse face is open (`joins`, lane by lane: the parents' flags
    // towards the side and towards row cj) or where it is a ghost (0 beyond an outflow), else the
    // parent's
    let parent = r0.x.yyzz;
    let fx = vec4<u32>(STENCIL_LEFT, STENCIL_RIGHT, STENCIL_LEFT, STENCIL_RIGHT);
    let fy = vec4<u32>(select(STENCIL_TOP, STENCIL_BOTTOM, j % 2 == 0));
    let none = vec4<u32>(0u);
    let joined_x = (r0.s.yyzz & fx) != none;
    let joined_y = (r0.s.yyzz & fy) != none;
    let joined_corner = (joined_x & ((r0.s.xzyw & fy) != none)) | (joined_y & ((r1.s.yyzz & fx) != none));
    let side = select(parent, r0.x.xzyw, reaches(r0.s.xzyw, joined_x));
    let up = select(parent, r1.x.yyzz, reaches(r1.s.yyzz, joined_y));
    let corner = select(parent, r1.x.xzyw, reaches(r1.s.xzyw, joined_corner));
    let corr = 0.5625 * parent + 0.1875 * (side + up) + 0.0625 * corner;
    return select(x, x + corr, fine);
}

// Two half-sweeps from the textures in one dispatch (x_in -> x_out, out of place): colour `first`,
// then the other, on quad q of row j. The second colour's update reads the first's new values on
// this quad, the quads below and above, and the lane beside it, so the thread relaxes colour
// `first` on those quads itself (the arithmetic of a half-sweep on the same texels, so the same bits),
// then the other colour on its own quad. Why: on lavapipe a dispatch of a 128² half-sweep is
// mostly the wake-up and wait of its threads, and the four quads' first half cost less than that.
fn sweep_pair_in(q: i32, j: i32, first: u32) -> vec4<f32> {
    let own = quad_in(q, j);
    let jb = row_below(j);
    let ja = row_above(j);
    // the quad beside whose edge lane has colour `first`: the left one where this quad's lane 0
    // has the other colour (lane 3 of the quad on the left then has colour `first`), else the right
    let nq = select(right_quad(q), left_quad(q), (u32(j) & 1u) != first);
    let xc = relaxed_quad(own, j, first, SMOOTH_OMEGA);
    let below = relaxed_quad(quad_in(q, jb), jb, first, SMOOTH_OMEGA);
    let above = relaxed_quad(quad_in(q, ja), ja, first, SMOOTH_OMEGA);
    let side = relaxed_quad(quad_in(nq, j), j, first, SMOOTH_OMEGA);
    // side.w is the left neighbour and side.x the right one only where the lane they meet has the
    // second colour; the lane on the other end has colour `first` and keeps xc
    let second = Quad(own.s, xc, quad_residual(own.s, xc, side.w, side.x, below, above, own.rhs), own.rhs);
    return relaxed_quad(second, j, 1u - first, SMOOTH_OMEGA);
}

// Colour PARITY, then the other (black then red inside a pre-smoothing block, red then black in
// a post-smoothing one).
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn pair_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    textureStore(x_out, vec2<i32>(q, j), sweep_pair_in(q, j, PARITY));
}

// The post-smoothing's last sweep (and the polish's), back into x and into the other texture:
// the polish after a V-cycle starts from it there (src/sim/multigrid.rs `level0_tex`).
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn red_black_from_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let x = sweep_pair_in(q, j, 0u);
    mg_x[x_row(j) + q] = x;
    textureStore(x_out, vec2<i32>(q, j), x);
}

// A smoothing block's last half-sweep (black) and the restriction in one dispatch
// (`black_from_tex`, then `restriction_tex`): thread (t, j) relaxes fine quads 2t, 2t + 1 of
// fine rows 2j, 2j + 1 and the quads beside, below and above them whose lanes their residuals
// read, writes its four quads into x and the texture, and restricts their residuals onto coarse
// cells 4t .. 4t + 3 of coarse row j. The same arithmetic on the same texels as those two
// kernels, so the same bits; about twice the texture reads, for one dispatch fewer.
fn black_in(q: i32, j: i32) -> vec4<f32> { return relaxed_quad(quad_in(q, j), j, 1u, SMOOTH_OMEGA); }

// Quad q of row j into x and the texture written (as `black_from_tex`).
fn put_x(q: i32, j: i32, x: vec4<f32>) {
    mg_x[x_row(j) + q] = x;
    textureStore(x_out, vec2<i32>(q, j), x);
}

@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn black_restriction_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let t = i32(id.x);
    let j = i32(id.y);
    if !on_coarse(t, j) { return; }
    let qa = 2 * t;
    let qb = qa + 1;
    let j0 = 2 * j;
    let j1 = j0 + 1;
    let a0 = quad_in(qa, j0);
    let b0 = quad_in(qb, j0);
    let a1 = quad_in(qa, j1);
    let b1 = quad_in(qb, j1);
    let xa0 = relaxed_quad(a0, j0, 1u, SMOOTH_OMEGA);
    let xb0 = relaxed_quad(b0, j0, 1u, SMOOTH_OMEGA);
    let xa1 = relaxed_quad(a1, j1, 1u, SMOOTH_OMEGA);
    let xb1 = relaxed_quad(b1, j1, 1u, SMOOTH_OMEGA);
    put_x(qa, j0, xa0);
    put_x(qb, j0, xb0);
    put_x(qa, j1, xa1);
    put_x(qb, j1, xb1);
    let jb = row_below(j0);
    let ja = row_above(j1);
    let lq = left_quad(qa);
    let rq = right_quad(qb);
    let r0 = Pair(
        quad_residual(a0.s, xa0, black_in(lq, j0).w, xb0.x, black_in(qa, jb), xa1, a0.rhs),
        quad_residual(b0.s, xb0, xa0.w, black_in(rq, j0).x, black_in(qb, jb), xb1, b0.rhs),
        a0.s,
        b0.s,
    );
    let r1 = Pair(
        quad_residual(a1.s, xa1, black_in(lq, j1).w, xb1.x, xa0, black_in(qa, ja), a1.rhs),
        quad_residual(b1.s, xb1, xa1.w, black_in(rq, j1).x, xb0, black_in(qb, ja), b1.rhs),
        a1.s,
        b1.s,
    );
    restriction_store(t, j, restricted(restricted(vec4<f32>(0.0), r0), r1));
}
