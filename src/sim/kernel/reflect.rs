//! Reflection and binding: which bindings and textures an entry point really uses (naga's
//! analysis of the composed module, whose bindings the pass numbers from 0: `compose`), its bind
//! group layout, and bind groups that give each used binding its buffer by the name the pass
//! declares it under.

use super::compose::{parse, source};
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
    /// Its number in the composed pass.
    pub binding: u32,
    pub name: String,
    pub access: Access,
    /// Whether this entry point stores to it (reads and writes as naga's analysis sees them).
    pub written: bool,
}

/// The bindings entry point `index` of a validated module uses, by number.
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
            g.binding.as_ref().map(|b| Binding { binding: b.binding, name: g.name.clone().unwrap_or_default(), access, written })
        })
        .collect();
    used.sort_unstable_by_key(|b| b.binding);
    used
}

/// The textures entry point `index` uses, by number, with their names and bind group layout
/// types: sampled ones are read with `textureLoad` (unfilterable), storage ones written.
pub fn entry_textures(
    module: &naga::Module,
    info: &naga::valid::ModuleInfo,
    index: usize,
) -> Result<Vec<(u32, String, wgpu::BindingType)>> {
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
        used.push((b.binding, g.name.clone().unwrap_or_default(), ty));
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

/// Buffers by the name the passes declare them under: what a bind group gives each binding
/// (`Buffers::table`, and the passes' own changes).
#[derive(Clone, Default, Debug)]
pub struct Table<'a> {
    entries: Vec<(&'static str, &'a wgpu::Buffer)>,
}

impl<'a> Table<'a> {
    /// Binds `name` to `buffer` (in place of what it was).
    pub fn set(&mut self, name: &'static str, buffer: &'a wgpu::Buffer) {
        match self.entries.iter_mut().find(|e| e.0 == name) {
            Some(e) => e.1 = buffer,
            None => self.entries.push((name, buffer)),
        }
    }

    /// The table with `name` bound to `buffer`.
    pub fn with(mut self, name: &'static str, buffer: &'a wgpu::Buffer) -> Table<'a> {
        self.set(name, buffer);
        self
    }

    pub fn get(&self, name: &str) -> Option<&'a wgpu::Buffer> {
        self.entries.iter().find(|e| e.0 == name).map(|e| e.1)
    }

    /// The buffers of `a` and `b` exchanged (ping-pong).
    pub fn swapped(&self, a: &str, b: &str) -> Table<'a> {
        let (x, y) = (self.get(a), self.get(b));
        let mut t = self.clone();
        for e in &mut t.entries {
            if e.0 == a
                && let Some(y) = y
            {
                e.1 = y;
            } else if e.0 == b
                && let Some(x) = x
            {
                e.1 = x;
            }
        }
        t
    }
}

/// What an entry point binds: its bind group layout and the bindings and textures it uses.
#[derive(Clone, Debug)]
pub struct Bindings {
    pub layout: wgpu::BindGroupLayout,
    /// The buffers the entry point uses, by number and name, in increasing order of number.
    pub buffers: Vec<(u32, String)>,
    /// Whether each of `buffers` is bound writable.
    pub writable: Vec<bool>,
    /// The textures the entry point uses, by number and name (`entry_textures`).
    pub textures: Vec<(u32, String)>,
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
                binding: b.binding,
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
            .chain(textures.iter().map(|(binding, _, ty)| wgpu::BindGroupLayoutEntry {
                binding: *binding,
                visibility: wgpu::ShaderStages::COMPUTE,
                ty: *ty,
                count: None,
            }))
            .collect();
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor { label: Some(label), entries: &entries });
        Ok(Bindings {
            layout,
            buffers: used.iter().map(|b| (b.binding, b.name.clone())).collect(),
            writable: used.iter().map(|b| b.access == Access::ReadWrite).collect(),
            textures: textures.into_iter().map(|(binding, name, _)| (binding, name)).collect(),
        })
    }

    /// A bind group giving each used binding the buffer `table` has under its name, and each
    /// texture its view from `views` by name. Panics on a buffer bound twice where one binding is
    /// writable: WebGPU forbids that ("writable storage buffer binding aliasing") and native wgpu
    /// does not check it.
    pub fn bind_group(&self, device: &wgpu::Device, label: &str, table: &Table, views: &[(&str, &wgpu::TextureView)]) -> wgpu::BindGroup {
        let buffer = |name: &str| table.get(name).unwrap_or_else(|| panic!("{label}: no buffer named {name}"));
        for (x, (_, a)) in self.buffers.iter().enumerate() {
            for (y, (_, b)) in self.buffers.iter().enumerate().skip(x + 1) {
                if buffer(a) == buffer(b) && (self.writable[x] || self.writable[y]) {
                    panic!("{label}: one buffer bound as both {a} and {b}, one of them writable (WebGPU forbids writable aliasing)");
                }
            }
        }
        let view = |(binding, name): &(u32, String)| {
            let v = views.iter().find(|v| v.0 == name).unwrap_or_else(|| panic!("{label}: no view for the texture {name}"));
            wgpu::BindGroupEntry { binding: *binding, resource: wgpu::BindingResource::TextureView(v.1) }
        };
        let entries: Vec<wgpu::BindGroupEntry> = self
            .buffers
            .iter()
            .map(|(binding, name)| wgpu::BindGroupEntry { binding: *binding, resource: buffer(name).as_entire_binding() })
            .chain(self.textures.iter().map(view))
            .collect();
        device.create_bind_group(&wgpu::BindGroupDescriptor { label: Some(label), layout: &self.layout, entries: &entries })
    }
}
