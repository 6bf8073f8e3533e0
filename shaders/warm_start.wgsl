// The warm start of the pressure solve (warm_start_mix.wgsl has the sums, the mix and why), a
// thread's lanes at a time (shared/lanes1.wgsl or lanes4.wgsl): thread c takes cells LANES c ..
// LANES c + LANES - 1 of the grid. Each cell's terms are the same arithmetic in the same order
// in either layout; only the order in which a thread adds its cells up differs. The cell after a
// thread's is read as one word (`p_first` and the like: src/sim/kernel/compose.rs `lane_words!`).

// Bindings (bound by name); warm_start_mix.wgsl declares `partials` and `mg_control`.
@group(0) @binding(0) var<storage, read_write> p: array<Lanes>;
@group(0) @binding(1) var<storage, read> divergence: array<Lanes>;
@group(0) @binding(2) var<storage, read> stencil: array<LaneWords>;
@group(0) @binding(3) var<storage, read> level: Level;
@group(0) @binding(4) var<storage, read> mg_stencil: array<LaneWords>;
@group(0) @binding(5) var<storage, read_write> p_prev: array<Lanes>;
@group(0) @binding(6) var<storage, read_write> p_prev2: array<Lanes>;
@group(0) @binding(7) var<storage, read_write> dp: array<Lanes>;

// The sums' terms of a thread's cells (or their sums over its cells so far), a lane each: p1·b,
// d·b, p1·Ap1, p1·Ad, d·Ad; max |b| of the fluid lanes; g·b, p1·Ag, d·Ag, g·Ag (with `PAIR`,
// else zero).
struct LaneTerms {
    p1b: Lanes,
    db: Lanes,
    e11: Lanes,
    e1d: Lanes,
    edd: Lanes,
    m: f32,
    gb: Lanes,
    e1g: Lanes,
    edg: Lanes,
    egg: Lanes,
}

// -rho h^2 div / dt of thread k's cells (level 0's right-hand side where they are fluid).
fn rhs_lanes(k: u32) -> Lanes {
    return -params.rho * params.h * params.h * divergence[k] / params.dt;
}

// The edges' share of an energy product, lane by lane: the right edges' products of the two
// vectors' differences (xr, yr), then the top edges' (xt, yt), where the stencil has them. Each
// edge is taken once, from its left or bottom cell; p·Ap is then positive term by term, with no
// cancellation of a large constant in p.
fn energy(xr: Lanes, yr: Lanes, xt: Lanes, yt: Lanes, right: LaneFlags, top: LaneFlags) -> Lanes {
    let e = select(Lanes(0.0), xr * yr, right);
    return select(e, e + xt * yt, top);
}

// The terms of thread c's cells (thread q of row j), with packed stencils s and b = `rhs_lanes`;
// each outflow ghost adds the product at the cell.
fn lane_terms(c: u32, s: LaneWords, b: Lanes) -> LaneTerms {
    let w = nx() / i32(LANES);
    let q = i32(c) % w;
    let j = i32(c) / w;
    let row = j * w;
    let pc = p[c];
    let pp = p_prev[c];
    let dc = pc - pp;
    // the right neighbours: the lanes after each, then the next thread's first (wrapped)
    let n = u32(row + select(q + 1, 0, q == w - 1));
    let pn = p_first(n);
    let pn0 = p_prev_first(n);
    let pr = lanes_right(pc, pn);
    let dr = lanes_right(dc, pn - pn0);
    let up = u32(select(j + 1, 0, j == ny() - 1) * w + q);
    let pt = p[up];
    let pt0 = p_prev[up];
    let dt = pt - pt0;
    let zero = Lanes(0.0);
    let right = lanes_have(s, STENCIL_RIGHT);
    let top = lanes_have(s, STENCIL_TOP);
    // (Δp1 Δp1, Δp1 Δd, Δd Δd) over the edges taken here, right then top
    let dpr = pr - pc;
    let ddr = dr - dc;
    let dpt = pt - pc;
    let ddt = dt - dc;
    let count = lanes_count(s);
    let ghosts = count - Lanes(countOneBits(s & LaneWords(15u)));
    let e11 = energy(dpr, dpr, dpt, dpt, right, top) + ghosts * (pc * pc);
    let e1d = energy(dpr, ddr, dpt, ddt, right, top) + ghosts * (pc * dc);
    let edd = energy(ddr, ddr, ddt, ddt, right, top) + ghosts * (dc * dc);
    let fluid = count != zero;
    let ab = select(zero, abs(b), fluid);
    var t = LaneTerms(select(zero, pc * b, fluid), select(zero, dc * b, fluid), select(zero, e11, fluid), select(zero, e1d, fluid), select(zero, edd, fluid), lanes_max(ab), zero, zero, zero, zero);
    if PAIR {
        // g = d - (p0 - p00) at the cells, their right neighbours and the cells above, as d's
        let gc = dc - (pp - p_prev2[c]);
        let gr = lanes_right(gc, pn - pn0 - (pn0 - p_prev2_first(n)));
        let gt = dt - (pt0 - p_prev2[up]);
        let dgr = gr - gc;
        let dgt = gt - gc;
        let e1g = energy(dpr, dgr, dpt, dgt, right, top) + ghosts * (pc * gc);
        let edg = energy(ddr, dgr, ddt, dgt, right, top) + ghosts * (dc * gc);
        let egg = energy(dgr, dgr, dgt, dgt, right, top) + ghosts * (gc * gc);
        t.gb = select(zero, gc * b, fluid);
        t.e1g = select(zero, e1g, fluid);
        t.edg = select(zero, edg, fluid);
        t.egg = select(zero, egg, fluid);
    }
    return t;
}

