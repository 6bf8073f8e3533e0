// Probes: u, v, p, divergence and ink at a few points (metres, DESIGN.md §1: x from the left
// side, y up from the bottom) of the state after the step, into the stats buffer. CPU twin:
// src/sim/cpu/probes.rs.
//   u, v: the staggered bilinear samples (shared/velocity.wgsl `sample_u`, `sample_v`);
//   p: bilinear between cell centres, solid cells left out (shared/solid.wgsl `cell_stencil`);
//   div: the divergence of the cell the point lies in (0 in a solid cell);
//   ink: r + g + b, bilinear on the dye grid (`dye_stencil`).

@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> p: array<f32>;
@group(0) @binding(3) var<storage, read> solid: array<f32>;
@group(0) @binding(4) var<storage, read> ink: array<f32>;
// x, y of each probe, z = 1 where it is in use.
@group(0) @binding(5) var<storage, read> probe_points: array<vec4<f32>>;
@group(0) @binding(6) var<storage, read_write> stats: array<f32>;

// Where the probes' figures go in the stats buffer (src/sim/buffers.rs `STATS_PROBES_AT`).
override STATS_AT: u32 = 22u;
// Keep in sync with `MAX_PROBES` and `PROBE_FIGURES` in src/sim/buffers.rs.
const MAX_PROBES: u32 = 8u;
const PROBE_FIGURES: u32 = 5u;

fn ink_sum(a: i32, b: i32) -> f32 {
    let c = 3u * dye_idx(a, b);
    return ink[c] + ink[c + 1u] + ink[c + 2u];
}

@compute @workgroup_size(MAX_PROBES)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let point = probe_points[lid.x];
    if point.z == 0.0 { return; }
    let pos = point.xy;
    let s = cell_stencil(pos);
    let pressure = s.w.x * p[cell_idx(s.c00.x, s.c00.y)] + s.w.y * p[cell_idx(s.c10.x, s.c10.y)]
        + s.w.z * p[cell_idx(s.c01.x, s.c01.y)] + s.w.w * p[cell_idx(s.c11.x, s.c11.y)];
    let i = clamp(i32(floor(pos.x / params.h)), 0, nx() - 1);
    let j = clamp(i32(floor(pos.y / params.h)), 0, ny() - 1);
    var div = 0.0;
    if !is_solid(i, j) {
        div = (u_face_value(i + 1, j) - u_face_value(i, j) + v_face_value(i, j + 1) - v_face_value(i, j)) / params.h;
    }
    let d = dye_stencil(pos);
    let dye = d.w.x * ink_sum(d.c00.x, d.c00.y) + d.w.y * ink_sum(d.c10.x, d.c10.y) + d.w.z * ink_sum(d.c01.x, d.c01.y)
        + d.w.w * ink_sum(d.c11.x, d.c11.y);
    let at = STATS_AT + PROBE_FIGURES * lid.x;
    stats[at] = sample_u(pos);
    stats[at + 1u] = sample_v(pos);
    stats[at + 2u] = pressure;
    stats[at + 3u] = div;
    stats[at + 4u] = dye;
}
