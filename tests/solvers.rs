//! The pressure solvers (src/sim/solver.rs): each fused multigrid dispatch, the fused Jacobi and SOR
//! sweeps and the residual reductions against their CPU twins (src/sim/cpu/{multigrid, pressure,
//! pressure_sor, solver_check}.rs) under walls, solids, an outflow, periodic sides and odd sizes;
//! a manufactured Poisson problem per solver; multigrid projection to 1e-5; the three solvers
//! agreeing; the predicted tolerance path against the fully gated one; the default projection of
//! every built-in scene.

mod common;
use common::*;
use smokebox::config::{SolverConfig, SolverKind};
use smokebox::sim::buffers::read_buffers;
use smokebox::sim::cpu::multigrid::Mg;
use smokebox::sim::fields::Fields;
use smokebox::sim::init::enforce_faces;
use smokebox::sim::kernel::{DeviceProfile, MAX_REDUCTION_GROUPS, profile, with_profile};
use smokebox::sim::params::*;
use smokebox::sim::solver_check::{Launch, Measure, SolveReport, ctl};
use smokebox::sim::{Simulation, cpu};

const REL: f32 = 2e-5;

fn settings(kind: SolverKind, iterations: u32, tolerance: f32) -> SolverConfig {
    SolverConfig { kind, iterations: Some(iterations as i64), tolerance, warm_start: false, ..Default::default() }
}

fn params(nx: usize, ny: usize, kinds: [u32; 4]) -> Params {
    with_boundaries(box_params(nx, ny, 0.05, 0.02), kinds)
}

/// Reads the GPU's level buffers back into an `Mg`: x of level 0 from `dp` and level k's from
/// `mg_x[k % 2]`, or with `second`, from the smoothers' second buffers `p_out` and `mg_y`.
fn download_mg(sim: &Simulation, second: bool) -> Mg {
    let s = &sim.stages.solvers.mg;
    let data = if second {
        read_buffers(
            &sim.device,
            &sim.queue,
            &[&sim.buffers.p_out, &s.buffers.mg_y, &s.buffers.mg_y, &s.buffers.mg_rhs, &s.buffers.mg_stencil],
        )
    } else {
        read_buffers(
            &sim.device,
            &sim.queue,
            &[&sim.buffers.dp, &s.buffers.mg_x[0], &s.buffers.mg_x[1], &s.buffers.mg_rhs, &s.buffers.mg_stencil],
        )
    };
    let total = smokebox::sim::multigrid::total_cells(s.levels());
    let mut x = data[0].clone();
    for (k, l) in s.levels().iter().enumerate().skip(1) {
        let at = l.x_off as usize;
        x.extend_from_slice(&data[1 + k % 2][at..at + l.cells()]);
    }
    assert_eq!(x.len(), total);
    Mg {
        levels: s.levels().to_vec(),
        x,
        rhs: data[3].clone(),
        res: vec![0.0; total],
        stencil: data[4].iter().map(|v| v.to_bits()).collect(),
        periodic: [sim.params.bc_kind[0] == BC_PERIODIC, sim.params.bc_kind[2] == BC_PERIODIC],
    }
}

/// Writes an `Mg` into the GPU's level buffers, its x into both of each level's buffers.
fn upload_mg(sim: &Simulation, mg: &Mg) {
    let s = &sim.stages.solvers.mg;
    let n0 = mg.levels[0].cells();
    for x0 in [&sim.buffers.dp, &sim.buffers.p_out] {
        sim.queue.write_buffer(x0, 0, bytemuck::cast_slice(&mg.x[..n0]));
    }
    for (k, l) in mg.levels.iter().enumerate().skip(1) {
        let level = &mg.x[n0 + l.x_off as usize..][..l.cells()];
        for x in [&s.buffers.mg_x[k % 2], &s.buffers.mg_y] {
            sim.queue.write_buffer(x, l.x_off as u64 * 4, bytemuck::cast_slice(level));
        }
    }
    sim.queue.write_buffer(&s.buffers.mg_rhs, 0, bytemuck::cast_slice(&mg.rhs));
}

/// Records `f` in one compute pass and waits for it.
fn run(sim: &Simulation, f: impl FnOnce(&mut wgpu::ComputePass<'_>)) {
    sim.queue.write_buffer(&sim.buffers.params, 0, bytemuck::bytes_of(&sim.params));
    let mut encoder = sim.device.create_command_encoder(&Default::default());
    {
        let mut pass = encoder.begin_compute_pass(&Default::default());
        f(&mut pass);
    }
    sim.queue.submit([encoder.finish()]);
    sim.device.poll(wgpu::PollType::wait_indefinitely()).unwrap();
}

fn solve_report(sim: &Simulation) -> SolveReport {
    sim.stages.solvers.report(&sim.device, &sim.queue, sim.solver.kind)
}

fn random_state(nx: usize, ny: usize, kinds: [u32; 4], seed: u64, solids: f32) -> (Fields, Params) {
    let p = params(nx, ny, kinds);
    let mut f = random_fields(nx, ny, seed, solids);
    if kinds[0] == BC_INFLOW {
        for j in 0..ny {
            f.solid[j * nx] = 0.0;
        }
    }
    enforce_faces(&mut f, &p);
    (f, p)
}

/// Sizes and boundaries of the exact pass comparisons: odd sizes coarsen with short last cells,
/// and an odd periodic axis has a seam of two colours of its own (four sub-sweeps a sweep, a tile
/// dispatch one sweep).
fn pass_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (nx, ny) in [(75, 61), (80, 72), (23, 17)] {
        for (name, kinds) in boundary_cases() {
            cases.push((nx, ny, name, kinds));
        }
    }
    cases
}

