//! A kernel's compiled parts and the cache that keeps them: its layouts, made at once, and its
//! shader module and a pipeline for each state of the switches, made the first time it is
//! dispatched. Nothing is compiled for a kernel that never runs, and the entry points of one
//! source share its module, so the page's first step waits only for what it dispatches
//! (BENCHMARKS.md, "The web page on SwiftShader"). A simulation made again on a device that built
//! a kernel before takes it from the cache.

use super::profile::ShaderChecks;
use super::reflect::Bindings;
use std::sync::{Arc, OnceLock};

/// What a simulation's state may hold, shared by its kernels: solid cells (override `SOLIDS`,
/// shaders/shared/solid.wgsl) and periodic axes (`PERIODIC_X`, `PERIODIC_Y`,
/// shaders/shared/grid.wgsl). A kernel dispatches the variant built without what cannot occur,
/// each variant built the first time it is needed. Most scenes have no obstacle and no periodic
/// side, and a CPU adapter runs both sides of a branch on a uniform value under a mask and pays
/// for every read lane by lane: without them the default plume's step takes about a quarter less
/// CPU on lavapipe. The owner keeps each switch a superset of the truth: a solid cell with its
/// switch off would be fluid.
#[derive(Clone, Debug, Default)]
pub struct Switches(Arc<std::sync::atomic::AtomicU32>);

impl Switches {
    const SOLIDS: u32 = 1;
    const PERIODIC_X: u32 = 2;
    const PERIODIC_Y: u32 = 4;
    /// Every switch on: what a kernel without switches assumes.
    pub const ALL: u32 = 7;

    pub fn new(solids: bool, periodic: [bool; 2]) -> Switches {
        let s = Switches::default();
        s.set_solids(solids);
        s.set_periodic(periodic);
        s
    }

    /// Whether some cell may be solid.
    pub fn set_solids(&self, on: bool) {
        self.put(Switches::SOLIDS, on);
    }

    /// Whether the x and y axes may be periodic.
    pub fn set_periodic(&self, on: [bool; 2]) {
        self.put(Switches::PERIODIC_X, on[0]);
        self.put(Switches::PERIODIC_Y, on[1]);
    }

    fn put(&self, bit: u32, on: bool) {
        use std::sync::atomic::Ordering::Relaxed;
        if on {
            self.0.fetch_or(bit, Relaxed)
        } else {
            self.0.fetch_and(!bit, Relaxed)
        };
    }

    pub fn bits(&self) -> u32 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The overrides the switches set, with their bits.
pub const SWITCHED: [(&str, u32); 3] =
    [("SOLIDS", Switches::SOLIDS), ("PERIODIC_X", Switches::PERIODIC_X), ("PERIODIC_Y", Switches::PERIODIC_Y)];

/// A kernel's compiled parts, shared by its copies and kept in the cache.
pub struct Compiled {
    pub label: String,
    pub binds: Bindings,
    pub workgroup_size: [u32; 3],
    /// The switches' bits this kernel's module has overrides for.
    pub mask: u32,
    /// By the switches' bits within `mask`.
    built: [OnceLock<wgpu::ComputePipeline>; 8],
    device: wgpu::Device,
    /// `Gpu::serial` of `device`, where its modules are shared (`shared_module`).
    serial: Option<u64>,
    src: String,
    checks: ShaderChecks,
    module: OnceLock<wgpu::ShaderModule>,
    layout: wgpu::PipelineLayout,
    entry: String,
    constants: Vec<(String, f64)>,
    zero_workgroup_memory: bool,
}

impl std::fmt::Debug for Compiled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.label)
    }
}

/// How a kernel's module is made.
pub struct ModuleSource<'a> {
    pub label: &'a str,
    pub src: &'a str,
    pub entry: &'a str,
    pub constants: &'a [(&'a str, f64)],
    pub zero_workgroup_memory: bool,
    pub checks: ShaderChecks,
}

impl Compiled {
    /// The layouts of `source` on `device` (`serial`: its `Gpu::serial`, where kept); `declares`
    /// tells the overrides its module has. No module or pipeline is made yet.
    pub fn new(
        device: &wgpu::Device,
        serial: Option<u64>,
        source: ModuleSource,
        binds: Bindings,
        workgroup_size: [u32; 3],
        declares: impl Fn(&str) -> bool,
    ) -> Compiled {
        let label = source.label;
        let layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
            label: Some(label),
            bind_group_layouts: &[Some(&binds.layout)],
            immediate_size: 0,
        });
        Compiled {
            label: label.to_string(),
            binds,
            workgroup_size,
            mask: SWITCHED.iter().filter(|(name, _)| declares(name)).fold(0, |m, (_, bit)| m | bit),
            built: Default::default(),
            device: device.clone(),
            serial,
            src: source.src.to_string(),
            checks: source.checks,
            module: OnceLock::new(),
            layout,
            entry: source.entry.to_string(),
            constants: source.constants.iter().map(|&(k, v)| (k.to_string(), v)).collect(),
            zero_workgroup_memory: source.zero_workgroup_memory,
        }
    }

    /// The pipeline for the switches' state (every one on without switches), built the first
    /// time, its module with it where none of the source's entry points made it before.
    pub fn pipeline(&self, switches: Option<&Switches>) -> &wgpu::ComputePipeline {
        let key = switches.map_or(Switches::ALL, Switches::bits) & self.mask;
        self.built[key as usize].get_or_init(|| {
            let module = self.module.get_or_init(|| match self.serial {
                Some(serial) => shared_module(&self.device, serial, &self.label, &self.src, self.checks),
                None => make_module(&self.device, &self.label, &self.src, self.checks),
            });
            let mut constants: Vec<(&str, f64)> = self.constants.iter().map(|(k, x)| (k.as_str(), *x)).collect();
            for (name, bit) in SWITCHED.iter().filter(|(_, bit)| self.mask & bit != 0) {
                constants.push((name, f64::from(u8::from(key & bit != 0))));
            }
            self.device.create_compute_pipeline(&wgpu::ComputePipelineDescriptor {
                label: Some(&self.label),
                layout: Some(&self.layout),
                module,
                entry_point: Some(&self.entry),
                compilation_options: wgpu::PipelineCompilationOptions {
                    constants: &constants,
                    zero_initialize_workgroup_memory: self.zero_workgroup_memory,
                },
                cache: None,
            })
        })
    }
}

