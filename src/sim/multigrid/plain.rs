//! The plain V-cycle (a CPU adapter's): a dispatch a half-sweep, a cell a thread, or on levels of
//! whole quads four (shaders/multigrid/plain.wgsl over shared/lanes1.wgsl or lanes4.wgsl), through textures of quads where the device reads
//! textures (`QuadTex`: a black and a red half-sweep a dispatch), and the level just above the
//! coarse solve in one dispatch with it (`Lower`, shaders/multigrid/lower.wgsl).

use super::hierarchy::{Compiled, Hierarchy, PerLevel, Tables, coarse_constants, colour_groups, quad_rows, restrict_quads, seam_groups};
use super::levels::{LOWER_CELLS, LevelDesc, POST_SMOOTH, PRE_SMOOTH, cell_groups};
use crate::error::Result;
use crate::sim::kernel::{Kernel, Target, with_level_compiled};
use crate::sim::solver_check::{Launch, ctl};

/// A half-sweep a cell a thread, and the seam's (shaders/multigrid/plain.wgsl).
const HALF_SWEEP: (&str, &str) = ("multigrid/plain", "half_sweep");
const SEAM: (&str, &str) = ("multigrid/plain", "seam_half_sweep");

/// The plain passes' kernels, in place on each level's x.
pub struct Plain {
    /// The smoother's half-sweeps by colour (red, black; shaders/multigrid/plain.wgsl `half_sweep`
    /// a cell a thread) and SOR's.
    smooth: [PerLevel; 2],
    sor: [PerLevel; 2],
    /// The seam's two colours, on levels with an odd periodic axis.
    seam: [PerLevel; 2],
    sor_seam: [PerLevel; 2],
    restrict: PerLevel,
    prolong_add: PerLevel,
    /// The same four cells a thread (shaders/multigrid/plain.wgsl over lanes4, and quad.wgsl
    /// `add`): the smoother's red and black,
    /// SOR's red and black, restriction, add; each level's compiled in where the plain path is
    /// the device's.
    quad: [Compiled; 6],
    /// The quad sweeps through textures, where the device reads textures.
    quad_tex: Option<QuadTex>,
    /// The level above the coarse solve and the solve in one dispatch, where that level is small
    /// (`lower_level`).
    lower: Option<Lower>,
}

/// The plain sweeps' textures and kernels (CPU adapters): each quad level's x as two textures of
/// quads, a and b, so the half-sweeps inside a smoothing block read x through textures
/// (shaders/multigrid/quad.wgsl `red_to_tex`, `sweep_tex`), two half-sweeps a dispatch
/// after the first. lavapipe gathers texels a pass over the lanes where it reads storage lane by
/// lane; a half-sweep at 128² took 0.17-0.21 ms from textures against 0.47-0.57 ms from storage
/// buffers (BENCHMARKS.md, "Where the time goes: lavapipe").
pub struct QuadTex {
    /// Each kernel's bind groups by the texture it writes (`to`: a = 0, b = 1), reading the
    /// other. A smoothing block leaves x in a, where the prolongation reads it: `red_to_tex`
    /// (x -> a texture, with rhs and stencil), `sweep_tex` black then red by turns, then black
    /// alone (-> x and a) or, before the restriction, `black_restriction_tex` (-> x and a, and the
    /// coarse rhs); `add_from_tex` (a -> b), `sweep_tex` red then black by turns, the last into x
    /// too (-> x and a texture: `Multigrid::level0_tex`).
    red_to: TexKernel,
    black_red: TexKernel,
    black_from: TexKernel,
    black_restriction: TexKernel,
    add: TexKernel,
    red_black: TexKernel,
    red_black_from: TexKernel,
    /// Each level's x (a, b), rhs and stencil.
    _textures: Vec<[wgpu::Texture; 4]>,
    views: Vec<[wgpu::TextureView; 4]>,
}

/// The texture a level's post-smoothing leaves x in (`Multigrid::encode_prolong_smoothed`): the
/// add writes b, the sweeps go by turns, the last writes the texture it does not read.
const LEVEL0_TEX: usize = ((POST_SMOOTH + 1) % 2) as usize;

