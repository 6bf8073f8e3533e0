//! WebGPU's binding rules, checked natively for every compute entry point (a browser rejects what
//! native wgpu lets pass): each pass declares its own bindings, `read` where no entry point of
//! the pass writes, at most WebGPU's default count of storage buffers per stage, numbered by the
//! pass from 0 with no gap, each name once. Writable aliasing is refused by `Kernel::bind` itself
//! (a test below), so every test that builds a simulation checks it too.

use smokebox::config::Scene;
use smokebox::gpu::Gpu;
use smokebox::sim::Simulation;
use smokebox::sim::kernel::{self, Access, Kernel};

#[test]
fn every_entry_point_obeys_webgpus_default_limits() {
    let max = wgpu::Limits::default().max_storage_buffers_per_shader_stage as usize;
    assert_eq!(max, 8, "WebGPU's default");
    let mut report = String::new();
    let mut wrong: Vec<String> = vec![];
    for (shader, _) in kernel::shaders() {
        let entries = match kernel::reflect(shader) {
            Ok(e) => e,
            Err(e) => {
                wrong.push(e.to_string());
                continue;
            }
        };
        for (entry, bindings) in &entries {
            let storage = bindings.iter().filter(|b| b.access != Access::Uniform).count();
            let line: Vec<String> = bindings
                .iter()
                .map(|b| {
                    format!(
                        "{}{}",
                        b.name,
                        match (b.access, b.written) {
                            (Access::Uniform, _) => "(u)",
                            (Access::Read, _) => "",
                            (Access::ReadWrite, true) => "(w)",
                            (Access::ReadWrite, false) => "(rw, read only)",
                        }
                    )
                })
                .collect();
            report += &format!("{shader}.{entry}: {storage} storage: {}\n", line.join(" "));
            if storage > max {
                wrong.push(format!("{shader}.{entry} binds {storage} storage buffers, WebGPU allows {max}"));
            }
            for b in bindings {
                if b.access == Access::Uniform && b.name != "params" && b.name != "splats" {
                    wrong.push(format!("{shader}.{entry}: {} is a uniform; only the parameter block and the splat list are", b.name));
                }
            }
        }
        // read_write only where some entry point of the pass writes
        let mut declared_rw: Vec<&str> = vec![];
        for (_, bindings) in &entries {
            for b in bindings.iter().filter(|b| b.access == Access::ReadWrite) {
                declared_rw.push(&b.name);
            }
        }
        declared_rw.sort_unstable();
        declared_rw.dedup();
        for name in declared_rw {
            let written = entries.iter().any(|(_, bs)| bs.iter().any(|b| b.name == name && b.written));
            if !written {
                wrong.push(format!("shaders/{shader}.wgsl declares {name} read_write but no entry point writes it: declare it `read`"));
            }
        }
    }
    // textures: at most WebGPU's default counts a stage; every binding of a pass numbered from 0
    // with no gap, in the order declared, each name once
    let limits = wgpu::Limits::default();
    for (shader, _) in kernel::shaders() {
        let (module, info) = kernel::parse(shader, &kernel::source(shader).unwrap()).unwrap();
        let declared: Vec<(u32, String)> = module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.binding, g.name.clone().unwrap_or_default())))
            .collect();
        let mut numbers: Vec<u32> = declared.iter().map(|d| d.0).collect();
        numbers.sort_unstable();
        if numbers != (0..declared.len() as u32).collect::<Vec<_>>() {
            wrong.push(format!("shaders/{shader}.wgsl: bindings numbered {numbers:?}, not 0 to n - 1"));
        }
        let mut names: Vec<&str> = declared.iter().map(|d| d.1.as_str()).collect();
        names.sort_unstable();
        if names.windows(2).any(|w| w[0] == w[1]) {
            wrong.push(format!("shaders/{shader}.wgsl: a name declared twice: {names:?}"));
        }
        if !declared.iter().any(|d| d.0 == 0 && d.1 == "params") {
            wrong.push(format!("shaders/{shader}.wgsl: binding 0 is not the parameter block: {declared:?}"));
        }
        for (i, entry) in module.entry_points.iter().enumerate() {
            let textures = kernel::entry_textures(&module, &info, i).unwrap();
            let written = textures.iter().filter(|t| matches!(t.2, wgpu::BindingType::StorageTexture { .. })).count();
            let sampled = textures.len() - written;
            if written > limits.max_storage_textures_per_shader_stage as usize
                || sampled > limits.max_sampled_textures_per_shader_stage as usize
            {
                wrong.push(format!("{shader}.{}: {written} storage and {sampled} sampled textures", entry.name));
            }
        }
    }
    println!("{report}");
    assert!(wrong.is_empty(), "{} binding rules broken:\n{}", wrong.len(), wrong.join("\n"));
}

