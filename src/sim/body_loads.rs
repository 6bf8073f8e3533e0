//! Forces on bodies (shaders/body_loads.wgsl; CPU twin src/sim/cpu/body_loads.rs): drag and lift
//! of each body from the pressure and viscous stress on its faces, reduced on the GPU into the
//! stats buffer with the step's other figures. A body is a 4-connected group of solid cells,
//! labelled on the CPU when a state is loaded and again after each step that moves a dragged
//! body (`BodyLoads::follow_body`); cells painted with the obstacle brush belong to no body
//! until the next load or Reset.

use super::buffers::{MAX_BODIES, STATS_BODIES_AT};
use super::cpu::grid::{Grid, wrap};
use super::fields::Fields;
use super::kernel::Kernel;
use super::params::{BC_INFLOW, Params};
use super::stage::Ctx;
use crate::error::Result;
use wgpu::util::DeviceExt;

/// Which side of the body a face's fluid cell lies on (shaders/body_loads.wgsl `FLUID_*`).
pub const FLUID_RIGHT: u32 = 0;
pub const FLUID_LEFT: u32 = 1;
pub const FLUID_ABOVE: u32 = 2;
pub const FLUID_BELOW: u32 = 3;

/// One body: its cells' bounding box (cells, inclusive) and how many faces border fluid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Body {
    pub min: [usize; 2],
    pub max: [usize; 2],
    pub faces: usize,
}

/// The bodies of a state: each solid cell's body (1-based, 0: fluid, or a body past
/// `MAX_BODIES`), in the order a scan from the bottom-left cell first meets them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Bodies {
    pub label: Vec<u32>,
    pub bodies: Vec<Body>,
}

/// Labels the 4-connected groups of solid cells (a periodic axis joins across its seam): the
/// first `MAX_BODIES` met in scan order are bodies, the rest are left out (label 0).
pub fn label_bodies(f: &Fields, p: &Params) -> Bodies {
    let (nx, ny) = (f.nx, f.ny);
    let mut label = vec![0u32; nx * ny];
    let mut seen = vec![false; nx * ny];
    let mut bodies = Vec::new();
    let mut stack = Vec::new();
    for start in 0..nx * ny {
        if seen[start] || f.solid[start] <= 0.5 {
            continue;
        }
        let id = bodies.len() as u32 + 1;
        let counted = bodies.len() < MAX_BODIES;
        let mut body = Body { min: [start % nx, start / nx], max: [start % nx, start / nx], faces: 0 };
        seen[start] = true;
        stack.push(start);
        while let Some(c) = stack.pop() {
            let (i, j) = (c % nx, c / nx);
            if counted {
                label[c] = id;
                body.min = [body.min[0].min(i), body.min[1].min(j)];
                body.max = [body.max[0].max(i), body.max[1].max(j)];
            }
            for (_, n) in neighbours(i, j, nx, ny, p) {
                if f.solid[n] > 0.5 {
                    if !seen[n] {
                        seen[n] = true;
                        stack.push(n);
                    }
                } else if counted {
                    body.faces += 1;
                }
            }
        }
        if counted {
            bodies.push(body);
        }
    }
    Bodies { label, bodies }
}

/// The cells beside (i, j) inside the domain, wrapped on a periodic axis, with the side of
/// (i, j) each lies on (`FLUID_*`).
pub fn neighbours(i: usize, j: usize, nx: usize, ny: usize, p: &Params) -> impl Iterator<Item = (u32, usize)> {
    let (px, py) = (p.periodic_x(), p.periodic_y());
    let step = |a: usize, d: i64, n: usize, wraps: bool| -> Option<usize> {
        let b = a as i64 + d;
        if (0..n as i64).contains(&b) {
            Some(b as usize)
        } else if wraps {
            Some(b.rem_euclid(n as i64) as usize)
        } else {
            None
        }
    };
    [
        (FLUID_RIGHT, step(i, 1, nx, px).map(|a| j * nx + a)),
        (FLUID_LEFT, step(i, -1, nx, px).map(|a| j * nx + a)),
        (FLUID_ABOVE, step(j, 1, ny, py).map(|b| b * nx + i)),
        (FLUID_BELOW, step(j, -1, ny, py).map(|b| b * nx + i)),
    ]
    .into_iter()
    .filter_map(|(side, n)| n.map(|n| (side, n)))
}