/// A shader module of `src` keeping `checks`.
fn make_module(device: &wgpu::Device, label: &str, src: &str, checks: ShaderChecks) -> wgpu::ShaderModule {
    let desc = wgpu::ShaderModuleDescriptor { label: Some(label), source: wgpu::ShaderSource::Wgsl(src.to_string().into()) };
    if checks == ShaderChecks::ALL {
        device.create_shader_module(desc)
    } else {
        // SAFETY: naga's checks guard against indices out of bounds, endless loops and division
        // by zero, of which these kernels have none (`ShaderChecks`); a Vulkan driver with robust
        // buffer access (which wgpu asks for) bounds storage access itself.
        unsafe { device.create_shader_module_trusted(desc, checks.runtime()) }
    }
}

/// The module of `src` on device `serial`, made once for all the entry points that use it.
fn shared_module(device: &wgpu::Device, serial: u64, label: &str, src: &str, checks: ShaderChecks) -> wgpu::ShaderModule {
    let key = (src.to_string(), checks);
    if let Some(m) = with_cache(|c| c.iter().find(|c| c.device == serial).and_then(|c| c.modules.get(&key).cloned())) {
        return m;
    }
    let module = make_module(device, label, src, checks);
    with_cache(|c| {
        if let Some(c) = c.iter_mut().find(|c| c.device == serial) {
            c.modules.insert(key, module.clone());
        }
    });
    module
}

/// Everything a kernel is built from but its device: the source (grid, cell block and, for the
/// kernels that read it, the dye scale compiled in; a level where one is), entry point, pipeline
/// constants and shader checks.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct CacheKey {
    pub src: String,
    pub entry: String,
    pub constants: Vec<(String, u64)>,
    pub zero_workgroup_memory: bool,
    pub checks: ShaderChecks,
}

/// Kernels built on the last few devices that built one: a simulation made again on a grid its
/// device has run (another scene, a reset, a state loaded) takes its kernels, pipelines included,
/// from here instead of building them again. A device's kernels go at the next kernel built after
/// its `Gpu` was dropped (`gpu::is_open`), or once four others have built since.
struct DeviceKernels {
    /// `Gpu::serial` (wgpu's device ids repeat across instances).
    device: u64,
    kernels: std::collections::HashMap<CacheKey, Arc<Compiled>>,
    /// Shader modules by source and checks (`shared_module`).
    modules: std::collections::HashMap<(String, ShaderChecks), wgpu::ShaderModule>,
}

/// Devices whose kernels are kept: the app has one at a time (two while a lost one's successor
/// starts); tests build on several at once, one a thread.
const CACHED_DEVICES: usize = 4;

#[cfg(not(target_arch = "wasm32"))]
static CACHE: std::sync::Mutex<Vec<DeviceKernels>> = std::sync::Mutex::new(Vec::new());

// (WebGPU's objects stay on the page's one thread)
#[cfg(target_arch = "wasm32")]
thread_local! {
    static CACHE: std::cell::RefCell<Vec<DeviceKernels>> = const { std::cell::RefCell::new(Vec::new()) };
}

fn with_cache<T>(f: impl FnOnce(&mut Vec<DeviceKernels>) -> T) -> T {
    #[cfg(not(target_arch = "wasm32"))]
    return f(&mut CACHE.lock().unwrap_or_else(|e| e.into_inner()));
    #[cfg(target_arch = "wasm32")]
    return CACHE.with(|c| f(&mut c.borrow_mut()));
}

/// The kernel built for `key` on device `device` (a serial), if there is one.
pub fn cached(device: u64, key: &CacheKey) -> Option<Arc<Compiled>> {
    with_cache(|c| c.iter().find(|c| c.device == device).and_then(|c| c.kernels.get(key).cloned()))
}

/// Keeps `kernel`, built for `key` on `device`; that device is now the most recent.
pub fn keep(device: u64, key: CacheKey, kernel: &Arc<Compiled>) {
    with_cache(|c| {
        let mut entry = match c.iter().position(|c| c.device == device) {
            Some(at) => c.remove(at),
            None => DeviceKernels { device, kernels: Default::default(), modules: Default::default() },
        };
        entry.kernels.insert(key, kernel.clone());
        c.retain(|c| crate::gpu::is_open(c.device));
        c.push(entry);
        if c.len() > CACHED_DEVICES {
            c.remove(0);
        }
    });
}
