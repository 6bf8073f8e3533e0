// The warm start of the pressure solve four cells of a row a thread (warm_start_mix.wgsl has the
// sums, the mix and why), where level 0's rows are whole quads (src/sim/warm_start.rs): each
// cell's terms are warm_start.wgsl `cell_terms`, lane by lane in the same order; only the order
// in which a thread adds cells up differs. Why: lavapipe reads storage one lane at a time but
// every word of a vector in one pass over the lanes (shared/lanes4.wgsl), and a cell's terms read
// 8 words.

// Bindings (numbers: `slot` in src/sim/kernel.rs); multigrid/quad.wgsl declares the level's and
// `divergence`, warm_start_mix.wgsl `partials`.
@group(0) @binding(0) var<storage, read_write> p: array<vec4<f32>>;
@group(0) @binding(1) var<storage, read> stencil: array<vec4<u32>>;
@group(0) @binding(2) var<storage, read_write> p_prev: array<vec4<f32>>;
@group(0) @binding(3) var<storage, read_write> p_prev2: array<vec4<f32>>;

// The sums' terms of the four cells of a quad (or their sums over a thread's quads), a lane
// each: p1·b, d·b, p1·Ap1, p1·Ad, d·Ad; max |b| of the fluid lanes; g·b, p1·Ag, d·Ag, g·Ag
// (with `PAIR`, else zero).
struct QuadTerms {
    p1b: vec4<f32>,
    db: vec4<f32>,
    e11: vec4<f32>,
    e1d: vec4<f32>,
    edd: vec4<f32>,
    m: f32,
    gb: vec4<f32>,
    e1g: vec4<f32>,
    edg: vec4<f32>,
    egg: vec4<f32>,
}

// The edges' share of an energy product, lane by lane: the right edges' products of the two
// vectors' differences (xr, yr), then the top edges' (xt, yt), where the stencil has them.
fn energy(xr: vec4<f32>, yr: vec4<f32>, xt: vec4<f32>, yt: vec4<f32>, right: vec4<bool>, top: vec4<bool>) -> vec4<f32> {
    let e = select(vec4<f32>(0.0), xr * yr, right);
    return select(e, e + xt * yt, top);
}

// warm_start.wgsl `cell_terms` of quad q of row j, with packed stencils s and -rho h^2 div / dt
// b (multigrid/quad.wgsl `rhs_quad`).
fn quad_terms(q: i32, j: i32, s: vec4<u32>, b: vec4<f32>) -> QuadTerms {
    let w = nx() / 4;
    let row = j * w;
    let c = row + q;
    let pc = p[c];
    let pp = p_prev[c];
    let dc = pc - pp;
    // the right neighbours: the next three lanes, then the next quad's first (wrapped)
    let n = row + select(q + 1, 0, q == w - 1);
    let pn = p[n].x;
    let pn0 = p_prev[n].x;
    let pr = vec4<f32>(pc.yzw, pn);
    let dr = vec4<f32>(dc.yzw, pn - pn0);
    let up = select(j + 1, 0, j == ny() - 1) * w + q;
    let pt = p[up];
    let pt0 = p_prev[up];
    let dt = pt - pt0;
    let zero = vec4<f32>(0.0);
    let right = has(s, STENCIL_RIGHT);
    let top = has(s, STENCIL_TOP);
    // (Δp1 Δp1, Δp1 Δd, Δd Δd) over the edges taken here, right then top
    let dpr = pr - pc;
    let ddr = dr - dc;
    let dpt = pt - pc;
    let ddt = dt - dc;
    let count = counts(s);
    let ghosts = count - vec4<f32>(countOneBits(s & vec4<u32>(15u)));
    let e11 = energy(dpr, dpr, dpt, dpt, right, top) + ghosts * (pc * pc);
    let e1d = energy(dpr, ddr, dpt, ddt, right, top) + ghosts * (pc * dc);
    let edd = energy(ddr, ddr, ddt, ddt, right, top) + ghosts * (dc * dc);
    let fluid = count != zero;
    let ab = select(zero, abs(b), fluid);
    let m = max_nf(max_nf(ab.x, ab.y), max_nf(ab.z, ab.w));
    var t = QuadTerms(select(zero, pc * b, fluid), select(zero, dc * b, fluid), select(zero, e11, fluid), select(zero, e1d, fluid), select(zero, edd, fluid), m, zero, zero, zero, zero);
    if PAIR {
        // g = d - (p0 - p00) at the quad, its right neighbours and the quad above, as d's
        let gc = dc - (pp - p_prev2[c]);
        let gr = vec4<f32>(gc.yzw, pn - pn0 - (pn0 - p_prev2[n].x));
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

fn add_quads(x: QuadTerms, y: QuadTerms) -> QuadTerms {
    return QuadTerms(x.p1b + y.p1b, x.db + y.db, x.e11 + y.e11, x.e1d + y.e1d, x.edd + y.edd, max_nf(x.m, y.m), x.gb + y.gb, x.e1g + y.e1g, x.edg + y.edg, x.egg + y.egg);
}

// A thread's lanes added up, lane by lane in order.
fn lanes(v: vec4<f32>) -> f32 {
    return ((v.x + v.y) + v.z) + v.w;
}

fn folded(t: QuadTerms) -> Terms {
    return Terms(vec4<f32>(lanes(t.p1b), lanes(t.db), lanes(t.e11), lanes(t.e1d)), lanes(t.edd), t.m, vec4<f32>(lanes(t.gb), lanes(t.e1g), lanes(t.edg), lanes(t.egg)));
}

fn no_terms() -> QuadTerms {
    let zero = vec4<f32>(0.0);
    return QuadTerms(zero, zero, zero, zero, zero, 0.0, zero, zero, zero, zero);
}

// Quads of the grid.
fn quad_count() -> u32 { return cell_count() / 4u; }

// The sums with the Jacobi solver's stencil (pressure.wgsl `stencil_pack`).
@compute @workgroup_size(WG)
fn measure_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = u32(nx() / 4);
    var t = no_terms();
    for (var c = wid.x * WG + lid.x; c < quad_count(); c += GROUPS * WG) {
        t = add_quads(t, quad_terms(i32(c % w), i32(c / w), stencil[c], rhs_quad(i32(c))));
    }
    finish_partials(lid.x, wid.x, folded(t));
}

// The sums with multigrid level 0's stencil (multigrid and SOR; the same packing), and level 0's
// right-hand side on the way (multigrid/quad.wgsl `load`, whose dispatch a warm start saves).
@compute @workgroup_size(WG)
fn measure_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let w = u32(nx() / 4);
    var t = no_terms();
    for (var c = wid.x * WG + lid.x; c < quad_count(); c += GROUPS * WG) {
        let q = i32(c % w);
        let j = i32(c / w);
        let b = rhs_quad(i32(c));
        t = add_quads(t, quad_terms(q, j, mg_stencil[level.off / 4u + c], b));
        store_rhs(q, j, b);
    }
    finish_partials(lid.x, wid.x, folded(t));
}

// p = a p1 + c d + e g, p_prev2 = p0 and p_prev = p1, a quad a thread (and a solve to a
// tolerance opened: warm_start_mix.wgsl `open_gate`); β p1 and p_prev = p1 alone for a fixed
// count.
@compute @workgroup_size(WG)
fn scale(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(num_workgroups) groups: vec3<u32>) {
    let m = start_weights(lid.x);
    if PAIR && wid.x == 0u { open_gate(lid.x); }
    for (var c = wid.x * WG + lid.x; c < quad_count(); c += groups.x * WG) {
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
