//! State files (DESIGN.md §3): one NumPy `.npy` file per field (little-endian f32, C order) and
//! `meta.json`. A dump is written into a temporary folder and renamed into place, so a failed
//! dump leaves nothing behind.

use crate::error::Result;
use crate::sim::fields::Fields;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::Path;

#[derive(Clone, Debug, Deserialize, Serialize, PartialEq)]
pub struct Meta {
    pub nx: usize,
    pub ny: usize,
    pub cell_size: f32,
    pub step: u64,
    pub time: f64,
    pub dt: f32,
    pub scene: String,
    /// The dye grid's scale k: ink.npy is (k ny, k nx, 3). 1 for states written before the dye grid.
    #[serde(default = "one")]
    pub dye_scale: usize,
    /// The `--set` overrides the run was started with.
    #[serde(default)]
    pub overrides: Vec<String>,
    /// Units (V-cycles, sweeps) the pressure solve to a tolerance plans for the next step, so a
    /// continued run repeats the straight one bit for bit (src/sim/solver.rs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_units: Option<u32>,
    /// The recent peak of the units the solves needed (the plan's spares reach it), for the same.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub solver_peak: Option<f32>,
}

fn one() -> usize {
    1
}

/// Encodes an array as a version 1.0 .npy file.
pub fn npy_bytes(shape: &[usize], data: &[f32]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape_text = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape_text}, }}");
    // magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64
    let total = 10 + header.len() + 1;
    header.push_str(&" ".repeat((64 - total % 64) % 64));
    header.push('\n');
    let mut out = Vec::with_capacity(10 + header.len() + data.len() * 4);
    out.extend_from_slice(b"\x93NUMPY\x01\x00");
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    for x in data {
        out.extend_from_slice(&x.to_le_bytes());
    }
    out
}