type Case = (usize, usize, &'static str, [u32; 4]);

#[test]
fn multigrid_passes_match_cpu() {
    check_multigrid_passes(&gpu(), &pass_cases());
}

/// The tiled kernels (workgroup memory, temporal blocking) at the workgroup size a GPU picks, and
/// every cell kernel on a GPU's 16 x 16 cell block: lavapipe picks 8 invocations, the plain kernels
/// and a 32 x 8 block, so without this the GPU's shapes would run nowhere in CI. Every fused pass,
/// the V-cycle, SOR and Jacobi against the CPU as above (80 x 72: the quad kernels too).
#[test]
fn tiled_solvers_match_cpu_at_a_gpus_workgroup_size() {
    let gpu = gpu();
    let cases: Vec<Case> = pass_cases().into_iter().filter(|c| c.0 == 75 || c.0 == 80).collect();
    let gpus = DeviceProfile { cell_block: DeviceProfile::GPU.cell_block, solver_workgroup: 256, ..profile(&gpu.device) };
    with_profile(gpus, || {
        assert_eq!(profile(&gpu.device), gpus);
        check_multigrid_passes(&gpu, &cases);
        check_fused_jacobi(&gpu, &cases);
    });
}

fn check_multigrid_passes(gpu: &smokebox::gpu::Gpu, cases: &[Case]) {
    for &(nx, ny, name, kinds) in cases {
        let (f, p) = random_state(nx, ny, kinds, 7, 0.2);
        let mut sim = Simulation::new(gpu, &f, p, settings(SolverKind::Multigrid, 1, 0.0)).unwrap();
        // set-up (stencils of every level) and level 0's rhs, through a real solve's set-up
        sim.run_pass("solve");
        let ctx = format!("{name} {nx}x{ny}");
        // a cold start: the correction's right-hand side is b itself
        let mut want = Mg::new(nx, ny);
        let mut cold = f.clone();
        cold.p.fill(0.0);
        want.setup(&cold, &sim.params);
        let got = download_mg(&sim, false);
        assert_eq!(got.stencil, want.stencil, "{ctx}: packed stencils");
        let n0 = nx * ny;
        assert_close(&format!("{ctx} rhs"), &got.rhs[..n0], &want.rhs[..n0], REL);
        // after a warm start the correction's right-hand side is the started pressure's residual
        let warm = SolverConfig { warm_start: true, ..settings(SolverKind::Multigrid, 1, 0.0) };
        let mut warmed = Simulation::new(gpu, &f, p, warm).unwrap();
        warmed.run_pass("solve");
        let mut started = f.clone();
        cpu::warm_start(&mut started, &warmed.params, false);
        let mut want_warm = Mg::new(nx, ny);
        want_warm.setup(&started, &warmed.params);
        assert_close(&format!("{ctx} rhs through the warm start"), &download_mg(&warmed, false).rhs[..n0], &want_warm.rhs[..n0], REL);
        let s = &sim.stages.solvers;
        let mg = &s.mg;
        if nx > 32 {
            assert!(mg.coarse() >= 2, "{ctx}: two levels above the coarse solve expected");
        }
        // random x and rhs on every level, then each fused dispatch
        let mut rng = Rng::new(11);
        let mut state = got.clone();
        for v in state.x.iter_mut().chain(state.rhs.iter_mut()) {
            *v = rng.signed();
        }
        // the level-0 residual reduction (four cells a thread where the rows are whole quads), its
        // maximum planted at the last fluid cell of a row (a quad's last lane at a row's end)
        let mut spiked = state.clone();
        let row = ny / 2 * nx;
        let last = (row..row + nx).rev().find(|&c| (spiked.stencil[c] >> 4) & 7 > 0).unwrap();
        spiked.rhs[last] = 100.0;
        upload_mg(&sim, &spiked);
        run(&sim, |pass| {
            s.check.encode_start(pass);
            s.check.encode_gate(pass, Measure::Level0, Launch::new(&s.args, false));
        });
        let words = &read_buffers(&sim.device, &sim.queue, &[&s.control])[0];
        let partials = &words[ctl::PARTIALS..ctl::PARTIALS + MAX_REDUCTION_GROUPS as usize];
        let gpu_max = partials.iter().fold(0.0f32, |m, &v| m.max(v));
        let twin = cpu::solver_check::reduce_mg(&spiked);
        assert!(twin > 50.0 && (gpu_max - twin).abs() <= REL * twin, "{ctx}: reduce_mg {gpu_max:e}, CPU twin {twin:e}");
        let launch = Launch::new(&s.args, false);
        let p = sim.params;
        type Step<'a> = (String, Box<dyn Fn(&mut wgpu::ComputePass<'_>) + 'a>, Box<dyn Fn(&mut Mg)>);
        let mut steps: Vec<Step> = Vec::new();
        for l in 0..mg.coarse() {
            steps.push((
                format!("smooth {l}"),
                Box::new(move |pass| mg.encode_smooth(pass, launch, l)),
                Box::new(move |m| m.smooth_pass(l)),
            ));
            steps.push((
                format!("restrict {l}"),
                Box::new(move |pass| mg.encode_restrict(pass, launch, l)),
                Box::new(move |m| m.restrict_pass(l)),
            ));
            steps.push((
                format!("prolong {l}"),
                Box::new(move |pass| mg.encode_prolong(pass, launch, l)),
                Box::new(move |m| m.prolong_pass(l, &p)),
            ));
        }
        let first = mg.coarse();
        steps.push(("coarse".into(), Box::new(move |pass| mg.encode_coarse(pass, launch)), Box::new(move |m| m.coarse_pass(first, &p))));
        // a CPU adapter's level above the coarse solve and the solve in one dispatch, where the level
        // is small and takes the quad kernels (80 x 72: 40 x 36)
        if nx == 80 && !mg.tiled {
            assert_eq!(mg.lower_level(), Some(first - 1), "{ctx}: the level above the coarse solve in one dispatch");
        }
        if let Some(l) = mg.lower_level() {
            steps.push(("lower".into(), Box::new(move |pass| mg.encode_lower(pass, launch)), Box::new(move |m| m.lower_pass(l, &p))));
        }
        // the plain kernels (CPU adapters), in place
        {
            for l in 0..mg.coarse() {
                steps.push((
                    format!("plain sweep {l}"),
                    Box::new(move |pass| mg.encode_plain_sweep(pass, launch, l)),
                    Box::new(move |m| m.smooth(l)),
                ));
                // a smoothing block: on a CPU adapter's quad levels through the level's textures
                steps.push((
                    format!("plain sweeps {l}"),
                    Box::new(move |pass| mg.encode_plain_sweeps(pass, launch, l, 3)),
                    Box::new(move |m| (0..3).for_each(|_| m.smooth(l))),
                ));
                steps.push((
                    format!("plain sweeps and restrict {l}"),
                    Box::new(move |pass| mg.encode_smoothed_restrict(pass, launch, l, 2)),
                    Box::new(move |m| {
                        m.smooth(l);
                        m.smooth(l);
                        m.restrict_pass(l);
                    }),
                ));
                steps.push((
                    format!("plain restrict {l}"),
                    Box::new(move |pass| mg.encode_plain_restrict(pass, launch, l)),
                    Box::new(move |m| m.restrict_pass(l)),
                ));
                steps.push((
                    format!("plain prolong {l}"),
                    Box::new(move |pass| mg.encode_plain_prolong(pass, launch, l)),
                    Box::new(move |m| m.prolong(l, &p)),
                ));
            }
        }
        steps.push(("v-cycle".into(), Box::new(move |pass| mg.encode_vcycle(pass, launch)), Box::new(move |m| m.vcycle(&p))));
        if !mg.tiled {
            // the tiled V-cycle too, on any adapter
            steps.push((
                "v-cycle (tiled)".into(),
                Box::new(move |pass| mg.encode_vcycle_tiled(pass, launch)),
                Box::new(move |m| m.vcycle(&p)),
            ));
        }
        // the plain polish starts from the texture the V-cycle before it left level 0's x in, where
        // it has one (`level0_tex`); twice, as a solve's polish and its second half run
        if !mg.tiled && mg.level0_tex().is_some() {
            steps.push((
                "v-cycle and polish".into(),
                Box::new(move |pass| {
                    mg.encode_vcycle(pass, launch);
                    mg.encode_polish(pass, launch);
                    mg.encode_polish(pass, launch);
                }),
                Box::new(move |m| {
                    m.vcycle(&p);
                    m.polish(2);
                    m.polish(2);
                }),
            ));
        }
        // while the bottom's inverse is not ready (its operator assembled again, not eliminated: as
        // after obstacles are painted), the coarse solve relaxes the bottom; last, as it leaves
        // the inverse unready
        steps.push((
            "coarse, bottom relaxed".into(),
            Box::new(move |pass| {
                mg.encode_setup(pass, launch);
                mg.encode_coarse(pass, launch);
            }),
            Box::new(move |m| m.coarse_pass_relaxed(first, &p)),
        ));
        for (label, gpu_step, cpu_step) in &steps {
            upload_mg(&sim, &state);
            run(&sim, |pass| gpu_step(pass));
            // the pre-smoother writes the second buffers (but on an odd seam, two dispatches)
            let smoothed = label.strip_prefix("smooth ").map(|l| l.parse::<usize>().unwrap());
            let got = download_mg(&sim, smoothed.is_some_and(|l| mg.smoothed_in_y(l)));
            let mut want = state.clone();
            cpu_step(&mut want);
            // the coarse solve and the V-cycle run many relaxations in a row: rounding grows; the
            // levels below the coarse solve's first live only in workgroup memory on the GPU
            let whole = label.starts_with("coarse") || label.starts_with('v') || label == "lower";
            let rel = if whole { 2e-4 } else { REL };
            let end = if whole { (mg.levels()[first].off as usize) + mg.levels()[first].cells() } else { got.x.len() };
            for (field, g, w) in [("x", &got.x, &want.x), ("rhs", &got.rhs, &want.rhs)] {
                assert_close(&format!("{ctx} {label} {field}"), &g[..end], &w[..end], rel);
            }
        }
        // the prolongation into the level's textures and the post-smoothing from them, right after a
        // pre-smoothing block and the restriction (which leave its rhs and stencil there), with a
        // coarse correction to add
        for l in 0..mg.coarse() {
            upload_mg(&sim, &state);
            run(&sim, |pass| mg.encode_smoothed_restrict(pass, launch, l, 2));
            let mut mid = download_mg(&sim, false);
            let coarse = &mid.levels[l + 1];
            let (at, n) = (coarse.off as usize, coarse.cells());
            mid.x[at..at + n].copy_from_slice(&state.x[at..at + n]);
            upload_mg(&sim, &mid);
            run(&sim, |pass| mg.encode_prolong_smoothed(pass, launch, l, 2));
            let got = download_mg(&sim, false);
            let mut want = mid.clone();
            want.prolong(l, &p);
            want.smooth(l);
            want.smooth(l);
            assert_close(&format!("{ctx} prolong and sweeps {l} x"), &got.x, &want.x, REL);
        }
        drop(steps);
        // the polish of a solve to a tolerance: level 0's sweeps, plain (two) and tiled (four),
        // where level 0 lies above the coarse solve
        let polished = mg.coarse() > 0;
        for tiled in [false, true].into_iter().filter(|_| polished) {
            sim.stages.solvers.mg.tiled = tiled;
            let mg = &sim.stages.solvers.mg;
            let launch = Launch::new(&sim.stages.solvers.args, false);
            // the plain polish from level 0's texture is checked after a V-cycle (`steps`)
            if !tiled && mg.level0_tex().is_some() {
                continue;
            }
            upload_mg(&sim, &state);
            run(&sim, |pass| mg.encode_polish(pass, launch));
            let got = download_mg(&sim, false);
            let mut want = state.clone();
            want.polish(mg.polish_sweeps());
            assert_eq!(mg.polish_sweeps(), if tiled { 4 } else { 2 });
            assert_close(&format!("{ctx} polish, tiled {tiled}"), &got.x, &want.x, REL);
        }
        // SOR: one dispatch is two sweeps on level 0
        for tiled in [true, false] {
            let mut sim2 = Simulation::new(gpu, &f, p, settings(SolverKind::Sor, 2, 0.0)).unwrap();
            sim2.solver.warm_start = true;
            sim2.stages.solvers.mg.tiled = tiled;
            sim2.run_pass("solve");
            let mut want = f.clone();
            cpu::warm_start(&mut want, &sim2.params, false);
            cpu::pressure_sor::pressure_sor(&mut want, &sim2.params);
            assert_close(&format!("{ctx} sor dispatch, tiled {tiled}"), &sim2.download().p, &want.p, REL);
        }
    }
}

