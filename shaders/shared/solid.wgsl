// Solid cells and the faces they fix: the part of the prelude that reads `solid`. A pass that
// takes this part declares `solid` (`read`) itself.

// Whether some cell may be solid. A simulation with none runs a variant built with false, which
// reads nothing here (src/sim/kernel/pipelines.rs `Switches`): on a CPU adapter these reads were a third of
// ink transport's cost, and a branch on a uniform value does not skip them there.
override SOLIDS: bool = true;

// Solid test for a cell that lies inside the domain.
fn is_solid(i: i32, j: i32) -> bool { return SOLIDS && solid[cell_idx(i, j)] > 0.5; }

// The value a face between cells a and b fixes, along axis `speed` of the dragged body: the body's
// velocity where it joins the body's cells (SOLID_MOVING, 2) to fluid or to each other, else 0
// (still solids, 1, hold still). One-way coupling: u·n = U_body·n on the moving faces. A select,
// not a product, so that a still face is +0 bit for bit whatever the body's velocity.
fn face_speed(a: u32, b: u32, speed: f32) -> f32 {
    let sa = solid[a];
    let sb = solid[b];
    let still = (sa > 0.5 && sa < 1.5) || (sb > 0.5 && sb < 1.5);
    return select(0.0, speed, !still && max(sa, sb) > 1.5);
}

fn neighbour(i: i32, j: i32, di: i32, dj: i32) -> Neighbour {
    let n = across(i + di, j + dj, nx(), ny());
    if n.kind == NB_FLUID && is_solid(n.cell.x, n.cell.y) { return Neighbour(NB_NONE, n.cell); }
    return n;
}

fn u_face(i: i32, j: i32) -> Face {
    var side = 4u;
    if i == 0 { side = SIDE_LEFT; }
    if i == nx() { side = SIDE_RIGHT; }
    if side < 4u && !periodic_x() {
        let kind = params.bc_kind[side];
        if kind == BC_WALL { return Face(true, 0.0); }
        if kind == BC_INFLOW { return Face(true, params.inflow_u[side] * inflow_profile(side, j, ny())); }
        // outflow: free, but only the interior cell can be solid
        let c = select(nx() - 1, 0, side == SIDE_LEFT);
        if is_solid(c, j) { return Face(true, 0.0); }
        return Face(false, 0.0);
    }
    let l = wrap(i - 1, nx());
    let r = wrap(i, nx());
    if is_solid(l, j) || is_solid(r, j) {
        return Face(true, face_speed(cell_idx(l, j), cell_idx(r, j), params.body_velocity.x));
    }
    return Face(false, 0.0);
}

fn v_face(i: i32, j: i32) -> Face {
    var side = 4u;
    if j == 0 { side = SIDE_BOTTOM; }
    if j == ny() { side = SIDE_TOP; }
    if side < 4u && !periodic_y() {
        let kind = params.bc_kind[side];
        if kind == BC_WALL { return Face(true, 0.0); }
        if kind == BC_INFLOW { return Face(true, params.inflow_v[side] * inflow_profile(side, i, nx())); }
        let c = select(ny() - 1, 0, side == SIDE_BOTTOM);
        if is_solid(i, c) { return Face(true, 0.0); }
        return Face(false, 0.0);
    }
    let b = wrap(j - 1, ny());
    let t = wrap(j, ny());
    if is_solid(i, b) || is_solid(i, t) {
        return Face(true, face_speed(cell_idx(i, b), cell_idx(i, t), params.body_velocity.y));
    }
    return Face(false, 0.0);
}

fn cell_stencil(pos: vec2<f32>) -> CellStencil { return lattice_stencil(pos, 1); }

// The same stencil on the dye grid (cells dye_k() times smaller); (c.x, c.y) are dye cells.
fn dye_stencil(pos: vec2<f32>) -> CellStencil { return lattice_stencil(pos, dye_k()); }

// Cell-centred bilinear stencil on the lattice k times finer than the flow grid; a fine cell is
// solid when the flow cell it lies in is.
fn lattice_stencil(pos: vec2<f32>, k: i32) -> CellStencil {
    let fh = params.h / f32(k);
    let gx = pos.x / fh - 0.5;
    let gy = pos.y / fh - 0.5;
    let n = vec2<i32>(nx() * k, ny() * k);
    var sx: Span;
    var sy: Span;
    if periodic_x() { sx = span_wrapped(gx, n.x); } else { sx = span_clamped(gx, n.x - 1); }
    if periodic_y() { sy = span_wrapped(gy, n.y); } else { sy = span_clamped(gy, n.y - 1); }
    var w = vec4<f32>((1.0 - sx.t) * (1.0 - sy.t), sx.t * (1.0 - sy.t), (1.0 - sx.t) * sy.t, sx.t * sy.t);
    let s = CellStencil(vec2<i32>(sx.i0, sy.i0), vec2<i32>(sx.i1, sy.i0), vec2<i32>(sx.i0, sy.i1), vec2<i32>(sx.i1, sy.i1), w);
    let open = vec4<f32>(
        select(1.0, 0.0, is_solid(s.c00.x / k, s.c00.y / k)),
        select(1.0, 0.0, is_solid(s.c10.x / k, s.c10.y / k)),
        select(1.0, 0.0, is_solid(s.c01.x / k, s.c01.y / k)),
        select(1.0, 0.0, is_solid(s.c11.x / k, s.c11.y / k)),
    );
    let total = dot(w, open);
    if total > 0.0 { w = w * open / total; } else { w = vec4<f32>(0.0); }
    return CellStencil(s.c00, s.c10, s.c01, s.c11, w);
}

// Whether dye cell (a, b) lies in a solid flow cell.
fn dye_solid(a: i32, b: i32) -> bool { return is_solid(a / dye_k(), b / dye_k()); }
