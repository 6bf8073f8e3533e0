//! Adapter and device: one place that finds a GPU (or lavapipe), asks for the limits the
//! simulation needs and explains what to install when there is none.

use crate::error::{Error, Result};
use crate::platform::BrowserAdapter;

pub const NO_ADAPTER_HELP: &str = "no GPU adapter found: smokebox needs Vulkan, Metal or DirectX 12; \
on a machine without a GPU install Mesa's software Vulkan driver lavapipe \
(Debian/Ubuntu: sudo apt-get install mesa-vulkan-drivers)";

/// A device and its queue, with the adapter they came from.
#[derive(Clone)]
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
    /// The device's first fault, when it was opened with [`OnFault::Record`].
    pub fault: FaultSlot,
    /// In a browser, what it says of its adapter (wgpu's WebGPU back end names none).
    pub browser: Option<crate::platform::BrowserAdapter>,
    /// This device among those the process opened (wgpu's own ids repeat across instances): what
    /// the kernels built on it are kept by (`sim::kernel`'s cache).
    pub serial: u64,
}

/// The serials of the `Gpu`s open now (what `sim::kernel` keeps kernels for).
static OPEN: std::sync::Mutex<Vec<u64>> = std::sync::Mutex::new(Vec::new());

/// Whether the `Gpu` with this serial is still open.
pub fn is_open(serial: u64) -> bool {
    OPEN.lock().unwrap_or_else(|e| e.into_inner()).contains(&serial)
}

impl Drop for Gpu {
    fn drop(&mut self) {
        OPEN.lock().unwrap_or_else(|e| e.into_inner()).retain(|&s| s != self.serial);
    }
}

impl Gpu {
    /// A device with no surface, for the command line and the tests (native entry points, which
    /// block on the async set-up): a fault exits.
    #[cfg(not(target_arch = "wasm32"))]
    pub fn headless() -> Result<Gpu> {
        pollster::block_on(Self::headless_async())
    }

    /// A device with no surface, awaited: a fault exits.
    pub async fn headless_async() -> Result<Gpu> {
        quiet_window_system_probe();
        let instance = wgpu::Instance::new(instance_descriptor());
        let adapter = instance
            .request_adapter(&wgpu::RequestAdapterOptions {
                power_preference: wgpu::PowerPreference::HighPerformance,
                force_fallback_adapter: false,
                compatible_surface: None,
                ..Default::default()
            })
            .await
            .map_err(|_| Error(NO_ADAPTER_HELP.into()))?;
        Self::open(instance, adapter, OnFault::Exit).await
    }

    /// [`Gpu::open`], blocking: for the native entry points (tests).
    #[cfg(not(target_arch = "wasm32"))]
    pub fn with_adapter(instance: wgpu::Instance, adapter: wgpu::Adapter, on_fault: OnFault) -> Result<Gpu> {
        pollster::block_on(Self::open(instance, adapter, on_fault))
    }

    /// A device for an adapter that was chosen elsewhere (the window picks one that can present);
    /// `on_fault` says what a lost device or out-of-memory does.
    pub async fn open(instance: wgpu::Instance, adapter: wgpu::Adapter, on_fault: OnFault) -> Result<Gpu> {
        // WebGPU's default limits on both platforms (device_descriptor): the page asks for 8
        // storage buffers a stage, not the adapter's (SwiftShader offers 10)
        let desc = device_descriptor(&adapter);
        let (device, queue) = adapter.request_device(&desc).await.map_err(|e| crate::error!("could not open the GPU device: {e}"))?;
        let fault = FaultSlot::default();
        let slot = fault.clone();
        device.on_uncaptured_error(std::sync::Arc::new(move |e: wgpu::Error| {
            slot.act(on_uncaptured(on_fault, slot.is_set(), &e));
        }));
        let slot = fault.clone();
        device.set_device_lost_callback(move |reason, message| {
            slot.act(on_lost(on_fault, slot.is_set(), reason, &message));
        });
        let browser = crate::platform::browser_adapter().await;
        if cfg!(target_arch = "wasm32") {
            PAGE_ON_SOFTWARE.store(browser.as_ref().is_some_and(BrowserAdapter::is_software), std::sync::atomic::Ordering::Relaxed);
        }
        static OPENED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let serial = OPENED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        OPEN.lock().unwrap_or_else(|e| e.into_inner()).push(serial);
        Ok(Gpu { instance, adapter, device, queue, fault, browser, serial })
    }

