//! Adapter and device: one place that finds a GPU (or lavapipe), asks for the limits the
//! simulation needs and explains what to install when there is none.

use crate::error::{Error, Result};

pub const NO_ADAPTER_HELP: &str = "no GPU adapter found: smokebox needs Vulkan, Metal or DirectX 12; \
on a machine without a GPU install Mesa's software Vulkan driver lavapipe \
(Debian/Ubuntu: sudo apt-get install mesa-vulkan-drivers)";

/// A device and its queue, with the adapter they came from.
pub struct Gpu {
    pub instance: wgpu::Instance,
    pub adapter: wgpu::Adapter,
    pub device: wgpu::Device,
    pub queue: wgpu::Queue,
}

impl Gpu {
    /// A device with no surface, for the command line and the tests.
    pub fn headless() -> Result<Gpu> {
        quiet_window_system_probe();
        let instance = wgpu::Instance::new(instance_descriptor());
        let adapter = pollster::block_on(instance.request_adapter(&wgpu::RequestAdapterOptions {
            power_preference: wgpu::PowerPreference::HighPerformance,
            force_fallback_adapter: false,
            compatible_surface: None,
            ..Default::default()
        }))
        .map_err(|_| Error(NO_ADAPTER_HELP.into()))?;
        Self::with_adapter(instance, adapter)
    }

    /// A device for an adapter that was chosen elsewhere (the window picks one that can present).
    pub fn with_adapter(instance: wgpu::Instance, adapter: wgpu::Adapter) -> Result<Gpu> {
        let (device, queue) = pollster::block_on(adapter.request_device(&device_descriptor(&adapter)))
            .map_err(|e| crate::error!("could not open the GPU device: {e}"))?;
        device.on_uncaptured_error(std::sync::Arc::new(|e: wgpu::Error| {
            let (line, status) = uncaptured_error_report(&e);
            eprintln!("smokebox: {line}");
            std::process::exit(status);
        }));
        device.set_device_lost_callback(|reason, message| {
            // dropping or destroying the device on purpose is not a failure
            if let Some((line, status)) = device_lost_report(reason, &message) {
                eprintln!("smokebox: {line}");
                std::process::exit(status);
            }
        });
        Ok(Gpu { instance, adapter, device, queue })
    }

    /// A line that names the adapter, for logs and benchmark reports.
    pub fn describe(&self) -> String {
        let info = self.adapter.get_info();
        format!("{} ({:?}, {})", info.name, info.backend, info.driver_info)
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
        wgpu::Error::OutOfMemory { .. } => (
            "the GPU ran out of memory: try a smaller grid (grid.nx, grid.ny) or close other programs using the GPU".into(),
            EXIT_GPU_FAILED,
        ),
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
        _ => {
            let why = message.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join(" ");
            let why = if why.is_empty() { "no reason given".to_string() } else { why };
            Some((format!("the GPU device was lost ({why}): the driver reset or the GPU went away; run again"), EXIT_GPU_FAILED))
        }
    }
}

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
    let mut desc = wgpu::InstanceDescriptor::new_without_display_handle_from_env();
    // The simulation needs compute shaders and storage buffers: GL is a last resort only.
    if std::env::var_os("WGPU_BACKEND").is_none() {
        desc.backends = wgpu::Backends::PRIMARY;
    }
    desc
}

/// Ask for what the adapter offers: the simulation binds up to 17 storage buffers in one pass,
/// and the grid size is limited by the largest storage binding.
pub fn device_descriptor(adapter: &wgpu::Adapter) -> wgpu::DeviceDescriptor<'static> {
    let mut features = wgpu::Features::empty();
    for f in
        [wgpu::Features::TIMESTAMP_QUERY, wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS, wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES]
    {
        if adapter.features().contains(f) {
            features |= f;
        }
    }
    wgpu::DeviceDescriptor { label: Some("smokebox"), required_features: features, required_limits: adapter.limits(), ..Default::default() }
}