/// Decodes a .npy file of little-endian f32 in C order with the expected shape.
pub fn npy_parse(name: &str, bytes: &[u8], expected: &[usize]) -> Result<Vec<f32>> {
    let want = format!("{expected:?}").replace('[', "(").replace(']', ")");
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        crate::fail!("{name}: not a .npy file; expected float32 of shape {want}");
    }
    let (major, header_start) = (bytes[6], if bytes[6] == 1 { 10 } else { 12 });
    if !(1..=3).contains(&major) || bytes.len() < header_start {
        crate::fail!("{name}: unsupported .npy version {major}");
    }
    let len = if major == 1 {
        u16::from_le_bytes([bytes[8], bytes[9]]) as usize
    } else {
        u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize
    };
    let header = std::str::from_utf8(bytes.get(header_start..header_start + len).unwrap_or_default())
        .map_err(|_| crate::error!("{name}: unreadable .npy header"))?;
    let field = |key: &str| -> Option<&str> {
        let at = header.find(&format!("'{key}'"))?;
        let rest = header[at + key.len() + 2..].trim_start().strip_prefix(':')?.trim_start();
        Some(rest)
    };
    let descr = field("descr").and_then(|r| r.split('\'').nth(1)).unwrap_or("?");
    if descr != "<f4" {
        crate::fail!("{name}: dtype {descr}, expected little-endian float32 ('<f4') of shape {want}");
    }
    if field("fortran_order").is_some_and(|r| r.starts_with("True")) {
        crate::fail!("{name}: Fortran order, expected C order float32 of shape {want}");
    }
    let shape: Vec<usize> = field("shape")
        .and_then(|r| r.strip_prefix('('))
        .and_then(|r| r.split(')').next())
        .map(|inner| inner.split(',').filter_map(|d| d.trim().parse().ok()).collect())
        .unwrap_or_default();
    if shape != expected {
        let got = format!("{shape:?}").replace('[', "(").replace(']', ")");
        crate::fail!("{name}: shape {got}, expected {want}");
    }
    let body = &bytes[header_start + len..];
    let count: usize = expected.iter().product();
    if body.len() != count * 4 {
        crate::fail!("{name}: {} bytes of data, expected {} for float32 of shape {want}", body.len(), count * 4);
    }
    Ok(body.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

/// The files of a state and their shapes, the ink on a dye grid k times finer.
pub fn field_shapes(nx: usize, ny: usize, k: usize) -> [(&'static str, Vec<usize>); 8] {
    [
        ("u.npy", vec![ny, nx + 1]),
        ("v.npy", vec![ny + 1, nx]),
        ("p.npy", vec![ny, nx]),
        (PREVIOUS_PRESSURE, vec![ny, nx]),
        (PREVIOUS_PRESSURE_2, vec![ny, nx]),
        ("ink.npy", vec![k * ny, k * nx, 3]),
        ("density.npy", vec![ny, nx]),
        ("solid.npy", vec![ny, nx]),
    ]
}

/// The pressure of the step before, for the warm start's extrapolation: written with every state,
/// optional when one is read (DESIGN.md §3; without it a run starts its next solve from p alone).
pub const PREVIOUS_PRESSURE: &str = "p_prev.npy";
/// The pressure two steps before, for the bend of its change (the same; without it the next solve
/// to a tolerance starts from p and p_prev alone).
pub const PREVIOUS_PRESSURE_2: &str = "p_prev2.npy";

/// Each file of a state with its shape and values.
pub fn state_arrays(fields: &Fields) -> Vec<(&'static str, Vec<usize>, &[f32])> {
    let values = [&fields.u, &fields.v, &fields.p, &fields.p_prev, &fields.p_prev2, &fields.ink, &fields.density, &fields.solid];
    field_shapes(fields.nx, fields.ny, fields.dye_scale)
        .into_iter()
        .zip(values)
        .map(|((file, shape), v)| (file, shape, v.as_slice()))
        .collect()
}

/// Writes a state to `dir` (replacing its state files) via a temporary sibling folder.
pub fn dump(dir: &Path, fields: &Fields, meta: &Meta) -> Result<()> {
    let parent = dir.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent).map_err(|e| crate::error!("cannot create {}: {e}", parent.display()))?;
    let name = dir.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_else(|| "state".into());
    let tmp = parent.join(format!(".{name}.partial-{}", std::process::id()));
    let result = (|| -> Result<()> {
        let _ = std::fs::remove_dir_all(&tmp);
        std::fs::create_dir_all(&tmp).map_err(|e| crate::error!("cannot create {}: {e}", tmp.display()))?;
        for (file, shape, values) in state_arrays(fields) {
            write_file(&tmp.join(file), &npy_bytes(&shape, values))?;
        }
        let json = serde_json::to_string_pretty(meta).expect("meta serialises");
        write_file(&tmp.join("meta.json"), json.as_bytes())?;
        // every file is complete before any replaces the old state; other entries of DIR
        // (the step_NNNNNN folders of --dump-every) stay
        std::fs::create_dir_all(dir).map_err(|e| crate::error!("cannot create {}: {e}", dir.display()))?;
        for file in field_shapes(fields.nx, fields.ny, fields.dye_scale).iter().map(|(f, _)| *f).chain(["meta.json"]) {
            std::fs::rename(tmp.join(file), dir.join(file)).map_err(|e| crate::error!("cannot write {}: {e}", dir.join(file).display()))?;
        }
        std::fs::remove_dir(&tmp).map_err(|e| crate::error!("cannot remove {}: {e}", tmp.display()))
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    result
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))?;
    f.write_all(bytes).map_err(|e| crate::error!("cannot write {}: {e}", path.display()))
}

/// Reads `meta.json` of a state folder.
pub fn load_meta(dir: &Path) -> Result<Meta> {
    let path = dir.join("meta.json");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| crate::error!("{}: cannot read ({e}); expected a state folder written by --dump", path.display()))?;
    parse_meta(&path.display().to_string(), &text)
}

/// Largest grid side a state may declare (as a scene's grid.nx / grid.ny): checked before any
/// field is allocated, so a hostile meta.json cannot ask for terabytes.
pub const MAX_SIDE: usize = 1 << 16;

