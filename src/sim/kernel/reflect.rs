//! Reflection and binding: which bindings and textures an entry point really uses (naga's
//! analysis of the composed module), its bind group layout, and bind groups that give each used
//! binding its buffer by name.

use super::compose::{parse, source};
use super::slot;
use crate::error::Result;

/// How a pass declares a binding.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    Uniform,
    Read,
    ReadWrite,
}

/// One binding an entry point uses, as its WGSL declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binding {
    pub slot: u32,
    pub name: String,
    pub access: Access,
    /// Whether this entry point stores to it (reads and writes as naga's analysis sees them).
    pub written: bool,
}

/// The bindings entry point `index` of a validated module uses, by slot.
pub fn entry_bindings(module: &naga::Module, info: &naga::valid::ModuleInfo, index: usize) -> Vec<Binding> {
    let uses = info.get_entry_point(index);
    let mut used: Vec<Binding> = module
        .global_variables
        .iter()
        .filter(|(handle, _)| !uses[*handle].is_empty())
        .filter_map(|(handle, g)| {
            let access = match g.space {
                naga::AddressSpace::Uniform => Access::Uniform,
                naga::AddressSpace::Storage { access } if access.contains(naga::StorageAccess::STORE) => Access::ReadWrite,
                naga::AddressSpace::Storage { .. } => Access::Read,
                _ => return None,
            };
            let written = uses[handle].contains(naga::valid::GlobalUse::WRITE);
            g.binding.as_ref().map(|b| Binding { slot: b.binding, name: g.name.clone().unwrap_or_default(), access, written })
        })
        .collect();
    used.sort_unstable_by_key(|b| b.slot);
    used
}

/// The textures entry point `index` uses, by slot, as bind group layout entries: sampled ones are
/// read with `textureLoad` (unfilterable), storage ones written.
pub fn entry_textures(module: &naga::Module, info: &naga::valid::ModuleInfo, index: usize) -> Result<Vec<(u32, wgpu::BindingType)>> {
    let uses = info.get_entry_point(index);
    let mut used = vec![];
    for (_, g) in module.global_variables.iter().filter(|(handle, _)| !uses[*handle].is_empty()) {
        let (Some(b), naga::TypeInner::Image { dim: naga::ImageDimension::D2, arrayed: false, class }) =
            (&g.binding, &module.types[g.ty].inner)
        else {
            continue;
        };
        let sampled =
            |sample_type| wgpu::BindingType::Texture { sample_type, view_dimension: wgpu::TextureViewDimension::D2, multisampled: false };
        let written = |format| wgpu::BindingType::StorageTexture {
            access: wgpu::StorageTextureAccess::WriteOnly,
            format,
            view_dimension: wgpu::TextureViewDimension::D2,
        };
        let ty = match class {
            naga::ImageClass::Sampled { kind: naga::ScalarKind::Float, multi: false } => {
                sampled(wgpu::TextureSampleType::Float { filterable: false })
            }
            naga::ImageClass::Sampled { kind: naga::ScalarKind::Uint, multi: false } => sampled(wgpu::TextureSampleType::Uint),
            naga::ImageClass::Storage { format: naga::StorageFormat::Rgba32Float, access } if *access == naga::StorageAccess::STORE => {
                written(wgpu::TextureFormat::Rgba32Float)
            }
            naga::ImageClass::Storage { format: naga::StorageFormat::Rgba32Uint, access } if *access == naga::StorageAccess::STORE => {
                written(wgpu::TextureFormat::Rgba32Uint)
            }
            _ => return Err(crate::error!("{}: a texture of a kind the kernels do not bind", g.name.as_deref().unwrap_or("?"))),
        };
        used.push((b.binding, ty));
    }
    used.sort_unstable_by_key(|t| t.0);
    Ok(used)
}

