//! Code objects as HIP users make them: a clang offload bundle (`hipcc --genco` of several
//! targets, `clang -x hip --cuda-device-only -c`) or a host object whose `.hip_fatbin` section
//! holds one (`hipcc -c`, a fat binary). [`code_object`] finds the gfx103x entry; a plain AMDGPU
//! code object passes through.
//!
//! The bundle format (clang's `OffloadBundler`, uncompressed): the magic
//! `__CLANG_OFFLOAD_BUNDLE__`, a u64 entry count, then per entry a u64 offset (from the bundle's
//! start), a u64 size, a u64 id length and the id (`hipv4-amdgcn-amd-amdhsa--gfx1030`,
//! `host-x86_64-unknown-linux--`), all little-endian. A compressed bundle (`CCOB`) is refused
//! with the command that unpacks it.

use std::borrow::Cow;

use crate::OracleError;

const MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
const COMPRESSED: &[u8] = b"CCOB";

/// One entry of a bundle: its id and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry<'a> {
    pub id: String,
    pub bytes: &'a [u8],
}

fn bad(what: impl Into<String>) -> OracleError {
    OracleError::CodeObject(what.into())
}

fn u64_at(b: &[u8], at: usize, what: &str) -> Result<u64, OracleError> {
    b.get(at..at + 8)
        .map(|s| u64::from_le_bytes(s.try_into().unwrap_or_default()))
        .ok_or_else(|| {
            bad(format!(
                "offload bundle: {what} at byte {at} is past the end"
            ))
        })
}

/// The entries of the bundle at the start of `b`.
pub fn entries(b: &[u8]) -> Result<Vec<Entry<'_>>, OracleError> {
    if b.starts_with(COMPRESSED) {
        return Err(bad(
            "a compressed offload bundle (CCOB): unpack it first with \
             `clang-offload-bundler --unbundle --type=o --input=FILE --targets=hipv4-amdgcn-amd-amdhsa--gfx1030 --output=OUT.co`",
        ));
    }
    if !b.starts_with(MAGIC) {
        return Err(bad(
            "not an offload bundle (no __CLANG_OFFLOAD_BUNDLE__ magic)",
        ));
    }
    let n = u64_at(b, MAGIC.len(), "the entry count")?;
    let mut at = MAGIC.len() + 8;
    let mut out = Vec::new();
    for i in 0..n {
        let offset = u64_at(b, at, "an entry's offset")? as usize;
        let size = u64_at(b, at + 8, "an entry's size")? as usize;
        let len = u64_at(b, at + 16, "an entry's id length")? as usize;
        let id = b
            .get(at + 24..at + 24 + len)
            .ok_or_else(|| bad(format!("offload bundle: entry {i}'s id is past the end")))?;
        let bytes = offset
            .checked_add(size)
            .and_then(|end| b.get(offset..end))
            .ok_or_else(|| {
                bad(format!(
                    "offload bundle: entry {i} ({} bytes at {offset}) is past the end ({} bytes)",
                    size,
                    b.len()
                ))
            })?;
        out.push(Entry {
            id: String::from_utf8_lossy(id).into_owned(),
            bytes,
        });
        at += 24 + len;
    }
    Ok(out)
}

/// The `.hip_fatbin` section of a host ELF object, if it has one.
fn hip_fatbin(elf: &[u8]) -> Option<&[u8]> {
    let u16_at = |at: usize| {
        elf.get(at..at + 2)
            .map(|s| u16::from_le_bytes([s[0], s[1]]))
    };
    let u32_at = |at: usize| {
        elf.get(at..at + 4)
            .map(|s| u32::from_le_bytes(s.try_into().unwrap_or_default()))
    };
    let u64_at = |at: usize| {
        elf.get(at..at + 8)
            .map(|s| u64::from_le_bytes(s.try_into().unwrap_or_default()) as usize)
    };
    if !elf.starts_with(b"\x7fELF") || elf.get(4) != Some(&2) || elf.get(5) != Some(&1) {
        return None;
    }
    let shoff = u64_at(0x28)?;
    let shentsize = usize::from(u16_at(0x3a)?);
    let shnum = usize::from(u16_at(0x3c)?);
    let shstrndx = usize::from(u16_at(0x3e)?);
    let header = |i: usize| shoff.checked_add(i.checked_mul(shentsize)?);
    let strtab = header(shstrndx).and_then(|h| Some((u64_at(h + 0x18)?, u64_at(h + 0x20)?)))?;
    for i in 0..shnum {
        let h = header(i)?;
        let name_at = strtab.0.checked_add(u32_at(h)? as usize)?;
        let name = elf.get(name_at..)?.split(|&c| c == 0).next()?;
        if name == b".hip_fatbin" {
            let (off, size) = (u64_at(h + 0x18)?, u64_at(h + 0x20)?);
            return elf.get(off..off.checked_add(size)?);
        }
    }
    None
}

