//! Scalar ALU with one source: SOP1 (bit counts and scans, bit reversal, sign extension,
//! whole-quad masks, single-bit sets, conditional moves, the saveexec family, relative SGPR
//! moves) and SOPK (a 16-bit immediate against an SGPR). Results and SCC as the RDNA2 ISA
//! manual gives them; the helpers are in `salu`.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::salu::nonzero;
use super::Lowerer;
use crate::builder::Builder;
use crate::ir::{Handle, IntBin, IntCmp, IntUn, Ty};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::code;
use rdnaprobe_isa::operand::decode_sdst;
use rdnaprobe_isa::{Operand, Reg, RegKind};

/// The bit width of a U32 or U64 value.
fn width(b: &Builder, v: Handle) -> u32 {
    if b.ty(v) == Ty::U64 {
        64
    } else {
        32
    }
}

/// A 64-bit count or index narrowed to the 32-bit destination (all ones stays all ones).
fn narrow(b: &mut Builder, v: Handle) -> Handle {
    if b.ty(v) == Ty::U64 {
        b.trunc64(v)
    } else {
        v
    }
}

/// Leading-zero count of `x` as an index from the top (`width - 1 - msb`), all ones for 0.
fn flbit(b: &mut Builder, x: Handle) -> Handle {
    let w = width(b, x);
    let msb = b.iu(IntUn::FindMsbU, x);
    let top = b.clike(x, u64::from(w - 1));
    let r = b.sub(top, msb);
    let r = narrow(b, r);
    let z = b.eqc(x, 0);
    let ones = b.c32(u32::MAX);
    b.sel(z, ones, r)
}

/// Each group of `n` bits of `x` collapsed into its lowest bit (OR of the group), other bits 0.
fn any_of_groups(b: &mut Builder, x: Handle, n: u32) -> Handle {
    let mut y = x;
    let mut s = 1;
    while s < n {
        let t = b.shrc(y, s);
        y = b.or(y, t);
        s *= 2;
    }
    let w = width(b, x);
    let lows = (0..w / n).fold(0u64, |m, i| m | 1 << (i * n));
    b.andc(y, lows)
}

/// s_wqm: every quad with a set bit becomes all ones.
fn wqm(b: &mut Builder, x: Handle) -> Handle {
    let y = any_of_groups(b, x, 4);
    let c = b.clike(y, 0xf);
    b.ib(IntBin::Mul, y, c)
}

/// s_quadmask: bit i of the result is the OR of bits 4i..4i+3.
fn quadmask(b: &mut Builder, x: Handle) -> Handle {
    let y = any_of_groups(b, x, 4);
    let mut r = b.clike(x, 0);
    for i in 0..width(b, x) / 4 {
        let t = b.shrc(y, 3 * i);
        let t = b.andc(t, 1 << i);
        r = b.or(r, t);
    }
    r
}

/// s_bitreplicate_b64_b32: bit i of the source goes to bits 2i and 2i+1.
fn bitreplicate(b: &mut Builder, x: Handle) -> Handle {
    let mut y = b.zext(x);
    for (s, m) in [
        (16, 0x0000_ffff_0000_ffffu64),
        (8, 0x00ff_00ff_00ff_00ff),
        (4, 0x0f0f_0f0f_0f0f_0f0f),
        (2, 0x3333_3333_3333_3333),
        (1, 0x5555_5555_5555_5555),
    ] {
        let t = b.shlc(y, s);
        let t = b.or(y, t);
        y = b.andc(t, m);
    }
    let t = b.shlc(y, 1);
    b.or(y, t)
}

/// The EXEC register as an operand of `dwords` dwords.
fn exec(dwords: u8) -> Operand {
    Operand::Reg(Reg {
        kind: RegKind::Exec,
        index: 0,
        count: dwords,
    })
}

/// An SOP1 op of [`sop1`] (the 32- and 64-bit forms share one: the width is the operand's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sop1 {
    Cmov,
    Not,
    Wqm,
    Quadmask,
    Brev,
    Bcnt0,
    Bcnt1,
    Ff0,
    Ff1,
    /// s_flbit_i32_b32/b64: leading zeros.
    FlbitU,
    /// s_flbit_i32/_i64: leading bits equal to the sign.
    FlbitI,
    /// s_sext_i32_i8 / _i16: the source width in bits.
    Sext(u32),
    /// s_bitset0 (`set` false) / s_bitset1.
    Bitset {
        set: bool,
    },
    Abs,
    Bitreplicate,
}