/// A texture kernel of every quad level and its bind groups by the texture written (`QuadTex`).
struct TexKernel {
    kernels: Vec<Kernel>,
    groups: Vec<[wgpu::BindGroup; 2]>,
}

impl TexKernel {
    /// A dispatch on level `l` that writes texture `to` (or, writing none, reads 1 - `to`).
    fn go(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, to: usize, groups: [u32; 3], slot: usize) {
        launch.go(pass, &self.kernels[l], &self.groups[l][to], groups, slot);
    }
}

impl QuadTex {
    fn new(target: Target, levels: &[LevelDesc], tables: &Tables) -> Result<QuadTex> {
        let d = target.device;
        let textures: Vec<[wgpu::Texture; 4]> = levels
            .iter()
            .take(tables.len())
            .map(|l| {
                std::array::from_fn(|k| {
                    d.create_texture(&wgpu::TextureDescriptor {
                        label: Some(["multigrid x a", "multigrid x b", "multigrid rhs", "multigrid stencil"][k]),
                        size: wgpu::Extent3d { width: (l.nx / 4).max(1), height: l.ny.max(1), depth_or_array_layers: 1 },
                        mip_level_count: 1,
                        sample_count: 1,
                        dimension: wgpu::TextureDimension::D2,
                        format: if k == 3 { wgpu::TextureFormat::Rgba32Uint } else { wgpu::TextureFormat::Rgba32Float },
                        usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::STORAGE_BINDING,
                        view_formats: &[],
                    })
                })
            })
            .collect();
        let views: Vec<[wgpu::TextureView; 4]> =
            textures.iter().map(|t| std::array::from_fn(|k| t[k].create_view(&Default::default()))).collect();
        // an entry with its pipeline constants, and whether it reads a texture of x (each writes one)
        let build = |entry: &str, constants: &[(&str, f64)], reads: bool| -> Result<TexKernel> {
            let kernels = levels
                .iter()
                .take(tables.len())
                .map(|l| with_level_compiled(l, || Kernel::with_options(target, "multigrid/quad", entry, constants, true)))
                .collect::<Result<Vec<_>>>()?;
            let groups = tables
                .iter()
                .enumerate()
                .map(|(l, t)| {
                    let v = &views[l];
                    std::array::from_fn(|to| {
                        let mut bound = vec![("rhs_in", &v[2]), ("rhs_out", &v[2]), ("stencil_in", &v[3]), ("stencil_out", &v[3])];
                        if reads {
                            bound.push(("x_in", &v[1 - to]));
                        }
                        bound.push(("x_out", &v[to]));
                        kernels[l].bind_with(d, t, &bound)
                    })
                })
                .collect();
            Ok(TexKernel { kernels, groups })
        };
        // `sweep_tex`: its colour, whether a pair of half-sweeps, whether into x too
        let flag = |b: bool| f64::from(u8::from(b));
        let sweep = |parity: u32, pair: bool, to_x: bool| {
            build("sweep_tex", &[("PARITY", f64::from(parity)), ("PAIR", flag(pair)), ("TO_X", flag(to_x))], true)
        };
        Ok(QuadTex {
            red_to: build("red_to_tex", &[], false)?,
            black_red: sweep(1, true, false)?,
            black_from: sweep(1, false, true)?,
            black_restriction: build("black_restriction_tex", &[], true)?,
            add: build("add_from_tex", &[], true)?,
            red_black: sweep(0, true, false)?,
            red_black_from: sweep(0, true, true)?,
            _textures: textures,
            views,
        })
    }

