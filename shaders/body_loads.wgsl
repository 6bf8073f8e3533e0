// Forces on bodies: the pressure and viscous stress on every solid face that borders fluid,
// summed per body (a connected group of solid cells) into the stats buffer. CPU twin:
// src/sim/cpu/body_loads.rs; the contacts are listed once a state is loaded (src/sim/body_loads.rs
// `contacts`), since obstacles do not move.
//
// Pressure: a body face with outward normal n and fluid cell c beside it takes −p[c] h n (the
// pressure solve's Neumann condition puts the face's pressure at the cell's).
// Shear: exactly the momentum the implicit viscosity (shaders/viscosity.wgsl) moves from the fluid
// into the body's faces, so the fluid's loss is the body's gain. A free face u whose tangential
// neighbour is closed by the body sees a still no-slip wall half a cell away: ρν (0 − u)/(h/2)
// over a face of length h, so the body takes 2ρν u along the face; one whose neighbour in line
// is the body's face (held at 0, a cell away) gives it ρν u. On a flat wall this is the
// one-sided wall shear μ ∂u_t/∂n; the viscous normal stress 2μ ∂u_n/∂n of the continuum is zero
// on a no-slip wall (∂u_n/∂n = −∂u_t/∂t = 0 there) and the in-line term's u is small beside one.
// Forces are per metre of depth (N/m).

@group(0) @binding(0) var<storage, read> u: array<f32>;
@group(0) @binding(1) var<storage, read> v: array<f32>;
@group(0) @binding(2) var<storage, read> p: array<f32>;
// [start, end) of each body's contacts (2 MAX_BODIES words), then two words a contact: a fluid
// cell and its side (FLUID_*), or a u or v face and how it meets the body (SHEAR_*).
@group(0) @binding(3) var<storage, read> body_faces: array<u32>;
@group(0) @binding(4) var<storage, read_write> stats: array<f32>;

// Where the bodies' forces go in the stats buffer (src/sim/buffers.rs `STATS_BODIES_AT`).
override STATS_AT: u32 = 6u;
// Keep in sync with `MAX_BODIES` in src/sim/buffers.rs.
const MAX_BODIES: u32 = 8u;

// What a contact carries. Keep in sync with src/sim/body_loads.rs.
const FLUID_RIGHT: u32 = 0u;
const FLUID_LEFT: u32 = 1u;
const FLUID_ABOVE: u32 = 2u;
const SHEAR_U_IN_LINE: u32 = 4u;
const SHEAR_V_IN_LINE: u32 = 6u;

// The force on the body through one contact.
fn contact_force(index: u32, kind: u32) -> vec2<f32> {
    if kind < SHEAR_U_IN_LINE {
        let push = p[index] * params.h;
        if kind == FLUID_RIGHT || kind == FLUID_LEFT { return vec2<f32>(select(push, -push, kind == FLUID_RIGHT), 0.0); }
        return vec2<f32>(0.0, select(push, -push, kind == FLUID_ABOVE));
    }
    // in line: once; beside: twice (the wall half a cell away)
    let drag = params.rho * params.viscosity * f32(1u + (kind & 1u));
    if kind < SHEAR_V_IN_LINE { return vec2<f32>(drag * u[index], 0.0); }
    return vec2<f32>(0.0, drag * v[index]);
}

// A thread a body, over its faces in order: each sum is the same every run.
@compute @workgroup_size(MAX_BODIES)
fn main(@builtin(local_invocation_id) lid: vec3<u32>) {
    let b = lid.x;
    var force = vec2<f32>(0.0, 0.0);
    for (var k = body_faces[2u * b]; k < body_faces[2u * b + 1u]; k++) {
        let at = 2u * MAX_BODIES + 2u * k;
        force += contact_force(body_faces[at], body_faces[at + 1u]);
    }
    stats[STATS_AT + 2u * b] = force.x;
    stats[STATS_AT + 2u * b + 1u] = force.y;
}
