//! Compute kernels: a pass's WGSL composed with the shared prelude (`compose`), checked by naga,
//! with the bindings it really uses found by reflection (`reflect`), shaped for its device
//! (`profile`), its pipelines built the first time they run and kept per device (`pipelines`).
//! Each pass declares its own bindings, `read` where it only reads, numbered by the pass from 0;
//! the Rust side binds them by name from a table of buffers (`Table`) and the few textures by
//! name (`Kernel::bind_with`); tests/bindings.rs checks every entry point against WebGPU's rules.

mod compose;
pub(crate) use compose::lane_words;
mod pipelines;
mod profile;
mod reflect;

pub use compose::{
    GridSize, LEVEL_DECL, PRELUDE, constants, parse, parts, reads_dye_scale, shaders, source, source_with, with_level_compiled,
};
pub use pipelines::Switches;
pub use profile::{
    DeviceClass, DeviceProfile, GPU_CHECKS, MAX_REDUCTION_GROUPS, ShaderChecks, fold_invocations, from_env as profile_from_env, profile,
    reduction_groups, textures_fit, with_profile,
};
pub use reflect::{Access, Binding, Bindings, Table, entry_bindings, entry_textures, reflect};

use crate::error::Result;
use std::sync::Arc;

/// What a kernel is built for: the device and the flow grid, and the switches that say what its
/// simulation's state may hold (None: anything, every check made at run time).
#[derive(Clone, Copy)]
pub struct Target<'a> {
    pub device: &'a wgpu::Device,
    /// `Gpu::serial` of `device`: kernels are kept by it and built once (None: always built).
    pub device_serial: Option<u64>,
    pub grid: GridSize,
    pub switches: Option<&'a Switches>,
}

impl Target<'_> {
    /// The device's profile (`profile::profile`).
    pub fn profile(&self) -> DeviceProfile {
        profile::profile(self.device)
    }

    /// Workgroups of a reduction's first stage on this grid (`profile::reduction_groups`).
    pub fn reduction_groups(&self) -> u32 {
        profile::reduction_groups(self.profile(), self.grid.nx as u64 * self.grid.ny as u64)
    }
}

/// `with_level_compiled` with level 0 of `target`'s grid, where `on` (else `f` as it is).
pub fn with_level0_compiled<T>(target: Target, on: bool, f: impl FnOnce() -> T) -> T {
    if !on {
        return f();
    }
    let l0 = super::multigrid::levels::levels(target.grid.nx as usize, target.grid.ny as usize)[0];
    with_level_compiled(&l0, f)
}

static DISPATCHES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts one recorded dispatch (every dispatch of the step goes through here; `smokebox bench`).
pub fn count_dispatch() {
    DISPATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// Dispatches recorded so far by this process.
pub fn dispatches() -> u64 {
    DISPATCHES.load(std::sync::atomic::Ordering::Relaxed)
}

/// A kernel with the one bind group it runs with: the shape most passes need (`Ctx::bound`).
/// Passes that ping-pong or run per level keep a `Kernel` and several groups instead.
pub struct Bound {
    pub kernel: Kernel,
    pub group: wgpu::BindGroup,
}

impl Bound {
    pub fn new(target: Target, shader: &str, entry: &str, table: &Table) -> Result<Bound> {
        Bound::with_constants(target, shader, entry, &[], table)
    }

    /// A kernel with values for its pipeline-overridable constants, bound as `new` binds.
    pub fn with_constants(target: Target, shader: &str, entry: &str, constants: &[(&str, f64)], table: &Table) -> Result<Bound> {
        Bound::with_views(target, shader, entry, constants, table, &[])
    }

    /// `with_constants` with views for its textures by name (`Kernel::bind_with`).
    pub fn with_views(
        target: Target,
        shader: &str,
        entry: &str,
        constants: &[(&str, f64)],
        table: &Table,
        views: &[(&str, &wgpu::TextureView)],
    ) -> Result<Bound> {
        let kernel = Kernel::with_options(target, shader, entry, constants, true)?;
        let group = kernel.bind_with(target.device, table, views);
        Ok(Bound { kernel, group })
    }

    /// One dispatch covering `size` threads.
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, size: [u32; 2]) {
        self.kernel.dispatch(pass, &self.group, size);
    }

    /// One dispatch of an exact number of workgroups.
    pub fn dispatch_groups(&self, pass: &mut wgpu::ComputePass<'_>, groups: u32) {
        self.kernel.dispatch_groups(pass, &self.group, groups);
    }
}

/// One compute entry point, ready to dispatch: its compiled parts (shared with the cache) and the
/// switches that pick its pipeline.
#[derive(Clone, Debug)]
pub struct Kernel {
    compiled: Arc<pipelines::Compiled>,
    switches: Option<Switches>,
}

impl Kernel {
    pub fn new(target: Target, shader: &str, entry: &str) -> Result<Kernel> {
        Kernel::with_options(target, shader, entry, &[], true)
    }