/// The bottom level's exact solve: the GPU's inverse operator (set-up, shaders/multigrid/bottom.wgsl)
/// against the CPU twin's, and the twin's product against the operator itself, through the
/// residual (a different code path): x = M b leaves no residual where b is consistent (each
/// component without an outflow face summing to zero), under walls, periodic sides, an outflow
/// and random solids that split the bottom into components.
#[test]
fn bottom_inverse_matches_cpu_and_solves() {
    let gpu = gpu();
    // and the largest bottom, 16 x 16 (a 128² grid): its elimination's chunks stay within
    // lavapipe's 65535 loop iterations a dispatch (src/sim/multigrid.rs `BOTTOM_STEPS`)
    let largest = (128, 128, "open-top 128²", [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW]);
    for &(nx, ny, name, kinds) in pass_cases().iter().chain([&largest]) {
        let ctx = format!("{name} {nx}x{ny}");
        let (f, p) = random_state(nx, ny, kinds, 7, 0.2);
        let mut sim = Simulation::new(&gpu, &f, p, settings(SolverKind::Multigrid, 1, 0.0)).unwrap();
        sim.run_pass("solve");
        let mut mg = Mg::new(nx, ny);
        mg.setup(&f, &sim.params);
        let want = mg.bottom_inverse();
        let l = mg.levels.len() - 1;
        let bottom = mg.levels[l];
        let (off, n) = (bottom.off as usize, bottom.cells());
        let st = &mg.stencil[off..off + n];
        let fluid: Vec<usize> = (0..n).filter(|&c| (st[c] >> 4) & 7 > 0).collect();
        assert!(!fluid.is_empty(), "{ctx}: a fluid bottom");
        // a consistent right-hand side: random, less its mean over the bottom where no side is open
        // (random solids may close off pockets: those rows are pinned, checked apart below)
        let mut rng = Rng::new(5);
        let mut b = vec![0.0f32; n];
        for &c in &fluid {
            b[c] = rng.signed();
        }
        let closed = !kinds.contains(&BC_OUTFLOW);
        if closed {
            let mean = fluid.iter().map(|&c| b[c]).sum::<f32>() / fluid.len() as f32;
            fluid.iter().for_each(|&c| b[c] -= mean);
        }
        mg.x.fill(0.0);
        mg.rhs[off..off + n].copy_from_slice(&b);
        mg.bottom_solve();
        mg.residual(l);
        let scale = b.iter().fold(0.0f32, |m, v| m.max(v.abs()));
        let res = &mg.res[off..off + n];
        // cells whose residual is not zero: only pinned ones (their own equation dropped)
        let pinned: Vec<usize> = (0..n).filter(|&c| res[c].abs() > 1e-3 * scale).collect();
        assert!(pinned.len() <= 1 + fluid.len() / 16, "{ctx}: residual left at {} of {} cells: {pinned:?}", pinned.len(), fluid.len());
        for &c in &pinned {
            assert_eq!(mg.x[off + c], 0.0, "{ctx}: cell {c} keeps a residual but is not pinned");
        }
        if closed && pinned.len() == 1 {
            // the one closed component's pinned row carries only the rounding of the mean
            assert!(res[pinned[0]].abs() < 1e-2 * scale, "{ctx}: closed box's pinned residual {}", res[pinned[0]]);
        }
        let got = &read_buffers(&sim.device, &sim.queue, &[&sim.stages.solvers.mg.buffers.mg_bottom])[0];
        assert_close(&format!("{ctx}: bottom inverse"), &got[..want.len()], &want, 1e-4);
    }
}