/// SOP1 ops with one source and one result (saveexec and relative moves apart).
pub(super) fn sop1(l: &mut Lowerer, c: &Ctx, op: Sop1) -> RuleResult {
    let a = l.s_src(c, 0)?;
    let copy = matches!(op, Sop1::Cmov | Sop1::Not | Sop1::Bitset { .. });
    if !copy {
        l.uniform(&[a])?;
    }
    let dwords = if l.b.ty(a) == Ty::U64 { 2 } else { 1 };
    let b = &mut l.b;
    let (d, scc) = match op {
        Sop1::Cmov => {
            let t = l.scc_bool()?;
            let dst = l.s_dst_op(c)?;
            let old = l.s_read(&dst, dwords)?;
            (l.b.sel(t, a, old), None)
        }
        Sop1::Not => nonzero(l, |b| b.iu(IntUn::Not, a)),
        Sop1::Wqm => nonzero(l, |b| wqm(b, a)),
        Sop1::Quadmask => nonzero(l, |b| quadmask(b, a)),
        Sop1::Brev => (b.iu(IntUn::BitReverse, a), None),
        Sop1::Bcnt0 => nonzero(l, |b| {
            let n = b.iu(IntUn::Not, a);
            let p = b.iu(IntUn::Popcount, n);
            narrow(b, p)
        }),
        Sop1::Bcnt1 => nonzero(l, |b| {
            let p = b.iu(IntUn::Popcount, a);
            narrow(b, p)
        }),
        Sop1::Ff0 => {
            let n = b.iu(IntUn::Not, a);
            let f = b.iu(IntUn::FindLsb, n);
            (narrow(b, f), None)
        }
        Sop1::Ff1 => {
            let f = b.iu(IntUn::FindLsb, a);
            (narrow(b, f), None)
        }
        Sop1::FlbitU => (flbit(b, a), None),
        Sop1::FlbitI => {
            // the first bit that differs from the sign bit, counted from the top
            let neg = b.icmpc(IntCmp::LtS, a, 0);
            let n = b.iu(IntUn::Not, a);
            let x = b.sel(neg, n, a);
            (flbit(b, x), None)
        }
        Sop1::Sext(bits) => {
            let s = 32 - bits;
            let t = b.shlc(a, s);
            (b.sarc(t, s), None)
        }
        Sop1::Bitset { set } => {
            l.uniform(&[a])?;
            let wide = c.inst.info().dsts.first().is_some_and(|d| d.dwords == 2);
            let dst = l.s_dst_op(c)?;
            let old = l.s_read(&dst, if wide { 2 } else { 1 })?;
            let b = &mut l.b;
            let (sh, one) = if wide {
                let s = b.andc(a, 63);
                (b.zext(s), b.c64(1))
            } else {
                (b.andc(a, 31), b.c32(1))
            };
            let bit = b.ib(IntBin::Shl, one, sh);
            if set {
                (b.or(old, bit), None)
            } else {
                let n = b.iu(IntUn::Not, bit);
                (b.and(old, n), None)
            }
        }
        Sop1::Abs => nonzero(l, |b| {
            let neg = b.icmpc(IntCmp::LtS, a, 0);
            let n = b.iu(IntUn::Neg, a);
            b.sel(neg, n, a)
        }),
        Sop1::Bitreplicate => (bitreplicate(b, a), None),
    };
    l.s_dst(c, d)?;
    if let Some(s) = scc {
        l.scc_set(s);
    }
    Ok(())
}

/// The saveexec family: `D = EXEC` (the wrexec forms: the new EXEC), `EXEC = f(S0, EXEC)`,
/// `SCC = EXEC != 0`. Under the lane contract EXEC starts as every lane of the wave.
/// The EXEC update of a saveexec op: `EXEC = S0 op EXEC` (`n1`: NOT S0, `n2`: NOT EXEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ExecOp {
    And,
    Or,
    Xor,
    Andn1,
    Andn2,
    Orn1,
    Orn2,
    Nand,
    Nor,
    Xnor,
}

/// `wrexec`: the s_*_wrexec forms, which write the new EXEC to D as well.
pub(super) fn saveexec(l: &mut Lowerer, c: &Ctx, op: ExecOp, wrexec: bool) -> RuleResult {
    let dwords = c.inst.info().srcs.first().map_or(1, |s| s.dwords);
    let s0 = l.s_src(c, 0)?;
    let old = l.s_read(&exec(dwords), dwords)?;
    let b = &mut l.b;
    let not = |b: &mut Builder, x| b.iu(IntUn::Not, x);
    let new = match op {
        ExecOp::And => b.and(s0, old),
        ExecOp::Or => b.or(s0, old),
        ExecOp::Xor => b.xor(s0, old),
        ExecOp::Andn2 => {
            let n = not(b, old);
            b.and(s0, n)
        }
        ExecOp::Orn2 => {
            let n = not(b, old);
            b.or(s0, n)
        }
        ExecOp::Nand => {
            let x = b.and(s0, old);
            not(b, x)
        }
        ExecOp::Nor => {
            let x = b.or(s0, old);
            not(b, x)
        }
        ExecOp::Xnor => {
            let x = b.xor(s0, old);
            not(b, x)
        }
        ExecOp::Andn1 => {
            let n = not(b, s0);
            b.and(n, old)
        }
        ExecOp::Orn1 => {
            let n = not(b, s0);
            b.or(n, old)
        }
    };
    let scc = b.nec(new, 0);
    l.s_dst(c, if wrexec { new } else { old })?;
    l.s_write(&exec(dwords), new)?;
    l.scc_set(scc);
    Ok(())
}

