//! Memory instructions under the wave contract ([`Expr::Mem`]): GLOBAL and FLAT loads,
//! stores, 32- and 64-bit integer atomics, compare-and-swap and the f32/f64 float atomics on
//! the wave's memory region; MUBUF (and MTBUF with 32-bit formats) loads, stores and atomics
//! through a buffer resource (V#) with its range check. Typed accesses with a conversion are
//! [`super::mem_format`]'s, SMEM loads [`super::smem`]'s.
//!
//! Before the body s[16:17] holds the region's address and s[20:23] a raw V# for it (see
//! [`init_region`]). Accesses run in program order; within one instruction the active lanes
//! (EXEC, and for buffers the V# range check) take part in ascending lane order, and a
//! multi-dword form is one dword access after the other, every lane's first before any lane's
//! second. An access whose bytes are not all inside the region loads 0 and stores nothing.
//!
//! Addresses (RDNA2 ISA guide, chapters 8 to 10):
//! - GLOBAL: `s[saddr:saddr+1] + zext(v[addr]) + sext(offset12)`, or with `saddr` off
//!   `v[addr:addr+1] + sext(offset12)`; FLAT: `v[addr:addr+1] + offset` (11 bits, unsigned).
//!   FLAT goes to the region like GLOBAL: the LDS and private apertures are not modelled, so
//!   an address in them is outside the region.
//! - MUBUF: `base + index * stride + offset`, base = V# bits 47:0, stride = word1 bits 29:16,
//!   index = `v[vaddr]` with IDXEN, offset = OFFSET + SOFFSET + `v[vaddr(+1)]` with OFFEN. Raw
//!   accesses use the exact bytes at base + offset, also when the base or the offset is not a
//!   multiple of 4 (measured on gfx1035, the notes' "V# bases off a DWORD boundary" and
//!   "Vector buffer offsets that are not a multiple of 4"). Range check by word3's
//!   OOB_SELECT (bits 29:28), per dword of the access at its own offset: 0 out of range when
//!   index >= num_records or offset >= stride; 1 when index >= num_records; 2 when
//!   num_records is 0; 3 when index * stride + offset >= num_records. Swizzled V#s and
//!   ADD_TID: see [`super::buffer_addr`]. MTBUF with a 32-bit-per-component
//!   format needs no conversion and is addressed the same way.
//! - SMEM: see [`super::smem`].

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, LdsOp, Space};
use rdnaprobe_contract::MEM_BASE;
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::code;

pub(super) use super::buffer_addr::BufferAddr;
pub(super) use super::smem::smem;

/// The error of a memory instruction under the lane contract.
pub(super) const NEEDS_WAVE: &str =
    "memory: needs the wave contract (give the rows a wave_id and mem_in or mem_bytes column)";

/// Word3 of the region's V# in s23 (the HIP template's `RAW_BUFFER_WORD3`): DST_SEL_XYZW,
/// FORMAT 32_FLOAT, RESOURCE_LEVEL 1, OOB_SELECT 3 (raw).
pub const RAW_BUFFER_WORD3: u32 = 0x3101_6fac;

/// Which half of a VGPR a d16 load writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum D16 {
    /// The whole VGPR.
    No,
    /// Bits 15:0 (bits 31:16 kept).
    Lo,
    /// Bits 31:16 (bits 15:0 kept).
    Hi,
}

