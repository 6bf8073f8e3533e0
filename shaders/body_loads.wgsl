// Forces on bodies: the pressure and viscous stress on every solid face that borders fluid,
// summed per body (a connected group of solid cells) into the stats buffer. CPU twin:
// src/sim/cpu/body_loads.rs; the faces are listed once a state is loaded (src/sim/body_loads.rs
// `FaceList`), since obstacles do not move.
//
// A face between body cell and fluid cell c, outward normal n from the body, side h:
//   pressure: −p[c] h n (p at the fluid cell's centre, half a cell off the face);
//   shear: the tangential velocity t of c (the mean of its two faces along the body's face, half a
//   cell from it) against the still, no-slip face: ρν t / (h/2) over h, so 2ρν t along the face
//   (as shaders/viscosity.wgsl treats a face closed by a solid cell). The viscous normal stress
//   2ρν ∂u_n/∂n is zero on a no-slip face (∂u_n/∂n = −∂u_t/∂t = 0 there).
// Forces are per metre of depth (N/m).

@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> p: array<f32>;
// [start, end) of each body's faces (2 MAX_BODIES words), then two words a face: the fluid cell
// and which side of the body it lies on (FLUID_*).
@group(0) @binding(3) var<storage, read> body_faces: array<u32>;
@group(0) @binding(4) var<storage, read_write> stats: array<f32>;

// Where the bodies' forces go in the stats buffer (src/sim/buffers.rs `STATS_BODIES_AT`).
override STATS_AT: u32 = 6u;
// Keep in sync with `MAX_BODIES` in src/sim/buffers.rs.
const MAX_BODIES: u32 = 8u;

// Which side of the body the fluid cell lies on. Keep in sync with src/sim/body_loads.rs.
const FLUID_RIGHT: u32 = 0u;
const FLUID_LEFT: u32 = 1u;
const FLUID_ABOVE: u32 = 2u;
const FLUID_BELOW: u32 = 3u;

// Face velocities; on a periodic axis the last face is the first.
fn u_edge(i: i32, j: i32) -> f32 { return u[u_idx(select(i, wrap(i, nx()), periodic_x()), j)]; }
fn v_edge(i: i32, j: i32) -> f32 { return v[v_idx(i, select(j, wrap(j, ny()), periodic_y()))]; }

// The force on the body through one face, from its fluid cell c on side `side`.
fn face_force(c: u32, side: u32) -> vec2<f32> {
    let i = i32(c % u32(nx()));
    let j = i32(c / u32(nx()));
    let push = p[c] * params.h;
    let shear = 2.0 * params.rho * params.viscosity;
    if side == FLUID_RIGHT || side == FLUID_LEFT {
        let along = 0.5 * (v_edge(i, j) + v_edge(i, j + 1));
        return vec2<f32>(select(push, -push, side == FLUID_RIGHT), shear * along);
    }
    let along = 0.5 * (u_edge(i, j) + u_edge(i + 1, j));
    return vec2<f32>(shear * along, select(push, -push, side == FLUID_ABOVE));
}

// A thread a body, over its faces in order: each sum is the same every run.
@compute @workgroup_size(MAX_BODIES)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let b = lid.x;
    var force = vec2<f32>(0.0, 0.0);
    for (var k = body_faces[2u * b]; k < body_faces[2u * b + 1u]; k++) {
        let at = 2u * MAX_BODIES + 2u * k;
        force += face_force(body_faces[at], body_faces[at + 1u]);
    }
    stats[STATS_AT + 2u * b] = force.x;
    stats[STATS_AT + 2u * b + 1u] = force.y;
}
