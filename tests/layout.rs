//! Everything Rust and WGSL share: every struct (Params, Splat, LevelDesc, RenderParams) agrees on
//! size and every offset, read from naga's reflection; the solver's control-word offsets and the
//! overlay flags agree by name; the prelude declares only the parameter block; every shader,
//! render shaders included, validates.

use smokebox::render::{self, RenderParams};
use smokebox::sim::kernel;
use smokebox::sim::multigrid::LevelDesc;
use smokebox::sim::params::{Params, Splat};
use smokebox::sim::solver_check::ctl;
use std::mem::{offset_of, size_of};

fn validate(label: &str, src: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(src).unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(src)));
    naga::valid::Validator::new(naga::valid::ValidationFlags::all(), naga::valid::Capabilities::all())
        .validate(&module)
        .unwrap_or_else(|e| panic!("{label}: {}", e.emit_to_string(src)));
    module
}

/// The prelude with the constants it reads in front, on the nominal grid.
fn prelude() -> String {
    kernel::constants(kernel::DeviceProfile::GPU.cell_block, kernel::GridSize::NOMINAL) + kernel::PRELUDE
}

/// A compute shader as the simulation builds it (prelude + pass).
fn pass_module(name: &str) -> naga::Module {
    kernel::parse(name, &kernel::source(name).unwrap()).unwrap().0
}

fn wgsl_struct(name: &str) -> (u32, Vec<(String, u32)>) {
    struct_in(&pass_module("divergence"), name)
}

/// Module-scope `const NAME: u32` values.
fn u32_constant(module: &naga::Module, name: &str) -> u32 {
    let (_, c) = module.constants.iter().find(|(_, c)| c.name.as_deref() == Some(name)).unwrap_or_else(|| panic!("no const {name}"));
    match module.global_expressions[c.init] {
        naga::Expression::Literal(naga::Literal::U32(v)) => v,
        ref other => panic!("const {name} is not a u32 literal: {other:?}"),
    }
}

fn struct_in(module: &naga::Module, name: &str) -> (u32, Vec<(String, u32)>) {
    for (_, ty) in module.types.iter() {
        if ty.name.as_deref() == Some(name)
            && let naga::TypeInner::Struct { members, span } = &ty.inner
        {
            return (*span, members.iter().map(|m| (m.name.clone().unwrap_or_default(), m.offset)).collect());
        }
    }
    panic!("struct {name} not found in the prelude");
}

macro_rules! rust_offsets {
    ($t:ty, $($f:ident),*) => { vec![$((stringify!($f).to_string(), offset_of!($t, $f) as u32)),*] };
}

#[test]
fn params_layout_matches_wgsl() {
    let (size, members) = wgsl_struct("Params");
    let rust = rust_offsets!(
        Params,
        nx,
        ny,
        h,
        dt,
        rho,
        viscosity,
        jacobi_weight,
        sor_omega,
        gravity_x,
        gravity_y,
        vorticity,
        damping,
        ink_dissipation,
        density_drain,
        time,
        splat_count,
        bc_kind,
        bc_slip,
        bc_speed,
        inflow_u,
        inflow_v,
        inflow_density,
        inflow_ink_r,
        inflow_ink_g,
        inflow_ink_b,
        schemes,
        extra,
        dye_scale,
        reach_w,
        reach_h,
        inflow_parabolic,
        body_velocity,
        body_stage,
        body_kind,
        body_shape
    );
    assert_eq!(size as usize, size_of::<Params>(), "Params size differs between Rust and WGSL");
    assert_eq!(members, rust, "Params members or offsets differ between Rust and WGSL");
}

#[test]
fn splat_layout_matches_wgsl() {
    let (size, members) = wgsl_struct("Splat");
    let rust = rust_offsets!(Splat, x, y, radius, mode, vx, vy, density, ink_r, ink_g, ink_b, rate, _pad1);
    assert_eq!(size as usize, size_of::<Splat>());
    assert_eq!(members, rust);
    // the splat list is a fixed-size uniform array in WGSL
    assert_eq!(u32_constant(&pass_module("sources"), "MAX_SPLATS") as usize, smokebox::sim::params::MAX_SPLATS);
}

