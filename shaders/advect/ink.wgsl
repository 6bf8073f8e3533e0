// Semi-Lagrangian transport of ink (RGB) and density at cell centres, then ink dissipation and
// density drain toward ambient (seed 001). Reads u, v, ink, density; writes ink_out, density_out.
// A back-trace that leaves through an inflow side picks up what that inflow carries; solid cells
// are never sampled and hold no ink.

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    if i >= nx() || j >= ny() { return; }
    let c = cell_idx(i, j);
    if is_solid(i, j) {
        ink_out[3u * c] = 0.0;
        ink_out[3u * c + 1u] = 0.0;
        ink_out[3u * c + 2u] = 0.0;
        density_out[c] = 0.0;
        return;
    }
    let h = params.h;
    let pos = vec2<f32>((f32(i) + 0.5) * h, (f32(j) + 0.5) * h);
    let back = trace_raw(pos, params.dt);

    // which inflow side, if any, the back-trace crossed
    let side = side_crossed(back);

    var rgb: vec3<f32>;
    var rho: f32;
    if side < 4u && params.bc_kind[side] == BC_INFLOW {
        rgb = vec3<f32>(params.inflow_ink_r[side], params.inflow_ink_g[side], params.inflow_ink_b[side]);
        rho = params.inflow_density[side];
    } else {
        let s = cell_stencil(clamp_to_domain(back));
        let c00 = cell_idx(s.c00.x, s.c00.y);
        let c10 = cell_idx(s.c10.x, s.c10.y);
        let c01 = cell_idx(s.c01.x, s.c01.y);
        let c11 = cell_idx(s.c11.x, s.c11.y);
        for (var k = 0u; k < 3u; k++) {
            rgb[k] = s.w.x * ink[3u * c00 + k] + s.w.y * ink[3u * c10 + k] + s.w.z * ink[3u * c01 + k] + s.w.w * ink[3u * c11 + k];
        }
        rho = s.w.x * density[c00] + s.w.y * density[c10] + s.w.z * density[c01] + s.w.w * density[c11];
    }
    let keep_ink = exp(-params.ink_dissipation * params.dt);
    let keep_density = exp(-params.density_drain * params.dt);
    ink_out[3u * c] = rgb.x * keep_ink;
    ink_out[3u * c + 1u] = rgb.y * keep_ink;
    ink_out[3u * c + 2u] = rgb.z * keep_ink;
    density_out[c] = rho * keep_density;
}
