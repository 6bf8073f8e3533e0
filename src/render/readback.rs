//! A small, never-blocking read-back of the pressure and a divergence field for the panel's
//! pressure auto range, its min/max readout and the numbers printed in large cells, and of the
//! edge velocities for the curl view's auto range (only while that is asked for). Every few
//! frames (when idle) the fields are copied into MAP_READ staging buffers; the map request is
//! polled without waiting and the copy is used when it has arrived.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The fields as last read back.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Snapshot {
    pub nx: usize,
    pub ny: usize,
    /// Pressure, Pa, row by row from the bottom.
    pub p: Vec<f32>,
    /// Divergence, 1/s (before or after projection, whichever was asked for).
    pub divergence: Vec<f32>,
    /// `divergence` is the one left after the solve's correction.
    pub divergence_after: bool,
}

impl Snapshot {
    /// (min, max) of the pressure over the fluid cells' values.
    pub fn pressure_range(&self) -> Option<(f32, f32)> {
        let lo = self.p.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = self.p.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (lo <= hi).then_some((lo, hi))
    }

    /// The largest |divergence| read back (None where every value is 0 or there are none).
    pub fn divergence_range(&self) -> Option<f32> {
        let m = self.divergence.iter().fold(0.0f32, |m, d| if d.is_finite() { m.max(d.abs()) } else { m });
        (m > 0.0).then_some(m)
    }
}

/// One staging buffer's trip: copied by an encoder, mapped after the submit, taken once arrived.
struct Trip {
    staging: wgpu::Buffer,
    state: State,
}

enum State {
    Idle,
    /// Copy recorded; map after the submit.
    Copied,
    Mapping(Arc<AtomicBool>),
}

impl Trip {
    fn new(device: &wgpu::Device, label: &str, bytes: u64) -> Trip {
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size: bytes.max(4),
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        Trip { staging, state: State::Idle }
    }

    fn idle(&self) -> bool {
        matches!(self.state, State::Idle)
    }

    fn request_map(&mut self) {
        if matches!(self.state, State::Copied) {
            let flag = Arc::new(AtomicBool::new(false));
            let f = flag.clone();
            self.staging.slice(..).map_async(wgpu::MapMode::Read, move |r| f.store(r.is_ok(), Ordering::Release));
            self.state = State::Mapping(flag);
        }
    }

    /// The staging buffer's floats if its map has arrived.
    fn take(&mut self) -> Option<Vec<f32>> {
        let State::Mapping(flag) = &self.state else { return None };
        if !flag.load(Ordering::Acquire) {
            return None;
        }
        let data: Vec<f32> = bytemuck::cast_slice(&self.staging.slice(..).get_mapped_range().expect("mapped")).to_vec();
        self.staging.unmap();
        self.state = State::Idle;
        Some(data)
    }
}

pub struct FieldReadback {
    trip: Trip,
    /// u then v, made the first time the curl's range is asked for (it doubles the staging).
    velocity: Option<Trip>,
    device: wgpu::Device,
    nx: usize,
    ny: usize,
    /// The cell size of the velocity in flight, metres.
    h: f32,
    frames: u32,
    /// The divergence copied by the trip in flight is the one after the solve.
    after: bool,
    pub latest: Option<Snapshot>,
    /// The largest |ω| (1/s) of the last velocity read back (src/render/curl.rs).
    pub curl_max: Option<f32>,
}

/// The edge velocities to read back with the fields: u, v and the cell size (metres).
pub struct EdgeVelocity<'a> {
    pub u: &'a wgpu::Buffer,
    pub v: &'a wgpu::Buffer,
    pub h: f32,
}

impl FieldReadback {
    pub fn new(device: &wgpu::Device, nx: usize, ny: usize) -> FieldReadback {
        FieldReadback {
            trip: Trip::new(device, "field readback", (2 * nx * ny * 4) as u64),
            velocity: None,
            device: device.clone(),
            nx,
            ny,
            h: 1.0,
            frames: 0,
            after: false,
            latest: None,
            curl_max: None,
        }
    }

    /// Records a copy of `p` and `divergence` (and whether it is the one after the solve; and of
    /// the velocity, when given) every `every` frames when none is in flight.
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        p: &wgpu::Buffer,
        (divergence, after): (&wgpu::Buffer, bool),
        velocity: Option<EdgeVelocity>,
        every: u32,
    ) {
        self.frames += 1;
        if !self.trip.idle() || self.velocity.as_ref().is_some_and(|t| !t.idle()) || self.frames < every {
            return;
        }
        self.frames = 0;
        let bytes = (self.nx * self.ny * 4) as u64;
        encoder.copy_buffer_to_buffer(p, 0, &self.trip.staging, 0, bytes);
        encoder.copy_buffer_to_buffer(divergence, 0, &self.trip.staging, bytes, bytes);
        self.after = after;
        self.trip.state = State::Copied;
        if let Some(vel) = velocity {
            let (u_bytes, v_bytes) = (((self.nx + 1) * self.ny * 4) as u64, (self.nx * (self.ny + 1) * 4) as u64);
            let trip = self.velocity.get_or_insert_with(|| Trip::new(&self.device, "velocity readback", u_bytes + v_bytes));
            encoder.copy_buffer_to_buffer(vel.u, 0, &trip.staging, 0, u_bytes);
            encoder.copy_buffer_to_buffer(vel.v, 0, &trip.staging, u_bytes, v_bytes);
            trip.state = State::Copied;
            self.h = vel.h;
        }
    }

    /// After the submit that holds the copy: asks for the map (answered by a later poll).
    pub fn request_map(&mut self) {
        self.trip.request_map();
        if let Some(t) = &mut self.velocity {
            t.request_map();
        }
    }

    /// Takes the copies whose maps have arrived (after a non-blocking `device.poll`); true when
    /// anything is new.
    pub fn collect(&mut self) -> bool {
        let (nx, ny) = (self.nx, self.ny);
        let mut new = false;
        if let Some(data) = self.velocity.as_mut().and_then(Trip::take) {
            let (u, v) = data.split_at((nx + 1) * ny);
            self.curl_max = Some(super::curl::max_abs_curl(u, v, nx, ny, self.h));
            new = true;
        }
        let Some(data) = self.trip.take() else { return new };
        let cells = nx * ny;
        self.latest =
            Some(Snapshot { nx, ny, p: data[..cells].to_vec(), divergence: data[cells..].to_vec(), divergence_after: self.after });
        true
    }
}