/// The AMDGPU code object in `image`: `image` itself when it is one (or anything else: the ELF
/// reader says what is wrong), else the gfx103x entry of the offload bundle it is or its
/// `.hip_fatbin` section holds; with several gfx103x entries the one for `prefer`. Gives the
/// entry's id too.
pub fn code_object<'a>(
    image: &'a [u8],
    prefer: Option<&str>,
) -> Result<(Cow<'a, [u8]>, Option<String>), OracleError> {
    const EM_AMDGPU: u16 = 224;
    let bundle = if image.starts_with(MAGIC) || image.starts_with(COMPRESSED) {
        image
    } else if image.starts_with(b"\x7fELF")
        && image
            .get(18..20)
            .is_some_and(|s| u16::from_le_bytes([s[0], s[1]]) != EM_AMDGPU)
    {
        match hip_fatbin(image) {
            Some(b) => b,
            None => {
                return Err(bad(
                    "a host ELF object without a .hip_fatbin section: no device code to run",
                ))
            }
        }
    } else {
        return Ok((Cow::Borrowed(image), None));
    };
    let all = entries(bundle)?;
    let gfx103x: Vec<&Entry> = all
        .iter()
        .filter(|e| e.id.starts_with("hip") && arch(&e.id).is_some_and(|a| a.starts_with("gfx103")))
        .collect();
    let chosen = match (gfx103x.as_slice(), prefer) {
        ([], _) => {
            return Err(bad(format!(
                "the offload bundle has no gfx103x entry (entries: {})",
                all.iter()
                    .map(|e| e.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
        ([one], _) => *one,
        (many, Some(p)) => many
            .iter()
            .copied()
            .find(|e| arch(&e.id) == Some(p))
            .ok_or_else(|| {
                bad(format!(
                    "the offload bundle has no {p} entry (gfx103x entries: {})",
                    many.iter()
                        .map(|e| e.id.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?,
        (many, None) => {
            return Err(bad(format!(
                "the offload bundle has several gfx103x entries ({}): name one with --gfx",
                many.iter()
                    .map(|e| e.id.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            )))
        }
    };
    Ok((Cow::Borrowed(chosen.bytes), Some(chosen.id.clone())))
}

/// The processor of an entry id (`hipv4-amdgcn-amd-amdhsa--gfx1030:xnack-` -> `gfx1030`).
fn arch(id: &str) -> Option<&str> {
    let a = id.rsplit("--").next()?;
    Some(a.split(':').next().unwrap_or(a))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut head = MAGIC.to_vec();
        head.extend((entries.len() as u64).to_le_bytes());
        let table: usize = entries.iter().map(|e| 24 + e.0.len()).sum();
        let mut at = head.len() + table;
        let mut data: Vec<u8> = Vec::new();
        for (id, bytes) in entries {
            head.extend((at as u64).to_le_bytes());
            head.extend((bytes.len() as u64).to_le_bytes());
            head.extend((id.len() as u64).to_le_bytes());
            head.extend(id.as_bytes());
            data.extend(*bytes);
            at += bytes.len();
        }
        head.extend(data);
        head
    }

    #[test]
    fn entries_are_read_and_the_gfx103x_one_chosen() {
        let b = bundle(&[
            ("host-x86_64-unknown-linux--", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx1100", b"eleven"),
            ("hipv4-amdgcn-amd-amdhsa--gfx1030", b"thirty"),
        ]);
        assert_eq!(entries(&b).unwrap().len(), 3);
        let (co, id) = code_object(&b, None).unwrap();
        assert_eq!(&*co, b"thirty");
        assert_eq!(id.as_deref(), Some("hipv4-amdgcn-amd-amdhsa--gfx1030"));
        let two = bundle(&[
            ("hipv4-amdgcn-amd-amdhsa--gfx1030", b"a"),
            ("hipv4-amdgcn-amd-amdhsa--gfx1035:xnack-", b"b"),
        ]);
        let e = code_object(&two, None).unwrap_err().to_string();
        assert!(e.contains("several gfx103x entries"), "{e}");
        assert_eq!(&*code_object(&two, Some("gfx1035")).unwrap().0, b"b");
        let none = bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx1100", b"x")]);
        let e = code_object(&none, None).unwrap_err().to_string();
        assert!(
            e.contains("no gfx103x entry") && e.contains("gfx1100"),
            "{e}"
        );
        // truncated: an entry past the end
        let e = code_object(&b[..b.len() - 3], None)
            .unwrap_err()
            .to_string();
        assert!(e.contains("past the end"), "{e}");
        let e = code_object(b"CCOB\x01\x00", None).unwrap_err().to_string();
        assert!(e.contains("compressed"), "{e}");
        // anything else passes through to the ELF reader
        assert_eq!(&*code_object(b"\x7fELFxx", None).unwrap().0, b"\x7fELFxx");
    }
}