/// Parses and checks the text of a `meta.json` (`name` labels errors).
pub fn parse_meta(name: &str, text: &str) -> Result<Meta> {
    let meta: Meta =
        serde_json::from_str(text).map_err(|e| crate::error!("{name}: {e}; expected nx, ny, cell_size, step, time, dt, scene"))?;
    if meta.nx < 2 || meta.ny < 2 || meta.nx > MAX_SIDE || meta.ny > MAX_SIDE {
        crate::fail!("{name}: grid {}x{}, expected 2 to {MAX_SIDE} cells a side", meta.nx, meta.ny);
    }
    if !(meta.cell_size.is_finite() && meta.cell_size > 0.0) {
        crate::fail!("{name}: cell_size {}, expected a positive number of metres", meta.cell_size);
    }
    if !(meta.dt.is_finite() && meta.dt > 0.0) {
        crate::fail!("{name}: dt {}, expected a positive number of seconds", meta.dt);
    }
    if !(meta.time.is_finite() && meta.time >= 0.0) {
        crate::fail!("{name}: time {}, expected a finite number of seconds, at least 0", meta.time);
    }
    if !(1..=crate::config::DYE_MAX_SCALE as usize).contains(&meta.dye_scale) {
        crate::fail!("{name}: dye_scale {}, expected a whole number from 1 to {}", meta.dye_scale, crate::config::DYE_MAX_SCALE);
    }
    Ok(meta)
}

/// The most bytes a .npy of float32 of `shape` can take: the data and the largest header.
fn npy_limit(shape: &[usize]) -> u64 {
    let count: u64 = shape.iter().map(|&d| d as u64).product();
    // magic, version and a 4-byte length, then at most a 64 KiB header (numpy writes < 1 KiB)
    4 * count + 12 + 65_536
}

/// A file's bytes, or `None` when it holds more than `limit` (read no further: a huge file
/// costs no more memory than a right one).
fn read_at_most(path: &Path, limit: u64) -> std::io::Result<Option<Vec<u8>>> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// Reads every field of a state folder, checking each file's shape against meta.json.
pub fn load_fields(dir: &Path, meta: &Meta) -> Result<Fields> {
    fields_from(meta, |file, shape, required| {
        let path = dir.join(file);
        if !required && !path.exists() {
            return Ok(None);
        }
        let want = format!("{shape:?}").replace('[', "(").replace(']', ")");
        let bytes = read_at_most(&path, npy_limit(shape))
            .map_err(|e| crate::error!("{}: cannot read ({e}); expected float32 of shape {want}", path.display()))?
            .ok_or_else(|| crate::error!("{}: larger than any .npy of float32 of shape {want}", path.display()))?;
        npy_parse(&path.display().to_string(), &bytes, shape).map(Some)
    })
}

/// A state's fields, each file's values from `read(file name, shape, required)` (a folder's
/// files, or the files picked or dropped on the web page): None for an optional file that is not
/// there (its field stays zero).
pub fn fields_from(meta: &Meta, mut read: impl FnMut(&str, &[usize], bool) -> Result<Option<Vec<f32>>>) -> Result<Fields> {
    let mut f = Fields::zeros_dye(meta.nx, meta.ny, meta.dye_scale);
    for (file, shape) in field_shapes(meta.nx, meta.ny, meta.dye_scale) {
        let optional = [PREVIOUS_PRESSURE, PREVIOUS_PRESSURE_2].contains(&file);
        let Some(data) = read(file, &shape, !optional)? else { continue };
        let dst = match file {
            "u.npy" => &mut f.u,
            "v.npy" => &mut f.v,
            "p.npy" => &mut f.p,
            PREVIOUS_PRESSURE => &mut f.p_prev,
            PREVIOUS_PRESSURE_2 => &mut f.p_prev2,
            "ink.npy" => &mut f.ink,
            "density.npy" => &mut f.density,
            _ => &mut f.solid,
        };
        *dst = data;
    }
    Ok(f)
}
