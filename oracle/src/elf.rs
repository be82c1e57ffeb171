//! A small reader for the AMDGPU code objects comgr produces (ELF64 little endian): the header's
//! machine flags, symbol lookup, and the kernel descriptor (`probe.kd`) with its
//! COMPUTE_PGM_RSRC1 fields decoded, so tests and users can check the mode that will run.
//!
//! Layout facts from LLVM's AMDGPUUsage ("Kernel Descriptor", "ELF Header").

use crate::error::{OracleError, Result};
use crate::mode::{FloatMode, Mode, Wave};

const EM_AMDGPU: u16 = 224;
const SHT_SYMTAB: u32 = 2;
const SHT_DYNSYM: u32 = 11;
const SHT_NOTE: u32 = 7;
/// The note type of the code object's metadata (message pack, code object v3 and later).
const NT_AMDGPU_METADATA: u32 = 32;
/// EF_AMDGPU_MACH occupies the low byte of e_flags.
const EF_AMDGPU_MACH: u32 = 0xff;

fn bad(offset: usize, message: impl Into<String>) -> OracleError {
    OracleError::BadElf {
        offset,
        message: message.into(),
    }
}

fn bytes(data: &[u8], off: usize, len: usize) -> Result<&[u8]> {
    off.checked_add(len)
        .and_then(|end| data.get(off..end))
        .ok_or_else(|| bad(off, format!("{len} bytes needed, file has {}", data.len())))
}
fn u16_at(d: &[u8], off: usize) -> Result<u16> {
    Ok(u16::from_le_bytes(
        bytes(d, off, 2)?.try_into().expect("2 bytes"),
    ))
}
fn u32_at(d: &[u8], off: usize) -> Result<u32> {
    Ok(u32::from_le_bytes(
        bytes(d, off, 4)?.try_into().expect("4 bytes"),
    ))
}
fn u64_at(d: &[u8], off: usize) -> Result<u64> {
    Ok(u64::from_le_bytes(
        bytes(d, off, 8)?.try_into().expect("8 bytes"),
    ))
}
fn usize_at(d: &[u8], off: usize) -> Result<usize> {
    let v = u64_at(d, off)?;
    usize::try_from(v).map_err(|_| bad(off, format!("value {v:#x} does not fit in memory")))
}

#[derive(Clone, Debug)]
struct Section {
    kind: u32,
    addr: u64,
    offset: usize,
    size: usize,
    link: u32,
    entsize: usize,
}

/// A symbol of the code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub value: u64,
    pub size: u64,
    /// Offset of the symbol's first byte in the file.
    pub file_offset: usize,
}

/// A parsed AMDGPU code object.
pub struct CodeObject<'a> {
    data: &'a [u8],
    e_flags: u32,
    abi_version: u8,
    sections: Vec<Section>,
}