/// Obstacles painted with the brush: the set-up runs again, and the bottom's elimination a chunk a
/// step (`Memory::lazy` in src/sim/solver.rs), the coarse solve relaxing the bottom meanwhile;
/// once the last chunk ran, the inverse is the CPU twin's for the new obstacles. A load eliminates
/// it whole at once.
#[test]
fn painted_obstacles_eliminate_the_bottom_a_chunk_a_step() {
    let gpu = gpu();
    let (nx, ny) = (80, 72);
    let (f, p) = random_state(nx, ny, [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], 3, 0.0);
    let mut sim = Simulation::new(&gpu, &f, p, settings(SolverKind::Multigrid, 2, 0.0)).unwrap();
    let ready = |sim: &Simulation| {
        let mg = &sim.stages.solvers.mg;
        let bottom = mg.levels()[mg.levels().len() - 1];
        let words = smokebox::sim::multigrid::bottom_words(&bottom);
        read_buffers(&sim.device, &sim.queue, &[&mg.buffers.mg_bottom])[0][words - 4] == 1.0
    };
    sim.run_blocking(1, false);
    assert!(ready(&sim), "a load eliminates the bottom whole");
    let chunks = sim.stages.solvers.mg.bottom_chunks();
    assert!(chunks >= 2, "{chunks} chunks");
    sim.add_splat(Splat {
        x: 0.5 * nx as f32 * p.h,
        y: 0.5 * ny as f32 * p.h,
        radius: 0.2 * ny as f32 * p.h,
        mode: SPLAT_PAINT_SOLID,
        ..Default::default()
    });
    for k in 1..=chunks {
        let stats = sim.run_blocking(1, true);
        assert!(stats[0].div_max_after.is_finite(), "step {k} after painting");
        assert_eq!(ready(&sim), k == chunks, "ready after {k} of {chunks} chunks");
    }
    let fields = sim.download();
    assert!(fields.solid.iter().any(|&s| s > 0.5), "the brush painted an obstacle");
    let mut mg = Mg::new(nx, ny);
    mg.setup(&fields, &sim.params);
    let want = mg.bottom_inverse();
    let got = &read_buffers(&sim.device, &sim.queue, &[&sim.stages.solvers.mg.buffers.mg_bottom])[0];
    assert_close("painted obstacle's bottom inverse", &got[..want.len()], &want, 1e-4);
}

