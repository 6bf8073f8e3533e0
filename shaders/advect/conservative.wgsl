// Conservative flux-form transport of ink and density (seed 001: what leaves one cell enters its
// neighbour). Each face carries, per step, the donor (upwind) cell's content times the face's
// Courant number |u| Δt / h, times the donor's outflow scale: `outflow_scale` limits a cell's
// total outflow to what it holds (fraction ≤ 1 − 1e-6), so no cell changes sign. Both cells of a
// face compute the same transfer from the same numbers, so the total in a closed box changes only
// by rounding. Inflow faces bring in the inflow's ink and density; outflow faces let it leave.
// Writes ink_out / density_out only for the fields whose scheme is conservative.

// cell_tmp: slot 28 of the binding table (shared/grid.wgsl).

const SCHEME_CONSERVATIVE: u32 = 3u;

fn courant(vel: f32) -> f32 { return abs(vel) * params.dt / params.h; }

@compute @workgroup_size(8, 8)
fn outflow_scale(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let out = courant(min(u_face_value(i, j), 0.0)) + courant(max(u_face_value(i + 1, j), 0.0)) + courant(min(v_face_value(i, j), 0.0))
        + courant(max(v_face_value(i, j + 1), 0.0));
    cell_tmp[cell_idx(i, j)] = select(1.0, min(1.0, 0.999999 / out), out > 0.0);
}

// Content (r, g, b, density) and outflow scale of the cell at (i, j), which may lie outside
// the domain: wrapped on periodic sides, the inflow's values on inflow sides, else nothing.
struct Donor {
    q: vec4<f32>,
    scale: f32,
}

fn donor(i: i32, j: i32) -> Donor {
    var a = i;
    var b = j;
    let side = side_outside(a, b, nx(), ny());
    if side < 4u {
        let kind = params.bc_kind[side];
        if kind == BC_INFLOW {
            return Donor(vec4<f32>(params.inflow_ink_r[side], params.inflow_ink_g[side], params.inflow_ink_b[side], params.inflow_density[side]), 1.0);
        }
        if kind != BC_PERIODIC { return Donor(vec4<f32>(0.0), 0.0); }
        a = wrap(a, nx());
        b = wrap(b, ny());
    }
    let c = cell_idx(a, b);
    return Donor(vec4<f32>(ink[3u * c], ink[3u * c + 1u], ink[3u * c + 2u], density[c]), cell_tmp[c]);
}

// What crosses a face from the low side (cell a) to the high side (cell b) this step; negative
// when the flow goes the other way.
fn transfer(vel: f32, a: vec2<i32>, b: vec2<i32>) -> vec4<f32> {
    if vel > 0.0 {
        let d = donor(a.x, a.y);
        return d.q * (courant(vel) * d.scale);
    }
    if vel < 0.0 {
        let d = donor(b.x, b.y);
        return -(d.q * (courant(vel) * d.scale));
    }
    return vec4<f32>(0.0);
}

@compute @workgroup_size(8, 8)
fn transport(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let c = cell_idx(i, j);
    var q = vec4<f32>(0.0);
    if !is_solid(i, j) {
        let here = vec2<i32>(i, j);
        q = vec4<f32>(ink[3u * c], ink[3u * c + 1u], ink[3u * c + 2u], density[c]);
        q += transfer(u_face_value(i, j), vec2<i32>(i - 1, j), here);
        q -= transfer(u_face_value(i + 1, j), here, vec2<i32>(i + 1, j));
        q += transfer(v_face_value(i, j), vec2<i32>(i, j - 1), here);
        q -= transfer(v_face_value(i, j + 1), here, vec2<i32>(i, j + 1));
    }
    if params.schemes.y == SCHEME_CONSERVATIVE {
        let k = exp(-params.ink_dissipation * params.dt);
        ink_out[3u * c] = q.x * k;
        ink_out[3u * c + 1u] = q.y * k;
        ink_out[3u * c + 2u] = q.z * k;
    }
    if params.schemes.z == SCHEME_CONSERVATIVE {
        density_out[c] = q.w * exp(-params.density_drain * params.dt);
    }
}