/// What a vector memory instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Vm {
    /// `n` accesses of `bytes` (n > 1 only for dwords); `sext` sign-extends a 1- or 2-byte
    /// value (to 32 bits, or to 16 bits for a d16 form).
    Load {
        bytes: u8,
        n: u16,
        sext: bool,
        d16: D16,
    },
    /// `n` accesses of `bytes`; `hi` stores bits 31:16 of the data (the `_d16_hi` forms).
    Store { bytes: u8, n: u16, hi: bool },
    /// A 32-bit atomic; GLC returns the old value.
    Atomic(LdsOp),
    /// fmin (`max` false) or fmax on f32 bits by the float atomics rule, with the f32 denormal
    /// field's flush (rule: float-atomics); GLC returns the old value.
    FloatAtomic { max: bool },
    /// A 64-bit integer atomic on DATA[0:1] (`cmp`: the compare-and-swap, DATA[2:3] the
    /// compare value); GLC returns the old value to VDST[0:1]. An address that is not a
    /// multiple of 8 is out of range (the hardware faults the wave).
    Atomic64 { op: LdsOp, cmp: bool },
    /// The 32-bit compare-and-swap: DATA[0] is written where the old value equals DATA[1];
    /// GLC returns the old value.
    CmpSwap,
    /// fmin / fmax on f64 bits (DATA[0:1]) by the float atomics rule with the f16/f64
    /// denormal field's flush (rule: float-atomics); GLC returns the old value to VDST[0:1].
    FloatAtomic64 { max: bool },
    /// The float compare-and-swap, f32 (`wide` false: DATA[0] the data, DATA[1] the compare
    /// value) or f64 (DATA[0:1], DATA[2:3]): the data is written as given where the flushed
    /// old and compare values are equal floats (rule: float-cmpswap); GLC returns the old
    /// value.
    FCmpSwap { wide: bool },
}

impl Vm {
    /// One load of `bytes` (1 or 2 zero- or sign-extended, 4).
    pub(super) const fn load(bytes: u8, sext: bool) -> Vm {
        Vm::Load {
            bytes,
            n: 1,
            sext,
            d16: D16::No,
        }
    }
    /// `n` dword loads.
    pub(super) const fn dwords(n: u16) -> Vm {
        Vm::Load {
            bytes: 4,
            n,
            sext: false,
            d16: D16::No,
        }
    }
    /// A d16 load of `bytes` into one half of the VGPR.
    pub(super) const fn d16(bytes: u8, sext: bool, d16: D16) -> Vm {
        Vm::Load {
            bytes,
            n: 1,
            sext,
            d16,
        }
    }
    /// `n` stores of `bytes` (the data's low bytes).
    pub(super) const fn store(bytes: u8, n: u16) -> Vm {
        Vm::Store {
            bytes,
            n,
            hi: false,
        }
    }
    /// A `_d16_hi` store: `bytes` of the data's bits 31:16.
    pub(super) const fn store_hi(bytes: u8) -> Vm {
        Vm::Store {
            bytes,
            n: 1,
            hi: true,
        }
    }
    pub(super) const fn atomic64(op: LdsOp) -> Vm {
        Vm::Atomic64 { op, cmp: false }
    }
    pub(super) const fn fcmpswap(wide: bool) -> Vm {
        Vm::FCmpSwap { wide }
    }
    pub(super) const fn fminmax64(max: bool) -> Vm {
        Vm::FloatAtomic64 { max }
    }
    pub(super) const fn cmpswap64() -> Vm {
        Vm::Atomic64 {
            op: LdsOp::Write,
            cmp: true,
        }
    }
}

/// GLOBAL instructions ([`flat`] with the GLOBAL segment's addressing).
pub(super) fn global(l: &mut Lowerer, c: &Ctx, what: Vm) -> RuleResult {
    flat(l, c, what, true)
}

/// FLAT instructions ([`flat`] with the FLAT segment's addressing).
pub(super) fn flat_seg(l: &mut Lowerer, c: &Ctx, what: Vm) -> RuleResult {
    flat(l, c, what, false)
}

/// Sets s[16:17] (the region's address) and s[20:23] (its raw V#, `mem_bytes` records).
pub(super) fn init_region(l: &mut Lowerer, mem_bytes: u32) {
    let lo = l.b.c32(MEM_BASE as u32);
    let hi = l.b.c32((MEM_BASE >> 32) as u32);
    let hi16 = l.b.c32((MEM_BASE >> 32) as u32 & 0xffff);
    let records = l.b.c32(mem_bytes);
    let word3 = l.b.c32(RAW_BUFFER_WORD3);
    for (code, v) in [
        (16, lo),
        (17, hi),
        (20, lo),
        (21, hi16),
        (22, records),
        (23, word3),
    ] {
        l.sgpr_init(code, v);
    }
}

/// The address of the access at byte `k` of an instruction's data and its range check
/// (`None`: EXEC alone).
pub(super) type AddressOf<'a> = dyn FnMut(&mut Lowerer, u32) -> (Handle, Option<Handle>) + 'a;