#[test]
fn level_desc_layout_matches_wgsl() {
    let (size, members) = struct_in(&pass_module("multigrid/smooth"), "Level");
    let rust =
        rust_offsets!(LevelDesc, nx, ny, off, index, fine_nx, fine_ny, fine_off, x_off, coarse_nx, coarse_ny, coarse_off, coarse_x_off);
    assert_eq!(size as usize, size_of::<LevelDesc>(), "LevelDesc size differs between Rust and WGSL");
    assert_eq!(members, rust, "LevelDesc members or offsets differ between Rust and WGSL");
}

#[test]
fn render_params_layout_matches_wgsl() {
    let module = validate("render_field", &render::shader_source());
    let (size, members) = struct_in(&module, "RenderParams");
    let rust = rust_offsets!(RenderParams, nx, ny, flags, walls, background, ranges, view, window, tints);
    assert_eq!(size as usize, size_of::<RenderParams>(), "RenderParams size differs between Rust and WGSL");
    assert_eq!(members, rust, "RenderParams members or offsets differ between Rust and WGSL");
}

#[test]
fn overlay_flags_reach_the_shader_from_their_one_definition() {
    let module = validate("render_field", &render::shader_source());
    for (name, bit) in render::flags::ALL {
        assert_eq!(u32_constant(&module, name), bit, "{name}");
        assert!(!render::SHADER.contains(&format!("const {name}")), "render_field.wgsl declares {name} itself");
    }
    // distinct single bits
    let all = render::flags::ALL.iter().fold(0, |m, (_, b)| {
        assert!(b.is_power_of_two() && m & b == 0, "{b}");
        m | b
    });
    assert_eq!(all.count_ones() as usize, render::flags::ALL.len());
}

#[test]
fn solver_control_words_match_wgsl() {
    let module = pass_module("solver_check");
    assert_eq!(u32_constant(&module, "MAX_GROUPS"), smokebox::sim::kernel::MAX_REDUCTION_GROUPS);
    assert_eq!(u32_constant(&module, "PARTIALS") as usize, ctl::PARTIALS);
    assert_eq!(u32_constant(&module, "ARG_SLOTS") as usize, ctl::ARG_SLOTS);
    assert_eq!(u32_constant(&module, "FULL_ARGS") as usize, ctl::FULL_ARGS);
    assert_eq!(u32_constant(&module, "VERDICT") as usize, ctl::VERDICT);
    assert_eq!(u32_constant(&module, "TAIL") as usize, ctl::TAIL);
    assert_eq!(u32_constant(&module, "POLISH_AT") as usize, ctl::POLISH_AT);
    assert_eq!(u32_constant(&module, "FLOOR") as usize, ctl::FLOOR);
    assert_eq!(u32_constant(&module, "HISTORY") as usize, ctl::HISTORY);
    assert_eq!(u32_constant(&module, "HISTORY_LEN") as usize, ctl::HISTORY_LEN);
    assert_eq!(u32_constant(&module, "POLISH_SLOT") as usize, ctl::POLISH_SLOT);
    assert_eq!(u32_constant(&module, "POLISH_MORE_SLOT") as usize, ctl::POLISH_MORE_SLOT);
    // the partial maxima fill the words from PARTIALS up to the argument slots
    assert_eq!(u32_constant(&module, "PARTIALS") + u32_constant(&module, "MAX_GROUPS"), ctl::FULL_ARGS as u32);
    assert_eq!(ctl::FULL_ARGS + 3 * ctl::ARG_SLOTS, ctl::VERDICT, "full args, 3 words a slot, then the verdict");
    assert_eq!(ctl::VERDICT + ctl::VERDICT_WORDS, ctl::TAIL, "the verdict's words, then the tail's");
    const { assert!(ctl::FLOOR + 3 <= ctl::WORDS) };
    // the first words are indexed by number in the shader; its layout comment is the contract
    let body = kernel::shaders().find(|(n, _)| *n == "solver_check").unwrap().1;
    for (word, what) in [
        (ctl::TOLERANCE, "tolerance"),
        (ctl::RHS_MAX, "max |rhs|"),
        (ctl::DONE, "done"),
        (ctl::RATIO, "last ratio"),
        (ctl::RUN, "units run"),
        (ctl::CHECK_EVERY, "units per check"),
        (ctl::PENDING, "units the next gate counts"),
        (ctl::FLOOR_RUN, "units run at the floor's reference"),
    ] {
        assert!(body.contains(&format!("{word} {what}")), "solver_check.wgsl's layout comment does not put '{what}' at word {word}");
    }
}

