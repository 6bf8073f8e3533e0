//! What runs where: every per-device choice of the kernels in one value, `DeviceProfile`, derived
//! from the adapter by `profile` and overridden in one way (`SMOKEBOX_PROFILE`, or `with_profile`
//! for the kernels a thread builds). docs/architecture.md ("What runs where") has the table of
//! kernel families by device class and what each variant buys on a whole step.

use std::cell::Cell;

/// The coarse solve's largest side where a profile takes the most it can.
const COARSE_SIDE: u32 = crate::sim::multigrid::levels::COARSE_SIDE as u32;

/// The kinds of device the kernels are shaped for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceClass {
    /// A native GPU.
    Gpu,
    /// A native CPU adapter (lavapipe, llvmpipe, WARP): workgroups are calls of the compiled
    /// kernel, barriers suspend coroutines, storage is read lane by lane and textures a pass.
    Software,
    /// The page's WebGPU on a GPU.
    Browser,
    /// The page's WebGPU on a CPU rasteriser (SwiftShader), as the browser's `GPUAdapterInfo`
    /// tells (`gpu::page_on_software`): it clears each dispatch's workgroup memory for every
    /// invocation, so the kernels that keep most there cost the most.
    BrowserSoftware,
}

impl DeviceClass {
    pub const ALL: [DeviceClass; 4] = [DeviceClass::Gpu, DeviceClass::Software, DeviceClass::Browser, DeviceClass::BrowserSoftware];

    pub fn name(self) -> &'static str {
        match self {
            DeviceClass::Gpu => "gpu",
            DeviceClass::Software => "software",
            DeviceClass::Browser => "browser",
            DeviceClass::BrowserSoftware => "browser-software",
        }
    }
}

/// Every per-device choice of the kernels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceProfile {
    pub class: DeviceClass,
    /// Cells a workgroup of the cell kernels covers (`@workgroup_size(BLOCK_X, BLOCK_Y)`, a quad
    /// kernel's `BLOCK_X / 4` threads across), and the gated counts of the plain sweeps.
    pub cell_block: [u32; 2],
    /// Invocations a workgroup of the workgroup-memory solver kernels and reductions (override
    /// `WG`). Under 64 the reductions take a CPU's shape (`reduction_groups`).
    pub solver_workgroup: u32,
    /// The solvers' workgroup-memory (tiled, temporally blocked) kernels, else one plain dispatch
    /// a sweep or half-sweep.
    pub solver_tiles: bool,
    /// On the plain path, the level above the coarse solve (64² at most) and the solve in one
    /// dispatch of one workgroup (shaders/multigrid/lower.wgsl), else a dispatch a half-sweep
    /// down to the coarse solve.
    pub lower_in_one: bool,
    /// Each multigrid level's sizes and offsets compiled into its own kernels
    /// (`kernel::with_level_compiled`), else one kernel reading the level buffer for every level.
    pub levels_compiled_in: bool,
    /// Largest side of a multigrid level the one-workgroup coarse solve takes (32 or 16: the
    /// bottom alone); the levels above it are smoothed level by level.
    pub coarse_side: u32,
    /// Storage read through textures where lavapipe gathers texels a pass and reads storage lane
    /// by lane: the velocity's bilinear blocks and the ink's texels for the semi-Lagrangian
    /// traces, the multigrid's textures of quads on the plain path.
    pub textures: bool,
    /// naga's run-time checks kept in the kernels.
    pub checks: ShaderChecks,
}

/// Which of the run-time checks naga adds to a kernel it keeps: clamping of indices (into
/// workgroup and local arrays; a Vulkan driver with robust buffer access bounds storage buffers
/// itself), a counter that bounds every loop, and guards on integer division. Every loop of these
/// kernels runs to a count it is given, and the same kernels with and without any of the checks
/// give the same bits (tests/shader_checks.rs). On an H200 the three took 11 % of a 4096² step and
/// 17 % of a 1024² one, the loop counters alone as much (BENCHMARKS.md, "NVIDIA H200").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ShaderChecks {
    pub bounds: bool,
    pub loops: bool,
    pub division: bool,
}

impl ShaderChecks {
    pub const ALL: ShaderChecks = ShaderChecks { bounds: true, loops: true, division: true };
    pub const NONE: ShaderChecks = ShaderChecks { bounds: false, loops: false, division: false };

    /// `all`, `none`, 1, 0 or the kept checks joined by `+` (or `,`); None where a word is none of
    /// those.
    pub fn parse(text: &str) -> Option<ShaderChecks> {
        match text.trim() {
            "all" | "1" => return Some(Self::ALL),
            "none" | "0" => return Some(Self::NONE),
            _ => {}
        }
        let mut kept = Self::NONE;
        for word in text.split(['+', ',']) {
            match word.trim() {
                "bounds" => kept.bounds = true,
                "loops" => kept.loops = true,
                "division" => kept.division = true,
                _ => return None,
            }
        }
        Some(kept)
    }