    /// A line that names the adapter, for logs and benchmark reports.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        // (a browser's WebGPU names no driver; the browser itself may name the adapter)
        let browser = self.browser.as_ref().map(|b| b.name.trim()).filter(|n| !n.is_empty());
        let name = if !info.name.trim().is_empty() { info.name.as_str() } else { browser.unwrap_or("the browser's WebGPU adapter") };
        match info.driver_info.trim() {
            "" => format!("{name} ({:?})", info.backend),
            driver => format!("{name} ({:?}, {driver})", info.backend),
        }
    }

    /// Whether the adapter is a CPU rasteriser (lavapipe/llvmpipe, SwiftShader, WARP), where the
    /// window picks lighter defaults (`app::rebuild::for_adapter`).
    pub fn is_software(&self) -> bool {
        let browser = self.browser.as_ref().is_some_and(BrowserAdapter::is_software);
        browser || is_software(&self.adapter.get_info())
    }

    /// Whether per-pass GPU timings can be measured.
    pub fn has_timestamps(&self) -> bool {
        self.device.features().contains(wgpu::Features::TIMESTAMP_QUERY)
    }
}

/// Exit status of a GPU that ran out of memory or was lost (driver reset, removed, hung): the
/// machine, not the input or smokebox, failed. Bad input is 2; a bug (a validation error) is 70.
pub const EXIT_GPU_FAILED: i32 = 3;
/// Exit status of a validation error: a bug in smokebox.
pub const EXIT_BUG: i32 = 70;

/// The one line and exit status for an error no scope caught: out-of-memory is the machine's
/// limit (status [`EXIT_GPU_FAILED`]), anything else a bug ([`EXIT_BUG`]).
pub fn uncaptured_error_report(e: &wgpu::Error) -> (String, i32) {
    match e {
        wgpu::Error::OutOfMemory { .. } => (OUT_OF_MEMORY.into(), EXIT_GPU_FAILED),
        other => {
            let text: Vec<String> = other.to_string().lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect();
            (format!("GPU error (a bug, please report): {}", text.join(" ")), EXIT_BUG)
        }
    }
}

/// The one line and exit status for a lost device, or `None` when it was dropped on purpose.
pub fn device_lost_report(reason: wgpu::DeviceLostReason, message: &str) -> Option<(String, i32)> {
    match reason {
        wgpu::DeviceLostReason::Destroyed => None,
        _ => Some((lost_line(&lost_reason(reason, message)), EXIT_GPU_FAILED)),
    }
}

/// What a fault of the device (lost, out of memory) does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnFault {
    /// Print its one line and exit with [`EXIT_GPU_FAILED`]: the command line and the tests.
    Exit,
    /// Record it in the [`FaultSlot`] and carry on: the app opens a new device on its next frame.
    Record,
}

/// What went wrong with a device the app recovers from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// Lost: a driver reset, a removed or hung GPU, `destroy()`; the driver's reason.
    Lost(String),
    OutOfMemory,
    /// The window's surface was lost: it and the device are made anew.
    SurfaceLost,
}

impl Fault {
    /// The line for the user once a new device runs the scene again.
    pub fn recovered(&self) -> String {
        let what = match self {
            Fault::Lost(why) => format!("the GPU device was lost ({why})"),
            Fault::OutOfMemory => "the GPU ran out of memory".to_string(),
            Fault::SurfaceLost => "the window's drawing surface was lost".to_string(),
        };
        format!("{what}; a new device was opened and the scene restarted")
    }

    /// The one line when no new device can take over (as the command line says it).
    pub fn fatal(&self) -> String {
        match self {
            Fault::Lost(why) => lost_line(why),
            Fault::OutOfMemory => OUT_OF_MEMORY.to_string(),
            Fault::SurfaceLost => "the window's drawing surface was lost and could not be made again".to_string(),
        }
    }
}

/// A device's first fault, shared with its callbacks (which run on wgpu's threads).
#[derive(Clone, Default, Debug)]
pub struct FaultSlot(std::sync::Arc<std::sync::Mutex<Option<Fault>>>);

impl FaultSlot {
    pub fn is_set(&self) -> bool {
        self.0.lock().map(|f| f.is_some()).unwrap_or(true)
    }