#[test]
fn the_prelude_declares_only_the_parameter_block() {
    // the prelude declares only the parameter block; each pass declares the rest itself, in
    // group 0 (tests/bindings.rs checks their numbers)
    let prelude = validate("prelude", &prelude());
    let declared: Vec<_> =
        prelude.global_variables.iter().filter_map(|(_, g)| g.binding.as_ref().map(|b| (b.binding, g.name.clone()))).collect();
    assert_eq!(declared, vec![(0, Some("params".to_string()))]);
    for (name, _) in kernel::shaders() {
        let module = pass_module(name);
        for (_, g) in module.global_variables.iter() {
            if let Some(b) = &g.binding {
                assert_eq!(b.group, 0, "shaders/{name}.wgsl");
            }
        }
    }
}

#[test]
fn every_shader_validates() {
    for (name, _) in kernel::shaders() {
        let src = kernel::source(name).unwrap();
        if let Err(e) = kernel::parse(name, &src) {
            panic!("{e}");
        }
    }
    // the render shaders, as the renderer loads them
    validate("render_field", &render::shader_source());
    validate("blit", render::cached::BLIT_SHADER);
}

#[test]
fn a_shader_mistake_names_its_file_and_line() {
    let broken = format!("{}\nfn oops() -> f32 {{ return undefined_thing; }}\n", prelude());
    let err = kernel::parse("broken", &broken).unwrap_err().to_string();
    assert!(err.starts_with("shaders/broken.wgsl:1"), "{err}");
}

#[test]
fn shader_constants_match_rust() {
    use smokebox::sim::params::*;
    let prelude = pass_module("divergence");
    for (name, rust) in [
        ("SIDE_LEFT", SIDE_LEFT as u32),
        ("SIDE_RIGHT", SIDE_RIGHT as u32),
        ("SIDE_BOTTOM", SIDE_BOTTOM as u32),
        ("SIDE_TOP", SIDE_TOP as u32),
        ("BC_WALL", BC_WALL),
        ("BC_INFLOW", BC_INFLOW),
        ("BC_OUTFLOW", BC_OUTFLOW),
        ("BC_PERIODIC", BC_PERIODIC),
        ("SLIP_NO_SLIP", SLIP_NO_SLIP),
        ("SLIP_FREE", SLIP_FREE),
    ] {
        assert_eq!(u32_constant(&prelude, name), rust, "{name}");
    }
    let mc = pass_module("advect/maccormack");
    assert_eq!(u32_constant(&mc, "SCHEME_MACCORMACK"), SCHEME_MACCORMACK);
    assert_eq!(u32_constant(&mc, "SCHEME_BFECC"), SCHEME_BFECC);
    assert_eq!(u32_constant(&pass_module("advect/conservative"), "SCHEME_CONSERVATIVE"), SCHEME_CONSERVATIVE);
    let sources = pass_module("sources");
    assert_eq!(u32_constant(&sources, "MODE_PAINT_SOLID"), SPLAT_PAINT_SOLID);
    assert_eq!(u32_constant(&sources, "MODE_ERASE_SOLID"), SPLAT_ERASE_SOLID);
}
