//! GPU buffers of one simulation state, in the index orders of DESIGN.md §1, and the blocking
//! upload/download used by loads, dumps and tests (never by the frame loop).

use super::fields::Fields;
use super::kernel::Table;
use super::params::{MAX_SPLATS, Params, Splat};

/// Bodies whose forces a step reduces (shaders/body_loads.wgsl `MAX_BODIES`); further bodies
/// are not measured.
pub const MAX_BODIES: usize = 8;
/// Probes a simulation samples (shaders/probes.wgsl `MAX_PROBES`).
pub const MAX_PROBES: usize = 8;
/// Figures of a probe: u, v, p, div, ink (shaders/probes.wgsl `PROBE_FIGURES`).
pub const PROBE_FIGURES: usize = 5;
/// Where the stats buffer holds each body's force [x, y] (shaders/body_loads.wgsl), after the six
/// figures of shaders/stats.wgsl.
pub const STATS_BODIES_AT: usize = 6;
/// Where it holds each probe's figures (shaders/probes.wgsl).
pub const STATS_PROBES_AT: usize = STATS_BODIES_AT + 2 * MAX_BODIES;
/// Floats in the stats buffer.
pub const STATS_LEN: usize = STATS_PROBES_AT + PROBE_FIGURES * MAX_PROBES;

pub struct Buffers {
    pub params: wgpu::Buffer,
    pub u: wgpu::Buffer,
    pub v: wgpu::Buffer,
    pub p: wgpu::Buffer,
    /// The pressure of the step before `p`'s (shaders/warm_start.wgsl).
    pub p_prev: wgpu::Buffer,
    /// The pressure of the step before `p_prev`'s (shaders/warm_start_mix.wgsl).
    pub p_prev2: wgpu::Buffer,
    /// The pressure solve's correction to `p` (multigrid level 0's x): the solvers other than
    /// Jacobi solve A dp = b - A p for it, so that float32 rounds dp at its own size and not at
    /// p's, then `p += dp` (src/sim/solver.rs). Zero between solves.
    pub dp: wgpu::Buffer,
    pub divergence: wgpu::Buffer,
    pub ink: wgpu::Buffer,
    pub density: wgpu::Buffer,
    pub solid: wgpu::Buffer,
    pub u_out: wgpu::Buffer,
    pub v_out: wgpu::Buffer,
    pub p_out: wgpu::Buffer,
    pub ink_out: wgpu::Buffer,
    pub density_out: wgpu::Buffer,
    pub splats: wgpu::Buffer,
    pub partials: wgpu::Buffer,
    pub stats: wgpu::Buffer,
    pub stencil: wgpu::Buffer,
    /// Vorticity's scratch: ω per cell.
    pub cell_tmp: wgpu::Buffer,
    /// The transport schemes' scratch: 3 floats a dye cell (ink), then one a flow cell (density):
    /// MacCormack/BFECC's φ̃ and φ̄, or the flux form's outflow scales.
    pub transport_tmp: wgpu::Buffer,
    /// u then v for the velocity corrections.
    pub vel_tmp: wgpu::Buffer,
    /// The velocity's bilinear blocks, a texel a u sample and a v sample: u's, then v's
    /// (shaders/shared/velocity_blocks.wgsl), where the traces read them
    /// (`kernel::velocity_blocks`: a CPU adapter); else one texel each.
    pub blocks: [wgpu::TextureView; 2],
    /// The ink as RGB texels of the dye grid, where the semi-Lagrangian ink pass reads them (a CPU
    /// adapter, as the blocks); else one texel.
    pub ink_texels: wgpu::TextureView,
}

/// A texture of `size` vec4s that kernels read (`textureLoad`) and write (`textureStore`).
pub(super) fn vec4_texture(device: &wgpu::Device, label: &str, [width, height]: [usize; 2]) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some(label),
            size: wgpu::Extent3d { width: width as u32, height: height as u32, depth_or_array_layers: 1 },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: wgpu::TextureFormat::Rgba32Float,
            usage: wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::STORAGE_BINDING,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

fn storage(device: &wgpu::Device, label: &str, floats: usize) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: (floats.max(1) * 4) as u64,
        usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// Bytes of GPU memory the state takes for an nx × ny grid with a dye grid k times finer (all
/// buffers above but the velocity's blocks, full size only on a CPU adapter: 32 bytes a cell more
/// of the computer's memory there).
pub fn bytes_for(nx: usize, ny: usize, k: usize) -> u64 {
    let cells = nx * ny;
    let dye = cells * k * k;
    let floats = 2 * (ny * (nx + 1) + (ny + 1) * nx) // u, v and their outputs
        + 5 * cells // p, p_prev, p_prev2, dp, p_out
        + cells // divergence
        + 3 * 3 * dye // ink, ink_out, and ink's part of transport_tmp
        + 2 * cells // density, density_out
        + cells // solid
        + cells // stencil (u32)
        + 2 * cells + (ny * (nx + 1) + (ny + 1) * nx); // cell_tmp, density's part of transport_tmp, vel_tmp
    (floats * 4) as u64
}