impl<'a> CodeObject<'a> {
    pub fn parse(data: &'a [u8]) -> Result<CodeObject<'a>> {
        let ident = bytes(data, 0, 16)?;
        if &ident[..4] != b"\x7fELF" {
            return Err(bad(0, "not an ELF file"));
        }
        if ident[4] != 2 || ident[5] != 1 {
            return Err(bad(4, "not ELF64 little endian"));
        }
        let machine = u16_at(data, 18)?;
        if machine != EM_AMDGPU {
            return Err(bad(
                18,
                format!("e_machine {machine} is not EM_AMDGPU ({EM_AMDGPU})"),
            ));
        }
        let e_flags = u32_at(data, 48)?;
        let shoff = usize_at(data, 40)?;
        let shentsize = usize::from(u16_at(data, 58)?);
        let shnum = usize::from(u16_at(data, 60)?);
        if shentsize < 64 && shnum > 0 {
            return Err(bad(58, format!("section header size {shentsize} < 64")));
        }
        let mut sections = Vec::with_capacity(shnum);
        for i in 0..shnum {
            let h = shoff
                .checked_add(i * shentsize)
                .ok_or_else(|| bad(40, "section header offset overflows"))?;
            sections.push(Section {
                kind: u32_at(data, h + 4)?,
                addr: u64_at(data, h + 16)?,
                offset: usize_at(data, h + 24)?,
                size: usize_at(data, h + 32)?,
                link: u32_at(data, h + 40)?,
                entsize: usize_at(data, h + 56)?,
            });
        }
        Ok(CodeObject {
            data,
            e_flags,
            abi_version: ident[8],
            sections,
        })
    }

    /// EF_AMDGPU_MACH of the header (e.g. 0x36 for gfx1030).
    pub fn mach(&self) -> u32 {
        self.e_flags & EF_AMDGPU_MACH
    }

    /// EI_ABIVERSION: 2 is code object v4, 3 is v5.
    pub fn abi_version(&self) -> u8 {
        self.abi_version
    }

    /// Finds a symbol in .symtab (or .dynsym) by name.
    pub fn symbol(&self, name: &str) -> Result<Symbol> {
        for kind in [SHT_SYMTAB, SHT_DYNSYM] {
            for sec in self.sections.iter().filter(|s| s.kind == kind) {
                if let Some(sym) = self.find_in(sec, name)? {
                    return Ok(sym);
                }
            }
        }
        Err(bad(0, format!("no symbol `{name}`")))
    }

    /// The addresses of every function symbol (STT_FUNC) of .symtab and .dynsym, ascending,
    /// each once: the kernels and the functions they call.
    pub fn function_addresses(&self) -> Result<Vec<u64>> {
        let mut out = Vec::new();
        for sec in self
            .sections
            .iter()
            .filter(|s| s.kind == SHT_SYMTAB || s.kind == SHT_DYNSYM)
        {
            let entsize = if sec.entsize == 0 { 24 } else { sec.entsize };
            for i in 0..sec.size / entsize {
                let e = sec.offset + i * entsize;
                let info = bytes(self.data, e + 4, 1)?[0];
                if info & 0xf == 2 {
                    out.push(u64_at(self.data, e + 8)?);
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }

    fn find_in(&self, symtab: &Section, name: &str) -> Result<Option<Symbol>> {
        let strtab = self.sections.get(symtab.link as usize).ok_or_else(|| {
            bad(
                symtab.offset,
                format!("symbol table links to missing section {}", symtab.link),
            )
        })?;
        let strings = bytes(self.data, strtab.offset, strtab.size)?;
        let entsize = if symtab.entsize == 0 {
            24
        } else {
            symtab.entsize
        };
        for i in 0..symtab.size / entsize {
            let e = symtab.offset + i * entsize;
            let name_off = u32_at(self.data, e)? as usize;
            let sym_name = strings
                .get(name_off..)
                .and_then(|s| s.split(|b| *b == 0).next())
                .ok_or_else(|| {
                    bad(
                        e,
                        format!("symbol name offset {name_off} outside the string table"),
                    )
                })?;
            if sym_name != name.as_bytes() {
                continue;
            }
            let shndx = usize::from(u16_at(self.data, e + 6)?);
            let value = u64_at(self.data, e + 8)?;
            let size = u64_at(self.data, e + 16)?;
            let sec = self
                .sections
                .get(shndx)
                .ok_or_else(|| bad(e + 6, format!("symbol `{name}` in missing section {shndx}")))?;
            let delta = value
                .checked_sub(sec.addr)
                .and_then(|d| usize::try_from(d).ok())
                .ok_or_else(|| {
                    bad(
                        e + 8,
                        format!("symbol `{name}` at {value:#x} before its section"),
                    )
                })?;
            return Ok(Some(Symbol {
                name: name.to_string(),
                value,
                size,
                file_offset: sec.offset + delta,
            }));
        }
        Ok(None)
    }

    /// The section holding `sym` (its index in the file's headers): its address and bytes.
    pub fn section_of(&self, sym: &Symbol) -> Result<(u64, &'a [u8])> {
        let sec = self
            .sections
            .iter()
            .find(|s| {
                s.kind != 8 // SHT_NOBITS
                    && (s.offset..s.offset + s.size).contains(&sym.file_offset)
            })
            .ok_or_else(|| {
                bad(
                    sym.file_offset,
                    format!("symbol `{}` in no section", sym.name),
                )
            })?;
        Ok((sec.addr, bytes(self.data, sec.offset, sec.size)?))
    }

    /// The descriptor of the NT_AMDGPU_METADATA note (owner `AMDGPU`): the message-pack map
    /// that [`crate::metadata`] reads, and its offset in the file.
    pub fn metadata_note(&self) -> Result<(usize, &'a [u8])> {
        for sec in self.sections.iter().filter(|s| s.kind == SHT_NOTE) {
            let mut at = sec.offset;
            let end = sec.offset + sec.size;
            while at + 12 <= end {
                let namesz = u32_at(self.data, at)? as usize;
                let descsz = u32_at(self.data, at + 4)? as usize;
                let kind = u32_at(self.data, at + 8)?;
                let name_at = at + 12;
                let desc_at = name_at + namesz.next_multiple_of(4);
                let name = bytes(self.data, name_at, namesz)?;
                if kind == NT_AMDGPU_METADATA && name.strip_suffix(b"\0") == Some(b"AMDGPU") {
                    return Ok((desc_at, bytes(self.data, desc_at, descsz)?));
                }
                at = desc_at + descsz.next_multiple_of(4);
            }
        }
        Err(bad(
            0,
            "no NT_AMDGPU_METADATA note (code object v3 or later)",
        ))
    }

    /// The bytes of a symbol.
    pub fn symbol_bytes(&self, sym: &Symbol) -> Result<&'a [u8]> {
        let len =
            usize::try_from(sym.size).map_err(|_| bad(sym.file_offset, "symbol too large"))?;
        bytes(self.data, sym.file_offset, len)
    }

    /// Decodes the kernel descriptor `<kernel>.kd`.
    pub fn kernel_descriptor(&self, kernel: &str) -> Result<KernelDescriptor> {
        let sym = self.symbol(&format!("{kernel}.kd"))?;
        if sym.size != 64 {
            return Err(bad(
                sym.file_offset,
                format!("kernel descriptor is {} bytes, expected 64", sym.size),
            ));
        }
        KernelDescriptor::decode(self.symbol_bytes(&sym)?).map_err(|e| match e {
            OracleError::BadElf { offset, message } => bad(sym.file_offset + offset, message),
            other => other,
        })
    }
}

/// The 64-byte kernel descriptor, with accessors for the fields the oracle sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelDescriptor {
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub kernarg_size: u32,
    pub kernel_code_entry_byte_offset: i64,
    pub compute_pgm_rsrc3: u32,
    pub compute_pgm_rsrc1: u32,
    pub compute_pgm_rsrc2: u32,
    pub kernel_code_properties: u16,
}

impl KernelDescriptor {
    pub fn decode(kd: &[u8]) -> Result<KernelDescriptor> {
        Ok(KernelDescriptor {
            group_segment_fixed_size: u32_at(kd, 0)?,
            private_segment_fixed_size: u32_at(kd, 4)?,
            kernarg_size: u32_at(kd, 8)?,
            kernel_code_entry_byte_offset: u64_at(kd, 16)? as i64,
            compute_pgm_rsrc3: u32_at(kd, 44)?,
            compute_pgm_rsrc1: u32_at(kd, 48)?,
            compute_pgm_rsrc2: u32_at(kd, 52)?,
            kernel_code_properties: u16_at(kd, 56)?,
        })
    }

    fn rsrc1(&self, lo: u32, width: u32) -> u8 {
        ((self.compute_pgm_rsrc1 >> lo) & ((1 << width) - 1)) as u8
    }
    /// FLOAT_MODE, bits 19:12 of COMPUTE_PGM_RSRC1 (the dataset's float-mode byte).
    pub fn float_mode(&self) -> u8 {
        self.rsrc1(12, 8)
    }
    pub fn round32(&self) -> u8 {
        self.rsrc1(12, 2)
    }
    pub fn round16(&self) -> u8 {
        self.rsrc1(14, 2)
    }
    pub fn denorm32(&self) -> u8 {
        self.rsrc1(16, 2)
    }
    pub fn denorm16(&self) -> u8 {
        self.rsrc1(18, 2)
    }
    /// ENABLE_DX10_CLAMP, bit 21.
    pub fn dx10_clamp(&self) -> bool {
        self.rsrc1(21, 1) == 1
    }
    /// ENABLE_IEEE_MODE, bit 23.
    pub fn ieee_mode(&self) -> bool {
        self.rsrc1(23, 1) == 1
    }
    /// FP16_OVFL, bit 26 (gfx9+).
    pub fn fp16_overflow(&self) -> bool {
        self.rsrc1(26, 1) == 1
    }
    /// ENABLE_WAVEFRONT_SIZE32, bit 10 of kernel_code_properties (gfx10+).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties & (1 << 10) != 0
    }
    /// GRANULATED_WORKITEM_VGPR_COUNT, bits 5:0 of COMPUTE_PGM_RSRC1: VGPR blocks minus one
    /// (blocks of 8 in wave32, 4 in wave64 on gfx10).
    pub fn vgpr_granules(&self) -> u8 {
        self.rsrc1(0, 6)
    }
    /// GRANULATED_WAVEFRONT_SGPR_COUNT, bits 9:6 (reserved, 0, on gfx10: SGPRs are not allocated).
    pub fn sgpr_granules(&self) -> u8 {
        self.rsrc1(6, 4)
    }
    /// WGP_MODE, bit 29 of COMPUTE_PGM_RSRC1 (gfx10+).
    pub fn wgp_mode(&self) -> bool {
        self.rsrc1(29, 1) == 1
    }
    /// MEM_ORDERED, bit 30 of COMPUTE_PGM_RSRC1 (gfx10+).
    pub fn mem_ordered(&self) -> bool {
        self.rsrc1(30, 1) == 1
    }
    fn rsrc2(&self, lo: u32, width: u32) -> u32 {
        (self.compute_pgm_rsrc2 >> lo) & ((1 << width) - 1)
    }
    /// ENABLE_PRIVATE_SEGMENT, bit 0 of COMPUTE_PGM_RSRC2.
    pub fn private_segment(&self) -> bool {
        self.rsrc2(0, 1) == 1
    }
    /// USER_SGPR_COUNT, bits 5:1 of COMPUTE_PGM_RSRC2.
    pub fn user_sgpr_count(&self) -> u32 {
        self.rsrc2(1, 5)
    }
    /// ENABLE_SGPR_WORKGROUP_ID_X/Y/Z, bits 7, 8, 9 of COMPUTE_PGM_RSRC2.
    pub fn workgroup_id_enabled(&self) -> [bool; 3] {
        [7, 8, 9].map(|b| self.rsrc2(b, 1) == 1)
    }
    /// ENABLE_VGPR_WORKITEM_ID, bits 12:11 of COMPUTE_PGM_RSRC2 (0: X only).
    pub fn vgpr_workitem_id(&self) -> u32 {
        self.rsrc2(11, 2)
    }
    /// GRANULATED_LDS_SIZE, bits 23:15 of COMPUTE_PGM_RSRC2 (must be 0: the packet processor
    /// fills it from group_segment_fixed_size).
    pub fn granulated_lds_size(&self) -> u32 {
        self.rsrc2(15, 9)
    }
    /// The user-SGPR enable bits of kernel_code_properties (bits 6:0: private segment buffer,
    /// dispatch ptr, queue ptr, kernarg segment ptr, dispatch id, flat scratch init, private
    /// segment size).
    pub fn user_sgpr_enables(&self) -> u16 {
        self.kernel_code_properties & 0x7f
    }

    /// The mode this descriptor gives the kernel.
    pub fn mode(&self) -> Mode {
        Mode {
            float: FloatMode {
                ieee: self.ieee_mode(),
                dx10_clamp: self.dx10_clamp(),
                denorm32: self.denorm32(),
                denorm16: self.denorm16(),
                round32: self.round32(),
                round16: self.round16(),
                fp16_overflow: self.fp16_overflow(),
            },
            wave: if self.wave32() { Wave::W32 } else { Wave::W64 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_garbage_without_panicking() {
        assert!(CodeObject::parse(b"").is_err());
        assert!(CodeObject::parse(b"\x7fELF").is_err());
        let mut hdr = vec![0u8; 64];
        hdr[..4].copy_from_slice(b"\x7fELF");
        hdr[4] = 2;
        hdr[5] = 1;
        assert!(matches!(
            CodeObject::parse(&hdr),
            Err(OracleError::BadElf { offset: 18, .. })
        ));
        hdr[18] = 224;
        // A header that claims sections beyond the end of the file.
        hdr[40] = 0xf0;
        hdr[58] = 64;
        hdr[60] = 3;
        assert!(CodeObject::parse(&hdr).is_err());
    }

    #[test]
    fn descriptor_fields_decode_from_rsrc1() {
        let mut kd = [0u8; 64];
        let rsrc1: u32 = (1 << 12) | (2 << 14) | (3 << 16) | (1 << 18) | (1 << 21) | (1 << 26);
        kd[48..52].copy_from_slice(&rsrc1.to_le_bytes());
        kd[56..58].copy_from_slice(&(1u16 << 10).to_le_bytes());
        let d = KernelDescriptor::decode(&kd).unwrap();
        let m = d.mode();
        let f = m.float;
        assert_eq!((f.round32, f.round16, f.denorm32, f.denorm16), (1, 2, 3, 1));
        assert!(
            m.float.dx10_clamp && !m.float.ieee && m.float.fp16_overflow && m.wave == Wave::W32
        );
        assert!(KernelDescriptor::decode(&kd[..40]).is_err());
    }
}