    /// Level 0's x after a V-cycle (`LEVEL0_TEX`), rhs and stencil under the texture names of
    /// `cells_in` (shaders/multigrid/plain.wgsl).
    pub fn level0_views(&self) -> Option<[(&'static str, &wgpu::TextureView); 3]> {
        self.views.first().map(|v| [("x_in", &v[LEVEL0_TEX]), ("rhs_in", &v[2]), ("stencil_in", &v[3])])
    }
}

/// The CPU adapter's dispatch of the level above the coarse solve and the solve below it
/// (shaders/multigrid/lower.wgsl).
pub struct Lower {
    level: usize,
    kernel: Kernel,
    group: wgpu::BindGroup,
}

impl Plain {
    /// The plain kernels of every level above the coarse solve (`per_level`: each level's
    /// description compiled into the quad kernels, and the lower dispatch built, where the plain
    /// path is the device's), with textures of quads where `textures`.
    pub fn new(
        target: Target,
        h: &Hierarchy,
        tables: &Tables,
        per_level: bool,
        textures: bool,
        bottom: &[(&str, &wgpu::TextureView)],
    ) -> Result<Plain> {
        let (levels, coarse) = (&h.levels, h.coarse);
        let (above, fine) = (&tables[..coarse], &tables[..1]);
        let quad = |entry: &str, constants: &[(&str, f64)], levels: &[LevelDesc], tables: &Tables| {
            Compiled::with_constants(target, per_level, ("multigrid/quad", entry), constants, levels, tables)
        };
        // a half-sweep's pipeline constants: its colour, and whether it is SOR's
        let colour = |parity: u32, sor: bool| [("PARITY", f64::from(parity)), ("SOR", f64::from(u8::from(sor)))];
        let plain = |(shader, entry): (&str, &str), parity: u32, sor: bool| {
            PerLevel::with_constants(target, shader, entry, &colour(parity, sor), if sor { fine } else { above })
        };
        let lower = match coarse.checked_sub(1) {
            Some(l)
                if per_level
                    && target.profile().lower_in_one
                    && levels[l].cells() <= LOWER_CELLS
                    && quad_rows(&levels[l])
                    && restrict_quads(&levels[l], &levels[coarse]) =>
            {
                let mut constants = vec![("WG", target.profile().solver_workgroup as f64)];
                constants.extend_from_slice(&coarse_constants(levels, coarse));
                let kernel =
                    with_level_compiled(&levels[l], || Kernel::with_options(target, "multigrid/lower", "main", &constants, false))?;
                let group = kernel.bind_with(target.device, &tables[l], bottom);
                Some(Lower { level: l, kernel, group })
            }
            _ => None,
        };
        Ok(Plain {
            smooth: [plain(HALF_SWEEP, 0, false)?, plain(HALF_SWEEP, 1, false)?],
            sor: [plain(HALF_SWEEP, 0, true)?, plain(HALF_SWEEP, 1, true)?],
            seam: [plain(SEAM, 0, false)?, plain(SEAM, 1, false)?],
            sor_seam: [plain(SEAM, 0, true)?, plain(SEAM, 1, true)?],
            restrict: PerLevel::new(target, "multigrid/plain", "restriction", above)?,
            prolong_add: PerLevel::new(target, "multigrid/smooth", "add", above)?,
            quad: [
                quad("half_sweep", &colour(0, false), &levels[..coarse], above)?,
                quad("half_sweep", &colour(1, false), &levels[..coarse], above)?,
                quad("half_sweep", &colour(0, true), levels, fine)?,
                quad("half_sweep", &colour(1, true), levels, fine)?,
                quad("restriction", &[], &levels[..coarse], above)?,
                quad("add", &[], &levels[..coarse], above)?,
            ],
            quad_tex: if textures { Some(QuadTex::new(target, levels, above)?) } else { None },
            lower,
        })
    }