/// Obstacles painted into a running plume (the default solve to 1e-4): each step that changes them
/// reaches the tolerance, its gated part as long as a solve from zero's (`Solvers::mark_dirty`).
/// With the prediction's spares alone, steps of such strokes stopped above it.
#[test]
fn painting_obstacles_into_a_running_flow_meets_the_tolerance() {
    let gpu = gpu();
    let (scene, source) = smokebox::config::scene::Scene::load("plume", &[]).unwrap();
    let mut sim = Simulation::from_scene(&gpu, &scene, &source).unwrap();
    sim.run_blocking(40, false);
    let (w, h) = (sim.nx as f32 * sim.params.h, sim.ny as f32 * sim.params.h);
    let mut above = Vec::new();
    for k in 0..40 {
        // a stroke across the plume's path, as a drag of the wall brush lays it down
        let t = k as f32 / 40.0;
        sim.add_splat(Splat { x: w * (0.35 + 0.3 * t), y: h * 0.55, radius: 0.04 * w, mode: SPLAT_PAINT_SOLID, ..Default::default() });
        let stats = sim.run_blocking(1, true);
        if stats[0].converged == Some(false) {
            above.push(k);
        }
    }
    assert!(sim.download().solid.iter().any(|&s| s > 0.5), "the strokes painted an obstacle");
    assert!(above.is_empty(), "painting steps above the tolerance: {above:?}");
}

#[test]
fn fused_jacobi_matches_cpu() {
    check_fused_jacobi(&gpu(), &pass_cases());
}

fn check_fused_jacobi(gpu: &smokebox::gpu::Gpu, cases: &[Case]) {
    for &(nx, ny, name, kinds) in cases {
        let (f, p) = random_state(nx, ny, kinds, 9, 0.15);
        for (sweeps, tiled) in [(4, true), (40, true), (1, true), (7, true), (7, false)] {
            let mut sim = Simulation::new(gpu, &f, p, settings(SolverKind::Jacobi, sweeps, 0.0)).unwrap();
            sim.solver.warm_start = true;
            // four sweeps a dispatch through workgroup memory (GPUs), or one (CPU adapters)
            sim.stages.solvers.jacobi.tiled = tiled;
            sim.run_pass("solve");
            let mut want = f.clone();
            cpu::warm_start(&mut want, &sim.params, false);
            for _ in 0..sweeps {
                cpu::pressure(&mut want, &sim.params);
            }
            assert_close(&format!("{name} {nx}x{ny} jacobi {sweeps} tiled {tiled}"), &sim.download().p, &want.p, 1e-4);
        }
    }
}