impl Buffers {
    /// Buffers for an nx × ny flow grid whose ink lives on a grid k times finer.
    pub fn new(device: &wgpu::Device, nx: usize, ny: usize, k: usize) -> Buffers {
        let cells = nx * ny;
        let dye = cells * k * k;
        let nu = ny * (nx + 1);
        let nv = (ny + 1) * nx;
        // the traces' texture copies, full size where the device reads textures and they fit
        let full = super::kernel::profile(device).textures && super::kernel::textures_fit(device, nx, ny, k);
        let texels = |s: [usize; 2]| if full { s } else { [1, 1] };
        Buffers {
            params: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("params"),
                size: std::mem::size_of::<Params>() as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            u: storage(device, "u", nu),
            v: storage(device, "v", nv),
            p: storage(device, "p", cells),
            p_prev: storage(device, "p_prev", cells),
            p_prev2: storage(device, "p_prev2", cells),
            dp: storage(device, "dp", cells),
            divergence: storage(device, "divergence", cells),
            ink: storage(device, "ink", 3 * dye),
            density: storage(device, "density", cells),
            solid: storage(device, "solid", cells),
            u_out: storage(device, "u_out", nu),
            v_out: storage(device, "v_out", nv),
            p_out: storage(device, "p_out", cells),
            ink_out: storage(device, "ink_out", 3 * dye),
            density_out: storage(device, "density_out", cells),
            // a uniform block: a CPU adapter reads a storage word lane by lane, a uniform once
            splats: device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("splats"),
                size: (MAX_SPLATS * std::mem::size_of::<Splat>()) as u64,
                usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }),
            // the statistics' eight blocks (two free), then the warm start's ten: five sums, max |b|
            // and g's four (shaders/stats.wgsl, warm_start_mix.wgsl)
            partials: storage(device, "partials", 18 * super::kernel::MAX_REDUCTION_GROUPS as usize),
            stats: storage(device, "stats", STATS_LEN),
            stencil: storage(device, "stencil", cells),
            cell_tmp: storage(device, "cell_tmp", cells),
            transport_tmp: storage(device, "transport_tmp", 3 * dye + cells),
            vel_tmp: storage(device, "vel_tmp", nu + nv),
            // u's blocks: i0 in 0..nx, j0 in -1..ny; v's: i0 in -1..nx, j0 in 0..ny
            blocks: [vec4_texture(device, "u_blocks", texels([nx, ny + 1])), vec4_texture(device, "v_blocks", texels([nx + 1, ny]))],
            ink_texels: vec4_texture(device, "ink_texels", texels([k * nx, k * ny])),
        }
    }

    /// The textures by the names the passes declare them under (`Kernel::bind_with`): the
    /// velocity's blocks and the ink's texels, read and written.
    pub fn views(&self) -> [(&'static str, &wgpu::TextureView); 6] {
        let [u, v] = &self.blocks;
        let ink = &self.ink_texels;
        [("u_blocks", u), ("v_blocks", v), ("u_blocks_out", u), ("v_blocks_out", v), ("ink_texels", ink), ("ink_texels_out", ink)]
    }

    /// Every state buffer under the name the passes declare it by.
    pub fn table(&self) -> Table<'_> {
        let named = [
            ("params", &self.params),
            ("u", &self.u),
            ("v", &self.v),
            ("p", &self.p),
            ("divergence", &self.divergence),
            ("ink", &self.ink),
            ("density", &self.density),
            ("solid", &self.solid),
            ("u_out", &self.u_out),
            ("v_out", &self.v_out),
            ("p_out", &self.p_out),
            ("ink_out", &self.ink_out),
            ("density_out", &self.density_out),
            ("splats", &self.splats),
            ("partials", &self.partials),
            ("stats", &self.stats),
            ("stencil", &self.stencil),
            ("cell_tmp", &self.cell_tmp),
            ("transport_tmp", &self.transport_tmp),
            ("vel_tmp", &self.vel_tmp),
            ("p_prev", &self.p_prev),
            ("p_prev2", &self.p_prev2),
            ("dp", &self.dp),
        ];
        named.into_iter().fold(Table::default(), |t, (name, buffer)| t.with(name, buffer))
    }

    pub fn upload(&self, queue: &wgpu::Queue, f: &Fields) {
        for (buffer, data) in self.field_buffers().into_iter().zip(f.arrays()) {
            queue.write_buffer(buffer, 0, bytemuck::cast_slice(data));
        }
    }

    /// Reads every field back (blocking): for dumps and tests only.
    pub fn download(&self, device: &wgpu::Device, queue: &wgpu::Queue, nx: usize, ny: usize, k: usize) -> Fields {
        let mut f = Fields::zeros_dye(nx, ny, k);
        let buffers = self.field_buffers();
        let data = read_buffers(device, queue, &buffers);
        for (dst, src) in f.arrays_mut().into_iter().zip(data) {
            dst.copy_from_slice(&src);
        }
        f
    }

    /// The buffers of the fields, in the order of `Fields::arrays`.
    pub fn field_buffers(&self) -> [&wgpu::Buffer; 9] {
        [&self.u, &self.v, &self.p, &self.p_prev, &self.p_prev2, &self.divergence, &self.ink, &self.density, &self.solid]
    }
}

/// Copies buffers into staging buffers and waits for them: a blocking read for tests and dumps.
pub fn read_buffers(device: &wgpu::Device, queue: &wgpu::Queue, buffers: &[&wgpu::Buffer]) -> Vec<Vec<f32>> {
    let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor { label: Some("read back") });
    let staging: Vec<wgpu::Buffer> = buffers
        .iter()
        .map(|b| {
            let s = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("staging"),
                size: b.size(),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            encoder.copy_buffer_to_buffer(b, 0, &s, 0, b.size());
            s
        })
        .collect();
    queue.submit([encoder.finish()]);
    for s in &staging {
        s.slice(..).map_async(wgpu::MapMode::Read, |r| r.expect("mapping a staging buffer"));
    }
    device.poll(wgpu::PollType::wait_indefinitely()).expect("waiting for the GPU");
    staging
        .iter()
        .map(|s| {
            let data = bytemuck::cast_slice::<u8, f32>(&s.slice(..).get_mapped_range().expect("mapped")).to_vec();
            s.unmap();
            data
        })
        .collect()
}
