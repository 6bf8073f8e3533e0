//! A small, never-blocking read-back of the pressure and a divergence field for the panel's
//! pressure auto range, its min/max readout and the numbers printed in large cells. Every few
//! frames (when idle) both fields are copied into one MAP_READ staging buffer; the map request
//! is polled without waiting and the copy is used when it has arrived.

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
}

impl Snapshot {
    /// (min, max) of the pressure over the fluid cells' values.
    pub fn pressure_range(&self) -> Option<(f32, f32)> {
        let lo = self.p.iter().copied().fold(f32::INFINITY, f32::min);
        let hi = self.p.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        (lo <= hi).then_some((lo, hi))
    }
}

enum State {
    Idle,
    /// Copy recorded; map after the submit.
    Copied,
    Mapping(Arc<AtomicBool>),
}

pub struct FieldReadback {
    staging: wgpu::Buffer,
    nx: usize,
    ny: usize,
    state: State,
    frames: u32,
    pub latest: Option<Snapshot>,
}

impl FieldReadback {
    pub fn new(device: &wgpu::Device, nx: usize, ny: usize) -> FieldReadback {
        let staging = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("field readback"),
            size: (2 * nx * ny * 4) as u64,
            usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        FieldReadback { staging, nx, ny, state: State::Idle, frames: 0, latest: None }
    }

    /// Records a copy of `p` and `divergence` every `every` frames when none is in flight.
    pub fn encode(&mut self, encoder: &mut wgpu::CommandEncoder, p: &wgpu::Buffer, divergence: &wgpu::Buffer, every: u32) {
        self.frames += 1;
        if !matches!(self.state, State::Idle) || self.frames < every {
            return;
        }
        self.frames = 0;
        let bytes = (self.nx * self.ny * 4) as u64;
        encoder.copy_buffer_to_buffer(p, 0, &self.staging, 0, bytes);
        encoder.copy_buffer_to_buffer(divergence, 0, &self.staging, bytes, bytes);
        self.state = State::Copied;
    }

    /// After the submit that holds the copy: asks for the map (answered by a later poll).
    pub fn request_map(&mut self) {
        if matches!(self.state, State::Copied) {
            let flag = Arc::new(AtomicBool::new(false));
            let f = flag.clone();
            self.staging.slice(..).map_async(wgpu::MapMode::Read, move |r| f.store(r.is_ok(), Ordering::Release));
            self.state = State::Mapping(flag);
        }
    }

    /// Takes the copy if its map has arrived (after a non-blocking `device.poll`); true when new.
    pub fn collect(&mut self) -> bool {
        let State::Mapping(flag) = &self.state else { return false };
        if !flag.load(Ordering::Acquire) {
            return false;
        }
        let cells = self.nx * self.ny;
        let data: Vec<f32> = bytemuck::cast_slice(&self.staging.slice(..).get_mapped_range().expect("mapped")).to_vec();
        self.staging.unmap();
        self.state = State::Idle;
        self.latest = Some(Snapshot { nx: self.nx, ny: self.ny, p: data[..cells].to_vec(), divergence: data[cells..].to_vec() });
        true
    }
}
