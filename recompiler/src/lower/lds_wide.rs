//! The DS instructions beyond ds_read/write/read2/write2_b32 and the 32-bit one-operand
//! atomics ([`super::lds`]): sub-dword and d16 reads and writes, the two-operand atomics
//! (mskor, cmpst, wrap), the float atomics (rule: float-atomics), ds_add_f32, the 64-bit
//! atomics and exchanges (rule: lds-atomic64), read2/write2_b64, ds_append/ds_consume,
//! the addtid forms and ds_permute_b32. Each opcode is one [`Dw`] row in the dispatch.
//!
//! Addresses are byte addresses: ADDR + offset (the 16-bit offset1:offset0), any byte
//! alignment for the plain and 32-bit forms; an 8-byte atomic faults the wave at an address
//! that is not a multiple of 8 ([`Expr::Mem`]).

use super::error::{RuleError, RuleResult};
use super::lds::fields;
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Expr, Handle, IntCmp, IntUn, LdsOp, Space};
use rdnaprobe_isa::operand::code;

/// The float atomics of a [`Dw::Atomic`] row (rule: lds-float-atomics): their flush comes from the row's mode (the f32
/// denormal field for 4 bytes, the f16/f64 one for 8; bit 0 clear flushes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Aop {
    Int(LdsOp),
    FMin,
    FMax,
    FCmpst,
    FAdd,
}

/// Where a sub-dword read puts its value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Place {
    /// The whole VDST, extended to 32 bits.
    Full,
    /// VDST[15:0], extended to 16 bits; VDST[31:16] kept (`_d16`).
    Lo,
    /// VDST[31:16]; VDST[15:0] kept (`_d16_hi`).
    Hi,
}

/// What a DS instruction of this module does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dw {
    /// An atomic of `bytes` (4 or 8) at ADDR + offset with DATA0 (and DATA1 for the
    /// two-operand ops); `rtn` returns the old value to VDST (a pair for 8 bytes).
    Atomic {
        op: Aop,
        bytes: u8,
        rtn: bool,
    },
    /// ds_read_u8/i8/u16/i16 and their d16 forms.
    ReadSub {
        bytes: u8,
        signed: bool,
        place: Place,
    },
    /// ds_write_b8/b16 (`hi`: the `_d16_hi` forms, DATA0[31:16]).
    WriteSub {
        bytes: u8,
        hi: bool,
    },
    /// ds_wrxchg2(st64)_rtn_b32/b64: exchanges at offset0 and offset1 (units of `bytes` x
    /// `scale`), every lane's first before any lane's second (rule: ds-wrxchg2-order).
    Xchg2 {
        bytes: u8,
        scale: u32,
    },
    /// ds_read2(st64)_b64 / ds_write2(st64)_b64: two 8-byte plain accesses, each two dwords.
    Read2x64 {
        scale: u32,
    },
    Write2x64 {
        scale: u32,
    },
    /// ds_append / ds_consume (LDS form).
    Append {
        consume: bool,
    },
    /// ds_write_addtid_b32 / ds_read_addtid_b32.
    AddTid {
        write: bool,
    },
    /// ds_permute_b32 (no LDS access).
    Permute,
}

/// The error of an LDS instruction under the lane contract.
const NEEDS_WAVE: &str =
    "LDS: needs the wave contract (give the rows a wave_id and lds_in or lds_bytes column)";

impl Lowerer {
    /// One [`Expr::Mem`] of the LDS at byte address `a` where `active` (EXEC when `None`).
    fn lds_wide(
        &mut self,
        op: LdsOp,
        bytes: u8,
        a: Handle,
        [data, data2]: [Handle; 2],
        active: Option<Handle>,
    ) -> Handle {
        let active = match active.or_else(|| self.exec_bit()) {
            Some(e) => e,
            None => self.b.cb(true),
        };
        self.b.push(Expr::Mem {
            space: Space::Lds,
            op,
            bytes,
            addr: a,
            data,
            data2: LdsOp::two_operand(op).then_some(data2),
            cmp: None,
            active,
        })
    }

    /// The 64-bit value of VGPRs `r`, `r + 1`.
    fn vgpr_pair(&mut self, r: u16) -> Handle {
        let (lo, hi) = (self.vgpr_get(r), self.vgpr_get(r + 1));
        self.b.pack64(lo, hi)
    }

