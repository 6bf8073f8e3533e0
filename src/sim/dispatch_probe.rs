//! GPU time of each dispatch (`smokebox bench --dispatches`): while a probe is installed on this
//! thread, every dispatch the simulation records (`Kernel::dispatch*`, the solvers' `Launch::go`)
//! writes a timestamp before and after itself, so one step's time can be split by kernel, where the
//! profiler's scopes only split it by pass. Needs timestamps inside passes; costs nothing when no
//! probe is installed.
//!
//! On a CPU adapter (lavapipe) single figures are a guide only: gated-off dispatches read about
//! 0.3 ms, as much as working ones, and some working dispatches read 0.02 ms while the next one
//! reads their time. The marginal cost of a kernel is then better read from
//! `SMOKEBOX_REPEAT=label,...`: each of those kernels is dispatched ten times instead of once (the
//! results change; its cost a step is the difference in `run --stats` ms over nine).

use std::cell::RefCell;
use std::sync::OnceLock;

/// The kernels `SMOKEBOX_REPEAT` names (a profiling aid; see the top).
fn repeated() -> &'static [String] {
    static REPEAT: OnceLock<Vec<String>> = OnceLock::new();
    REPEAT.get_or_init(|| std::env::var("SMOKEBOX_REPEAT").map(|s| s.split(',').map(str::to_string).collect()).unwrap_or_default())
}

/// Timestamps around the dispatches of the steps recorded while installed.
pub struct DispatchProbe {
    set: wgpu::QuerySet,
    resolved: wgpu::Buffer,
    readable: wgpu::Buffer,
    /// The kernel of each dispatch probed, in recording order.
    labels: Vec<String>,
    capacity: u32,
}

thread_local! {
    static PROBE: RefCell<Option<DispatchProbe>> = const { RefCell::new(None) };
}

impl DispatchProbe {
    /// A probe for up to `dispatches` dispatches, or `None` where the device cannot time inside a
    /// pass.
    pub fn new(device: &wgpu::Device, dispatches: u32) -> Option<DispatchProbe> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES) {
            return None;
        }
        let capacity = (2 * dispatches).min(wgpu::QUERY_SET_MAX_QUERIES);
        let set = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("dispatch probe"),
            ty: wgpu::QueryType::Timestamp,
            count: capacity,
        });
        let bytes = capacity as u64 * 8;
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor { label: Some(label), size: bytes, usage, mapped_at_creation: false })
        };
        let resolved = buffer("dispatch probe resolved", wgpu::BufferUsages::QUERY_RESOLVE | wgpu::BufferUsages::COPY_SRC);
        let readable = buffer("dispatch probe read", wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST);
        Some(DispatchProbe { set, resolved, readable, labels: Vec::new(), capacity })
    }

    /// Probes the dispatches this thread records from now on.
    pub fn install(self) {
        PROBE.with(|p| *p.borrow_mut() = Some(self));
    }

    /// The installed probe, no longer probing.
    pub fn uninstall() -> Option<DispatchProbe> {
        PROBE.with(|p| p.borrow_mut().take())
    }

    /// Copies the timestamps into the readable buffer (after the probed passes).
    pub fn resolve(&self, encoder: &mut wgpu::CommandEncoder) {
        let count = 2 * self.labels.len() as u32;
        if count == 0 {
            return;
        }
        encoder.resolve_query_set(&self.set, 0..count, &self.resolved, 0);
        encoder.copy_buffer_to_buffer(&self.resolved, 0, &self.readable, 0, count as u64 * 8);
    }

    /// Each probed dispatch's kernel and GPU milliseconds, in recording order, and the
    /// milliseconds from the first one's start to the last one's end: what the step's dispatches
    /// took with the gaps between them (barriers, a CPU adapter's per-dispatch work). Blocking:
    /// the benchmark only.
    pub fn read(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> (Vec<(String, f64)>, f64) {
        let count = 2 * self.labels.len() as u64;
        if count == 0 {
            return (Vec::new(), 0.0);
        }
        let slice = self.readable.slice(..count * 8);
        slice.map_async(wgpu::MapMode::Read, |_| {});
        if device.poll(wgpu::PollType::wait_indefinitely()).is_err() {
            return (Vec::new(), 0.0);
        }
        let ticks: Vec<u64> = bytemuck::cast_slice(&slice.get_mapped_range().expect("mapped")).to_vec();
        self.readable.unmap();
        let ms_per_tick = queue.get_timestamp_period() as f64 * 1e-6;
        let span = |k: usize| ticks[2 * k + 1].saturating_sub(ticks[2 * k]) as f64 * ms_per_tick;
        let whole = ticks[ticks.len() - 1].saturating_sub(ticks[0]) as f64 * ms_per_tick;
        (self.labels.iter().enumerate().map(|(k, l)| (l.clone(), span(k))).collect(), whole)
    }
}

/// Records `dispatch` into `pass`, timed when a probe is installed and has room (and nine times
/// more, untimed, when `SMOKEBOX_REPEAT` names it).
pub fn timed(pass: &mut wgpu::ComputePass<'_>, label: &str, dispatch: impl Fn(&mut wgpu::ComputePass<'_>)) {
    if repeated().iter().any(|k| k == label) {
        (0..9).for_each(|_| dispatch(pass));
    }
    let slot = PROBE.with(|p| {
        let mut p = p.borrow_mut();
        let probe = p.as_mut().filter(|probe| 2 * (probe.labels.len() as u32 + 1) <= probe.capacity)?;
        probe.labels.push(label.to_string());
        Some(2 * (probe.labels.len() as u32 - 1))
    });
    let Some(at) = slot else { return dispatch(pass) };
    PROBE.with(|p| pass.write_timestamp(&p.borrow().as_ref().expect("installed").set, at));
    dispatch(pass);
    PROBE.with(|p| pass.write_timestamp(&p.borrow().as_ref().expect("installed").set, at + 1));
}