/// What a contact between a body and the fluid carries (shaders/body_loads.wgsl `contact_force`):
/// 0-3, the pressure of the fluid cell on that side (`FLUID_*`); then the viscous drag of a free
/// face on the body's face beside it (`SHEAR_*`), as the implicit viscosity couples them
/// (shaders/viscosity.wgsl): a face closed by a solid cell tangentially beside the free face is a
/// still no-slip wall half a cell away (twice ν u / h² over the face's cell), one in line with it a
/// prescribed zero a cell away (once).
pub const SHEAR_U_IN_LINE: u32 = 4;
pub const SHEAR_U_BESIDE: u32 = 5;
pub const SHEAR_V_IN_LINE: u32 = 6;
pub const SHEAR_V_BESIDE: u32 = 7;

/// Each body's contacts with the fluid: (index, kind), the index a fluid cell for pressure
/// (`FLUID_*`), a u or v face for shear (`SHEAR_*`), body by body.
pub fn contacts(f: &Fields, p: &Params, bodies: &Bodies) -> Vec<Vec<[u32; 2]>> {
    let g = Grid::new(f, p);
    let (nx, ny) = (g.nx(), g.ny());
    let mut out: Vec<Vec<[u32; 2]>> = vec![Vec::new(); bodies.bodies.len()];
    let body = |i: i32, j: i32| {
        let (px, py) = (g.px(), g.py());
        let inside = (px || (0..nx).contains(&i)) && (py || (0..ny).contains(&j));
        if inside { bodies.label[g.cell(wrap(i, nx), wrap(j, ny))] } else { 0 }
    };
    for c in 0..f.nx * f.ny {
        if bodies.label[c] > 0 {
            for (side, n) in neighbours(c % f.nx, c / f.nx, f.nx, f.ny, p) {
                if f.solid[n] <= 0.5 {
                    out[bodies.label[c] as usize - 1].push([n as u32, side]);
                }
            }
        }
    }
    // the free faces of each axis (a periodic axis's last face is its first) and the solid cells
    // that close their neighbours: (kind, the face, the body behind the neighbour)
    let mut shear = |kind: u32, index: usize, b: u32| {
        if b > 0 {
            out[b as usize - 1].push([index as u32, kind]);
        }
    };
    for j in 0..ny {
        for i in 0..nx + if g.px() { 0 } else { 1 } {
            if g.u_face(i, j).fixed {
                continue;
            }
            for d in [-1, 1] {
                // in line: the face a cell on is the body's when the cell beyond this one is solid
                let beyond = if d > 0 { i } else { i - 1 };
                if (g.px() || (0..=nx).contains(&(i + d))) && g.u_face(i + d, j).fixed {
                    shear(SHEAR_U_IN_LINE, g.ui(i, j), body(beyond + d, j));
                }
                let w = j + d;
                if (g.py() || (0..ny).contains(&w)) && g.u_face(wrap(i, nx + 1), wrap(w, ny)).fixed {
                    shear(SHEAR_U_BESIDE, g.ui(i, j), body(i - 1, w).max(body(i, w)));
                }
            }
        }
    }
    for j in 0..ny + if g.py() { 0 } else { 1 } {
        for i in 0..nx {
            if g.v_face(i, j).fixed {
                continue;
            }
            for d in [-1, 1] {
                let beyond = if d > 0 { j } else { j - 1 };
                if (g.py() || (0..=ny).contains(&(j + d))) && g.v_face(i, j + d).fixed {
                    shear(SHEAR_V_IN_LINE, g.vi(i, j), body(i, beyond + d));
                }
                let w = i + d;
                if (g.px() || (0..nx).contains(&w)) && g.v_face(wrap(w, nx), wrap(j, ny + 1)).fixed {
                    shear(SHEAR_V_BESIDE, g.vi(i, j), body(w, j - 1).max(body(w, j)));
                }
            }
        }
    }
    out
}

/// The words of shaders/body_loads.wgsl's `body_faces`: each body's [start, end), then its
/// contacts (`contacts`), body by body.
pub fn face_list(f: &Fields, p: &Params, bodies: &Bodies) -> Vec<u32> {
    let per_body = contacts(f, p, bodies);
    let mut words = Vec::new();
    let mut at = 0u32;
    for b in 0..MAX_BODIES {
        let n = per_body.get(b).map_or(0, |c| c.len() as u32);
        words.extend([at, at + n]);
        at += n;
    }
    words.extend(per_body.iter().flatten().flatten());
    words
}

