//! Advection stage (CPU twins: src/sim/cpu/advect/, one file per shader), per field by `Params::schemes` (x velocity, y ink, z density):
//! semi-Lagrangian (shaders/advect/velocity.wgsl, shaders/advect/ink.wgsl), then for MacCormack
//! and BFECC the reverse trace and limited correction (shaders/advect/maccormack.wgsl), and for
//! conservative ink/density the flux-form transport (shaders/advect/conservative.wgsl). Ink lives
//! on the dye grid, density on the flow grid: ink's kernels run a thread per dye cell, density's a
//! thread per flow cell, apart (one trace serves both only in `same_grid`). Everything
//! is carried by the velocity the projection left, written to the *_out buffers and copied back.

use super::buffers::Buffers;
use super::kernel::{Bound, Kernel, textures_fit};
use super::params::{SCHEME_BFECC, SCHEME_CONSERVATIVE, SCHEME_MACCORMACK};
use super::stage::{Ctx, copy_all, timed_pass};
use crate::error::Result;

pub struct Advection {
    /// The velocity's bilinear blocks for the traces below, where they read them (a CPU adapter).
    blocks: Option<Bound>,
    /// The ink's texels for the semi-Lagrangian ink pass, where the blocks are (`pack_ink`; four
    /// dye cells a thread where dye rows are whole quads, shaders/advect/pack_ink.wgsl), and the
    /// threads it takes.
    pack_ink: Option<(Bound, [u32; 2])>,
    velocity: Bound,
    ink: Bound,
    /// Density apart from the ink on a finer dye grid (shaders/advect/ink.wgsl `density_cells`).
    density: Option<Bound>,
    velocity_reverse: Bound,
    velocity_correct: Bound,
    /// MacCormack and BFECC ink, over the dye cells.
    ink_corrections: Corrections,
    /// MacCormack and BFECC density, over the flow cells.
    density_corrections: Corrections,
    outflow_scale: Bound,
    transport: Bound,
    /// Conservative ink's sub-steps after the first (`transport` with `INK_ONLY`): ink -> ink_out,
    /// and the same swapped.
    transport_ink: Kernel,
    transport_ink_groups: [wgpu::BindGroup; 2],
    /// Sub-steps of conservative ink: the dye scale k (shaders/advect/conservative.wgsl).
    ink_substeps: usize,
    /// Every dye cell and (the dye grid is never smaller) every flow cell.
    cells: [u32; 2],
    /// Every flow cell (`density`).
    flow_cells: [u32; 2],
    edges: [u32; 2],
}

fn corrected(scheme: u32) -> bool {
    scheme == SCHEME_MACCORMACK || scheme == SCHEME_BFECC
}

/// One scalar field's correction (shaders/advect/maccormack.wgsl `reverse` and `correct`, built
/// with `INK` on for the ink, off for density): the reverse trace (with BFECC's midpoint) and the
/// limited correction.
struct Corrections {
    reverse: Bound,
    correct: Bound,
}

