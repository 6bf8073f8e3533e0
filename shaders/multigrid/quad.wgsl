// The plain V-cycle's kernels that only a quad a thread has (composed after multigrid/plain.wgsl
// over shared/lanes4.wgsl, on levels whose rows are whole quads): the prolongation, and the
// half-sweeps of a smoothing block through textures of quads (multigrid/plain.wgsl `cells_in`).
// The same arithmetic as the plain kernels and multigrid/smooth.wgsl `add`, lane by lane in the
// same order, so the same bits.

// A smoothing block's half-sweeps through the level's two textures (src/sim/multigrid/plain.rs
// `QuadTex`): the first red reads x and writes a texture, black and red go from texture to
// texture in one dispatch (`sweep_tex`), the last black writes x back (or, before a restriction,
// restricts too: `black_restriction_tex`). Each writes every lane of its quad, so the texture it
// writes is the whole level. The same arithmetic as `half_sweep`.
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn red_to_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    let quad = cells_at(q, j);
    textureStore(x_out, vec2<i32>(q, j), relaxed(quad, q, j, 0u, SMOOTH_OMEGA));
    textureStore(rhs_out, vec2<i32>(q, j), quad.rhs);
    textureStore(stencil_out, vec2<i32>(q, j), quad.s);
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
// multigrid/tile.wgsl `coarse_value` gives there, through the same select as a solid neighbour. The
// wrapped cell (periodic); 0 with a fluid stencil (outflow); a solid stencil, so that the parent
// stands in (wall, inflow).
// Whether coarse neighbours with stencils `s` lend their values: joined to the parent, or a
// ghost beyond an outflow (x = 0).
fn reaches(s: vec4<u32>, joined: vec4<bool>) -> vec4<bool> {
    return (joined | ((s & vec4<u32>(MG_GHOST)) != vec4<u32>(0u))) & (lanes_count(s) != vec4<f32>(0.0));
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
    let last = q == row_units() - 1;
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

// multigrid/smooth.wgsl `add` four cells a thread: thread (q, j) adds the correction to quad q
// of row j. Its parents are coarse cells 2q, 2q + 1 of row j / 2; the neighbours beside them
// 2q - 1 .. 2q + 2 in rows j / 2 and the one above or below, read as quads; only what lies outside
// the level is read cell by cell (a CPU adapter runs a branch for every lane of a vector).
@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn add(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    mg_x[x_row(j) + q] = prolonged(q, j);
}

// `add` from the level's texture a into b (`x_in` -> `x_out`), for a smoothing block that starts
// from the textures (src/sim/multigrid.rs `encode_prolong_smoothed`): a holds x and the stencil
// texture the level's stencils since this V-cycle's pre-smoothing (`sweep_tex`), so only the
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
    let w = row_units();
    let fine = lanes_count(s) > vec4<f32>(0.0);
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
    let own = cells_in(q, j);
    let jb = row_below(j);
    let ja = row_above(j);
    // the quad beside whose edge lane has colour `first`: the left one where this quad's lane 0
    // has the other colour (lane 3 of the quad on the left then has colour `first`), else the right
    let nq = select(right_unit(q), left_unit(q), (u32(j) & 1u) != first);
    let xc = relaxed(own, q, j, first, SMOOTH_OMEGA);
    let below = relaxed(cells_in(q, jb), q, jb, first, SMOOTH_OMEGA);
    let above = relaxed(cells_in(q, ja), q, ja, first, SMOOTH_OMEGA);
    let side = relaxed(cells_in(nq, j), nq, j, first, SMOOTH_OMEGA);
    // side.w is the left neighbour and side.x the right one only where the lane they meet has the
    // second colour; the lane on the other end has colour `first` and keeps xc
    let second = Cells(own.s, xc, lanes_residual(own.s, xc, side.w, side.x, below, above, own.rhs), own.rhs);
    return relaxed(second, q, j, 1u - first, SMOOTH_OMEGA);
}

// The half-sweeps of a block after its first, from the textures into texture x_out: colour
// PARITY alone (a block's last, black), or with PAIR then the other colour too (black then red
// inside a pre-smoothing block, red then black in a post-smoothing one); with TO_X into x as well
// (a block's last: x is in texture a after every block, where the prolongation and the polish
// after a V-cycle start, src/sim/multigrid/plain.rs `level0_tex`). Pipeline constants, so one
// entry point serves the four.
override PAIR: bool = false;
override TO_X: bool = false;

@compute @workgroup_size(BLOCK_X / 4u, BLOCK_Y)
fn sweep_tex(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    if !on_level(q, j) { return; }
    var x: vec4<f32>;
    if PAIR {
        x = sweep_pair_in(q, j, PARITY);
    } else {
        x = relaxed(cells_in(q, j), q, j, PARITY, SMOOTH_OMEGA);
    }
    if TO_X { mg_x[x_row(j) + q] = x; }
    textureStore(x_out, vec2<i32>(q, j), x);
}

// A smoothing block's last half-sweep (black) and the restriction in one dispatch
// (`sweep_tex`, then `restriction`): thread (t, j) relaxes fine quads 2t, 2t + 1 of
// fine rows 2j, 2j + 1 and the quads beside, below and above them whose lanes their residuals
// read, writes its four quads into x and the texture, and restricts their residuals onto coarse
// cells 4t .. 4t + 3 of coarse row j. The same arithmetic on the same texels as those two
// kernels, so the same bits; about twice the texture reads, for one dispatch fewer.
fn black_in(q: i32, j: i32) -> vec4<f32> { return relaxed(cells_in(q, j), q, j, 1u, SMOOTH_OMEGA); }

// Quad q of row j into x and the texture written (as `sweep_tex` with TO_X).
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
    let a0 = cells_in(qa, j0);
    let b0 = cells_in(qb, j0);
    let a1 = cells_in(qa, j1);
    let b1 = cells_in(qb, j1);
    let xa0 = relaxed(a0, qa, j0, 1u, SMOOTH_OMEGA);
    let xb0 = relaxed(b0, qb, j0, 1u, SMOOTH_OMEGA);
    let xa1 = relaxed(a1, qa, j1, 1u, SMOOTH_OMEGA);
    let xb1 = relaxed(b1, qb, j1, 1u, SMOOTH_OMEGA);
    put_x(qa, j0, xa0);
    put_x(qb, j0, xb0);
    put_x(qa, j1, xa1);
    put_x(qb, j1, xb1);
    let jb = row_below(j0);
    let ja = row_above(j1);
    let lq = left_unit(qa);
    let rq = right_unit(qb);
    let r0 = children(
        lanes_residual(a0.s, xa0, black_in(lq, j0).w, xb0.x, black_in(qa, jb), xa1, a0.rhs),
        lanes_residual(b0.s, xb0, xa0.w, black_in(rq, j0).x, black_in(qb, jb), xb1, b0.rhs),
        a0.s,
        b0.s,
        true,
    );
    let r1 = children(
        lanes_residual(a1.s, xa1, black_in(lq, j1).w, xb1.x, xa0, black_in(qa, ja), a1.rhs),
        lanes_residual(b1.s, xb1, xa1.w, black_in(rq, j1).x, xb0, black_in(qb, ja), b1.rhs),
        a1.s,
        b1.s,
        true,
    );
    restriction_store(t, j, restricted(restricted(vec4<f32>(0.0), r0), r1));
}
