// MacCormack and BFECC corrections on top of the semi-Lagrangian step (Selle et al. 2008), for
// ink (dye cells), density (flow cells) and for the edge velocities, chosen per field by params.schemes. The
// semi-Lagrangian passes have already written φ̂ = A(φ) into the *_out buffers; then
//   `reverse`, `velocity_reverse`: φ̃ = A⁻¹(φ̂), a forward trace (−Δt) sampling φ̂, into the *_tmp
//                   buffers; for BFECC φ̄ = φ + ½(φ − φ̃) in its place (a cell's own φ̃ alone, so
//                   in the same thread);
//   `correct`, `velocity_correct`: MacCormack φ̂ + ½(φ − φ̃), BFECC A(φ̄), either clamped to the
//                   min/max of φ at the four lattice points around the back-traced point (no new
//                   extrema).
// Ink dissipation and density drain (a factor `keep` already in φ̂) are folded in consistently.
// Cells whose back-trace came in through an inflow side keep φ̂; prescribed faces keep their value.
// Velocity lattices carry the wall and inflow ghosts of the semi-Lagrangian samplers.

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> ink: array<f32>;
@group(0) @binding(3) var<storage, read> density: array<f32>;
@group(0) @binding(4) var<storage, read> solid: array<f32>;
@group(0) @binding(5) var<storage, read_write> u_out: array<f32>;
@group(0) @binding(6) var<storage, read_write> v_out: array<f32>;
@group(0) @binding(7) var<storage, read_write> ink_out: array<f32>;
@group(0) @binding(8) var<storage, read_write> density_out: array<f32>;
// φ̃ / φ̄ of ink (3 channels a dye cell) then of density (`density_tmp_at`), and of u then v.
@group(0) @binding(9) var<storage, read_write> transport_tmp: array<f32>;
@group(0) @binding(10) var<storage, read_write> vel_tmp: array<f32>;
// The velocity's blocks, which the traces read on a CPU adapter (shared/velocity_blocks.wgsl).
@group(0) @binding(11) var u_blocks: texture_2d<f32>;
@group(0) @binding(12) var v_blocks: texture_2d<f32>;

const SCHEME_MACCORMACK: u32 = 1u;
const SCHEME_BFECC: u32 = 2u;

fn corrected(s: u32) -> bool { return s == SCHEME_MACCORMACK || s == SCHEME_BFECC; }

// Midpoint trace over a signed time step (dt > 0: back-trace, as `trace_back`), through the
// velocity's blocks where BLOCKED (the same values bit for bit: shared/velocity_blocks.wgsl).
fn trace(pos: vec2<f32>, dt: f32) -> vec2<f32> {
    return clamp_to_domain(trace_from(pos, dt));
}

// Four array indices, bilinear weights, and per point the ghost map `value * gs + go` (identity
// inside the domain; beyond a side, the same ghost as the semi-Lagrangian samplers in grid.wgsl).
struct Lattice {
    k: vec4<u32>,
    w: vec4<f32>,
    gs: vec4<f32>,
    go: vec4<f32>,
}

fn weights(sx: Span, sy: Span) -> vec4<f32> {
    return vec4<f32>((1.0 - sx.t) * (1.0 - sy.t), sx.t * (1.0 - sy.t), (1.0 - sx.t) * sy.t, sx.t * sy.t);
}

// Ghost map of a tangential lattice line `r` (a row of u, a column of v) along an axis of `n` lines.
fn line_ghost(r: i32, n: i32, low: u32, high: u32, tangential: vec4<f32>) -> vec2<f32> {
    var g = vec2<f32>(1.0, 0.0);
    g = select(g, ghost_coeffs(low, tangential[low]), r < 0);
    g = select(g, ghost_coeffs(high, tangential[high]), r >= n);
    return g;
}

// The u lattice around a point, reaching half a cell beyond the bottom and top sides into the
// ghost rows, as `sample_u` does, so the limiter and BFECC see a wall's or inflow's own speed.
fn u_lattice(pos: vec2<f32>) -> Lattice {
    let s = u_spans(pos);
    let sx = s.x;
    let sy = s.y;
    let g0 = line_ghost(sy.i0, ny(), SIDE_BOTTOM, SIDE_TOP, params.inflow_u);
    let g1 = line_ghost(sy.i1, ny(), SIDE_BOTTOM, SIDE_TOP, params.inflow_u);
    let r0 = clamp(sy.i0, 0, ny() - 1);
    let r1 = clamp(sy.i1, 0, ny() - 1);
    let k = vec4<u32>(u_idx(sx.i0, r0), u_idx(sx.i1, r0), u_idx(sx.i0, r1), u_idx(sx.i1, r1));
    return Lattice(k, weights(sx, sy), vec4<f32>(g0.x, g0.x, g1.x, g1.x), vec4<f32>(g0.y, g0.y, g1.y, g1.y));
}