/// s_movrels/s_movreld/s_movrelsd_2: SGPR moves indexed by M0, lowered when M0 is a constant
/// of the body (the index then names one register).
/// Which operand of a scalar relative move M0 indexes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SMovrel {
    /// s_movrels: the source, by M0.
    Src,
    /// s_movreld: the destination, by M0.
    Dst,
    /// s_movrelsd_2: the source by M0[9:0], the destination by M0[25:16].
    Both,
}

pub(super) fn movrel(l: &mut Lowerer, c: &Ctx, which: SMovrel) -> RuleResult {
    let m0 = l.sgpr_get(code::M0);
    let m0 = l
        .constant_of(m0)
        .ok_or(RuleError::not_modelled("M0 is not a constant of the body"))? as u32;
    let (src_off, dst_off) = match which {
        SMovrel::Src => (m0, 0),
        SMovrel::Dst => (0, m0),
        SMovrel::Both => (m0 & 0x3ff, (m0 >> 16) & 0x3ff),
    };
    let shift = |op: Operand, off: u32| -> RuleResult<Operand> {
        match op {
            Operand::Reg(r) if r.kind == RegKind::Sgpr => {
                let index = u32::from(r.index) + off;
                if index + u32::from(r.count) > u32::from(code::SGPRS) {
                    return Err(RuleError::not_modelled(format!(
                        "s{index}: past the SGPR file (s0..s105): not modelled"
                    )));
                }
                Ok(Operand::Reg(Reg {
                    index: index as u16,
                    ..r
                }))
            }
            Operand::Reg(_) if off == 0 => Ok(op),
            _ => Err(RuleError::not_modelled(
                "relative addressing of a register other than an SGPR",
            )),
        }
    };
    let dwords = c.inst.info().srcs.first().map_or(1, |s| s.dwords);
    let src = shift(l.src_op(c, 0)?, src_off)?;
    let dst = shift(l.s_dst_op(c)?, dst_off)?;
    let v = l.s_read(&src, dwords)?;
    l.s_write(&dst, v)
}

/// The SGPR operand of an SOPK instruction (its SDST field).
fn sopk_reg(c: &Ctx, dwords: u8) -> Operand {
    decode_sdst(c.inst.field(Field::Sdst) as u16, dwords)
}

/// SOPK: a 16-bit immediate (sign-extended for the i32 forms, zero-extended for u32) against
/// the SGPR in the SDST field.
/// An SOPK op of [`sopk`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sopk {
    Movk,
    Cmovk,
    Addk,
    Mulk,
    /// s_cmpk_*: the comparison, and whether the immediate is sign-extended (the i32 forms).
    Cmp(IntCmp, bool),
}

pub(super) fn sopk(l: &mut Lowerer, c: &Ctx, op: Sopk) -> RuleResult {
    let imm = c.inst.field(Field::Simm16) as u16;
    let sext = l.b.c32(imm as i16 as i32 as u32);
    let zext = l.b.c32(u32::from(imm));
    let reg = sopk_reg(c, 1);
    let (d, scc) = match op {
        Sopk::Movk => (sext, None),
        Sopk::Cmovk => {
            // rule: s-cmovk: the sign-extended immediate is written when SCC is set
            let t = l.scc_bool()?;
            let old = l.s_read(&reg, 1)?;
            (l.b.sel(t, sext, old), None)
        }
        Sopk::Addk | Sopk::Mulk => {
            let old = l.s_read(&reg, 1)?;
            l.uniform(&[old])?;
            let b = &mut l.b;
            if op == Sopk::Mulk {
                (b.ib(IntBin::Mul, old, sext), None)
            } else {
                let d = b.add(old, sext);
                let x = b.xor(old, d);
                let y = b.xor(sext, d);
                let o = b.and(x, y);
                (d, Some(b.icmpc(IntCmp::LtS, o, 0)))
            }
        }
        Sopk::Cmp(cmp, signed) => {
            let s0 = l.s_read(&reg, 1)?;
            l.uniform(&[s0])?;
            let k = if signed { sext } else { zext };
            let t = l.b.icmp(cmp, s0, k);
            l.scc_set(t);
            return Ok(());
        }
    };
    l.s_write(&reg, d)?;
    if let Some(s) = scc {
        l.scc_set(s);
    }
    Ok(())
}
