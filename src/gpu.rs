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
            // A validation error here is a bug in smokebox, not bad input: say so plainly.
            eprintln!("smokebox: GPU error (a bug, please report): {e}");
            std::process::exit(70);
        }));
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