/// The residual reduction of the Jacobi pressure, against its twin and against the residual in
/// f64 of the same f32 values, on a pressure far larger than its residual: the cancelling
/// `count p - sum` form misses by several per cent there.
#[test]
fn reduce_p_uses_the_difference_form() {
    let gpu = gpu();
    let (nx, ny) = (40, 30);
    let (mut f, p) = random_state(nx, ny, [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], 4, 0.1);
    let mut rng = Rng::new(5);
    for (c, x) in f.p.iter_mut().enumerate() {
        *x = if f.solid[c] > 0.5 { 0.0 } else { 4096.0 + 0.01 * rng.signed() };
    }
    for d in f.divergence.iter_mut() {
        *d *= 1e-3;
    }
    let mut sim = Simulation::new(&gpu, &f, p, settings(SolverKind::Jacobi, 8, 1e-30)).unwrap();
    sim.run_pass("pressure"); // packs the stencil (one sweep into p_out... and back: p changes)
    sim.upload(&f);
    let s = &sim.stages.solvers;
    run(&sim, |pass| {
        s.check.encode_start(pass);
        s.check.encode_gate(pass, Measure::Jacobi, Launch::new(&s.args, false));
    });
    let words = &read_buffers(&sim.device, &sim.queue, &[&s.control])[0];
    let rhs_max = words[1];
    let gpu_max = words[3] * rhs_max;
    let stencil: Vec<u32> = read_buffers(&sim.device, &sim.queue, &[&sim.buffers.stencil])[0].iter().map(|v| v.to_bits()).collect();
    let twin = cpu::solver_check::reduce_p(&f, &sim.params, &stencil);
    // the residual of the stored f32 values, in f64
    let mut exact = 0.0f64;
    for j in 0..ny as i32 {
        for i in 0..nx as i32 {
            let c = (j * nx as i32 + i) as usize;
            let st = stencil[c];
            if st >> 4 == 0 {
                continue;
            }
            let pc = f.p[c] as f64;
            let mut r = -(p.rho * p.h * p.h * f.divergence[c] / p.dt) as f64 - (st >> 4) as f64 * pc;
            let w = |a: i32, n: i32| (a + n) % n;
            for (flag, a, b) in
                [(1, w(i - 1, nx as i32), j), (2, w(i + 1, nx as i32), j), (4, i, w(j - 1, ny as i32)), (8, i, w(j + 1, ny as i32))]
            {
                if st & flag != 0 {
                    r += f.p[(b * nx as i32 + a) as usize] as f64;
                }
            }
            exact = exact.max(r.abs());
        }
    }
    let exact = exact as f32;
    assert!((twin - exact).abs() <= 1e-4 * exact, "CPU twin {twin:e} against f64 {exact:e}");
    assert!((gpu_max - exact).abs() <= 1e-4 * exact, "GPU reduce_p {gpu_max:e} against f64 {exact:e} (twin {twin:e})");
}

/// A smooth known pressure on the fluid cells; the divergence that makes it the solution.
fn manufactured(nx: usize, ny: usize, kinds: [u32; 4]) -> (Fields, Params, Vec<f32>) {
    let p = params(nx, ny, kinds);
    let mut f = Fields::zeros(nx, ny);
    for j in 0..ny {
        for i in 0..nx {
            if (5..9).contains(&i) && (4..8).contains(&j) || (i == 15 && j == 3) {
                f.solid[j * nx + i] = 1.0;
            }
        }
    }
    let mut exact = vec![0.0; nx * ny];
    for j in 0..ny {
        for i in 0..nx {
            let (x, y) = (i as f32 / nx as f32, j as f32 / ny as f32);
            if f.solid[j * nx + i] < 0.5 {
                exact[j * nx + i] = (std::f32::consts::TAU * x).sin() * (1.0 + y) + 0.5 * (3.0 * y).cos();
            }
        }
    }
    // rhs = A exact, i.e. divergence = -(dt / rho h^2) A exact
    let mut mg = Mg::new(nx, ny);
    mg.setup(&f, &p);
    mg.x[..nx * ny].copy_from_slice(&exact);
    mg.rhs.iter_mut().for_each(|r| *r = 0.0);
    mg.residual(0);
    for c in 0..nx * ny {
        f.divergence[c] = mg.res[c] * p.dt / (p.rho * p.h * p.h);
    }
    (f, p, exact)
}

fn solve(gpu: &smokebox::gpu::Gpu, f: &Fields, p: Params, s: SolverConfig) -> (Vec<f32>, SolveReport) {
    let mut sim = Simulation::new(gpu, f, p, s).unwrap();
    sim.run_pass("solve");
    (sim.download().p, solve_report(&sim))
}

fn minus_mean(x: &[f32], f: &Fields) -> Vec<f32> {
    let fluid: Vec<usize> = (0..x.len()).filter(|&c| f.solid[c] < 0.5).collect();
    let mean = fluid.iter().map(|&c| x[c] as f64).sum::<f64>() / fluid.len() as f64;
    (0..x.len()).map(|c| if f.solid[c] < 0.5 { x[c] - mean as f32 } else { 0.0 }).collect()
}

#[test]
fn each_solver_solves_a_manufactured_problem() {
    let gpu = gpu();
    let (nx, ny) = (22, 18);
    let cases = [
        ("periodic sides, wall below, outflow above", [BC_PERIODIC, BC_PERIODIC, BC_WALL, BC_OUTFLOW], true),
        ("walls", [BC_WALL; 4], false),
        ("periodic", [BC_PERIODIC; 4], false),
    ];
    for (name, kinds, dirichlet) in cases {
        let (f, p, exact) = manufactured(nx, ny, kinds);
        for (kind, iterations, tol) in [(SolverKind::Jacobi, 20000, 1e-4), (SolverKind::Sor, 4000, 1e-5), (SolverKind::Multigrid, 60, 1e-5)]
        {
            let (got, report) = solve(&gpu, &f, p, settings(kind, iterations, tol));
            assert!(report.converged && report.ratio <= tol, "{name} {kind:?}: stopped at {report:?}, tolerance {tol}");
            assert!(report.iterations < iterations, "{name} {kind:?}: ran all {iterations}");
            let (a, b) = if dirichlet { (got.clone(), exact.clone()) } else { (minus_mean(&got, &f), minus_mean(&exact, &f)) };
            let err = max_diff(&a, &b) / max_abs(&b);
            assert!(err < 2e-2, "{name} {kind:?}: error {err} against the known pressure ({report:?})");
        }
    }
}