impl Corrections {
    /// `ink`: the ink's (else density's); `traced` builds a kernel of maccormack.wgsl with extra
    /// constants whose traces read the velocity's blocks where the device takes them.
    fn new(ink: bool, traced: impl Fn(&str, (&'static str, f64)) -> Result<Bound>) -> Result<Corrections> {
        let field = ("INK", f64::from(u8::from(ink)));
        Ok(Corrections { reverse: traced("reverse", field)?, correct: traced("correct", field)? })
    }

    /// The correction of a field advected with `scheme` (none for semi-Lagrangian or flux form).
    fn encode(&self, pass: &mut wgpu::ComputePass<'_>, cells: [u32; 2], scheme: u32) {
        if !corrected(scheme) {
            return;
        }
        self.reverse.dispatch(pass, cells);
        self.correct.dispatch(pass, cells);
    }
}

impl Advection {
    pub fn new(ctx: &Ctx) -> Result<Advection> {
        let mc = "advect/maccormack";
        let transport_ink = Kernel::with_options(ctx.target(), "advect/conservative", "transport", &[("INK_ONLY", 1.0)], true)?;
        let blocked = ctx.target().profile().textures && textures_fit(ctx.device, ctx.nx, ctx.ny, ctx.dye_scale);
        let table = ctx.buffers.table();
        let views = ctx.buffers.views();
        let traced = |shader: &str, entry: &str| {
            Bound::with_views(ctx.target(), shader, entry, &[("BLOCKED", blocked as u8 as f64)], &table, &views)
        };
        let corrections = |entry: &str, field: (&str, f64)| {
            Bound::with_views(ctx.target(), mc, entry, &[("BLOCKED", blocked as u8 as f64), field], &table, &views)
        };
        Ok(Advection {
            blocks: if blocked { Some(ctx.bound("advect/velocity", "fill_blocks")?) } else { None },
            pack_ink: match ctx.dye_cells() {
                _ if !blocked => None,
                [w, h] if w.is_multiple_of(4) => Some((ctx.bound("advect/pack_ink_quad", "pack_ink")?, [w / 4, h])),
                cells => Some((ctx.bound("advect/pack_ink", "pack_ink")?, cells)),
            },
            velocity: traced("advect/velocity", "main")?,
            // k = 1: one back-trace serves ink and density
            ink: traced("advect/ink", if ctx.dye_scale == 1 { "same_grid" } else { "ink_cells" })?,
            density: if ctx.dye_scale == 1 { None } else { Some(traced("advect/ink", "density_cells")?) },
            velocity_reverse: traced(mc, "velocity_reverse")?,
            velocity_correct: traced(mc, "velocity_correct")?,
            ink_corrections: Corrections::new(true, corrections)?,
            density_corrections: Corrections::new(false, corrections)?,
            outflow_scale: ctx.bound("advect/conservative", "outflow_scale")?,
            transport: ctx.bound("advect/conservative", "transport")?,
            transport_ink_groups: {
                let natural = ctx.buffers.table();
                let swapped = natural.swapped("ink", "ink_out");
                [transport_ink.bind(ctx.device, &natural), transport_ink.bind(ctx.device, &swapped)]
            },
            transport_ink,
            ink_substeps: ctx.dye_scale,
            cells: ctx.dye_cells(),
            flow_cells: ctx.cells(),
            edges: ctx.edges(),
        })
    }

    /// Advects velocity (unless frozen), ink and density with the schemes in `schemes`
    /// (`Params::schemes`), and copies the results into place.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        profiler: Option<&wgpu_profiler::GpuProfiler>,
        b: &Buffers,
        freeze_velocity: bool,
        schemes: [u32; 4],
    ) {
        let mut ink_in_place = false;
        timed_pass(encoder, profiler, "advect", |pass| {
            self.encode_blocks(pass);
            if !freeze_velocity {
                self.encode_velocity_scheme(pass, schemes[0]);
            }
            ink_in_place = self.encode_ink_schemes(pass, schemes[1], schemes[2]);
        });
        if !freeze_velocity {
            copy_all(encoder, &b.u_out, &b.u);
            copy_all(encoder, &b.v_out, &b.v);
        }
        if !ink_in_place {
            copy_all(encoder, &b.ink_out, &b.ink);
        }
        copy_all(encoder, &b.density_out, &b.density);
    }

    /// Gathers the velocity's blocks from u and v, where the traces read them (call before the
    /// semi-Lagrangian dispatches, once u and v are final).
    pub fn encode_blocks(&self, pass: &mut wgpu::ComputePass<'_>) {
        if let Some(b) = &self.blocks {
            b.dispatch(pass, self.edges);
        }
    }

    /// Semi-Lagrangian velocity advection into u_out, v_out (after `encode_blocks`).
    pub fn encode_velocity(&self, pass: &mut wgpu::ComputePass<'_>) {
        self.velocity.dispatch(pass, self.edges);
    }

    /// Semi-Lagrangian ink and density advection into ink_out, density_out (after `encode_blocks`).
    pub fn encode_ink(&self, pass: &mut wgpu::ComputePass<'_>) {
        if let Some((pack, threads)) = &self.pack_ink {
            pack.dispatch(pass, *threads);
        }
        self.ink.dispatch(pass, self.cells);
        if let Some(density) = &self.density {
            density.dispatch(pass, self.flow_cells);
        }
    }

    /// Velocity advection with `scheme` into u_out, v_out.
    pub fn encode_velocity_scheme(&self, pass: &mut wgpu::ComputePass<'_>, scheme: u32) {
        self.encode_velocity(pass);
        if corrected(scheme) {
            self.velocity_reverse.dispatch(pass, self.edges);
            self.velocity_correct.dispatch(pass, self.edges);
        }
    }

    /// Ink and density advection with their schemes into ink_out, density_out; returns true where
    /// the ink ended in `ink` itself (conservative ink's even count of sub-steps).
    pub fn encode_ink_schemes(&self, pass: &mut wgpu::ComputePass<'_>, ink: u32, density: u32) -> bool {
        let conservative = [ink, density].map(|s| s == SCHEME_CONSERVATIVE);
        if !(conservative[0] && conservative[1]) {
            self.encode_ink(pass);
        }
        self.ink_corrections.encode(pass, self.cells, ink);
        self.density_corrections.encode(pass, self.flow_cells, density);
        if conservative[0] || conservative[1] {
            self.outflow_scale.dispatch(pass, self.cells);
            self.transport.dispatch(pass, self.cells);
            if conservative[0] {
                // the later sub-steps ping-pong: ink_out -> ink, ink -> ink_out, ...
                for s in 1..self.ink_substeps {
                    self.transport_ink.dispatch(pass, &self.transport_ink_groups[s % 2], self.cells);
                }
                return self.ink_substeps.is_multiple_of(2);
            }
        }
        false
    }
}
