//! VALU integer instructions: moves, bitwise and shift ops, 32-bit add/sub/mul (24-bit forms
//! too), min/max/med3, bit-field ops, carries (this lane's bit of the carry mask), 64-bit
//! shifts, v_cndmask_b32 and v_mbcnt; and the scalar moves that set up lane-contract inputs.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::saturate;
use super::Lowerer;
use crate::builder::Fmt;
use crate::ir::{Handle, IntBin, IntCmp, IntUn};

/// s_nop, s_endpgm, v_nop: nothing to compute.
pub(super) fn nop(_l: &mut Lowerer, _c: &Ctx) -> RuleResult {
    Ok(())
}

/// s_mov_b32 and s_mov_b64 (`dwords`).
pub(super) fn s_mov(l: &mut Lowerer, c: &Ctx, dwords: u8) -> RuleResult {
    let dsts = c.inst.dsts(l.wave);
    match (c.srcs.first(), dsts.first()) {
        (Some(s), Some(d)) => l.read(s, dwords, false).and_then(|v| l.write_sreg(d, &v)),
        _ => Err(RuleError::operand("missing operand")),
    }
}

/// A VALU integer op: what the dispatch passes for each opcode it routes to [`op`]. Operand
/// widths come from the table; the variant names the computation and, where opcodes share one,
/// the parameter that tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum IntOp {
    Mov,
    Not,
    Bfrev,
    /// v_ffbl_b32: the index of the lowest set bit.
    Ffbl,
    /// v_ffbh_u32: leading zeros.
    FfbhU,
    /// v_ffbh_i32: leading bits equal to the sign.
    FfbhI,
    Bcnt,
    Cndmask,
    /// v_lshlrev_b32 / v_lshrrev_b32 / v_ashrrev_i32: the shift amount is src0.
    ShiftRev(IntBin),
    /// The 64-bit forms of [`IntOp::ShiftRev`].
    ShiftRev64(IntBin),
    And,
    Or,
    Xor,
    Xnor,
    /// v_add_nc_u32 (the clamp saturates unsigned).
    AddU,
    /// v_add_nc_i32 (the clamp saturates signed).
    AddI,
    SubU,
    SubI,
    SubrevU,
    /// v_alignbit_b32, or v_alignbyte_b32 (`bytes`).
    Align {
        bytes: bool,
    },
    Bfm,
    MulU24,
    MulI24,
    MulHiU24,
    MulHiI24,
    MadU24,
    MadI24,
    MulLo,
    MulHiU,
    MulHiI,
    Xad,
    /// v_mbcnt_lo_u32_b32, or v_mbcnt_hi_u32_b32 (`hi`).
    Mbcnt {
        hi: bool,
    },
    /// v_min_* / v_max_*: the comparison that keeps src0.
    MinMax(IntCmp),
    /// v_min3_* / v_max3_*: the comparison that keeps the first.
    Of3(IntCmp),
    Med3 {
        signed: bool,
    },
    Bfe {
        signed: bool,
    },
    Bfi,
    LshlAdd,
    AddLshl,
    LshlOr,
    AndOr,
    Or3,
    Xor3,
    Add3,
    /// The carry-out forms (v_add_co_u32 ... v_subrev_co_ci_u32).
    Carry(Carry),
}

/// Which carry-out add or subtract: `sub`, with the sources `reversed`, reading a `carry_in`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Carry {
    pub sub: bool,
    pub reversed: bool,
    pub carry_in: bool,
}