    pub fn runtime(self) -> wgpu::ShaderRuntimeChecks {
        wgpu::ShaderRuntimeChecks {
            bounds_checks: self.bounds,
            force_loop_bounding: self.loops,
            int_div_checks: self.division,
            ..wgpu::ShaderRuntimeChecks::checked()
        }
    }
}

/// The checks a Vulkan GPU's kernels keep: all but the loop counters.
pub const GPU_CHECKS: ShaderChecks = ShaderChecks { bounds: true, loops: false, division: true };

impl DeviceProfile {
    /// A native GPU: 16 x 16 cells a workgroup, where 8 x 8 took 5-6 % more of a 4096² step on an
    /// H200 and no less at 1024²; full workgroups of 256 (WebGPU's most) and the tiled solvers;
    /// storage read directly; the loop counters dropped (a Vulkan GPU: `for_adapter`).
    pub const GPU: DeviceProfile = DeviceProfile {
        class: DeviceClass::Gpu,
        cell_block: [16, 16],
        solver_workgroup: 256,
        solver_tiles: true,
        lower_in_one: false,
        levels_compiled_in: true,
        coarse_side: COARSE_SIDE,
        textures: false,
        checks: GPU_CHECKS,
    };

    /// A CPU adapter: fewer, wider workgroups (each is a call of the compiled kernel over its
    /// invocations, eight lanes at a time), one SIMD batch of 8 invocations where barriers
    /// suspend every one, a plain dispatch a sweep (the tiled kernels ran several times slower on
    /// lavapipe), storage read through textures, every check kept.
    pub const SOFTWARE: DeviceProfile = DeviceProfile {
        class: DeviceClass::Software,
        cell_block: [32, 8],
        solver_workgroup: 8,
        solver_tiles: false,
        lower_in_one: true,
        levels_compiled_in: true,
        coarse_side: COARSE_SIDE,
        textures: true,
        checks: ShaderChecks::ALL,
    };

    /// The page on a GPU: a GPU's shapes, and every check kept (the browser's WebGPU adds its own).
    pub const BROWSER: DeviceProfile = DeviceProfile {
        class: DeviceClass::Browser,
        cell_block: [16, 16],
        solver_workgroup: 256,
        solver_tiles: true,
        lower_in_one: false,
        levels_compiled_in: true,
        coarse_side: COARSE_SIDE,
        textures: false,
        checks: ShaderChecks::ALL,
    };

    /// The page on SwiftShader: a CPU adapter's shapes but 16 x 16 cells a workgroup (the page's
    /// equal-work step 8 % quicker than with 8 x 8 at 128², 12 % at 256²), a dispatch a
    /// half-sweep down to the coarse solve (the one-workgroup lower V-cycle took 3 s of the first
    /// step to compile), one kernel for every level (a pipeline each level was about half a second
    /// more of it) and the coarse solve on the bottom level alone (its 32 x 32 level's workgroup
    /// memory took 0.6 s more), every check kept. Chromium's SwiftShader clears a dispatch's
    /// workgroup memory for every invocation, and compiles the clearing a word at a time: with the
    /// tiles and 64 or 256 invocations the page's steps took two to seven times as long
    /// (docs/architecture.md, "What runs where").
    pub const BROWSER_SOFTWARE: DeviceProfile = DeviceProfile {
        class: DeviceClass::BrowserSoftware,
        cell_block: [16, 16],
        solver_workgroup: 8,
        solver_tiles: false,
        lower_in_one: false,
        levels_compiled_in: false,
        coarse_side: 16,
        textures: true,
        checks: ShaderChecks::ALL,
    };

    pub fn of_class(class: DeviceClass) -> DeviceProfile {
        match class {
            DeviceClass::Gpu => Self::GPU,
            DeviceClass::Software => Self::SOFTWARE,
            DeviceClass::Browser => Self::BROWSER,
            DeviceClass::BrowserSoftware => Self::BROWSER_SOFTWARE,
        }
    }

    /// The profile of an adapter, without overrides: a browser's, a CPU adapter's, or a GPU's
    /// (whose kernels keep every check but on Vulkan).
    pub fn for_adapter(info: &wgpu::AdapterInfo) -> DeviceProfile {
        if cfg!(target_arch = "wasm32") {
            if crate::gpu::page_on_software() { Self::BROWSER_SOFTWARE } else { Self::BROWSER }
        } else if info.device_type == wgpu::DeviceType::Cpu {
            Self::SOFTWARE
        } else if info.backend != wgpu::Backend::Vulkan {
            DeviceProfile { checks: ShaderChecks::ALL, ..Self::GPU }
        } else {
            Self::GPU
        }
    }