// The largest lane (or whichever is not finite), pairwise: (0, 1) and (2, 3).
fn lanes_max(v: Lanes) -> f32 {
    if LANES == 1u { return lane(v, 0u); }
    return max_nf(max_nf(lane(v, 0u), lane(v, 1u)), max_nf(lane(v, 2u), lane(v, 3u)));
}

fn add_lanes(x: LaneTerms, y: LaneTerms) -> LaneTerms {
    return LaneTerms(x.p1b + y.p1b, x.db + y.db, x.e11 + y.e11, x.e1d + y.e1d, x.edd + y.edd, max_nf(x.m, y.m), x.gb + y.gb, x.e1g + y.e1g, x.edg + y.edg, x.egg + y.egg);
}

fn folded(t: LaneTerms) -> Terms {
    return Terms(vec4<f32>(lane_sum(t.p1b), lane_sum(t.db), lane_sum(t.e11), lane_sum(t.e1d)), lane_sum(t.edd), t.m, vec4<f32>(lane_sum(t.gb), lane_sum(t.e1g), lane_sum(t.edg), lane_sum(t.egg)));
}

fn no_terms() -> LaneTerms {
    let zero = Lanes(0.0);
    return LaneTerms(zero, zero, zero, zero, zero, 0.0, zero, zero, zero, zero);
}

// Threads over the grid.
fn threads() -> u32 { return cell_count() / LANES; }

// The sums with the Jacobi solver's stencil (pressure.wgsl `stencil_pack`).
@compute @workgroup_size(WG)
fn measure_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = no_terms();
    for (var c = wid.x * WG + lid.x; c < threads(); c += GROUPS * WG) { t = add_lanes(t, lane_terms(c, stencil[c], rhs_lanes(c))); }
    finish_partials(lid.x, wid.x, folded(t));
}

// The sums with multigrid level 0's stencil (multigrid, MGPCG and SOR; the same packing).
@compute @workgroup_size(WG)
fn measure_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    var t = no_terms();
    for (var c = wid.x * WG + lid.x; c < threads(); c += GROUPS * WG) {
        t = add_lanes(t, lane_terms(c, mg_stencil[level.off / LANES + c], rhs_lanes(c)));
    }
    finish_partials(lid.x, wid.x, folded(t));
}

// p = a p1 + c d + e g, p_prev2 = p0 and p_prev = p1 (and a solve to a tolerance opened:
// warm_start_mix.wgsl `open_gate`); β p1 and p_prev = p1 alone for a fixed count.
@compute @workgroup_size(WG)
fn scale(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let m = start_weights(lid.x);
    if PAIR && wid.x == 0u { open_gate(lid.x); }
    for (var c = wid.x * WG + lid.x; c < threads(); c += groups.x * WG) {
        let p1 = p[c];
        // β p1 exactly where there is no pair (and p_prev not read for a fixed count), the
        // pair's exactly where g is dropped
        var x = m.x * p1;
        if PAIR {
            let p0 = p_prev[c];
            let d = p1 - p0;
            if m.z != 0.0 {
                x = m.x * p1 + m.y * d + m.z * (d - (p0 - p_prev2[c]));
            } else if m.y != 0.0 {
                x = m.x * p1 + m.y * d;
            }
            p_prev2[c] = p0;
        }
        p[c] = x;
        p_prev[c] = p1;
    }
}

// After the solve's projection (src/sim/solver.rs `encode_merge`): p += dp, dp = 0, the solve's
// correction added to the pressure (multigrid/setup.wgsl has why it is kept apart).
@compute @workgroup_size(WG)
fn correct(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    for (var c = wid.x * WG + lid.x; c < threads(); c += groups.x * WG) {
        p[c] = p[c] + dp[c];
        dp[c] = Lanes(0.0);
    }
}
