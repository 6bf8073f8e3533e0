// Semi-Lagrangian advection of the edge velocities: each face looks back along the flow (a
// midpoint back-trace through the two staggered bilinear stencils) and takes the velocity found
// there. Reads u, v; writes u_out, v_out. Prescribed faces keep their prescribed value.

// Bindings (numbers: `slot` in src/sim/kernel.rs).
@group(0) @binding(1) var<storage, read> u: array<f32>;
@group(0) @binding(2) var<storage, read> v: array<f32>;
@group(0) @binding(7) var<storage, read> solid: array<f32>;
@group(0) @binding(8) var<storage, read_write> u_out: array<f32>;
@group(0) @binding(9) var<storage, read_write> v_out: array<f32>;

@compute @workgroup_size(8, 8)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = i32(id.x);
    let j = i32(id.y);
    let h = params.h;
    if i <= nx() && j < ny() {
        let f = u_face(i, j);
        var value = f.value;
        if !f.fixed {
            var fi = i;
            if periodic_x() && i == nx() { fi = 0; }
            value = sample_u(trace_back(vec2<f32>(f32(fi) * h, (f32(j) + 0.5) * h)));
        }
        u_out[u_idx(i, j)] = value;
    }
    if i < nx() && j <= ny() {
        let f = v_face(i, j);
        var value = f.value;
        if !f.fixed {
            var fj = j;
            if periodic_y() && j == ny() { fj = 0; }
            value = sample_v(trace_back(vec2<f32>((f32(i) + 0.5) * h, f32(fj) * h)));
        }
        v_out[v_idx(i, j)] = value;
    }
}