/// max |div| of a state on the CPU (solid cells excluded by the reference).
fn max_div(f: &Fields, p: &Params) -> f32 {
    let mut g = f.clone();
    cpu::divergence(&mut g, p);
    max_abs(&g.divergence)
}

#[test]
fn multigrid_projection_reaches_1e5() {
    let gpu = gpu();
    for (name, kinds) in boundary_cases() {
        let (f, p) = random_state(45, 38, kinds, 3, 0.12);
        let before = max_div(&f, &p);
        let mut sim = Simulation::new(&gpu, &f, p, settings(SolverKind::Multigrid, 40, 1e-5)).unwrap();
        sim.run_pass("projection");
        let after = max_div(&sim.download(), &p);
        let report = solve_report(&sim);
        assert!(after <= 1e-5 * before * 1.01, "{name}: max |div| {after:e} after, {before:e} before ({report:?})");
        assert!(report.iterations <= 40, "{name}: {report:?}");
    }
}

#[test]
fn solvers_agree_on_the_pressure() {
    let gpu = gpu();
    for (name, kinds, dirichlet) in
        [("open top", [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], true), ("walls", [BC_WALL; 4], false), ("periodic", [BC_PERIODIC; 4], false)]
    {
        let (mut f, p) = random_state(20, 16, kinds, 5, 0.1);
        cpu::divergence(&mut f, &p);
        let mut results = Vec::new();
        for (kind, iterations) in [(SolverKind::Jacobi, 30000), (SolverKind::Sor, 5000), (SolverKind::Multigrid, 60)] {
            let (got, report) = solve(&gpu, &f, p, settings(kind, iterations, 1e-6));
            assert!(report.converged, "{name} {kind:?}: {report:?}");
            results.push(if dirichlet { got } else { minus_mean(&got, &f) });
        }
        let scale = max_abs(&results[2]);
        for k in 0..2 {
            let d = max_diff(&results[k], &results[2]) / scale;
            assert!(d < 1e-3, "{name}: solver {k} differs from multigrid by {d:e} of the pressure scale");
        }
    }
}

/// The predicted path (n - 1 direct units, a check, gated units) against the fully gated one on
/// the same problem: it stops at the same unit and residual whether the prediction is right, one
/// short or one over (the predicted last unit is gated), and the read-back corrects the
/// prediction. Multigrid at a loose tolerance too: its first V-cycle comes within the polish's
/// reach, the polish runs (it changes the result: tried with `POLISH_REACH` = 0) and a second
/// V-cycle is still needed; the polish runs after the first check (predictions 1 and 2) or after
/// the second (fully gated), one sequence. The loose tolerance (`LOOSE`) is just within the
/// polish's reach (3x on a GPU, shaders/solver_gate_check.wgsl `POLISH_REACH`) of the first
/// V-cycle's ratio: the tiled polish (a GPU's: four sweeps) takes that ratio down 2.4x here, under
/// the 2e-2 this test once fixed, so on an H200 the polish finished the solve and no second
/// V-cycle ran. On a CPU adapter 2.9x is above `POLISH_SHORT`: the polish's second half runs too
/// (four plain sweeps), and a second V-cycle is still needed.
#[test]
fn predicted_tolerance_path_stops_where_the_gated_one_does() {
    const LOOSE: f32 = -1.0;
    let gpu = gpu();
    for (kind, (nx, ny), cap, tol) in [
        (SolverKind::Multigrid, (70, 52), 40, 1e-5),
        (SolverKind::Multigrid, (70, 52), 40, LOOSE),
        (SolverKind::Sor, (24, 18), 4000, 1e-4),
        (SolverKind::Jacobi, (20, 14), 20000, 1e-3),
    ] {
        let (mut f, p) = random_state(nx, ny, [BC_WALL, BC_WALL, BC_WALL, BC_OUTFLOW], 12, 0.1);
        cpu::divergence(&mut f, &p);
        let tol = if tol == LOOSE {
            // one V-cycle and a check it cannot pass: its ratio
            let mut one = Simulation::new(&gpu, &f, p, settings(kind, 1, 1e-12)).unwrap();
            one.run_pass("solve");
            let first = solve_report(&one);
            assert!(!first.converged && first.iterations == 1 && first.ratio < 0.5, "{kind:?}: one V-cycle {first:?}");
            first.ratio / 2.9
        } else {
            tol
        };
        let mut sim = Simulation::new(&gpu, &f, p, settings(kind, cap, tol)).unwrap();
        let unit = smokebox::sim::solver::unit_sweeps(kind);
        sim.run_pass("solve");
        let full = solve_report(&sim);
        let full_p = sim.download().p;
        assert!(full.converged && full.ratio <= tol, "{kind:?}: fully gated {full:?}");
        let n = full.iterations / unit;
        assert!(n >= 2, "{kind:?}: {full:?}");
        // multigrid's polish comes in plans of one direct V-cycle or none: the loose tolerance's
        // predictions 1 and 2 (a plan of more direct V-cycles does not polish)
        let preds: Vec<u32> = if tol > 1e-3 { vec![1, 2] } else { (n - 1..=n + 1).collect() };
        for pred in preds {
            sim.upload(&f);
            sim.stages.solvers.set_prediction(Some(pred));
            sim.run_pass("solve");
            let r = solve_report(&sim);
            let ctx = format!("{kind:?} needs {n} units, predicted {pred}: {r:?} (fully gated {full:?})");
            assert!(r.converged && r.ratio <= tol, "{ctx}");
            assert_eq!(r.iterations, full.iterations, "{ctx}");
            assert_close(&ctx, &sim.download().p, &full_p, 1e-5);
            // the read-back arrives with the next solve: the prediction becomes the units needed,
            // or half of them where the check after the direct units passed (it needed no more)
            sim.upload(&f);
            sim.run_pass("solve");
            let direct = (pred - 1).max(smokebox::sim::solver::FLOOR_UNITS);
            let next = if n <= direct && direct > 1 { n.div_ceil(2) } else { n };
            assert_eq!(sim.stages.solvers.prediction(), Some(next), "{ctx}");
        }
    }
}

