// One weighted-Jacobi sweep, p -> p_out (pressure.wgsl has the equation and why weighted), a
// thread's lanes at a time (shared/lanes1.wgsl or lanes4.wgsl): thread (q, j) takes cells
// LANES q .. LANES q + LANES - 1 of row j. The cells beside them are read as one word each
// (`p_first`, `p_last`: src/sim/kernel/compose.rs `lane_words!`).

// Bindings (bound by name): the buffers of pressure.wgsl, in lanes.
@group(0) @binding(0) var<storage, read> p: array<Lanes>;
@group(0) @binding(1) var<storage, read> divergence: array<Lanes>;
@group(0) @binding(2) var<storage, read_write> p_out: array<Lanes>;
@group(0) @binding(3) var<storage, read> stencil: array<LaneWords>;

// A workgroup covers a cell block (DeviceProfile::cell_block), as `main` does: the gated
// (indirect) launch shares its workgroup counts.
@compute @workgroup_size(BLOCK_X / LANES, BLOCK_Y)
fn sweep(@builtin(global_invocation_id) id: vec3<u32>) {
    let q = i32(id.x);
    let j = i32(id.y);
    let w = nx() / i32(LANES);
    if q >= w || j >= ny() { return; }
    let row = j * w;
    let c = u32(row + q);
    let s = stencil[c];
    let mid = p[c];
    // neighbours wrapped, added only where the stencil says fluid
    let left = lanes_left(p_last(u32(row + select(q - 1, w - 1, q == 0))), mid);
    let right = lanes_right(mid, p_first(u32(row + select(q + 1, 0, q == w - 1))));
    let below = p[u32(select(j - 1, ny() - 1, j == 0) * w + q)];
    let above = p[u32(select(j + 1, 0, j == ny() - 1) * w + q)];
    let zero = Lanes(0.0);
    var sum = zero;
    sum += select(zero, left, lanes_have(s, STENCIL_LEFT));
    sum += select(zero, right, lanes_have(s, STENCIL_RIGHT));
    sum += select(zero, below, lanes_have(s, STENCIL_BOTTOM));
    sum += select(zero, above, lanes_have(s, STENCIL_TOP));
    let count = Lanes(s >> LaneWords(4u));
    let b = params.rho * params.h * params.h * divergence[c] / params.dt;
    let value = mix(mid, (sum - b) / count, params.jacobi_weight);
    p_out[c] = select(value, zero, count == zero);
}