/// Every entry point of a pass and the bindings each uses.
pub fn reflect(shader: &str) -> Result<Vec<(String, Vec<Binding>)>> {
    let src = source(shader)?;
    let (module, info) = parse(shader, &src)?;
    Ok(module.entry_points.iter().enumerate().map(|(i, e)| (e.name.clone(), entry_bindings(&module, &info, i))).collect())
}

/// Buffers by slot number: what a bind group gives each slot (`Buffers::table`).
pub type Table<'a> = [Option<&'a wgpu::Buffer>; slot::COUNT];

/// What an entry point binds: its bind group layout and the bindings and textures it uses.
#[derive(Clone, Debug)]
pub struct Bindings {
    pub layout: wgpu::BindGroupLayout,
    /// Binding numbers of the buffers the entry point uses, in increasing order.
    pub bindings: Vec<u32>,
    /// Whether each of `bindings` is bound writable.
    pub writable: Vec<bool>,
    /// Texture bindings the entry point uses (`entry_textures`).
    pub textures: Vec<u32>,
}

impl Bindings {
    /// The layout of entry point `index` of a validated module: only what it uses.
    pub fn new(
        device: &wgpu::Device,
        label: &str,
        module: &naga::Module,
        info: &naga::valid::ModuleInfo,
        index: usize,
    ) -> Result<Bindings> {
        let used = entry_bindings(module, info, index);
        let textures = entry_textures(module, info, index)?;
        let entries: Vec<wgpu::BindGroupLayoutEntry> = used
            .iter()
            .map(|b| wgpu::BindGroupLayoutEntry {
                binding: b.slot,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: wgpu::BindingType::Buffer {
                    ty: match b.access {
                        Access::Uniform => wgpu::BufferBindingType::Uniform,
                        Access::Read => wgpu::BufferBindingType::Storage { read_only: true },
                        Access::ReadWrite => wgpu::BufferBindingType::Storage { read_only: false },
                    },
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            })
            .chain(textures.iter().map(|&(binding, ty)| wgpu::BindGroupLayoutEntry {
                binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty,
                count: None,
            }))
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries: &entries });
        Ok(Bindings {
            layout,
            bindings: used.iter().map(|b| b.slot).collect(),
            writable: used.iter().map(|b| b.access == Access::ReadWrite).collect(),
            textures: textures.iter().map(|t| t.0).collect(),
        })
    }

    /// A bind group giving each used binding its buffer from `table` and each texture its view
    /// from `views`. Panics on a buffer bound twice where one binding is writable: WebGPU forbids
    /// that ("writable storage buffer binding aliasing") and native wgpu does not check it.
    pub fn bind_group(&self, device: &wgpu::Device, label: &str, table: &Table, views: &[(u32, &wgpu::TextureView)]) -> wgpu::BindGroup {
        let buffer = |b: u32| table[b as usize].unwrap_or_else(|| panic!("{label}: slot {b} has no buffer"));
        for (x, &a) in self.bindings.iter().enumerate() {
            for (y, &b) in self.bindings.iter().enumerate().skip(x + 1) {
                if buffer(a) == buffer(b) && (self.writable[x] || self.writable[y]) {
                    panic!(
                        "{label}: one buffer bound as both {} and {}, one of them writable (WebGPU forbids writable aliasing)",
                        slot::NAMES[a as usize],
                        slot::NAMES[b as usize]
                    );
                }
            }
        }
        let view = |t: u32| {
            let v = views.iter().find(|v| v.0 == t).unwrap_or_else(|| panic!("{label}: texture slot {t} has no view"));
            wgpu::BindGroupEntry { binding: t, resource: wgpu::BindingResource::TextureView(v.1) }
        };
        let entries: Vec<wgpu::BindGroupEntry> = self
            .bindings
            .iter()
            .map(|&b| wgpu::BindGroupEntry { binding: b, resource: buffer(b).as_entire_binding() })
            .chain(self.textures.iter().map(|&t| view(t)))
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout: &self.layout, entries: &entries })
    }
}