    /// Level 0's x after a V-cycle, rhs and stencil under the texture names of `cells_in`, where the
    /// sweeps go through textures.
    pub fn level0_views(&self) -> Option<[(&'static str, &wgpu::TextureView); 3]> {
        self.quad_tex.as_ref().and_then(QuadTex::level0_views)
    }

    /// The level the plain V-cycle's one-workgroup dispatch takes with the coarse solve below it
    /// (`encode_lower`), where it was built and the level takes the quad kernels now (no odd
    /// seam).
    pub fn lower_level(&self, h: &Hierarchy) -> Option<usize> {
        let l = self.lower.as_ref()?.level;
        (h.quad_sweeps(l) && h.quad_restrict(l) && h.quad_prolong(l)).then_some(l)
    }

    /// Which of level 0's textures holds x after a plain V-cycle, where its level 0 goes through
    /// them: its post-smoothing's last dispatch writes x there as well as into p, so the polish
    /// that follows starts there (`encode_polish`).
    pub fn level0_tex(&self, h: &Hierarchy) -> Option<usize> {
        let top = self.lower_level(h).unwrap_or(h.coarse);
        let through = top > 0 && PRE_SMOOTH > 0 && POST_SMOOTH > 0 && h.quad_sweeps(0) && h.quad_prolong(0);
        self.quad_tex.as_ref().filter(|_| through).map(|_| LEVEL0_TEX)
    }

    /// Two sweeps on level 0, x in p before and after: from the texture the V-cycle left x in,
    /// back into it and p, a sweep a dispatch, where it did.
    pub fn encode_polish(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        if let (Some(tex), Some(f)) = (&self.quad_tex, self.level0_tex(h)) {
            let (g, s) = h.cells(0);
            tex.red_black.go(pass, launch, 0, 1 - f, g, s);
            return tex.red_black_from.go(pass, launch, 0, f, g, s);
        }
        self.encode_sweeps(h, pass, launch, 0, 2);
    }

    /// Two SOR sweeps on level 0 in place, one dispatch per colour.
    pub fn encode_sor(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        if h.quad_sweeps(0) {
            let (g, s) = h.cells(0);
            for _ in 0..2 {
                for k in &self.quad[2..4] {
                    launch.go(pass, k.kernel(0), &k.groups[0], g, s);
                }
            }
            return;
        }
        let g = colour_groups(&h.levels[0], h.block);
        for _ in 0..2 {
            for k in &self.sor {
                launch.go(pass, &k.kernel, &k.groups[0], g, ctl::cells_slot(0));
            }
            self.encode_seam(h, pass, launch, &self.sor_seam, 0);
        }
    }

    /// Dispatches of a level's passes in a plain V-cycle: through the textures n sweeps take
    /// n + 1 dispatches (the last with the restriction in it), the prolongation's add one more.
    pub fn level_dispatches(&self, h: &Hierarchy, l: usize) -> u32 {
        if self.quad_tex.is_some() && h.quad_sweeps(l) && !h.odd_seam(l) {
            return (PRE_SMOOTH + 1) + (!h.quad_restrict(l)) as u32 + (POST_SMOOTH + 1) + (!h.quad_prolong(l)) as u32;
        }
        (if h.odd_seam(l) { 4 } else { 2 }) * (PRE_SMOOTH + POST_SMOOTH) + 2
    }

    /// One smoothing sweep in place on level `l`'s x (plain kernels: red and black, and on an
    /// odd seam the seam's two colours).
    pub fn encode_sweep(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        self.encode_sweeps(h, pass, launch, l, 1);
    }

    /// `n` smoothing sweeps on level `l`'s x; on quad levels through its textures where they
    /// exist (`QuadTex`): x -> a texture (red), then black and red in one dispatch by turns,
    /// then black into x, the block's textures chosen so that x ends in a.
    pub fn encode_sweeps(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        if let (Some(tex), true, true) = (&self.quad_tex, h.quad_sweeps(l), n > 0) {
            self.encode_tex_sweeps_open(h, tex, pass, launch, l, n);
            let (g, s) = (cell_groups(&h.levels[l], h.block), ctl::cells_slot(l));
            tex.black_from.go(pass, launch, l, 0, g, s);
            return;
        }
        for _ in 0..n {
            self.encode_sweep_buffer(h, pass, launch, l);
        }
    }

    /// `n` sweeps through level `l`'s textures but the last half-sweep (black), which is to read
    /// b and write a: x -> a texture (red), then black and red in one dispatch by turns.
    fn encode_tex_sweeps_open(&self, h: &Hierarchy, tex: &QuadTex, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        let (g, s) = (cell_groups(&h.levels[l], h.block), ctl::cells_slot(l));
        // n textures written by turns, the last b
        let mut to = (n % 2) as usize;
        tex.red_to.go(pass, launch, l, to, g, s);
        for _ in 1..n {
            to = 1 - to;
            tex.black_red.go(pass, launch, l, to, g, s);
        }
    }

    /// One sweep in place on x's buffer.
    fn encode_sweep_buffer(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        if h.quad_sweeps(l) {
            // BLOCK_X / 4 x BLOCK_Y threads a workgroup over a cell block: the gated counts serve both
            let g = cell_groups(&h.levels[l], h.block);
            for k in &self.quad[..2] {
                launch.go(pass, k.kernel(l), &k.groups[l], g, ctl::cells_slot(l));
            }
            return;
        }
        let g = colour_groups(&h.levels[l], h.block);
        for k in &self.smooth {
            launch.go(pass, &k.kernel, &k.groups[l], g, ctl::cells_slot(l));
        }
        self.encode_seam(h, pass, launch, &self.seam, l);
    }

    /// The seam's two colours on level `l`, where it has an odd periodic axis.
    fn encode_seam(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, colours: &[PerLevel; 2], l: usize) {
        if h.odd_seam(l) {
            for k in colours {
                launch.go(pass, &k.kernel, &k.groups[l], seam_groups(&h.levels[l], h.block), ctl::cells_slot(l));
            }
        }
    }

    /// Restriction of level `l`'s x (plain path: the pre-smoothed iterate stays in x).
    pub fn encode_restrict(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        let c = &h.levels[l + 1];
        if h.quad_restrict(l) {
            let k = &self.quad[4];
            return launch.go(pass, k.kernel(l), &k.groups[l], cell_groups(c, h.block), ctl::cells_slot(l + 1));
        }
        launch.go(pass, &self.restrict.kernel, &self.restrict.groups[l], cell_groups(c, h.block), ctl::cells_slot(l + 1));
    }

    /// `n` sweeps on level `l` (`encode_plain_sweeps`), then its restriction: from the level's
    /// textures where the sweeps left x there.
    pub fn encode_smoothed_restrict(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        match &self.quad_tex {
            Some(tex) if n > 0 && h.quad_sweeps(l) && h.quad_restrict(l) => {
                // the last black and the restriction in one dispatch, over the coarse level
                self.encode_tex_sweeps_open(h, tex, pass, launch, l, n);
                let c = cell_groups(&h.levels[l + 1], h.block);
                tex.black_restriction.go(pass, launch, l, 0, c, ctl::cells_slot(l + 1));
            }
            _ => {
                self.encode_sweeps(h, pass, launch, l, n);
                self.encode_restrict(h, pass, launch, l);
            }
        }
    }

    /// Level `l + 1`'s correction added to level `l`'s x in place.
    pub fn encode_prolong(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize) {
        let d = &h.levels[l];
        if h.quad_prolong(l) {
            let k = &self.quad[5];
            return launch.go(pass, k.kernel(l), &k.groups[l], cell_groups(d, h.block), ctl::cells_slot(l));
        }
        launch.go(pass, &self.prolong_add.kernel, &self.prolong_add.groups[l], cell_groups(d, h.block), ctl::cells_slot(l));
    }

    /// The V-cycle from `lower_level` down in one dispatch: its pre-smoothing, restriction, the
    /// coarse solve, prolongation and post-smoothing (plain kernels, x in its buffer).
    pub fn encode_lower(&self, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>) {
        let lower = self.lower.as_ref().expect("a lower dispatch built for this adapter and grid");
        launch.go(pass, &lower.kernel, &lower.group, [1, 1, 1], ctl::COARSE_SLOT);
    }

    /// Level `l + 1`'s correction added to level `l`'s x, then `n` sweeps. After this V-cycle's
    /// pre-smoothing through the level's textures (x in a, rhs and stencil there), the correction
    /// reads a and goes into b, and the sweeps start from it, red and black in one dispatch, by
    /// turns, the last into x.
    pub fn encode_prolong_smoothed(&self, h: &Hierarchy, pass: &mut wgpu::ComputePass<'_>, launch: Launch<'_>, l: usize, n: u32) {
        match &self.quad_tex {
            Some(tex) if n > 0 && PRE_SMOOTH > 0 && h.quad_sweeps(l) && h.quad_prolong(l) => {
                let (g, s) = (cell_groups(&h.levels[l], h.block), ctl::cells_slot(l));
                let mut to = 1;
                tex.add.go(pass, launch, l, to, g, s);
                for _ in 1..n {
                    to = 1 - to;
                    tex.red_black.go(pass, launch, l, to, g, s);
                }
                // reads `to`
                tex.red_black_from.go(pass, launch, l, 1 - to, g, s);
            }
            _ => {
                self.encode_prolong(h, pass, launch, l);
                self.encode_sweeps(h, pass, launch, l, n);
            }
        }
    }
}