/// The VALU integer ops (their opcodes are routed here by the dispatch): sources after SDWA
/// selection, one 32-bit result (carries and 64-bit shifts write two).
pub(super) fn op(l: &mut Lowerer, c: &Ctx, op: IntOp) -> RuleResult {
    let wave = l.wave;
    let s = l.int_srcs(c)?;
    let arg = |i: usize| -> RuleResult<Handle> {
        s.get(i)
            .copied()
            .ok_or_else(|| RuleError::operand(format!("{}: missing source {i}", c.op)))
    };
    let b = &mut l.b;
    if c.mods.clamp {
        // rule: integer-clamp: the clamp bit saturates instead of wrapping
        if let Some((exact, signed)) = saturate::exact(b, op, &s) {
            let v = saturate::saturate(b, exact, signed);
            return l.write_result(c.inst, v);
        }
    }
    let v = match op {
        IntOp::Mov => arg(0)?,
        IntOp::Not => b.iu(IntUn::Not, arg(0)?),
        IntOp::Bfrev => b.iu(IntUn::BitReverse, arg(0)?),
        IntOp::Ffbl => b.iu(IntUn::FindLsb, arg(0)?),
        IntOp::FfbhU => {
            // count of leading zeros, all ones for 0
            let x = arg(0)?;
            let msb = b.iu(IntUn::FindMsbU, x);
            let c31 = b.c32(31);
            let r = b.sub(c31, msb);
            let z = b.eqc(x, 0);
            let ones = b.c32(u32::MAX);
            b.sel(z, ones, r)
        }
        IntOp::Bcnt => {
            let p = b.iu(IntUn::Popcount, arg(0)?);
            b.add(p, arg(1)?)
        }
        IntOp::Cndmask => {
            let srcs = c.srcs.clone();
            let mask = srcs
                .get(2)
                .ok_or(RuleError::operand("v_cndmask_b32 without a mask"))?;
            let bit = l.read_mask(mask)?;
            // The VOP3, SDWA and DPP16 forms take float input modifiers on both data sources
            // (LLVM folds fabs/fneg into them: `v_cndmask_b32_e64 v8, |v2|, v8, s0`): abs
            // clears and neg flips bit 31 of the dword, as on any f32 source.
            let (x, y) = (arg(0)?, arg(1)?);
            let x = l.apply_absneg(Fmt::F32, x, c, 0);
            let y = l.apply_absneg(Fmt::F32, y, c, 1);
            let r = l.b.sel(bit, y, x);
            return l.write_result(c.inst, r);
        }
        IntOp::ShiftRev(shift) => {
            let sh = b.andc(arg(0)?, 31);
            b.ib(shift, arg(1)?, sh)
        }
        IntOp::And => b.and(arg(0)?, arg(1)?),
        IntOp::Or => b.or(arg(0)?, arg(1)?),
        IntOp::Xor => b.xor(arg(0)?, arg(1)?),
        IntOp::Xnor => {
            let x = b.xor(arg(0)?, arg(1)?);
            b.iu(IntUn::Not, x)
        }
        IntOp::AddU | IntOp::AddI => b.add(arg(0)?, arg(1)?),
        IntOp::SubI => b.sub(arg(0)?, arg(1)?),
        IntOp::Align { bytes } => {
            // ({src0, src1} >> shift)[31:0]
            let hi = b.zext(arg(0)?);
            let hi = b.shlc(hi, 32);
            let lo = b.zext(arg(1)?);
            let v = b.or(hi, lo);
            let sh = if !bytes {
                b.andc(arg(2)?, 31)
            } else {
                let s = b.andc(arg(2)?, 3);
                b.shlc(s, 3)
            };
            let sh = b.zext(sh);
            let r = b.ib(IntBin::ShrU, v, sh);
            b.trunc64(r)
        }
        IntOp::Bfm => {
            // ((1 << width) - 1) << offset, 5-bit fields, truncating 32-bit shifts
            let w = b.andc(arg(0)?, 31);
            let o = b.andc(arg(1)?, 31);
            let one = b.c32(1);
            let m1 = b.ib(IntBin::Shl, one, w);
            let m1 = b.sub(m1, one);
            b.ib(IntBin::Shl, m1, o)
        }
        IntOp::MulHiU24 => {
            let x = b.andc(arg(0)?, 0xff_ffff);
            let y = b.andc(arg(1)?, 0xff_ffff);
            b.ib(IntBin::MulHiU, x, y)
        }
        IntOp::MulHiI24 => {
            let x = b.shlc(arg(0)?, 8);
            let x = b.sarc(x, 8);
            let y = b.shlc(arg(1)?, 8);
            let y = b.sarc(y, 8);
            b.ib(IntBin::MulHiS, x, y)
        }
        IntOp::MadU24 => {
            let x = b.andc(arg(0)?, 0xff_ffff);
            let y = b.andc(arg(1)?, 0xff_ffff);
            let p = b.ib(IntBin::Mul, x, y);
            b.add(p, arg(2)?)
        }
        IntOp::MadI24 => {
            let x = b.shlc(arg(0)?, 8);
            let x = b.sarc(x, 8);
            let y = b.shlc(arg(1)?, 8);
            let y = b.sarc(y, 8);
            let p = b.ib(IntBin::Mul, x, y);
            b.add(p, arg(2)?)
        }
        IntOp::Xad => {
            let x = b.xor(arg(0)?, arg(1)?);
            b.add(x, arg(2)?)
        }
        IntOp::FfbhI => {
            // index from the top of the first bit that differs from the sign bit
            let x = arg(0)?;
            let s = b.sarc(x, 31);
            let y = b.xor(x, s);
            let msb = b.iu(IntUn::FindMsbU, y);
            let c31 = b.c32(31);
            let r = b.sub(c31, msb);
            let z = b.eqc(y, 0);
            let ones = b.c32(u32::MAX);
            b.sel(z, ones, r)
        }
        IntOp::Mbcnt { hi } => {
            // popcount of the mask bits of the lanes below this one (in this half)
            let lane = l.lane;
            let n = if !hi {
                lane
            } else {
                let c32 = b.c32(32);
                let ge = b.icmpc(IntCmp::GeU, lane, 32);
                let d = b.sub(lane, c32);
                let z = b.c32(0);
                b.sel(ge, d, z)
            };
            let n = if !hi {
                let big = b.icmpc(IntCmp::GeU, lane, 32);
                let c32 = b.c32(32);
                b.sel(big, c32, n)
            } else {
                n
            };
            let l64 = b.zext(n);
            let one = b.c64(1);
            let mk = b.ib(IntBin::Shl, one, l64);
            let mk = b.sub(mk, one);
            let mk = b.trunc64(mk);
            let bits = b.and(arg(0)?, mk);
            let p = b.iu(IntUn::Popcount, bits);
            b.add(p, arg(1)?)
        }
        IntOp::SubU => b.sub(arg(0)?, arg(1)?),
        IntOp::SubrevU => b.sub(arg(1)?, arg(0)?),
        IntOp::MinMax(op) => {
            let (x, y) = (arg(0)?, arg(1)?);
            let c = b.icmp(op, x, y);
            b.sel(c, x, y)
        }
        IntOp::Of3(op) => {
            let (x, y, z) = (arg(0)?, arg(1)?, arg(2)?);
            let c = b.icmp(op, x, y);
            let t = b.sel(c, x, y);
            let c2 = b.icmp(op, t, z);
            b.sel(c2, t, z)
        }
        IntOp::Med3 { signed } => {
            let lt = if signed { IntCmp::LtS } else { IntCmp::LtU };
            let (x, y, z) = (arg(0)?, arg(1)?, arg(2)?);
            let c = b.icmp(lt, x, y);
            let lo = b.sel(c, x, y);
            let hi = b.sel(c, y, x);
            let c2 = b.icmp(lt, hi, z);
            let m2 = b.sel(c2, hi, z);
            let c3 = b.icmp(lt, lo, m2);
            b.sel(c3, m2, lo)
        }
        IntOp::MulLo => b.ib(IntBin::Mul, arg(0)?, arg(1)?),
        IntOp::MulHiU => b.ib(IntBin::MulHiU, arg(0)?, arg(1)?),
        IntOp::MulHiI => b.ib(IntBin::MulHiS, arg(0)?, arg(1)?),
        IntOp::MulU24 => {
            let x = b.andc(arg(0)?, 0xff_ffff);
            let y = b.andc(arg(1)?, 0xff_ffff);
            b.ib(IntBin::Mul, x, y)
        }
        IntOp::MulI24 => {
            let x = b.shlc(arg(0)?, 8);
            let x = b.sarc(x, 8);
            let y = b.shlc(arg(1)?, 8);
            let y = b.sarc(y, 8);
            b.ib(IntBin::Mul, x, y)
        }
        IntOp::Bfe { signed } => {
            // offset = src1[4:0], width = src2[4:0]; width 0 gives 0
            let off = b.andc(arg(1)?, 31);
            let w = b.andc(arg(2)?, 31);
            let c32 = b.c32(32);
            let up = b.sub(c32, w);
            let up = b.sub(up, off);
            let sh = b.ib(IntBin::Shl, arg(0)?, up);
            let sh = b.andc(sh, u64::from(u32::MAX));
            let tw = b.sub(c32, w);
            let r = if signed {
                b.ib(IntBin::ShrS, sh, tw)
            } else {
                b.ib(IntBin::ShrU, sh, tw)
            };
            // up may be negative (off + w > 32): then the field runs past bit 31
            let ow = b.add(off, w);
            let past = b.icmpc(IntCmp::GtU, ow, 32);
            let plain = b.ib(IntBin::ShrU, arg(0)?, off);
            let plain = if signed {
                b.ib(IntBin::ShrS, arg(0)?, off)
            } else {
                plain
            };
            let r = b.sel(past, plain, r);
            let z = b.eqc(w, 0);
            let zero = b.c32(0);
            b.sel(z, zero, r)
        }
        IntOp::Bfi => {
            let (mk, x, y) = (arg(0)?, arg(1)?, arg(2)?);
            let a = b.and(mk, x);
            let nm = b.iu(IntUn::Not, mk);
            let c = b.and(nm, y);
            b.or(a, c)
        }
        IntOp::LshlAdd => {
            let sh = b.andc(arg(1)?, 31);
            let s = b.ib(IntBin::Shl, arg(0)?, sh);
            b.add(s, arg(2)?)
        }
        IntOp::AddLshl => {
            let a = b.add(arg(0)?, arg(1)?);
            let sh = b.andc(arg(2)?, 31);
            b.ib(IntBin::Shl, a, sh)
        }
        IntOp::LshlOr => {
            let sh = b.andc(arg(1)?, 31);
            let s = b.ib(IntBin::Shl, arg(0)?, sh);
            b.or(s, arg(2)?)
        }
        IntOp::AndOr => {
            let a = b.and(arg(0)?, arg(1)?);
            b.or(a, arg(2)?)
        }
        IntOp::Or3 => {
            let a = b.or(arg(0)?, arg(1)?);
            b.or(a, arg(2)?)
        }
        IntOp::Xor3 => {
            let a = b.xor(arg(0)?, arg(1)?);
            b.xor(a, arg(2)?)
        }
        IntOp::Add3 => {
            let a = b.add(arg(0)?, arg(1)?);
            b.add(a, arg(2)?)
        }
        IntOp::Carry(carry) => {
            let srcs = c.srcs.clone();
            let (x, y) = if carry.reversed {
                (arg(1)?, arg(0)?)
            } else {
                (arg(0)?, arg(1)?)
            };
            let cin = if carry.carry_in {
                let mk = srcs
                    .get(2)
                    .ok_or(RuleError::operand("carry-in mask missing"))?;
                let bit = l.read_mask(mk)?;
                l.b.b2u(bit)
            } else {
                l.b.c32(0)
            };
            let b = &mut l.b;
            let x64 = b.zext(x);
            let y64 = b.zext(y);
            let c64 = b.zext(cin);
            let r = if !carry.sub {
                let s = b.add(x64, y64);
                b.add(s, c64)
            } else {
                let s = b.sub(x64, y64);
                b.sub(s, c64)
            };
            let carry = b.shrc(r, 32);
            let carry = b.nec(carry, 0);
            // rule: integer-clamp: the result saturates to [0, 2^32 - 1]; the carry-out is
            // the unsaturated sum's
            let lo = if c.mods.clamp {
                saturate::saturate(b, r, false)
            } else {
                b.trunc64(r)
            };
            let dsts = c.inst.dsts(wave);
            let cd = dsts
                .get(1)
                .ok_or(RuleError::operand("carry destination missing"))?;
            l.write_result(c.inst, lo)?;
            return l.write_mask(cd, carry);
        }
        IntOp::ShiftRev64(shift) => {
            let srcs = c.srcs.clone();
            let sh = l.read32(srcs.first().ok_or(RuleError::operand("missing shift"))?)?;
            let x = l.read64(
                srcs.get(1).ok_or(RuleError::operand("missing source"))?,
                false,
            )?;
            let b = &mut l.b;
            let sh = b.andc(sh, 63);
            let sh = b.zext(sh);
            let r = b.ib(shift, x, sh);
            let lo = b.trunc64(r);
            let hi = b.hi32(r);
            let dsts = c.inst.dsts(wave);
            let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
            return l.write_vdst(&d, &[lo, hi]);
        }
    };
    l.write_result(c.inst, v)
}
