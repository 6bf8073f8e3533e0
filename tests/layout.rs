//! The parameter block shared with WGSL: Rust and WGSL must agree on size and every offset,
//! read from naga's reflection of shaders/shared/grid.wgsl. Every shader must also validate.

use smokebox::sim::kernel;
use smokebox::sim::params::{Params, Splat};
use std::mem::{offset_of, size_of};

fn wgsl_struct(name: &str) -> (u32, Vec<(String, u32)>) {
    let src = kernel::source("divergence").unwrap();
    let (module, _) = kernel::parse("divergence", &src).unwrap();
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
        extra
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
}

#[test]
fn every_shader_validates() {
    for (name, _) in kernel::SHADERS {
        let src = kernel::source(name).unwrap();
        if let Err(e) = kernel::parse(name, &src) {
            panic!("{e}");
        }
    }
}

#[test]
fn a_shader_mistake_names_its_file_and_line() {
    let broken = format!("{}\nfn oops() -> f32 {{ return undefined_thing; }}\n", kernel::PRELUDE);
    let err = kernel::parse("broken", &broken).unwrap_err().to_string();
    assert!(err.starts_with("shaders/broken.wgsl:1"), "{err}");
}