    /// A profile from its text: a class's name, then `key=value` changes, comma-separated:
    /// `cell_block=WxH` (W a multiple of 4, W x H at most 256), `solver_workgroup=N` (1-256),
    /// `solver_tiles=0|1`, `lower_in_one=0|1`, `levels_compiled_in=0|1`, `coarse_side=16|32`,
    /// `textures=0|1`, `checks=all|none|bounds+loops+division`. E.g.
    /// `software,cell_block=16x16` or `gpu,checks=all`. The error names the word it could not read.
    pub fn parse(text: &str) -> Result<DeviceProfile, String> {
        let mut words = text.split(',').map(str::trim);
        let first = words.next().unwrap_or_default();
        let class = DeviceClass::ALL
            .into_iter()
            .find(|c| c.name() == first)
            .ok_or_else(|| format!("{first:?} is no device class (expected gpu, software, browser or browser-software)"))?;
        let mut p = Self::of_class(class);
        let flag = |v: &str| match v {
            "1" | "true" => Some(true),
            "0" | "false" => Some(false),
            _ => None,
        };
        for word in words {
            let bad = || {
                format!(
                    "{word:?} is not a profile setting (expected cell_block=WxH, solver_workgroup=N, solver_tiles=0|1, lower_in_one=0|1, levels_compiled_in=0|1, coarse_side=16|32, textures=0|1 or checks=all|none|bounds+loops+division)"
                )
            };
            let (key, value) = word.split_once('=').ok_or_else(bad)?;
            match key.trim() {
                "cell_block" => {
                    let (w, h) = value.split_once('x').ok_or_else(bad)?;
                    let (w, h) = (w.parse::<u32>().map_err(|_| bad())?, h.parse::<u32>().map_err(|_| bad())?);
                    if w == 0 || h == 0 || w % 4 != 0 || w * h > 256 {
                        return Err(bad());
                    }
                    p.cell_block = [w, h];
                }
                "solver_workgroup" => p.solver_workgroup = value.parse::<u32>().ok().filter(|n| (1..=256).contains(n)).ok_or_else(bad)?,
                "solver_tiles" => p.solver_tiles = flag(value).ok_or_else(bad)?,
                "lower_in_one" => p.lower_in_one = flag(value).ok_or_else(bad)?,
                "levels_compiled_in" => p.levels_compiled_in = flag(value).ok_or_else(bad)?,
                "coarse_side" => p.coarse_side = value.parse::<u32>().ok().filter(|n| [16, 32].contains(n)).ok_or_else(bad)?,
                "textures" => p.textures = flag(value).ok_or_else(bad)?,
                "checks" => p.checks = ShaderChecks::parse(value).ok_or_else(bad)?,
                _ => return Err(bad()),
            }
        }
        Ok(p)
    }

    /// The variant each kernel family runs with this profile, as docs/architecture.md's table
    /// names them: (family, variant).
    pub fn variants(&self) -> Vec<(&'static str, String)> {
        let [bx, by] = self.cell_block;
        let tiles = |tiled: &'static str, plain: &'static str| if self.solver_tiles { tiled } else { plain };
        let reads = if self.textures { "textures" } else { "storage" };
        vec![
            ("cell kernels", format!("{bx} x {by} cells a workgroup")),
            ("Jacobi", tiles("four sweeps a dispatch", "a sweep a dispatch, four cells a thread").to_string()),
            ("multigrid smoothing", tiles("tiles in workgroup memory", "a black and a red half-sweep a dispatch").to_string()),
            (
                "multigrid level above the coarse solve",
                if self.solver_tiles {
                    "a tile dispatch"
                } else if self.lower_in_one {
                    "one workgroup with the coarse solve"
                } else {
                    "a dispatch a half-sweep"
                }
                .to_string(),
            ),
            ("multigrid coarse solve", format!("levels up to {0} x {0} in one workgroup", self.coarse_side)),
            (
                "multigrid levels' sizes",
                if self.levels_compiled_in { "compiled into each level's kernels" } else { "read from the level's buffer" }.to_string(),
            ),
            ("multigrid level 0 reads", if self.textures && !self.solver_tiles { "textures" } else { "storage" }.to_string()),
            ("semi-Lagrangian traces read", reads.to_string()),
            (
                "reductions",
                if self.solver_workgroup < 64 { "a workgroup a thread" } else { "a workgroup per 16 workgroups of cells" }.to_string(),
            ),
            ("solver workgroup", format!("{} invocations", self.solver_workgroup)),
            ("shader checks", self.checks_name()),
        ]
    }

    fn checks_name(&self) -> String {
        let c = self.checks;
        if c == ShaderChecks::ALL {
            return "all".into();
        }
        let kept: Vec<&str> = [(c.bounds, "bounds"), (c.loops, "loops"), (c.division, "division")]
            .into_iter()
            .filter_map(|(on, n)| on.then_some(n))
            .collect();
        if kept.is_empty() { "none".into() } else { kept.join("+") }
    }
}

