// Tolerance control of the pressure solvers without a read-back: after every K sweeps or cycles a
// two-stage reduction measures max |residual| (in rhs units, so max |residual| / max |rhs| equals
// max |div after projection| / max |div before|), and `gate` rewrites the indirect dispatch
// arguments of every later sweep: the level's workgroup counts while not converged, zero after.
// The CPU records all sweeps up front; converged ones cost an empty dispatch, never a stall.
// mg_control layout (words; keep in sync with src/sim/solver.rs `ctl`):
//   0 tolerance (f32)   1 max |rhs| (f32)   2 done   3 last ratio (f32)   4 sweeps/cycles run
//   5 sweeps per check  8..72 partial maxima   72.. full args, then live args (3 words per slot)

const GROUPS: u32 = 64u;
const WG: u32 = 256u;
const PARTIALS: u32 = 8u;
const ARG_SLOTS: u32 = 17u;
const FULL_ARGS: u32 = 72u;
const LIVE_ARGS: u32 = 123u;

var<workgroup> red_max: array<f32, 256>;
var<workgroup> done_now: u32;

fn finish_partial(lid: u32, wid: u32, m: f32) {
    red_max[lid] = m;
    for (var s = WG / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red_max[lid] = max(red_max[lid], red_max[lid + s]); }
    }
    workgroupBarrier();
    if lid == 0u { mg_control[PARTIALS + wid] = bitcast<u32>(red_max[0]); }
}

// max |rho h^2 div / dt|: the right-hand side's scale.
@compute @workgroup_size(256)
fn reduce_rhs(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = params.nx * params.ny;
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        if !(solid[c] > 0.5) { m = max(m, abs(divergence[c])); }
    }
    finish_partial(lid.x, wid.x, m * params.rho * params.h * params.h / params.dt);
}

// max |residual| of level 0 from the multigrid residual buffer.
@compute @workgroup_size(256)
fn reduce_mg(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = params.nx * params.ny;
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        m = max(m, abs(mg_res[c]));
    }
    finish_partial(lid.x, wid.x, m);
}

// max |residual| of the pressure in p (Jacobi, SOR), with the packed stencil of pressure.wgsl.
@compute @workgroup_size(256)
fn reduce_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = params.nx * params.ny;
    let w = nx();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        let s = stencil[c];
        let count = f32(s >> 4u);
        if count == 0.0 { continue; }
        let i = i32(c % params.nx);
        let j = i32(c / params.nx);
        let row = j * w;
        var sum = 0.0;
        if (s & STENCIL_LEFT) != 0u { sum += p[u32(row + select(i - 1, w - 1, i == 0))]; }
        if (s & STENCIL_RIGHT) != 0u { sum += p[u32(row + select(i + 1, 0, i == w - 1))]; }
        if (s & STENCIL_BOTTOM) != 0u { sum += p[u32(select(j - 1, ny() - 1, j == 0) * w + i)]; }
        if (s & STENCIL_TOP) != 0u { sum += p[u32(select(j + 1, 0, j == ny() - 1) * w + i)]; }
        let b = -params.rho * params.h * params.h * divergence[c] / params.dt;
        m = max(m, abs(b - (count * p[c] - sum)));
    }
    finish_partial(lid.x, wid.x, m);
}

fn partial_max(lid: u32) -> f32 {
    red_max[lid] = bitcast<f32>(mg_control[PARTIALS + lid]);
    for (var s = GROUPS / 2u; s > 0u; s = s / 2u) {
        workgroupBarrier();
        if lid < s { red_max[lid] = max(red_max[lid], red_max[lid + s]); }
    }
    workgroupBarrier();
    return red_max[0];
}

fn write_args(lid: u32) {
    workgroupBarrier();
    let done = done_now;
    for (var k = lid; k < 3u * ARG_SLOTS; k += GROUPS) {
        mg_control[LIVE_ARGS + k] = select(mg_control[FULL_ARGS + k], 0u, done != 0u);
    }
}

// Start of a solve: the rhs scale from reduce_rhs; a zero right-hand side is already solved.
@compute @workgroup_size(64)
fn gate_start(@builtin(local_invocation_id) lid: vec3<u32>) {
    let b = partial_max(lid.x);
    if lid.x == 0u {
        mg_control[1] = bitcast<u32>(b);
        let done = select(0u, 1u, b == 0.0);
        mg_control[2] = done;
        mg_control[3] = bitcast<u32>(0.0);
        mg_control[4] = 0u;
        done_now = done;
    }
    write_args(lid.x);
}

// After K sweeps or cycles: counts them if they ran, then stops the rest once the residual is in.
@compute @workgroup_size(64)
fn gate(@builtin(local_invocation_id) lid: vec3<u32>) {
    let r = partial_max(lid.x);
    if lid.x == 0u {
        var done = mg_control[2];
        if done == 0u {
            mg_control[4] += mg_control[5];
            let ratio = r / bitcast<f32>(mg_control[1]);
            mg_control[3] = bitcast<u32>(ratio);
            if ratio <= bitcast<f32>(mg_control[0]) { done = 1u; }
        }
        mg_control[2] = done;
        done_now = done;
    }
    write_args(lid.x);
}