impl Lowerer {
    /// One access of every active lane (`active` a Bool, or `None` for EXEC alone).
    pub(super) fn mem(
        &mut self,
        op: LdsOp,
        bytes: u8,
        addr: Handle,
        data: Handle,
        active: Option<Handle>,
        cmp: Option<Handle>,
    ) -> Handle {
        self.mem_in(Space::Region, op, bytes, addr, data, active, cmp)
    }

    /// [`Self::mem`] in `space` (a form of the region).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mem_in(
        &mut self,
        space: Space,
        op: LdsOp,
        bytes: u8,
        addr: Handle,
        data: Handle,
        active: Option<Handle>,
        cmp: Option<Handle>,
    ) -> Handle {
        let active = match (self.exec_bit(), active) {
            (Some(e), Some(a)) => self.b.band(e, a),
            (Some(e), None) => e,
            (None, Some(a)) => a,
            (None, None) => self.b.cb(true),
        };
        self.b.push(Expr::Mem {
            space,
            op,
            bytes,
            addr,
            data,
            data2: None,
            cmp,
            active,
        })
    }

    /// A scalar register's value by code (SGPR, VCC, M0, EXEC, an inline integer or null).
    pub(super) fn scalar_src(&mut self, code: u16) -> RuleResult<Handle> {
        match code {
            0..=code::VCC_HI | code::M0 | code::EXEC_LO | code::EXEC_HI => Ok(self.sgpr_get(code)),
            code::NULL | 128 => Ok(self.b.c32(0)),
            129..=192 => Ok(self.b.c32(u32::from(code - 128))),
            193..=208 => Ok(self.b.c32((-(i32::from(code) - 192)) as u32)),
            _ => Err(RuleError::not_modelled(format!(
                "scalar offset operand code {code} is not modelled"
            ))),
        }
    }

    fn v64(&mut self, r: u16) -> Handle {
        let lo = self.vgpr_get(r);
        let hi = self.vgpr_get(r + 1);
        self.b.pack64(lo, hi)
    }

    /// Loads and stores of one address computation: `addr(i)` is the address of access `i`
    /// and `ok(i)` its range check; the loads and stores in `space` (the atomics in
    /// [`Space::Region`]).
    pub(super) fn vmem(
        &mut self,
        what: Vm,
        [vdata, vdst]: [u16; 2],
        glc: bool,
        space: Space,
        at: &mut AddressOf<'_>,
    ) {
        let zero = self.b.c32(0);
        match what {
            Vm::Load {
                bytes,
                n,
                sext,
                d16,
            } => {
                let vals: Vec<Handle> = (0..n)
                    .map(|i| {
                        let (a, ok) = at(self, u32::from(bytes) * u32::from(i));
                        self.mem_in(space, LdsOp::Read, bytes, a, zero, ok, None)
                    })
                    .collect();
                for (i, v) in vals.into_iter().enumerate() {
                    let v = self.extend(v, bytes, sext, d16, vdst + i as u16);
                    self.vgpr_set(vdst + i as u16, v);
                }
            }
            Vm::Store { bytes, n, hi } => {
                for i in 0..n {
                    let mut d = self.vgpr_get(vdata + i);
                    if hi {
                        d = self.b.shrc(d, 16);
                    }
                    let (a, ok) = at(self, u32::from(bytes) * u32::from(i));
                    self.mem_in(space, LdsOp::Write, bytes, a, d, ok, None);
                }
            }
            Vm::Atomic(op) => {
                let d = self.vgpr_get(vdata);
                let (a, ok) = at(self, 0);
                let old = self.mem(op, 4, a, d, ok, None);
                if glc {
                    self.vgpr_set(vdst, old);
                }
            }
            Vm::FloatAtomic { max } => {
                let flush = self.mode.denorm32 & 1 == 0;
                let op = if max {
                    LdsOp::FMax { flush }
                } else {
                    LdsOp::FMin { flush }
                };
                let d = self.vgpr_get(vdata);
                let (a, ok) = at(self, 0);
                let old = self.mem(op, 4, a, d, ok, None);
                if glc {
                    self.vgpr_set(vdst, old);
                }
            }
            Vm::Atomic64 { op, cmp } => {
                let d = self.v64(vdata);
                let c = cmp.then(|| self.v64(vdata + 2));
                let (a, ok) = at(self, 0);
                let old = self.mem(op, 8, a, d, ok, c);
                if glc {
                    let lo = self.b.trunc64(old);
                    let hi = self.b.hi32(old);
                    self.vgpr_set(vdst, lo);
                    self.vgpr_set(vdst + 1, hi);
                }
            }
            Vm::FloatAtomic64 { max } => {
                let flush = self.mode.denorm16 & 1 == 0;
                let op = if max {
                    LdsOp::FMax { flush }
                } else {
                    LdsOp::FMin { flush }
                };
                let (r, s) = ([vdata, vdst], Space::Region);
                self.vmem(Vm::Atomic64 { op, cmp: false }, r, glc, s, at);
            }
            Vm::FCmpSwap { wide: true } => {
                let flush = self.mode.denorm16 & 1 == 0;
                let d = self.v64(vdata);
                let c = self.v64(vdata + 2);
                let (a, ok) = at(self, 0);
                let old = self.mem(LdsOp::FCmpSwap { flush }, 8, a, d, ok, Some(c));
                if glc {
                    let lo = self.b.trunc64(old);
                    let hi = self.b.hi32(old);
                    self.vgpr_set(vdst, lo);
                    self.vgpr_set(vdst + 1, hi);
                }
            }
            Vm::FCmpSwap { wide: false } => {
                let flush = self.mode.denorm32 & 1 == 0;
                let d = self.vgpr_get(vdata);
                let c = self.vgpr_get(vdata + 1);
                let (a, ok) = at(self, 0);
                let old = self.mem(LdsOp::FCmpSwap { flush }, 4, a, d, ok, Some(c));
                if glc {
                    self.vgpr_set(vdst, old);
                }
            }
            Vm::CmpSwap => {
                let d = self.vgpr_get(vdata);
                let c = self.vgpr_get(vdata + 1);
                let (a, ok) = at(self, 0);
                let old = self.mem(LdsOp::Write, 4, a, d, ok, Some(c));
                if glc {
                    self.vgpr_set(vdst, old);
                }
            }
        }
    }

    /// A loaded value of `bytes` as the VGPR `r` gets it.
    pub(super) fn extend(&mut self, v: Handle, bytes: u8, sext: bool, d16: D16, r: u16) -> Handle {
        let b = &mut self.b;
        let bits = 8 * u32::from(bytes);
        let width = if d16 == D16::No { 32 } else { 16 };
        let v = if sext && bits < width {
            let up = b.shlc(v, 32 - bits);
            let s = b.sarc(up, 32 - bits);
            b.andc(s, if width == 32 { 0xffff_ffff } else { 0xffff })
        } else {
            v
        };
        match d16 {
            D16::No => v,
            D16::Lo => {
                let old = self.vgpr_get(r);
                let keep = self.b.andc(old, 0xffff_0000);
                self.b.or(keep, v)
            }
            D16::Hi => {
                let old = self.vgpr_get(r);
                let keep = self.b.andc(old, 0xffff);
                let up = self.b.shlc(v, 16);
                self.b.or(keep, up)
            }
        }
    }
}

