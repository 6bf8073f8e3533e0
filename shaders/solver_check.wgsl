// Tolerance control of the pressure solvers (src/sim/solver.rs): a two-stage reduction measures
// max |residual| (in rhs units, so max |residual| / max |rhs| equals max |div after projection| /
// max |div before|). `gate` decides whether the solve is done and rewrites the indirect dispatch
// arguments (`mg_args`) of the gated sweeps, cycles and residual reductions that follow: the real
// workgroup counts while not converged, zero after.
// mg_control layout (words; keep in sync with src/sim/solver.rs `ctl`):
//   0 tolerance (f32)   1 max |rhs| (f32)   2 done (1 converged, 2 stopped at the floor)
//   3 last ratio (f32)   4 units run   5 units per check   6 units the next gate counts
//   7 units run at the floor's reference
//   8..1032 partial maxima (GROUPS of them used)   1032.. full args (3 words per slot)
//   VERDICT.. the step's worst ratio (f32), how a solve of it failed (0 none, 1 at the floor,
//             2 at its cap), failed steps so far, of them those that stopped at the floor only
//   TAIL..    checks of the gated tail done, gated units not yet counted, single-unit checks,
//             the check after which the multigrid's polish runs (src/sim/solver.rs `polish_at`)
//   FLOOR..   the floor's fall factor (f32), its window in units, its reference ratio (f32)

// Bindings, numbered by this pass and bound by name (src/sim/kernel/reflect.rs).
@group(0) @binding(0) var<storage, read> p: array<f32>;
@group(0) @binding(1) var<storage, read> divergence: array<f32>;
@group(0) @binding(2) var<storage, read> solid: array<f32>;
@group(0) @binding(3) var<storage, read> stencil: array<u32>;
@group(0) @binding(4) var<storage, read_write> mg_control: array<u32>;
// solver_gate.wgsl declares the arguments the gates write (mg_args, gate_args).

// max |rho h^2 div / dt|: the right-hand side's scale.
@compute @workgroup_size(WG)
fn reduce_rhs(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    let n = cell_count();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        if !(solid[c] > 0.5) { m = max_nf(m, abs(divergence[c])); }
    }
    finish_partial(lid.x, wid.x, m * params.rho * params.h * params.h / params.dt);
}

// max |residual| of the pressure in p (Jacobi), with the packed stencil of pressure.wgsl, in the
// difference form of multigrid/plain.wgsl `lanes_residual`: count p - sum rounds at |p|, which sits far
// above the residual once p is large against h^2 rhs (src/sim/cpu/solver_check.rs is its twin).
@compute @workgroup_size(WG)
fn reduce_p(@builtin(local_invocation_id) lid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>) {
    if gate_closed(lid.x) { return; }
    let n = cell_count();
    let w = nx();
    var m = 0.0;
    for (var c = wid.x * WG + lid.x; c < n; c += GROUPS * WG) {
        let s = stencil[c];
        let count = f32(s >> 4u);
        if count == 0.0 { continue; }
        let i = i32(c % u32(nx()));
        let j = i32(c / u32(nx()));
        let row = j * w;
        let pc = p[c];
        var d = 0.0;
        var fluid = 0.0;
        if (s & STENCIL_LEFT) != 0u { d += p[u32(row + select(i - 1, w - 1, i == 0))] - pc; fluid += 1.0; }
        if (s & STENCIL_RIGHT) != 0u { d += p[u32(row + select(i + 1, 0, i == w - 1))] - pc; fluid += 1.0; }
        if (s & STENCIL_BOTTOM) != 0u { d += p[u32(select(j - 1, ny() - 1, j == 0) * w + i)] - pc; fluid += 1.0; }
        if (s & STENCIL_TOP) != 0u { d += p[u32(select(j + 1, 0, j == ny() - 1) * w + i)] - pc; fluid += 1.0; }
        let b = -params.rho * params.h * params.h * divergence[c] / params.dt;
        m = max_nf(m, abs(b + (d - (count - fluid) * pc)));
    }
    finish_partial(lid.x, wid.x, m);
}

// Start of a gated solve: the rhs scale from reduce_rhs (solver_gate.wgsl `open_words`). The first
// gate counts the sweeps run before it (word 6, set by the CPU).
@compute @workgroup_size(GATE_WG)
fn gate_start(@builtin(local_invocation_id) lid: vec3<u32>) {
    let b = partial_max(lid.x);
    if lid.x == 0u {
        done_now = open_words(b);
        polish_now = 0u;
    }
    write_args(lid.x);
}

// After a run of sweeps or cycles: counts them if they ran, then stops the rest once the residual
// is in. The gate that closes, or the solve's last (no gated units left to count), also gives the
// step its verdict: the gates after a closed one do not run.
@compute @workgroup_size(GATE_WG)
fn gate(@builtin(local_invocation_id) lid: vec3<u32>) {
    decide(lid.x, partial_max(lid.x));
}