    /// The fault, if there was one (it stays recorded: later errors remain consequences).
    pub fn get(&self) -> Option<Fault> {
        self.0.lock().ok().and_then(|f| f.clone())
    }

    /// Records `fault` unless one came first.
    pub fn record(&self, fault: Fault) {
        if let Ok(mut f) = self.0.lock() {
            f.get_or_insert(fault);
        }
    }

    fn act(&self, verdict: Verdict) {
        match verdict {
            Verdict::Exit(line, status) => crate::platform::gpu_fault(&line, status),
            Verdict::Record(fault) => self.record(fault),
            Verdict::Ignore => {}
        }
    }
}

/// What a device callback does with an event.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    Exit(String, i32),
    Record(Fault),
    Ignore,
}

/// An error no scope caught, under `policy`, when the device has (`faulted`) or has not had a
/// fault recorded yet. A validation error is a bug either way, unless it follows a fault: work
/// on a lost device or on a buffer that could not be made fails too, as a consequence.
pub fn on_uncaptured(policy: OnFault, faulted: bool, e: &wgpu::Error) -> Verdict {
    let (line, status) = uncaptured_error_report(e);
    match (policy, faulted) {
        (OnFault::Record, true) => Verdict::Ignore,
        (OnFault::Record, false) if status == EXIT_GPU_FAILED => Verdict::Record(Fault::OutOfMemory),
        _ => Verdict::Exit(line, status),
    }
}

/// A lost device under `policy`. The command line ignores `destroy()` (never called on purpose
/// by smokebox, and a device dropped on purpose reports nothing); the app treats every loss,
/// `destroy()` included, as one to recover from, and keeps the first fault's reason.
pub fn on_lost(policy: OnFault, faulted: bool, reason: wgpu::DeviceLostReason, message: &str) -> Verdict {
    match policy {
        OnFault::Exit => match device_lost_report(reason, message) {
            Some((line, status)) => Verdict::Exit(line, status),
            None => Verdict::Ignore,
        },
        OnFault::Record if faulted => Verdict::Ignore,
        OnFault::Record => Verdict::Record(Fault::Lost(lost_reason(reason, message))),
    }
}

/// The driver's reason for a loss, on one line.
fn lost_reason(reason: wgpu::DeviceLostReason, message: &str) -> String {
    let why = message.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
    match (why.is_empty(), reason) {
        (false, _) => why,
        (true, wgpu::DeviceLostReason::Destroyed) => "the device was destroyed".into(),
        (true, _) => "no reason given".into(),
    }
}

fn lost_line(why: &str) -> String {
    format!("the GPU device was lost ({why}): the driver reset or the GPU went away; run again")
}

const OUT_OF_MEMORY: &str = "the GPU ran out of memory: try a smaller grid (grid.nx, grid.ny) or close other programs using the GPU";

/// The texture format to draw into a window with: a non-sRGB one when offered (the field shader
/// and egui write gamma-encoded colour), else the first; an error when the surface offers none.
pub fn surface_format(formats: &[wgpu::TextureFormat]) -> Result<wgpu::TextureFormat> {
    formats
        .iter()
        .copied()
        .find(|f| !f.is_srgb())
        .or_else(|| formats.first().copied())
        .ok_or_else(|| crate::error!("this window cannot be drawn into: the GPU adapter offers no surface format for it"))
}

/// Without a desktop session (`XDG_RUNTIME_DIR` unset or not an absolute path), Mesa's
/// device-select layer (and winit) still ask libwayland for a compositor, which prints
/// `error: XDG_RUNTIME_DIR is invalid or not set in the environment.` on every instance. No
/// compositor can be reached that way anyway (its socket lives in that folder), so point the
/// variable at a private empty folder: the probe finds no socket and stays silent, and a window
/// falls back to X11. Left alone when `WAYLAND_DISPLAY` is an absolute socket path. Done once,
/// before this process creates its first instance or event loop.
pub fn quiet_window_system_probe() {
    #[cfg(unix)]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let absolute = |var: &str| std::env::var_os(var).is_some_and(|d| std::path::Path::new(&d).is_absolute());
            if absolute("XDG_RUNTIME_DIR") || absolute("WAYLAND_DISPLAY") {
                return;
            }
            use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
            let uid = std::fs::metadata("/proc/self").map(|m| m.uid()).unwrap_or(0);
            let dir = std::env::temp_dir().join(format!("smokebox-runtime-{uid}"));
            let _ = std::fs::DirBuilder::new().mode(0o700).create(&dir);
            // use it only if it is ours and private, as a runtime directory must be
            let ours = std::fs::metadata(&dir).is_ok_and(|m| m.is_dir() && m.uid() == uid && m.permissions().mode() & 0o077 == 0);
            if ours {
                // SAFETY: runs once, before the first wgpu instance of this process; no other
                // thread of smokebox reads the environment meanwhile.
                unsafe { std::env::set_var("XDG_RUNTIME_DIR", &dir) };
            }
        });
    }
}