pub(super) fn sext(v: u32, bits: u32) -> u64 {
    (((v << (32 - bits)) as i32) >> (32 - bits)) as i64 as u64
}

/// GLOBAL and FLAT instructions (`global` false: FLAT).
pub(super) fn flat(l: &mut Lowerer, c: &Ctx, what: Vm, global: bool) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let f = |field| c.inst.field(field);
    if f(Field::Lds) != 0 {
        return Err(RuleError::not_modelled(
            "memory: the LDS (lds) form of a FLAT load is not modelled",
        ));
    }
    let glc = f(Field::Glc) != 0;
    // FLAT's offset is 11 bits unsigned on gfx10, GLOBAL's 12 bits signed
    let offset = if global {
        sext(f(Field::Offset), 12)
    } else {
        u64::from(f(Field::Offset) & 0x7ff)
    };
    let [addr, data, saddr, vdst] =
        [Field::Addr, Field::Data, Field::Saddr, Field::Vdst].map(|x| f(x) as u16);
    let base = if global && saddr != code::NULL {
        if saddr > 104 {
            return Err(RuleError::operand(format!(
                "memory: SADDR s{saddr} is not an SGPR pair"
            )));
        }
        let lo = l.sgpr_get(saddr);
        let hi = l.sgpr_get(saddr + 1);
        let s = l.b.pack64(lo, hi);
        let v = l.vgpr_get(addr);
        let v = l.b.zext(v);
        l.b.add(s, v)
    } else {
        l.v64(addr)
    };
    let base = l.b.addc(base, offset);
    l.vmem(what, [data, vdst], glc, Space::Region, &mut |l, k| {
        (l.b.addc(base, u64::from(k)), None)
    });
    Ok(())
}