// The v lattice around a point, with ghost columns beyond the left and right sides.
fn v_lattice(pos: vec2<f32>) -> Lattice {
    let s = v_spans(pos);
    let sx = s.x;
    let sy = s.y;
    let g0 = line_ghost(sx.i0, nx(), SIDE_LEFT, SIDE_RIGHT, params.inflow_v);
    let g1 = line_ghost(sx.i1, nx(), SIDE_LEFT, SIDE_RIGHT, params.inflow_v);
    let c0 = clamp(sx.i0, 0, nx() - 1);
    let c1 = clamp(sx.i1, 0, nx() - 1);
    let k = vec4<u32>(v_idx(c0, sy.i0), v_idx(c1, sy.i0), v_idx(c0, sy.i1), v_idx(c1, sy.i1));
    return Lattice(k, weights(sx, sy), vec4<f32>(g0.x, g1.x, g0.x, g1.x), vec4<f32>(g0.y, g1.y, g0.y, g1.y));
}

// The lattice's four values of a field (read at l.k) with the ghost map applied.
fn ghosted(l: Lattice, a: vec4<f32>) -> vec4<f32> { return a * l.gs + l.go; }

// The same at the side itself, midway between a ghost and its inside point (a wall's or inflow's
// own speed): what the limiter bounds by, so no value beyond the side's speed is let through.
fn at_side(l: Lattice, a: vec4<f32>) -> vec4<f32> { return 0.5 * (a * (1.0 + l.gs) + l.go); }

// Weighted sum in a fixed order (the CPU twin sums the same way).
fn blend(w: vec4<f32>, a: vec4<f32>) -> f32 { return w.x * a.x + w.y * a.y + w.z * a.z + w.w * a.w; }

// Clamps x to the range of the values a at the points of positive weight (x itself if none).
fn limit(x: f32, w: vec4<f32>, a: vec4<f32>) -> f32 {
    let open = w > vec4<f32>(0.0);
    let lo = min(min(select(3.0e38, a.x, open.x), select(3.0e38, a.y, open.y)), min(select(3.0e38, a.z, open.z), select(3.0e38, a.w, open.w)));
    let hi = max(max(select(-3.0e38, a.x, open.x), select(-3.0e38, a.y, open.y)), max(select(-3.0e38, a.z, open.z), select(-3.0e38, a.w, open.w)));
    if lo > hi { return x; }
    return clamp(x, lo, hi);
}

fn u_n(l: Lattice) -> vec4<f32> { return at_side(l, vec4<f32>(u[l.k.x], u[l.k.y], u[l.k.z], u[l.k.w])); }
fn u_hat(l: Lattice) -> vec4<f32> { return ghosted(l, vec4<f32>(u_out[l.k.x], u_out[l.k.y], u_out[l.k.z], u_out[l.k.w])); }
fn u_bar(l: Lattice) -> vec4<f32> { return ghosted(l, vec4<f32>(vel_tmp[l.k.x], vel_tmp[l.k.y], vel_tmp[l.k.z], vel_tmp[l.k.w])); }
fn v_n(l: Lattice) -> vec4<f32> { return at_side(l, vec4<f32>(v[l.k.x], v[l.k.y], v[l.k.z], v[l.k.w])); }
fn v_hat(l: Lattice) -> vec4<f32> { return ghosted(l, vec4<f32>(v_out[l.k.x], v_out[l.k.y], v_out[l.k.z], v_out[l.k.w])); }
fn v_bar(l: Lattice) -> vec4<f32> {
    let q = l.k + vec4<u32>(u32(ny()) * (u32(nx()) + 1u));
    return ghosted(l, vec4<f32>(vel_tmp[q.x], vel_tmp[q.y], vel_tmp[q.z], vel_tmp[q.w]));
}