fn storage(device: &wgpu::Device, label: &str) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: 1024,
        usage: wgpu::BufferUsages::STORAGE,
        mapped_at_creation: false,
    })
}

#[test]
fn a_buffer_bound_twice_where_one_binding_writes_is_refused() {
    let gpu = Gpu::headless().unwrap();
    let device = &gpu.device;
    // prolongation's plain kernel adds the coarse x (mg_xc, read) into this level's x (mg_x, written)
    let kernel = Kernel::new(
        kernel::Target { device, device_serial: None, grid: kernel::GridSize::NOMINAL, switches: None },
        "multigrid/smooth",
        "add",
    )
    .unwrap();
    let names = ["level", "mg_x", "mg_xc", "mg_rhs", "mg_stencil", "mg_control", "mg_args", "solid"];
    let buffers: Vec<wgpu::Buffer> = names.iter().map(|n| storage(device, n)).collect();
    let params = device.create_buffer(&wgpu::BufferDescriptor {
        label: None,
        size: std::mem::size_of::<smokebox::sim::params::Params>() as u64,
        usage: wgpu::BufferUsages::UNIFORM,
        mapped_at_creation: false,
    });
    let mut table = names.iter().zip(&buffers).fold(kernel::Table::default(), |t, (n, b)| t.with(n, b)).with("params", &params);
    for (_, name) in &kernel.binds().buffers {
        assert!(table.get(name).is_some(), "the test's table lacks {name}");
    }
    kernel.bind(device, &table); // distinct buffers bind
    table.set("mg_xc", &buffers[1]);
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| kernel.bind(device, &table)));
    let message = *refused.expect_err("the aliased table was bound").downcast::<String>().unwrap();
    assert!(message.contains("mg_x and mg_xc") && message.contains("writable aliasing"), "{message}");
}

#[test]
fn every_pass_binds_without_aliasing_on_every_multigrid_level() {
    // 256 x 192: levels 128 x 96 and 64 x 48 lie above the one-workgroup coarse solve, where the
    // old single mg_x buffer was bound as both a level's x and its coarser neighbour's
    let gpu = Gpu::headless().unwrap();
    for scene in ["plume", "wind-tunnel", "periodic"] {
        let sets = ["grid.nx=256".to_string(), "grid.ny=192".into(), "grid.dye_scale=1".into()];
        let (scene, source) = Scene::load(scene, &sets).unwrap();
        // every kernel of every solver and scheme is bound when the simulation is built
        let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
        sim.enable_div_after().unwrap();
        sim.run_blocking(2, true);
        assert!(sim.download().u.iter().all(|x| x.is_finite()));
    }
}