pub fn instance_descriptor() -> wgpu::InstanceDescriptor {
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle();
    // wgpu checks every indirect dispatch with a dispatch of its own (and rebinds the pass's
    // pipeline after it): the solves' gated units are all indirect, so that doubled their
    // dispatches. Their arguments come only from the arguments buffer, into which the gates copy
    // the full counts made here within the device's limits (solver_check::control_buffer) or
    // zeros, so the check cannot fail. D3D12 needs it for `@builtin(num_workgroups)` (the seam kernels),
    // and the variable WGPU_VALIDATION_INDIRECT_CALL=1 turns it back on.
    if !cfg!(windows) {
        desc.flags.remove(wgpu::InstanceFlags::VALIDATION_INDIRECT_CALL);
    }
    let mut desc = desc.with_env();
    // The simulation needs compute shaders and storage buffers: GL is a last resort only.
    if std::env::var_os("WGPU_BACKEND").is_none() {
        desc.backends = wgpu::Backends::PRIMARY;
    }
    desc
}

/// Ask for WebGPU's default limits, as a browser's page must, so that a pass the page would be
/// refused (more than 8 storage buffers, too much workgroup memory) fails natively too; only the
/// buffer and texture sizes and dispatch counts, which bound the grid, go up to what the adapter offers. An adapter below the
/// defaults (a GL one) gets what it has.
pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
    let mut features = wgpu::Features::empty();
    for f in
        [wgpu::Features::TIMESTAMP_QUERY, wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS, wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES]
    {
        if adapter.features().contains(f) {
            features |= f;
        }
    }
    wgpu::DeviceDescriptor {
        label: Some("smokebox"),
        required_features: features,
        required_limits: limits_for(&adapter.limits()),
        ..Default::default()
    }
}

/// The limits smokebox asks an adapter with these limits for (see `device_descriptor`).
pub fn limits_for(adapter: &wgpu::Limits) -> wgpu::Limits {
    let webgpu = wgpu::Limits::default();
    if !webgpu.check_limits(adapter) {
        return adapter.clone();
    }
    wgpu::Limits {
        max_buffer_size: adapter.max_buffer_size,
        max_storage_buffer_binding_size: adapter.max_storage_buffer_binding_size,
        max_texture_dimension_2d: adapter.max_texture_dimension_2d,
        max_compute_workgroups_per_dimension: adapter.max_compute_workgroups_per_dimension,
        ..webgpu
    }
}

/// Whether `info` names a CPU adapter. A browser reports SwiftShader as "other" unless it is the
/// fallback adapter, so its name counts too.
/// Whether the page's WebGPU runs on a CPU rasteriser (SwiftShader), as the browser said when
/// its device opened: the kernels take `DeviceProfile::BROWSER_SOFTWARE` (src/sim/kernel/profile.rs).
pub fn page_on_software() -> bool {
    PAGE_ON_SOFTWARE.load(std::sync::atomic::Ordering::Relaxed)
}

static PAGE_ON_SOFTWARE: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

impl BrowserAdapter {
    /// A fallback adapter, or one whose name says it rasterises on the CPU.
    fn is_software(&self) -> bool {
        self.fallback || names_software(&self.name)
    }
}

pub fn is_software(info: &wgpu::AdapterInfo) -> bool {
    info.device_type == wgpu::DeviceType::Cpu || names_software(&info.name)
}

/// Whether an adapter's name is a CPU rasteriser's.
fn names_software(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["swiftshader", "llvmpipe", "lavapipe", "warp"].iter().any(|n| name.contains(n))
}