/// Step `steps` times with stats; the last step's max |div after| / max |div before| and the
/// largest of all steps after the first few.
fn run_scene(gpu: &smokebox::gpu::Gpu, name: &str, grow: usize, steps: u64) -> (f32, f32, usize) {
    let (scene, _) = smokebox::config::Scene::load(name, &[]).unwrap();
    let sets = vec![format!("grid.nx={}", scene.grid.nx * grow as i64), format!("grid.ny={}", scene.grid.ny * grow as i64)];
    let (scene, source) = smokebox::config::Scene::load(name, &sets).unwrap();
    let mut sim = Simulation::from_scene(gpu, &scene, &source).unwrap();
    let stats = sim.run_blocking(steps, true);
    let ratio = |s: &smokebox::sim::stats::StepStats| if s.div_max_before > 0.0 { s.div_max_after / s.div_max_before } else { 0.0 };
    let worst = stats[5..].iter().map(ratio).fold(0.0, f32::max);
    (ratio(stats.last().unwrap()), worst, sim.nx * sim.ny)
}

fn default_projection_in_every_scene(grow: usize) {
    let gpu = gpu();
    for (name, _) in smokebox::config::BUILTIN {
        let (scene, _) = smokebox::config::Scene::load(name, &[]).unwrap();
        if *name == "teaching" {
            // the seed's Jacobi sweeps, kept on purpose
            assert_eq!(scene.solver.kind, SolverKind::Jacobi);
            continue;
        }
        // multigrid, or MGPCG where thin walls need it (`logo`) or are painted (`box`, `paint`)
        assert!(matches!(scene.solver.kind, SolverKind::Multigrid | SolverKind::Mgpcg), "{name}");
        assert_eq!(scene.solver.tolerance, 1e-4, "{name}");
        let (last, worst, cells) = run_scene(&gpu, name, grow, 50);
        println!("{name} {cells} cells: max |div| after / before {last:e} at step 50, worst {worst:e}");
        assert!(last <= 1e-4, "{name} at {cells} cells: max |div| after / before = {last:e} after 50 steps (worst step {worst:e})");
    }
}

/// Every built-in scene at its own size (CI).
#[test]
fn default_projection_is_incompressible_in_every_scene() {
    default_projection_in_every_scene(1);
}

/// The same at 4x the cells (2x per side): minutes on lavapipe, run by hand:
/// `cargo test --release --test solvers -- --ignored default_projection_at_4x`.
#[test]
#[ignore]
fn default_projection_at_4x_cells() {
    default_projection_in_every_scene(2);
}

/// Above `MERGED_CHECK_CELLS` a CPU adapter's checks after a V-cycle or the polish read level 0
/// from the texture the V-cycle left its x in, with its rhs and stencil (`Measure::Level0Tex`):
/// the same maximum as from the buffers, bit for bit, and the CPU twin's within rounding.
#[test]
fn the_check_from_level_0s_textures_reads_what_its_buffers_hold() {
    let gpu = gpu();
    let (nx, ny) = (144, 128);
    assert!(nx * ny > smokebox::sim::solver_check::MERGED_CHECK_CELLS);
    for (name, kinds) in boundary_cases() {
        let (f, p) = random_state(nx, ny, kinds, 5, 0.2);
        let mut sim = Simulation::new(&gpu, &f, p, settings(SolverKind::Multigrid, 1, 0.0)).unwrap();
        sim.run_pass("solve");
        let s = &sim.stages.solvers;
        let mg = &s.mg;
        if mg.tiled || mg.level0_tex().is_none() {
            eprintln!("{name}: no level-0 textures on this adapter (a GPU's tiles): nothing to compare");
            continue;
        }
        let mut state = download_mg(&sim, false);
        let mut rng = Rng::new(3);
        for v in state.x.iter_mut().chain(state.rhs.iter_mut()) {
            *v = rng.signed();
        }
        let launch = Launch::new(&s.args, false);
        let checked = |polish: bool, measure: Measure| {
            upload_mg(&sim, &state);
            run(&sim, |pass| {
                mg.encode_vcycle(pass, launch);
                if polish {
                    mg.encode_polish(pass, launch);
                }
                s.check.encode_start(pass);
                s.check.encode_gate(pass, measure, launch);
            });
            let words = &read_buffers(&sim.device, &sim.queue, &[&s.control])[0];
            let partials = &words[ctl::PARTIALS..ctl::PARTIALS + MAX_REDUCTION_GROUPS as usize];
            (partials.iter().fold(0.0f32, |m, &v| m.max(v)), download_mg(&sim, false))
        };
        for polish in [false, true] {
            let ctx = format!("{name} {nx}x{ny}, polish {polish}");
            let (from_buffers, after) = checked(polish, Measure::Level0);
            let (from_textures, _) = checked(polish, Measure::Level0Tex);
            assert_eq!(from_textures.to_bits(), from_buffers.to_bits(), "{ctx}: textures {from_textures:e}, buffers {from_buffers:e}");
            let twin = cpu::solver_check::reduce_mg(&after);
            assert!(twin > 0.0 && (from_textures - twin).abs() <= REL * twin, "{ctx}: {from_textures:e}, CPU twin {twin:e}");
        }
    }
}