/// A kernel built again on the same device and grid (a scene opened again, another scene of the
/// same size) is the one built before, pipeline and all, so opening it costs no shader builds
/// (25-30 s a scene on the browser's SwiftShader); another grid or another device gets its own.
#[test]
fn a_kernel_is_built_once_per_device_and_grid() {
    let gpu = match Gpu::headless() {
        Ok(g) => g,
        Err(e) => panic!("{e}"),
    };
    let grid = kernel::GridSize { nx: 40, ny: 24, dye_scale: 1 };
    let target = kernel::Target { device: &gpu.device, device_serial: Some(gpu.serial), grid, switches: None };
    let first = Kernel::new(target, "divergence", "main").unwrap();
    let again = Kernel::new(target, "divergence", "main").unwrap();
    assert!(first.pipeline() == again.pipeline(), "the same kernel was built twice on one device");
    assert!(first.binds().layout == again.binds().layout, "a kept kernel binds with the layout it was built with");
    let wider = kernel::Target { grid: kernel::GridSize { nx: 41, ..grid }, ..target };
    assert!(Kernel::new(wider, "divergence", "main").unwrap().pipeline() != first.pipeline(), "another grid took this grid's kernel");
    // wgpu's ids repeat across instances, so a second device's simulation of the same grid must
    // build its own kernels: one that took the first device's would end the run with wgpu's
    // validation error
    let sets = ["grid.nx=40".to_string(), "grid.ny=24".into()];
    let (scene, source) = Scene::load("box", &sets).unwrap();
    for g in [&gpu, &Gpu::headless().unwrap()] {
        let mut sim = Simulation::from_scene(g, &scene, &source).unwrap();
        let s = sim.run_blocking(3, true);
        assert!(s.last().is_some_and(|s| s.max_speed.is_finite()), "device {}: {s:?}", g.serial);
    }
}

/// A kernel that never reads the dye scale compiles to the same code at every scale, so it is
/// built once for all of them (`kernel::reads_dye_scale`). Checked against the compiled modules
/// themselves, not the call graph the kernel cache reads: an entry point said not to read it,
/// composed at dye scales 1 and 3 and stripped of what it does not use, differs in GRID_K's own
/// value alone, and none of its functions reads GRID_K.
#[test]
fn an_entry_point_that_does_not_read_the_dye_scale_compiles_the_same_at_every_scale() {
    let module = |shader: &str, entry: &str, k: u32| {
        let grid = kernel::GridSize { nx: 40, ny: 24, dye_scale: k };
        let src = kernel::source_with(shader, kernel::DeviceProfile::SOFTWARE.cell_block, grid).unwrap();
        let (mut m, _) = kernel::parse(shader, &src).unwrap();
        m.entry_points.retain(|e| e.name == entry);
        naga::compact::compact(&mut m, naga::compact::KeepUnused::No);
        m
    };
    let (mut free, mut readers) = (vec![], vec![]);
    for (shader, _) in kernel::shaders() {
        for (entry, _) in kernel::reflect(shader).unwrap() {
            let name = format!("{shader}.{entry}");
            if kernel::reads_dye_scale(shader, &entry).unwrap() {
                readers.push(name);
                continue;
            }
            let (one, three) = (module(shader, &entry, 1), module(shader, &entry, 3));
            let (a, b) = (format!("{one:#?}"), format!("{three:#?}"));
            let differ: Vec<(&str, &str)> = a.lines().zip(b.lines()).filter(|(x, y)| x != y).collect();
            assert_eq!(a.lines().count(), b.lines().count(), "{name}");
            assert_eq!(differ.len(), 1, "{name} differs at dye scales 1 and 3 beyond GRID_K: {differ:?}");
            let k = one.constants.iter().find(|(_, c)| c.name.as_deref() == Some("GRID_K")).map(|(h, _)| h).unwrap();
            let reads_k = |f: &naga::Function| f.expressions.iter().any(|(_, e)| matches!(e, naga::Expression::Constant(c) if *c == k));
            assert!(
                !one.functions.iter().any(|(_, f)| reads_k(f)) && !one.entry_points.iter().any(|e| reads_k(&e.function)),
                "{name} reads GRID_K"
            );
            free.push(name);
        }
    }
    println!("read the dye scale: {}\nshared across scales: {}", readers.join(" "), free.join(" "));
    for must in ["advect/ink.ink_cells", "sources.ink_and_density", "advect/maccormack.correct"] {
        assert!(readers.iter().any(|r| r == must), "{must} reads the dye grid: {readers:?}");
    }
    assert!(free.len() > 3 * readers.len(), "most kernels never touch the dye grid: {} of {}", free.len(), free.len() + readers.len());
}

