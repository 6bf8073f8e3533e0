//! A small zip writer and reader for the page's saved state: entries stored (not compressed:
//! float fields barely compress and the browser gzips nothing it downloads anyway), CRC-32
//! checked. Reads what it writes, and any zip whose entries are stored.

use crate::error::Result;

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// A zip of `files` (name, bytes), stored.
pub fn write(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for (name, bytes) in files {
        let (crc, size, offset) = (crc32(bytes), bytes.len() as u32, out.len() as u32);
        let common = |v: &mut Vec<u8>| {
            v.extend_from_slice(&20u16.to_le_bytes()); // version needed
            v.extend_from_slice(&0u16.to_le_bytes()); // flags
            v.extend_from_slice(&0u16.to_le_bytes()); // stored
            v.extend_from_slice(&0u32.to_le_bytes()); // time, date
            v.extend_from_slice(&crc.to_le_bytes());
            v.extend_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&size.to_le_bytes());
            v.extend_from_slice(&(name.len() as u16).to_le_bytes());
            v.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        common(&mut out);
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(bytes);
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        central.extend_from_slice(&20u16.to_le_bytes()); // made by
        common(&mut central);
        central.extend_from_slice(&[0; 6]); // comment length, disk, internal attributes
        central.extend_from_slice(&0u32.to_le_bytes()); // external attributes
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let (start, len) = (out.len() as u32, central.len() as u32);
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&(files.len() as u16).to_le_bytes());
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&start.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out
}

/// The entries of a zip of stored files (folders inside it flattened to their file names).
pub fn read(label: &str, zip: &[u8]) -> Result<Vec<(String, Vec<u8>)>> {
    let bad = |why: &str| crate::error!("{label}: not a zip this page can read ({why}); expected the zip Save state writes");
    let u16_at = |i: usize| zip.get(i..i + 2).map(|b| u16::from_le_bytes([b[0], b[1]]));
    let u32_at = |i: usize| zip.get(i..i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let end = (0..zip.len().saturating_sub(21)).rev().find(|&i| u32_at(i) == Some(0x0605_4b50)).ok_or_else(|| bad("no end record"))?;
    let count = u16_at(end + 10).ok_or_else(|| bad("short"))? as usize;
    let mut at = u32_at(end + 16).ok_or_else(|| bad("short"))? as usize;
    let mut files = Vec::new();
    for _ in 0..count {
        if u32_at(at) != Some(0x0201_4b50) {
            return Err(bad("a broken directory"));
        }
        let method = u16_at(at + 10).ok_or_else(|| bad("short"))?;
        let crc = u32_at(at + 16).ok_or_else(|| bad("short"))?;
        let size = u32_at(at + 20).ok_or_else(|| bad("short"))? as usize;
        let (n, x, c) = (u16_at(at + 28), u16_at(at + 30), u16_at(at + 32));
        let (n, x, c) = (n.ok_or_else(|| bad("short"))? as usize, x.unwrap_or(0) as usize, c.unwrap_or(0) as usize);
        let offset = u32_at(at + 42).ok_or_else(|| bad("short"))? as usize;
        let name = String::from_utf8_lossy(zip.get(at + 46..at + 46 + n).ok_or_else(|| bad("short"))?).to_string();
        at += 46 + n + x + c;
        if name.ends_with('/') {
            continue;
        }
        if method != 0 {
            return Err(bad(&format!("{name} is compressed")));
        }
        let (ln, lx) = (u16_at(offset + 26).unwrap_or(0) as usize, u16_at(offset + 28).unwrap_or(0) as usize);
        let start = offset + 30 + ln + lx;
        let bytes = zip.get(start..start + size).ok_or_else(|| bad("short"))?.to_vec();
        if crc32(&bytes) != crc {
            return Err(bad(&format!("{name} fails its CRC")));
        }
        let base = name.rsplit('/').next().unwrap_or(&name).to_string();
        files.push((base, bytes));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use crate::platform::zip::*;

    #[test]
    fn a_zip_reads_back_and_its_crc_is_the_standard_one() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        let files = vec![("meta.json".to_string(), b"{}".to_vec()), ("u.npy".to_string(), vec![1, 2, 3, 250])];
        let z = write(&files);
        assert_eq!(read("x.zip", &z).unwrap(), files);
        assert!(read("x.zip", b"not a zip at all, no end record here").is_err());
    }
}
