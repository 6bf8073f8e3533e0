// Multigrid set-up, level by level from the finest, only when solids or boundaries changed
// (src/sim/solver.rs): `mark` flags solid cells (level 0: the solid field; coarser: a cell all of
// whose children are solid or outside), `pack` packs the reduced stencil as pressure.wgsl's
// stencil_pack does, on the level's own grid, with a face open only where the finer level's
// faces across it are. multigrid/plain.wgsl `load`, every solve, writes level 0's right-hand
// side for the correction dp: the residual b - A p of the pressure as it stands (after the warm
// start), b from the divergence, and dp = 0. The solve then works on dp, whose float32 rounding is
// at dp's size: solved on p itself, each update rounds at |p|, which grows as the grid's square,
// and at 1024^2 that rounding stopped the residual at 1.5e-4 of max |b|. warm_start.wgsl `correct`,
// after the projection, which reads p and dp apart (project.wgsl): p += dp, dp = 0.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> solid: array<f32>;
@group(0) @binding(1) var<storage, read> level: Level;
@group(0) @binding(2) var<storage, read_write> mg_stencil: array<u32>;

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn mark(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    var solid_cell = true;
    if level.index == 0u {
        solid_cell = is_solid(i, j);
    } else {
        let fw = i32(level.fine_nx);
        let fh = i32(level.fine_ny);
        for (var dj = 0; dj < 2; dj++) {
            for (var di = 0; di < 2; di++) {
                let a = 2 * i + di;
                let b = 2 * j + dj;
                if a < fw && b < fh && (mg_stencil[level.fine_off + u32(b * fw + a)] & MG_SOLID) == 0u {
                    solid_cell = false;
                }
            }
        }
    }
    mg_stencil[lidx(i, j)] = select(0u, MG_SOLID, solid_cell);
}

// The kind of the neighbour of (i, j) across (di, dj) on this level: NB_NONE, NB_FLUID or NB_DIRICHLET.
fn level_neighbour(i: i32, j: i32, di: i32, dj: i32) -> u32 {
    var a = i + di;
    var b = j + dj;
    let side = side_outside(a, b, lnx(), lny());
    if side < 4u {
        let kind = params.bc_kind[side];
        if kind == BC_OUTFLOW { return NB_DIRICHLET; }
        if kind != BC_PERIODIC { return NB_NONE; }
        a = wrap(a, lnx());
        b = wrap(b, lny());
    }
    if (mg_stencil[lidx(a, b)] & MG_SOLID) != 0u { return NB_NONE; }
    if level.index > 0u && !fine_face_open(i, j, di, dj) { return NB_NONE; }
    return NB_FLUID;
}

// Whether a face of the finer level across side (di, dj) of coarse cell (i, j) is open (its
// packed stencil, written by the finer level's `pack`): a coarse face joins two cells only where
// fine cells on its two sides are joined, so a one-cell wall, or teeth a cell apart, stay walls
// on every level (merging the cells on both sides cost a V-cycle nearly all its contraction).
fn fine_face_open(i: i32, j: i32, di: i32, dj: i32) -> bool {
    let fw = i32(level.fine_nx);
    let fh = i32(level.fine_ny);
    var flag = STENCIL_TOP;
    if di < 0 { flag = STENCIL_LEFT; } else if di > 0 { flag = STENCIL_RIGHT; } else if dj < 0 { flag = STENCIL_BOTTOM; }
    for (var t = 0; t < 2; t++) {
        var a = 2 * i + t;
        var b = 2 * j + t;
        if di != 0 { a = select(2 * i, min(2 * i + 1, fw - 1), di > 0); }
        if dj != 0 { b = select(2 * j, min(2 * j + 1, fh - 1), dj > 0); }
        if a < fw && b < fh && (mg_stencil[level.fine_off + u32(b * fw + a)] & flag) != 0u { return true; }
    }
    return false;
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn pack(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= lnx() || j >= lny() { return; }
    let c = lidx(i, j);
    // only bit 7 of the neighbours is read, and no thread changes it here
    if (mg_stencil[c] & MG_SOLID) != 0u { return; }
    let l = level_neighbour(i, j, -1, 0);
    let r = level_neighbour(i, j, 1, 0);
    let b = level_neighbour(i, j, 0, -1);
    let t = level_neighbour(i, j, 0, 1);
    var packed = 0u;
    if l == NB_FLUID { packed |= STENCIL_LEFT; }
    if r == NB_FLUID { packed |= STENCIL_RIGHT; }
    if b == NB_FLUID { packed |= STENCIL_BOTTOM; }
    if t == NB_FLUID { packed |= STENCIL_TOP; }
    let count = select(0u, 1u, l != NB_NONE) + select(0u, 1u, r != NB_NONE) + select(0u, 1u, b != NB_NONE) + select(0u, 1u, t != NB_NONE);
    mg_stencil[c] = packed | (count << 4u);
}