/// The flow the coefficients are measured against: the first inflow side's velocity (its mean
/// over the side where the profile is parabolic). None without an inflow.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reference {
    /// Speed U, m/s.
    pub speed: f32,
    /// Unit vector along the flow: drag is the force along it, lift the force a quarter turn
    /// anticlockwise from it.
    pub direction: [f32; 2],
}

impl Reference {
    pub fn from_params(p: &Params) -> Option<Reference> {
        let side = (0..4).find(|&s| p.bc_kind[s] == BC_INFLOW)?;
        let (x, y) = (p.inflow_u[side], p.inflow_v[side]);
        let peak = x.hypot(y);
        if peak == 0.0 {
            return None;
        }
        let mean = if p.inflow_parabolic & (1 << side) != 0 { peak * 2.0 / 3.0 } else { peak };
        Some(Reference { speed: mean, direction: [x / peak, y / peak] })
    }

    /// (drag, lift) of a force [x, y].
    pub fn drag_lift(&self, force: [f32; 2]) -> (f32, f32) {
        let [dx, dy] = self.direction;
        (force[0] * dx + force[1] * dy, -force[0] * dy + force[1] * dx)
    }

    /// A body's reference length: its extent across the flow, metres.
    pub fn length(&self, body: &Body, h: f32) -> f32 {
        let across = |a: usize| (body.max[a] - body.min[a] + 1) as f32 * h;
        if self.direction[0].abs() >= self.direction[1].abs() { across(1) } else { across(0) }
    }

    /// C = 2F / (ρ U² L).
    pub fn coefficient(&self, force: f32, rho: f32, length: f32) -> f32 {
        2.0 * force / (rho * self.speed * self.speed * length)
    }
}

/// The Strouhal number f·L/U of a lift signal (time, lift) whose frequency f is read from its
/// upward crossings of its own mean; None with fewer than three crossings (two periods).
pub fn strouhal(samples: &[(f64, f32)], length: f32, speed: f32) -> Option<f32> {
    if samples.len() < 4 || speed <= 0.0 {
        return None;
    }
    let mean = samples.iter().map(|s| s.1 as f64).sum::<f64>() / samples.len() as f64;
    let ups: Vec<f64> = samples
        .windows(2)
        .filter_map(|w| {
            let (a, b) = (w[0].1 as f64 - mean, w[1].1 as f64 - mean);
            (a < 0.0 && b >= 0.0).then(|| w[0].0 + (w[1].0 - w[0].0) * (-a / (b - a)))
        })
        .collect();
    if ups.len() < 3 {
        return None;
    }
    let period = (ups[ups.len() - 1] - ups[0]) / (ups.len() - 1) as f64;
    // fewer than 8 samples a period cannot tell the shedding from an alias of it
    let spacing = (samples[samples.len() - 1].0 - samples[0].0) / (samples.len() - 1) as f64;
    (period > 8.0 * spacing).then(|| (length as f64 / (period * speed as f64)) as f32)
}

/// What a step's figures say of one body.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct BodyReport {
    /// 1-based, in scan order from the bottom-left cell.
    pub body: usize,
    /// The force [x, y], N per metre of depth.
    pub force: [f32; 2],
    /// The force along the reference flow and a quarter turn anticlockwise from it (x and y
    /// without an inflow), N/m.
    pub drag: f32,
    pub lift: f32,
    /// Reference length L (the body's extent across the flow, m) and speed U (m/s), and
    /// C = 2F / (ρ U² L): None without an inflow.
    pub length: Option<f32>,
    pub speed: Option<f32>,
    pub cd: Option<f32>,
    pub cl: Option<f32>,
    /// f·L/U of the lift over the last `LIFT_WINDOW` samples (None until two periods are in).
    pub strouhal: Option<f32>,
}

/// Samples of lift a Strouhal number is read from: at 0.005 s a step, 10 s of flow, a dozen
/// periods of the wind tunnel's street.
pub const LIFT_WINDOW: usize = 2000;

/// The recent lift of each body and what it says: reports of each step's forces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiftHistory {
    samples: Vec<std::collections::VecDeque<(f64, f32)>>,
}