    /// Writes the 64-bit `v` to VGPRs `r`, `r + 1` under EXEC.
    fn set_pair(&mut self, r: u16, v: Handle) {
        let lo = self.b.trunc64(v);
        let hi = self.b.hi32(v);
        self.vgpr_set(r, lo);
        self.vgpr_set(r + 1, hi);
    }

    /// M0[15:0], the LDS base address of the M0-based forms.
    fn m0_base(&mut self) -> Handle {
        let m0 = self.sgpr_get(code::M0);
        self.b.andc(m0, 0xffff)
    }
}

/// The [`LdsOp`] of `op` on `bytes` under the row's mode.
fn resolve(l: &Lowerer, op: Aop, bytes: u8) -> LdsOp {
    let field = if bytes == 8 {
        l.mode.denorm16
    } else {
        l.mode.denorm32
    };
    let flush = field & 1 == 0;
    match op {
        Aop::Int(op) => op,
        Aop::FMin => LdsOp::FMin { flush },
        Aop::FMax => LdsOp::FMax { flush },
        Aop::FCmpst => LdsOp::FCmpst { flush },
        Aop::FAdd => LdsOp::FAdd { flush },
    }
}

/// Lowers the DS instruction `c` as `what`.
pub(super) fn ds(l: &mut Lowerer, c: &Ctx, what: Dw) -> RuleResult {
    if !l.wave_contract {
        return Err(RuleError::not_modelled(NEEDS_WAVE));
    }
    let (offset, [addr, d0, d1, vdst]) = fields(c);
    let base = l.vgpr_get(addr);
    let a = l.b.addc(base, u64::from(offset));
    match what {
        Dw::Atomic { op, bytes, rtn } => {
            let op = resolve(l, op, bytes);
            let two = matches!(
                op,
                LdsOp::MskOr | LdsOp::Cmpst | LdsOp::FCmpst { .. } | LdsOp::Wrap
            );
            let data = if bytes == 8 {
                let d = l.vgpr_pair(d0);
                let d2 = if two { l.vgpr_pair(d1) } else { l.b.c64(0) };
                [d, d2]
            } else {
                let d = l.vgpr_get(d0);
                let d2 = if two { l.vgpr_get(d1) } else { l.b.c32(0) };
                [d, d2]
            };
            let old = l.lds_wide(op, bytes, a, data, None);
            if rtn {
                if bytes == 8 {
                    l.set_pair(vdst, old);
                } else {
                    l.vgpr_set(vdst, old);
                }
            }
        }
        Dw::ReadSub {
            bytes,
            signed,
            place,
        } => {
            let zero = l.b.c32(0);
            let v = l.lds_wide(LdsOp::Read, bytes, a, [zero, zero], None);
            let bits = 8 * u32::from(bytes);
            let width = if place == Place::Full { 32 } else { 16 };
            let v = if signed {
                let up = l.b.shlc(v, 32 - bits);
                let ext = l.b.sarc(up, 32 - bits);
                l.b.andc(ext, (1u64 << width) - 1)
            } else {
                v
            };
            let old = l.vgpr_get(vdst);
            let v = match place {
                Place::Full => v,
                Place::Lo => {
                    let keep = l.b.andc(old, 0xffff_0000);
                    l.b.or(keep, v)
                }
                Place::Hi => {
                    let keep = l.b.andc(old, 0xffff);
                    let up = l.b.shlc(v, 16);
                    l.b.or(keep, up)
                }
            };
            l.vgpr_set(vdst, v);
        }
        Dw::WriteSub { bytes, hi } => {
            let d = l.vgpr_get(d0);
            let d = if hi { l.b.shrc(d, 16) } else { d };
            let zero = l.b.c32(0);
            l.lds_wide(LdsOp::Write, bytes, a, [d, zero], None);
        }
        Dw::Xchg2 { bytes, scale } => {
            let unit = u32::from(bytes) * scale;
            let (o0, o1) = (offset & 0xff, offset >> 8);
            if bytes == 8 {
                let (x, y) = (l.vgpr_pair(d0), l.vgpr_pair(d1));
                let zero = l.b.c64(0);
                let a0 = l.b.addc(base, u64::from(unit * o0));
                let a1 = l.b.addc(base, u64::from(unit * o1));
                let r0 = l.lds_wide(LdsOp::Write, 8, a0, [x, zero], None);
                let r1 = l.lds_wide(LdsOp::Write, 8, a1, [y, zero], None);
                l.set_pair(vdst, r0);
                l.set_pair(vdst + 2, r1);
            } else {
                let (x, y) = (l.vgpr_get(d0), l.vgpr_get(d1));
                let r0 = l.lds(LdsOp::Write, base, unit * o0, x);
                let r1 = l.lds(LdsOp::Write, base, unit * o1, y);
                l.vgpr_set(vdst, r0);
                l.vgpr_set(vdst + 1, r1);
            }
        }
        Dw::Read2x64 { scale } => {
            let (o0, o1) = (offset & 0xff, offset >> 8);
            let zero = l.b.c32(0);
            let mut vals = Vec::with_capacity(4);
            for o in [o0, o1] {
                for k in 0..2 {
                    vals.push(l.lds(LdsOp::Read, base, 8 * scale * o + 4 * k, zero));
                }
            }
            for (i, v) in vals.into_iter().enumerate() {
                l.vgpr_set(vdst + i as u16, v);
            }
        }
        Dw::Write2x64 { scale } => {
            let (o0, o1) = (offset & 0xff, offset >> 8);
            for (o, r) in [(o0, d0), (o1, d1)] {
                for k in 0..2u16 {
                    let d = l.vgpr_get(r + k);
                    l.lds(LdsOp::Write, base, 8 * scale * o + 4 * u32::from(k), d);
                }
            }
        }
        Dw::Append { consume } => {
            // The first active lane adds (or subtracts) the active-lane count at M0 + offset;
            // every active lane gets the value before it (RDNA2 ISA, DS_APPEND/DS_CONSUME).
            let m0 = l.m0_base();
            let at = l.b.addc(m0, u64::from(offset));
            let exec = l.exec64();
            let count = l.b.iu(IntUn::Popcount, exec);
            let count = l.b.trunc64(count);
            let first = l.b.iu(IntUn::FindLsb, exec);
            let first = l.b.trunc64(first);
            let me = l.b.icmp(IntCmp::Eq, l.lane, first);
            let op = if consume { LdsOp::Sub } else { LdsOp::Add };
            let zero = l.b.c32(0);
            let old = l.lds_wide(op, 4, at, [count, zero], Some(me));
            let r = l.b.push(Expr::WaveRead {
                value: old,
                lane: first,
            });
            l.vgpr_set(vdst, r);
        }
        Dw::AddTid { write } => {
            // M0[15:0] + offset + 4 x lane id (RDNA2 ISA, DS_WRITE/READ_ADDTID_B32).
            let m0 = l.m0_base();
            let lane4 = l.b.shlc(l.lane, 2);
            let at = l.b.add(m0, lane4);
            if write {
                let d = l.vgpr_get(d0);
                l.lds(LdsOp::Write, at, offset, d);
            } else {
                let zero = l.b.c32(0);
                let v = l.lds(LdsOp::Read, at, offset, zero);
                l.vgpr_set(vdst, v);
            }
        }
        Dw::Permute => permute(l, a, d0, vdst),
    }
    Ok(())
}