// ---- ink (dye cells) or density (flow cells) ----
// One source for both fields: `INK` picks ink, three channels a dye cell, or density, one a flow
// cell, each in a dispatch of its own (src/sim/advect.rs), so that each binds few enough buffers
// to trace through the velocity's blocks within WebGPU's 8.
override INK: bool = true;

fn channels() -> u32 { return select(1u, 3u, INK); }
// The field's scheme (params.schemes: y ink, z density).
fn field_scheme() -> u32 { return select(params.schemes.z, params.schemes.y, INK); }
// The factor `keep` already in φ̂: ink dissipation, density drain.
fn keep() -> f32 { return exp(-select(params.density_drain, params.ink_dissipation, INK) * params.dt); }

// The field's grid, k times the flow grid's: the dye grid for ink, the flow grid for density.
fn field_k() -> i32 { return select(1, dye_k(), INK); }
fn field_active(a: i32, b: i32) -> bool { return a < nx() * field_k() && b < ny() * field_k() && !is_solid(a / field_k(), b / field_k()); }
fn field_idx(a: i32, b: i32) -> u32 { return u32(b * (nx() * field_k()) + a); }
fn field_centre(a: i32, b: i32) -> vec2<f32> {
    let h = params.h / f32(field_k());
    return vec2<f32>((f32(a) + 0.5) * h, (f32(b) + 0.5) * h);
}
fn field_lattice(pos: vec2<f32>) -> Lattice {
    let s = lattice_stencil(pos, field_k());
    let k = vec4<u32>(field_idx(s.c00.x, s.c00.y), field_idx(s.c10.x, s.c10.y), field_idx(s.c01.x, s.c01.y), field_idx(s.c11.x, s.c11.y));
    return Lattice(k, s.w, vec4<f32>(1.0), vec4<f32>(0.0));
}

// Channel ch of cell c: its word in the field (φ and φ̂), and in transport_tmp (φ̃ / φ̄).
fn word(c: u32, ch: u32) -> u32 { return channels() * c + ch; }
fn tmp_word(c: u32, ch: u32) -> u32 { return select(density_tmp_at(c), 3u * c + ch, INK); }
fn now(w: u32) -> f32 {
    if INK { return ink[w]; }
    return density[w];
}
fn hat(w: u32) -> f32 {
    if INK { return ink_out[w]; }
    return density_out[w];
}

fn now4(k: vec4<u32>, ch: u32) -> vec4<f32> { return vec4<f32>(now(word(k.x, ch)), now(word(k.y, ch)), now(word(k.z, ch)), now(word(k.w, ch))); }
fn hat4(k: vec4<u32>, ch: u32) -> vec4<f32> { return vec4<f32>(hat(word(k.x, ch)), hat(word(k.y, ch)), hat(word(k.z, ch)), hat(word(k.w, ch))); }
fn bar4(k: vec4<u32>, ch: u32) -> vec4<f32> {
    return vec4<f32>(transport_tmp[tmp_word(k.x, ch)], transport_tmp[tmp_word(k.y, ch)], transport_tmp[tmp_word(k.z, ch)], transport_tmp[tmp_word(k.w, ch)]);
}

// BFECC's midpoint φ̄ = φ + ½(φ − φ̃), φ̃ without the factor `keep` already in φ̂.
fn bfecc_mid(now: f32, rev: f32, keep: f32) -> f32 { return now + 0.5 * (now - rev / keep); }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn reverse(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = i32(id.x);
    let b = i32(id.y);
    let scheme = field_scheme();
    if field_active(a, b) && corrected(scheme) {
        let c = field_idx(a, b);
        let s = field_lattice(trace(field_centre(a, b), -params.dt));
        let k = keep();
        for (var ch = 0u; ch < channels(); ch++) {
            var x = blend(s.w, hat4(s.k, ch));
            if scheme == SCHEME_BFECC { x = bfecc_mid(now(word(c, ch)), x, k); }
            transport_tmp[tmp_word(c, ch)] = x;
        }
    }
}

// One channel's corrected value: MacCormack from this cell's φ̂, φ, φ̃; BFECC from φ̄ around the
// back-traced point (`bar`, read only for BFECC: a CPU adapter pays for every read).
fn correct_one(scheme: u32, keep: f32, hat: f32, now: f32, rev: f32, w: vec4<f32>, n: vec4<f32>, bar: vec4<f32>) -> f32 {
    // a foot with no open point (inside solid cells) has no range to limit to: keep φ̂, or the
    // correction can leave it (ink went to -0.011 in the soak)
    if all(w <= vec4<f32>(0.0)) { return hat; }
    var x = hat + 0.5 * (keep * now - rev);
    if scheme == SCHEME_BFECC { x = keep * blend(w, bar); }
    return limit(x, w, keep * n);
}