/// A scene of another dye scale on the same device takes the kernels that never read it from
/// the cache and builds the ones that do; it runs as on a device that built everything afresh.
#[test]
fn a_scene_of_another_dye_scale_reuses_what_does_not_read_it() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let target = |k: u32| kernel::Target {
        device: &gpu.device,
        device_serial: Some(gpu.serial),
        grid: kernel::GridSize { nx: 40, ny: 24, dye_scale: k },
        switches: None,
    };
    let flow = |k| Kernel::new(target(k), "divergence", "main").unwrap();
    let ink = |k| Kernel::new(target(k), "advect/ink", "ink_cells").unwrap();
    assert!(flow(1).pipeline() == flow(2).pipeline(), "the divergence was built again for another dye scale");
    assert!(ink(1).pipeline() != ink(2).pipeline(), "the ink's transport took another dye scale's kernel");
    let run = |g: &Gpu, k: u32| {
        let sets = ["grid.nx=40".to_string(), "grid.ny=24".into(), format!("grid.dye_scale={k}")];
        let (scene, source) = Scene::load("plume", &sets).unwrap();
        let mut sim = Simulation::from_scene(g, &scene, &source).unwrap();
        let s = sim.run_blocking(6, true);
        s.last().map(|s| (s.ink_total, s.kinetic_energy, s.max_density)).unwrap()
    };
    run(&gpu, 1);
    let reused = run(&gpu, 2);
    let fresh = run(&Gpu::headless().unwrap(), 2);
    assert_eq!(reused, fresh, "dye scale 2 after scale 1 on one device, against a fresh device");
    assert!(reused.0 > 0.0 && reused.1 > 0.0, "the plume carries ink and moves: {reused:?}");
}

/// Every kernel that reads a multigrid level's description can have it compiled in
/// (`kernel::with_level_compiled`, the quad kernels of a CPU adapter): it then binds no level
/// buffer, and reads the level's sizes as constants.
#[test]
fn a_level_compiled_in_replaces_the_level_binding() {
    let gpu = Gpu::headless().unwrap_or_else(|e| panic!("{e}"));
    let grid = kernel::GridSize { nx: 64, ny: 40, dye_scale: 1 };
    let target = kernel::Target { device: &gpu.device, device_serial: Some(gpu.serial), grid, switches: None };
    let level = smokebox::sim::multigrid::levels(64, 40)[1];
    let mut built = 0;
    for (shader, _) in kernel::shaders() {
        for (entry, bindings) in kernel::reflect(shader).unwrap() {
            if !bindings.iter().any(|b| b.name == "level") {
                continue;
            }
            let binds_level = |k: &Kernel| k.binds().buffers.iter().any(|b| b.1 == "level");
            let plain = Kernel::new(target, shader, &entry).unwrap();
            assert!(binds_level(&plain), "{shader}.{entry}");
            let src = kernel::source(shader).unwrap();
            assert!(
                src.lines().any(|l| l.starts_with("@group(0) @binding(") && l.ends_with(kernel::LEVEL_DECL)),
                "shaders/{shader}.wgsl declares its level otherwise than `{}`",
                kernel::LEVEL_DECL
            );
            let k = kernel::with_level_compiled(&level, || Kernel::with_options(target, shader, &entry, &[], false)).unwrap();
            assert!(!binds_level(&k), "{shader}.{entry} still binds the level with it compiled in");
            built += 1;
        }
    }
    assert!(built >= 10, "{built} kernels read a level");
}

/// A grid as wide as the device's largest 2D texture still runs: its texture copies (the
/// velocity's blocks, the ink's texels, the multigrid's quads on a CPU adapter) would not fit, so
/// the passes read storage there instead (`kernel::textures_fit`).
#[test]
fn a_grid_as_wide_as_the_largest_texture_reads_storage_instead() {
    let gpu = Gpu::headless().unwrap();
    let most = gpu.device.limits().max_texture_dimension_2d as usize;
    assert!(!kernel::textures_fit(&gpu.device, most, 8, 1) && kernel::textures_fit(&gpu.device, most - 1, 8, 1));
    let sets = [format!("grid.nx={most}"), "grid.ny=8".into(), "grid.dye_scale=1".into()];
    let (scene, source) = Scene::load("plume", &sets).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    sim.run_blocking(2, true);
    assert!(sim.download().u.iter().all(|x| x.is_finite()));
}
