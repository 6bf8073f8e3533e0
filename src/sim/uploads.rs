//! Where each step's inputs (the constants and the splat list) wait to be copied into the
//! buffers the passes read: a slot a step in one buffer, written by `queue.write_buffer`. Every
//! step of a submission sees its own values, as a buffer made a step did, without making one:
//! in the browser a buffer mapped at creation is a shared-memory allocation and a trip to the GPU
//! process each time.
//!
//! A slot is written again only after `reset`, which the simulation calls once the submission
//! that copies from it is submitted (`Simulation::after_submit`); the queue orders that write after
//! the submitted copies. A caller that never submits through `after_submit` fills the buffer and
//! gets a new one, the old one living as long as the commands that read it.

/// Slots in a buffer: more steps than one submission records in the app (its steps a frame and
/// their sub-steps); past them a new buffer is made.
const SLOTS: u64 = 64;

pub struct Uploads {
    buffer: wgpu::Buffer,
    /// Bytes a slot: a step's inputs at most, rounded up to the copy alignment.
    slot: u64,
    next: u64,
}

impl Uploads {
    /// Slots for up to `bytes` each.
    pub fn new(device: &wgpu::Device, bytes: usize) -> Uploads {
        let slot = (bytes as u64).next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT.max(wgpu::MAP_ALIGNMENT));
        Uploads { buffer: Self::buffer(device, slot), slot, next: 0 }
    }

    fn buffer(device: &wgpu::Device, slot: u64) -> wgpu::Buffer {
        device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("step inputs"),
            size: slot * SLOTS,
            usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        })
    }

    /// Writes `bytes` (at most the slot's size, a multiple of 4) into the next free slot:
    /// the buffer and the slot's offset, to copy from.
    pub fn write(&mut self, device: &wgpu::Device, queue: &wgpu::Queue, bytes: &[u8]) -> (&wgpu::Buffer, u64) {
        debug_assert!(bytes.len() as u64 <= self.slot, "a step's inputs outgrew their slot");
        if self.next == SLOTS {
            self.buffer = Self::buffer(device, self.slot);
            self.next = 0;
        }
        let offset = self.next * self.slot;
        self.next += 1;
        queue.write_buffer(&self.buffer, offset, bytes);
        (&self.buffer, offset)
    }

    /// Every slot free again: call after submitting the commands that copy from them.
    pub fn reset(&mut self) {
        self.next = 0;
    }
}