// The back-trace from `pos`, or none (came in through an inflow: φ̂ stays).
fn back_inside(pos: vec2<f32>) -> vec4<f32> {
    let back = trace_from(pos, params.dt);
    let side = side_crossed(back);
    if side < 4u && params.bc_kind[side] == BC_INFLOW { return vec4<f32>(0.0, 0.0, 0.0, 0.0); }
    return vec4<f32>(clamp_to_domain(back), 1.0, 0.0);
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn correct(@builtin(global_invocation_id) id: vec3<u32>) {
    let a = i32(id.x);
    let b = i32(id.y);
    let scheme = field_scheme();
    if field_active(a, b) && corrected(scheme) {
        let back = back_inside(field_centre(a, b));
        if back.z > 0.0 {
            let c = field_idx(a, b);
            let s = field_lattice(back.xy);
            let k = keep();
            for (var ch = 0u; ch < channels(); ch++) {
                var bar = vec4<f32>(0.0);
                if scheme == SCHEME_BFECC { bar = bar4(s.k, ch); }
                let w = word(c, ch);
                let x = correct_one(scheme, k, hat(w), now(w), transport_tmp[tmp_word(c, ch)], s.w, now4(s.k, ch), bar);
                if INK { ink_out[w] = x; } else { density_out[w] = x; }
            }
        }
    }
}

// ---- edge velocities ----

fn u_pos(i: i32, j: i32) -> vec2<f32> {
    var fi = i;
    if periodic_x() && i == nx() { fi = 0; }
    return vec2<f32>(f32(fi) * params.h, (f32(j) + 0.5) * params.h);
}

fn v_pos(i: i32, j: i32) -> vec2<f32> {
    var fj = j;
    if periodic_y() && j == ny() { fj = 0; }
    return vec2<f32>((f32(i) + 0.5) * params.h, f32(fj) * params.h);
}

fn v_off() -> u32 { return u32(ny()) * (u32(nx()) + 1u); }

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn velocity_reverse(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let bfecc = params.schemes.x == SCHEME_BFECC;
    // Every face is written, prescribed ones with their value (φ̃ = φ̄ = φ there), because the
    // BFECC correction reads φ̄ on all four lattice points, prescribed or not.
    if i <= nx() && j < ny() {
        let f = u_face(i, j);
        var value = f.value;
        if !f.fixed {
            let l = u_lattice(trace(u_pos(i, j), -params.dt));
            value = blend(l.w, u_hat(l));
            if bfecc { value = bfecc_mid(u[u_idx(i, j)], value, 1.0); }
        }
        vel_tmp[u_idx(i, j)] = value;
    }
    if i < nx() && j <= ny() {
        let f = v_face(i, j);
        var value = f.value;
        if !f.fixed {
            let l = v_lattice(trace(v_pos(i, j), -params.dt));
            value = blend(l.w, v_hat(l));
            if bfecc { value = bfecc_mid(v[v_idx(i, j)], value, 1.0); }
        }
        vel_tmp[v_off() + v_idx(i, j)] = value;
    }
}

@compute @workgroup_size(BLOCK_X, BLOCK_Y)
fn velocity_correct(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let s = params.schemes.x;
    if i <= nx() && j < ny() && !u_face(i, j).fixed {
        let k = u_idx(i, j);
        let l = u_lattice(trace(u_pos(i, j), params.dt));
        var bar = vec4<f32>(0.0);
        if s == SCHEME_BFECC { bar = u_bar(l); }
        u_out[k] = correct_one(s, 1.0, u_out[k], u[k], vel_tmp[k], l.w, u_n(l), bar);
    }
    if i < nx() && j <= ny() && !v_face(i, j).fixed {
        let k = v_idx(i, j);
        let l = v_lattice(trace(v_pos(i, j), params.dt));
        var bar = vec4<f32>(0.0);
        if s == SCHEME_BFECC { bar = v_bar(l); }
        v_out[k] = correct_one(s, 1.0, v_out[k], v[k], vel_tmp[v_off() + k], l.w, v_n(l), bar);
    }
}