thread_local! {
    static OVERRIDE: Cell<Option<DeviceProfile>> = const { Cell::new(None) };
}

/// Runs `f` with the kernels this thread builds on `profile` (tests build a GPU's kernels on
/// lavapipe, and compare checks), then puts back what was there.
pub fn with_profile<T>(profile: DeviceProfile, f: impl FnOnce() -> T) -> T {
    let before = OVERRIDE.replace(Some(profile));
    let out = f();
    OVERRIDE.set(before);
    out
}

/// `SMOKEBOX_PROFILE` read: None where unset, else the profile or what is wrong with it.
pub fn from_env() -> Option<Result<DeviceProfile, String>> {
    let text = std::env::var("SMOKEBOX_PROFILE").ok().filter(|t| !t.trim().is_empty())?;
    Some(DeviceProfile::parse(&text).map_err(|e| format!("SMOKEBOX_PROFILE: {e}")))
}

/// The profile `device`'s kernels are built on: a thread's override, `SMOKEBOX_PROFILE`, or the
/// adapter's own. (The command line refuses a `SMOKEBOX_PROFILE` it cannot read before any
/// kernel is built; elsewhere such a value is ignored.)
pub fn profile(device: &wgpu::Device) -> DeviceProfile {
    if let Some(p) = OVERRIDE.get() {
        return p;
    }
    if let Some(Ok(p)) = from_env() {
        return p;
    }
    DeviceProfile::for_adapter(&device.adapter_info())
}

/// Most workgroups of a reduction's first stage (`reduction_groups`): the partial sums' blocks
/// are sized for it.
pub const MAX_REDUCTION_GROUPS: u32 = 1024;

/// Most cells an invocation of a CPU adapter's reduction takes (`reduction_groups`), far under
/// lavapipe's loop budget.
const CPU_REDUCTION_CELLS: u64 = 4096;

/// Workgroups of a reduction's first stage (statistics, the warm start's sums, the residual
/// checks) on `cells` cells, each leaving one partial. With a CPU's workgroups (under 64
/// invocations) one a thread (`available_parallelism`, lavapipe's thread count), more only where an
/// invocation would take more than `CPU_REDUCTION_CELLS` cells (lavapipe ends an invocation's
/// loops after 65535 iterations, silently): 64 took 2-4 % more of a 128² step than two on two
/// cores. With a GPU's, one for every 16 workgroups' worth of cells, 64 to 1024: 64 left most of
/// an H200 idle on large grids.
pub fn reduction_groups(profile: DeviceProfile, cells: u64) -> u32 {
    let wg = profile.solver_workgroup as u64;
    if wg < 64 {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get()) as u64;
        return threads.max(cells.div_ceil(wg * CPU_REDUCTION_CELLS)).next_power_of_two().clamp(2, 64) as u32;
    }
    (cells / (16 * wg)).next_power_of_two().clamp(64, MAX_REDUCTION_GROUPS as u64) as u32
}

/// Invocations that fold `groups` partials (stats.wgsl `finish`, warm_start.wgsl `scale`), each a
/// run of them in order before the first adds the subtotals: one serial fold where they are few
/// (a CPU adapter), 64 runs of 16 on a GPU, where one invocation's 1024 dependent loads would
/// take tens of microseconds.
pub fn fold_invocations(groups: u32) -> u32 {
    if groups <= 64 { 1 } else { 64 }
}

/// Whether a grid's texture copies fit the device's largest 2D texture: the velocity's blocks
/// (nx + 1 x ny + 1 at most), the ink's texels (the dye grid) and the multigrid's textures of
/// quads. Where they do not (a grid as wide as the limit), storage is read instead.
pub fn textures_fit(device: &wgpu::Device, nx: usize, ny: usize, k: usize) -> bool {
    let most = device.limits().max_texture_dimension_2d as usize;
    (k * nx).max(nx + 1) <= most && (k * ny).max(ny + 1) <= most
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_reads_back_from_its_text() {
        let p = DeviceProfile::parse("software, cell_block=16x16, checks=bounds+division, solver_tiles=1").unwrap();
        assert_eq!(p, DeviceProfile { cell_block: [16, 16], checks: GPU_CHECKS, solver_tiles: true, ..DeviceProfile::SOFTWARE });
        assert_eq!(DeviceProfile::parse("gpu").unwrap(), DeviceProfile::GPU);
        for bad in ["cpu", "gpu,cell_block=6x8", "gpu,cell_block=32x16", "gpu,solver_workgroup=0", "gpu,tiles=1", "gpu,checks=some"] {
            assert!(DeviceProfile::parse(bad).is_err(), "{bad}");
        }
    }
}