impl LiftHistory {
    /// The bodies' reports for a step's forces, its lift kept for the Strouhal number.
    pub fn report(&mut self, bodies: &Bodies, p: &Params, time: f64, forces: &[[f32; 2]]) -> Vec<BodyReport> {
        let reference = Reference::from_params(p);
        self.samples.resize(bodies.bodies.len(), Default::default());
        bodies
            .bodies
            .iter()
            .zip(forces)
            .zip(&mut self.samples)
            .enumerate()
            .map(|(n, ((body, &force), lifts))| {
                let (drag, lift) = reference.map_or((force[0], force[1]), |r| r.drag_lift(force));
                if lifts.len() == LIFT_WINDOW {
                    lifts.pop_front();
                }
                lifts.push_back((time, lift));
                let length = reference.map(|r| r.length(body, p.h));
                let speed = reference.map(|r| r.speed);
                let cd = reference.zip(length).map(|(r, l)| r.coefficient(drag, p.rho, l));
                let cl = reference.zip(length).map(|(r, l)| r.coefficient(lift, p.rho, l));
                let strouhal = length.zip(speed).and_then(|(l, u)| strouhal(lifts.make_contiguous(), l, u));
                BodyReport { body: n + 1, force, drag, lift, length, speed, cd, cl, strouhal }
            })
            .collect()
    }

    /// Forgets the samples (a new state).
    pub fn clear(&mut self) {
        self.samples.clear();
    }
}

/// The kernel and the current state's face list.
pub struct BodyLoads {
    kernel: Kernel,
    faces: wgpu::Buffer,
    group: wgpu::BindGroup,
    /// The bodies of the state last loaded, as a dragged body has moved since.
    pub bodies: Bodies,
    /// The solid cells the bodies were labelled from (only `solid` is filled): a dragged body's
    /// steps are followed on it (`follow_body`).
    mask: Fields,
}

impl BodyLoads {
    pub fn new(ctx: &Ctx) -> Result<BodyLoads> {
        let kernel = Kernel::with_options(ctx.target(), "body_loads", "main", &[("STATS_AT", STATS_BODIES_AT as f64)], true)?;
        let faces = face_buffer(ctx.device, &[0; 2 * MAX_BODIES]);
        let group = kernel.bind(ctx.device, &ctx.buffers.table().with("body_faces", &faces));
        let mask = solids_of(&Fields::zeros(0, 0));
        Ok(BodyLoads { kernel, faces, group, bodies: Bodies::default(), mask })
    }

    /// Labels the bodies of `f` and lists their faces for the kernel.
    pub fn set_state(&mut self, device: &wgpu::Device, buffers: &super::buffers::Buffers, f: &Fields, p: &Params) {
        self.mask = solids_of(f);
        self.list(device, buffers, p);
    }

    /// Relabels the kept solids as the step's dragged-body stage does on the GPU
    /// (shaders/move_body.wgsl, by its CPU twin's rule), and lists the bodies and their faces
    /// again where a cell changed: the forces of a body dragged elsewhere are those on its new
    /// faces. Obstacles painted since the last load are not in the kept solids.
    pub fn follow_body(&mut self, device: &wgpu::Device, buffers: &super::buffers::Buffers, p: &Params) {
        if p.body_stage == super::params::BODY_NONE || self.mask.solid.len() != p.nx as usize * p.ny as usize {
            return;
        }
        let nx = self.mask.nx;
        let mut changed = false;
        for (c, now) in self.mask.solid.iter_mut().enumerate() {
            if let Some((label, _)) = super::cpu::move_body::relabel(p, c % nx, c / nx, *now) {
                changed |= (label > 0.5) != (*now > 0.5);
                *now = label;
            }
        }
        if changed {
            self.list(device, buffers, p);
        }
    }

    fn list(&mut self, device: &wgpu::Device, buffers: &super::buffers::Buffers, p: &Params) {
        self.bodies = label_bodies(&self.mask, p);
        self.faces = face_buffer(device, &face_list(&self.mask, p, &self.bodies));
        self.group = self.kernel.bind(device, &buffers.table().with("body_faces", &self.faces));
    }

    /// Every body's force into the stats buffer (nothing to do without bodies).
    pub fn encode(&self, pass: &mut wgpu::ComputePass<'_>) {
        if !self.bodies.bodies.is_empty() {
            self.kernel.dispatch_groups(pass, &self.group, 1);
        }
    }
}

/// The solid cells of `f` alone (the labelling and the face list read nothing else).
fn solids_of(f: &Fields) -> Fields {
    Fields { nx: f.nx, ny: f.ny, dye_scale: 1, solid: f.solid.clone(), ..Fields::zeros(0, 0) }
}

fn face_buffer(device: &wgpu::Device, words: &[u32]) -> wgpu::Buffer {
    device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
        label: Some("body_faces"),
        contents: bytemuck::cast_slice(words),
        usage: wgpu::BufferUsages::STORAGE,
    })
}