/// ds_permute_b32 (forward permute, no LDS access; RDNA2 ISA pseudocode): every active lane
/// `i` in ascending order writes its DATA0 to lane `((ADDR + offset) / 4) % wave` of a
/// zeroed temporary, so the highest such lane wins and a lane nobody writes gets 0; active
/// lanes then take their entry.
fn permute(l: &mut Lowerer, a: Handle, d0: u16, vdst: u16) {
    let data = l.vgpr_get(d0);
    let dst = l.b.shrc(a, 2);
    let dst = l.b.andc(dst, u64::from(l.wave.lanes() - 1));
    let exec = l.exec64();
    let mut r = l.b.c32(0);
    for i in 0..l.wave.lanes() {
        let ci = l.b.c32(i);
        let v = l.b.push(Expr::WaveRead {
            value: data,
            lane: ci,
        });
        let to = l.b.push(Expr::WaveRead {
            value: dst,
            lane: ci,
        });
        let on = l.b.shrc(exec, i);
        let on = l.b.andc(on, 1);
        let on = l.b.nec(on, 0);
        let hit = l.b.icmp(IntCmp::Eq, to, l.lane);
        let take = l.b.band(on, hit);
        r = l.b.sel(take, v, r);
    }
    l.vgpr_set(vdst, r);
}