    /// A kernel with values for its pipeline-overridable constants; `zero_workgroup_memory: false`
    /// for a kernel that writes its workgroup memory before reading it (saves a clearing loop and
    /// barrier per workgroup). Its pipelines are built when it is first dispatched.
    pub fn with_options(
        target: Target,
        shader: &str,
        entry: &str,
        constants: &[(&str, f64)],
        zero_workgroup_memory: bool,
    ) -> Result<Kernel> {
        let device = target.device;
        let profile = target.profile();
        // a kernel that never reads the dye scale is built (and kept) as on scale 1, so a scene of
        // another dye scale finds it built
        let scale_one = GridSize { dye_scale: 1, ..target.grid };
        // which entry points read the dye scale, found in the module of the source on scale 1,
        // which most kernels are built from (so parsed once for both)
        let reads = compose::reads_dye_scale_in(shader, entry, || {
            parsed(shader, &compose::kernel_source(shader, profile.cell_block, scale_one, profile.levels_compiled_in)?)
        })?;
        let grid = if reads { target.grid } else { scale_one };
        let key = pipelines::CacheKey {
            src: compose::kernel_source(shader, profile.cell_block, grid, profile.levels_compiled_in)?,
            entry: entry.to_string(),
            constants: constants.iter().map(|&(k, v)| (k.to_string(), v.to_bits())).collect(),
            zero_workgroup_memory,
            checks: profile.checks,
        };
        let compiled = match target.device_serial.and_then(|d| pipelines::cached(d, &key)) {
            Some(c) => c,
            None => {
                let parsed = parsed(shader, &key.src)?;
                let (module, info) = (&parsed.0, &parsed.1);
                let index = module
                    .entry_points
                    .iter()
                    .position(|e| e.name == entry)
                    .ok_or_else(|| crate::error!("shaders/{shader}.wgsl has no entry point {entry}"))?;
                let label = if entry == "main" { shader.to_string() } else { format!("{shader}.{entry}") };
                let binds = Bindings::new(device, &label, module, info, index)?;
                let source =
                    pipelines::ModuleSource { label: &label, src: &key.src, entry, constants, zero_workgroup_memory, checks: key.checks };
                let declares = |name: &str| module.overrides.iter().any(|(_, o)| o.name.as_deref() == Some(name));
                let size = module.entry_points[index].workgroup_size;
                let c = Arc::new(pipelines::Compiled::new(device, target.device_serial, source, binds, size, declares));
                if let Some(d) = target.device_serial {
                    pipelines::keep(d, key, &c);
                }
                c
            }
        };
        Ok(Kernel { compiled, switches: target.switches.cloned() })
    }

    pub fn label(&self) -> &str {
        &self.compiled.label
    }

    /// What the kernel binds.
    pub fn binds(&self) -> &Bindings {
        &self.compiled.binds
    }

    pub fn workgroup_size(&self) -> [u32; 3] {
        self.compiled.workgroup_size
    }

    /// A bind group giving each binding the buffer `table` has under its name. Panics on a
    /// buffer bound twice where one binding is writable: WebGPU forbids that ("writable storage
    /// buffer binding aliasing") and native wgpu does not check it.
    pub fn bind(&self, device: &wgpu::Device, table: &Table) -> wgpu::BindGroup {
        self.bind_with(device, table, &[])
    }

    /// `bind` with views for the textures the kernel uses, by name.
    pub fn bind_with(&self, device: &wgpu::Device, table: &Table, views: &[(&str, &wgpu::TextureView)]) -> wgpu::BindGroup {
        self.compiled.binds.bind_group(device, &self.compiled.label, table, views)
    }

    /// The pipeline for the switches' state now: each is built the first time it is needed (the
    /// first dispatch, a first obstacle painted into a scene without one, a side made periodic).
    pub fn pipeline(&self) -> &wgpu::ComputePipeline {
        self.compiled.pipeline(self.switches.as_ref())
    }

    /// Records one dispatch covering `size` threads (rounded up to whole workgroups).
    pub fn dispatch(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, size: [u32; 2]) {
        let wg = self.compiled.workgroup_size;
        self.dispatch_exact(pass, bind_group, [size[0].div_ceil(wg[0]), size[1].div_ceil(wg[1])]);
    }

    /// Records a dispatch of an exact number of workgroups.
    pub fn dispatch_groups(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, groups: u32) {
        self.dispatch_exact(pass, bind_group, [groups, 1]);
    }

    fn dispatch_exact(&self, pass: &mut wgpu::ComputePass<'_>, bind_group: &wgpu::BindGroup, groups: [u32; 2]) {
        count_dispatch();
        pass.set_pipeline(self.pipeline());
        pass.set_bind_group(0, bind_group, &[]);
        super::dispatch_probe::timed(pass, &self.compiled.label, |pass| pass.dispatch_workgroups(groups[0], groups[1], 1));
    }
}

/// A parsed and validated module with its analysis.
type Parsed = std::rc::Rc<(naga::Module, naga::valid::ModuleInfo)>;

thread_local! {
    /// The sources parsed last, newest at the end: a simulation builds the entry points of one
    /// source one after another (the statistics' four, the multigrid set-up's, the bottom's), and
    /// parsing a composed source in the page's wasm took most of the time to make the plume's
    /// simulation (BENCHMARKS.md, "Where the time goes: the page").
    static PARSED: std::cell::RefCell<Vec<(String, Parsed)>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `parse`, once for the last few sources a thread has parsed.
fn parsed(shader: &str, src: &str) -> Result<Parsed> {
    if let Some(hit) = PARSED.with_borrow(|p| p.iter().find(|(s, _)| s == src).map(|(_, m)| m.clone())) {
        return Ok(hit);
    }
    let module = Parsed::new(parse(shader, src)?);
    PARSED.with_borrow_mut(|p| {
        p.push((src.to_string(), module.clone()));
        if p.len() > 8 {
            p.remove(0);
        }
    });
    Ok(module)
}