/// What the hover readout shows for the cell under the cursor.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CellReadout {
    pub i: usize,
    pub j: usize,
    /// u on the left and right faces, v on the bottom and top faces, m/s.
    pub u_faces: [f32; 2],
    pub v_faces: [f32; 2],
    /// Pressure, Pa; divergence, 1/s (of the buffer the probe was given).
    pub p: f32,
    pub divergence: f32,
    /// The divergence is the one left after the pressure solve's correction (else the one the
    /// solve started from).
    pub divergence_after: bool,
    /// Ink of the dye cell under the cursor.
    pub ink: [f32; 3],
    pub solid: bool,
}

impl CellReadout {
    /// Velocity at the cell centre: the mean of each pair of faces, m/s.
    pub fn velocity(&self) -> [f32; 2] {
        [0.5 * (self.u_faces[0] + self.u_faces[1]), 0.5 * (self.v_faces[0] + self.v_faces[1])]
    }

    /// One line for the panel: every value with its unit.
    pub fn text(&self) -> String {
        self.text_as(&format!("div {}", divergence_when(self.divergence_after)), "1/s")
    }

    /// The line where the divergence-after buffer holds a multigrid level's picture (the stage
    /// view, src/sim/level_picture.rs): its value is the level's, in Pa.
    pub fn level_text(&self) -> String {
        self.text_as("V-cycle level", "Pa")
    }

    fn text_as(&self, divergence: &str, unit: &str) -> String {
        let [u, v] = self.velocity();
        format!(
            "cell ({}, {}){}  u {u:+.3} m/s  v {v:+.3} m/s  p {:+.4} Pa  {divergence} {:+.3e} {unit}  ink ({:.2}, {:.2}, {:.2})",
            self.i,
            self.j,
            if self.solid { " solid" } else { "" },
            self.p,
            self.divergence,
            self.ink[0],
            self.ink[1],
            self.ink[2]
        )
    }
}

/// Which divergence a figure is: the one the pressure solve started from or the one its
/// correction left (a learner must not read the first as the flow's).
pub fn divergence_when(after: bool) -> &'static str {
    if after { "after the correction" } else { "before the solve" }
}

/// The hover readout's read-back: a few floats of the cell under the cursor, copied when asked
/// and never waited for (the same trip as `FieldReadback`).
pub struct CellProbe {
    trip: Trip,
    asked: Option<(usize, usize, bool)>,
    pub latest: Option<CellReadout>,
}

/// Floats a probe copies: u left/right, v bottom/top, p, divergence, solid, ink r, g, b.
const PROBE_FLOATS: u64 = 10;

impl CellProbe {
    pub fn new(device: &wgpu::Device) -> CellProbe {
        CellProbe { trip: Trip::new(device, "cell probe", PROBE_FLOATS * 4), asked: None, latest: None }
    }

    /// Records the copy of cell (i, j)'s values (when none is in flight) and the dye cell at
    /// `dye` (dye grid indices); `divergence` is the buffer the overlay shows, and whether it is
    /// the divergence after the solve.
    pub fn encode(
        &mut self,
        encoder: &mut wgpu::CommandEncoder,
        sim: &crate::sim::Simulation,
        (divergence, after): (&wgpu::Buffer, bool),
        cell: [usize; 2],
        dye: [usize; 2],
    ) {
        let ([i, j], (nx, ny)) = (cell, (sim.nx, sim.ny));
        if !self.trip.idle() || i >= nx || j >= ny {
            return;
        }
        let b = &sim.buffers;
        let k = sim.dye_scale;
        let d = (dye[1].min(k * ny - 1) * k * nx + dye[0].min(k * nx - 1)) as u64;
        let (c, ui, vi) = ((j * nx + i) as u64, (j * (nx + 1) + i) as u64, (j * nx + i) as u64);
        let copies: [(&wgpu::Buffer, u64, u64); 7] = [
            (&b.u, ui, 2),
            (&b.v, vi, 1),
            (&b.v, vi + nx as u64, 1),
            (&b.p, c, 1),
            (divergence, c, 1),
            (&b.solid, c, 1),
            (&b.ink, 3 * d, 3),
        ];
        let mut at = 0u64;
        for (buffer, offset, count) in copies {
            encoder.copy_buffer_to_buffer(buffer, offset * 4, &self.trip.staging, at * 4, count * 4);
            at += count;
        }
        self.asked = Some((i, j, after));
        self.trip.state = State::Copied;
    }

    /// After the submit that holds the copy.
    pub fn request_map(&mut self) {
        self.trip.request_map();
    }

    /// Takes the values if they have arrived; true when new.
    pub fn collect(&mut self) -> bool {
        let (Some(x), Some((i, j, after))) = (self.trip.take(), self.asked) else { return false };
        self.latest = Some(CellReadout {
            i,
            j,
            u_faces: [x[0], x[1]],
            v_faces: [x[2], x[3]],
            p: x[4],
            divergence: x[5],
            divergence_after: after,
            solid: x[6] > 0.5,
            ink: [x[7], x[8], x[9]],
        });
        true
    }
}