/// `global_load_dword_addtid` / `global_store_dword_addtid`: one dword at
/// `s[saddr:saddr+1] + sext(offset12) + lane * 4` (the lane id in the wave; VADDR unused). The
/// form without SADDR is not documented for gfx10 and is refused.
pub(super) fn addtid(l: &mut Lowerer, c: &Ctx, store: bool) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let f = |field| c.inst.field(field);
    let glc = f(Field::Glc) != 0;
    let [data, saddr, vdst] = [Field::Data, Field::Saddr, Field::Vdst].map(|x| f(x) as u16);
    if saddr == code::NULL {
        return Err(RuleError::not_measured(
            "memory: addtid without SADDR (off): the address base is not documented",
        ));
    }
    if saddr > 104 {
        return Err(RuleError::operand(format!(
            "memory: addtid SADDR s{saddr} is not an SGPR pair"
        )));
    }
    let lo = l.sgpr_get(saddr);
    let hi = l.sgpr_get(saddr + 1);
    let lane = l.lane;
    let b = &mut l.b;
    let s = b.pack64(lo, hi);
    let t = b.shlc(lane, 2);
    let t = b.zext(t);
    let a = b.add(s, t);
    let a = b.addc(a, sext(f(Field::Offset), 12));
    let what = if store {
        Vm::store(4, 1)
    } else {
        Vm::dwords(1)
    };
    l.vmem(what, [data, vdst], glc, Space::Region, &mut |_, _| {
        (a, None)
    });
    Ok(())
}

/// MUBUF instructions: the exact bytes at base + index * stride + offset (rule:
/// buffer-exact-bytes).
pub(super) fn mubuf(l: &mut Lowerer, c: &Ctx, what: Vm) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    if c.inst.field(Field::Lds) != 0 {
        return Err(RuleError::not_modelled(
            "memory: the LDS (lds) form of a buffer load is not modelled",
        ));
    }
    buffer(l, c, what)
}

/// MTBUF (`tbuffer_*_format_*`, not d16) with a 32-bit-per-component format in the
/// instruction (FORMAT, word0 bits 25:19, gfx10 unified numbering: 20..22 32, 62..64 32_32,
/// 72..74 32_32_32, 75..77 32_32_32_32, UINT/SINT/FLOAT): no conversion, so `n` dword
/// accesses as MUBUF's. Other formats convert ([`super::mem_format`]); more components than
/// the format has are unsupported.
pub(super) fn mtbuf(l: &mut Lowerer, c: &Ctx, n: u16, store: bool) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let format = c.inst.field(Field::Format);
    let comps = match format {
        20..=22 => 1,
        62..=64 => 2,
        72..=74 => 3,
        75..=77 => 4,
        _ => return super::mem_format::mtbuf_typed(l, c, n, store, false),
    };
    if n > comps {
        return Err(RuleError::not_modelled(format!(
            "memory: {n} components of a {comps}-component format (the fill of the missing \
             ones is not modelled)"
        )));
    }
    let what = if store {
        Vm::Store {
            bytes: 4,
            n,
            hi: false,
        }
    } else {
        Vm::Load {
            bytes: 4,
            n,
            sext: false,
            d16: D16::No,
        }
    };
    buffer(l, c, what)
}

/// The addressing and range check shared by MUBUF and MTBUF.
fn buffer(l: &mut Lowerer, c: &Ctx, what: Vm) -> RuleResult {
    let a = BufferAddr::new(l, c)?;
    let space = if a.lanes_disjoint {
        Space::RegionSwizzled
    } else {
        Space::Region
    };
    l.vmem(what, [a.vdata, a.vdata], a.glc, space, &mut |l, k| {
        a.at(l, k)
    });
    Ok(())
}
