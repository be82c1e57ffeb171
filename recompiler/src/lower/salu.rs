//! Scalar ALU (SOP2, SOPC) on the per-lane IR, and the scalar operand helpers the other SALU
//! modules share (`salu_unary`: SOP1 and SOPK; `salu_mode`: the MODE register).
//!
//! Scalar values are uniform, so every lane computes them redundantly: an SGPR pair is two U32
//! values, read as one U64 for the 64-bit forms; SCC is the U32 0/1 at source code 253 in the
//! scalar register map. Results and SCC follow the RDNA2 ISA manual's SALU instruction
//! descriptions, with the corrections of the rules cited beside the code.
//!
//! A lane mask written by a VALU op is held as this lane's view (only this lane's bit is right,
//! see `regs`). Moves, selects and the bitwise ops (and the saveexec family) keep that view
//! correct bit by bit, so they accept such a source; an op whose result mixes bits (arithmetic,
//! shifts, counts, compares) or reads SCC computed from such a mask needs the whole-wave mask
//! and reports the source as unsupported instead of computing a per-lane answer.

use super::control::SCALAR_VARS;
use super::operands::Ctx;
use super::regs::SCC;
use super::Lowerer;
use crate::ir::{Expr, Handle, IntBin, IntCmp, IntUn, Kernel, Ty};
use rdnaprobe_isa::{Opcode, Operand};

/// Scalar-ALU state kept beside the register files.
#[derive(Default)]
pub(crate) struct State {
    /// Whether each expression so far depends on a lane's inputs or index (grown lazily).
    varying: Vec<bool>,
    /// Whether each expression so far depends on state known only when the wave runs: the
    /// wave's inputs, another lane, LDS or a block variable (grown lazily).
    runtime: Vec<bool>,
}

const LANE_VIEW: &str = "reads a lane mask written by a VALU op, which the lane contract holds \
                         per lane: only moves, selects and bitwise ops take one (under the wave \
                         contract the mask is the wave's)";

impl Lowerer {
    /// Whether `h` depends on a lane's inputs or index, i.e. is not one value for the whole wave.
    /// A ballot, a read from a uniform lane, the wave's SGPR/EXEC inputs, scalar block
    /// variables and a memory load from a uniform address (an SMEM load) are the same on every
    /// lane.
    pub(super) fn is_varying(&mut self, h: Handle) -> bool {
        let k = &self.b.k;
        let v = &mut self.scalar.varying;
        while v.len() < k.exprs.len() {
            let e = &k.exprs[v.len()];
            let x = match *e {
                Expr::Input(_) | Expr::LaneId | Expr::Lds { .. } | Expr::LdsWide { .. } => true,
                Expr::SgprIn(_) | Expr::ExecIn | Expr::WaveBallot(_) => false,
                Expr::WaveRead { lane, .. } => v[lane.index()],
                Expr::Var(id) => id < SCALAR_VARS,
                _ => Kernel::operands(e).iter().any(|o| v[o.index()]),
            };
            v.push(x);
        }
        v[h.index()]
    }

    /// Whether `h` depends on anything not known while lowering (see [`State::runtime`]).
    fn is_runtime(&mut self, h: Handle) -> bool {
        let k = &self.b.k;
        let v = &mut self.scalar.runtime;
        while v.len() < k.exprs.len() {
            let e = &k.exprs[v.len()];
            let x = match e {
                Expr::Const { .. } => false,
                _ if !e.is_pure() => true,
                _ => Kernel::operands(e).iter().any(|o| v[o.index()]),
            };
            v.push(x);
        }
        v[h.index()]
    }

    /// Requires every value in `hs` to be uniform.
    pub(super) fn uniform(&mut self, hs: &[Handle]) -> Result<(), String> {
        if hs.iter().any(|&h| self.is_varying(h)) {
            return Err(LANE_VIEW.into());
        }
        Ok(())
    }

    /// The bits of `h` when it is a constant of the body (uniform and computed from literals,
    /// inline constants and the initial register values only).
    pub(super) fn constant_of(&mut self, h: Handle) -> Option<u64> {
        if self.is_varying(h) || self.is_runtime(h) {
            return None;
        }
        Some(crate::interp::values(&self.b.k, [0; 6], 0)[h.index()])
    }

    /// SCC as a `Bool`; `uniform` requires it to be one value for the wave (it is read as a
    /// condition).
    pub(super) fn scc_bool(&mut self) -> Result<Handle, String> {
        let s = self.sgpr_get(SCC);
        self.uniform(&[s])?;
        Ok(self.b.nec(s, 0))
    }

    /// Sets SCC from a `Bool`.
    pub(super) fn scc_set(&mut self, b: Handle) {
        let u = self.b.b2u(b);
        self.set_scc(u);
    }

    /// Reads `op` as a U32 (`dwords` 1) or a U64 (`dwords` 2, low dword first).
    pub(super) fn s_read(&mut self, op: &Operand, dwords: u8) -> Result<Handle, String> {
        let v = self.read(op, dwords, false)?;
        Ok(if dwords == 2 {
            self.b.pack64(v[0], v[1])
        } else {
            v[0]
        })
    }

    /// Scalar source `i` at the width of its operand spec.
    pub(super) fn s_src(&mut self, c: &Ctx, i: usize) -> Result<Handle, String> {
        let op = self.src_op(c, i)?;
        let dwords = c.inst.info().srcs.get(i).map_or(1, |s| s.dwords);
        self.s_read(&op, dwords)
    }

    /// Writes a U32 or U64 value to the scalar register(s) of `op`.
    pub(super) fn s_write(&mut self, op: &Operand, v: Handle) -> Result<(), String> {
        let vals = if self.b.ty(v) == Ty::U64 {
            let lo = self.b.trunc64(v);
            let hi = self.b.hi32(v);
            vec![lo, hi]
        } else {
            vec![v]
        };
        self.write_sreg(op, &vals)
    }

    /// The first destination operand.
    pub(super) fn s_dst_op(&self, c: &Ctx) -> Result<Operand, String> {
        c.inst
            .dsts(self.wave)
            .first()
            .copied()
            .ok_or_else(|| "no destination".to_string())
    }

    /// Writes the first destination.
    pub(super) fn s_dst(&mut self, c: &Ctx, v: Handle) -> Result<(), String> {
        let d = self.s_dst_op(c)?;
        self.s_write(&d, v)
    }
}

/// Whether the sign bit of `x` is set (the signed-overflow terms of the add/sub forms).
fn sign_set(l: &mut Lowerer, x: Handle) -> Handle {
    l.b.icmpc(IntCmp::LtS, x, 0)
}

/// s_bfe_*: the field of `a` at offset `b[4:0]` (`b[5:0]` for 64 bits) of width `b[22:16]`,
/// zero- or sign-extended. A width of 0 gives 0; a width reaching past the top takes every bit
/// above the offset (the manual's `(1 << width) - 1` mask, saturated).
fn bfe(l: &mut Lowerer, a: Handle, bsrc: Handle, signed: bool) -> Handle {
    let wide = l.b.ty(a) == Ty::U64;
    let width: u32 = if wide { 64 } else { 32 };
    let b = &mut l.b;
    let off = b.andc(bsrc, u64::from(width - 1));
    let w = b.shrc(bsrc, 16);
    let w = b.andc(w, 0x7f);
    let (off, w) = if wide {
        (b.zext(off), b.zext(w))
    } else {
        (off, w)
    };
    let op = if signed { IntBin::ShrS } else { IntBin::ShrU };
    let shifted = b.ib(op, a, off);
    let over = b.icmpc(IntCmp::GeU, w, u64::from(width));
    let full = b.clike(w, u64::from(width));
    let wc = b.sel(over, full, w);
    let s = b.sub(full, wc);
    let up = b.ib(IntBin::Shl, shifted, s);
    let r = b.ib(op, up, s);
    let zero_w = b.eqc(w, 0);
    let z = b.clike(a, 0);
    b.sel(zero_w, z, r)
}

/// SOP2: two sources, one 32- or 64-bit result, SCC as the ISA gives it.
pub(super) fn sop2(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    use Opcode::*;
    let a = l.s_src(c, 0)?;
    let bv = l.s_src(c, 1)?;
    let bitwise = matches!(
        c.op,
        s_and_b32
            | s_and_b64
            | s_or_b32
            | s_or_b64
            | s_xor_b32
            | s_xor_b64
            | s_andn2_b32
            | s_andn2_b64
            | s_orn2_b32
            | s_orn2_b64
            | s_nand_b32
            | s_nand_b64
            | s_nor_b32
            | s_nor_b64
            | s_xnor_b32
            | s_xnor_b64
            | s_cselect_b32
            | s_cselect_b64
    );
    if !bitwise {
        l.uniform(&[a, bv])?;
    }
    let wide = l.b.ty(a) == Ty::U64;
    let b = &mut l.b;
    let (d, scc) = match c.op {
        s_add_u32 => {
            let d = b.add(a, bv);
            (d, Some(b.icmp(IntCmp::LtU, d, a)))
        }
        s_sub_u32 => {
            let d = b.sub(a, bv);
            (d, Some(b.icmp(IntCmp::LtU, a, bv)))
        }
        s_add_i32 => {
            let d = b.add(a, bv);
            let x = b.xor(a, d);
            let y = b.xor(bv, d);
            let o = b.and(x, y);
            (d, Some(sign_set(l, o)))
        }
        s_sub_i32 => {
            let d = b.sub(a, bv);
            let x = b.xor(a, bv);
            let y = b.xor(a, d);
            let o = b.and(x, y);
            (d, Some(sign_set(l, o)))
        }
        s_addc_u32 | s_subb_u32 => {
            let cin = l.scc_bool()?;
            let b = &mut l.b;
            let cin = b.b2u(cin);
            let (za, zb, zc) = (b.zext(a), b.zext(bv), b.zext(cin));
            if c.op == s_addc_u32 {
                let s = b.add(za, zb);
                let s = b.add(s, zc);
                let d = b.trunc64(s);
                let hi = b.hi32(s);
                (d, Some(b.nec(hi, 0)))
            } else {
                let d = b.sub(a, bv);
                let d = b.sub(d, cin);
                let need = b.add(zb, zc);
                (d, Some(b.icmp(IntCmp::GtU, need, za)))
            }
        }
        s_min_i32 | s_min_u32 | s_max_i32 | s_max_u32 => {
            let cmp = match c.op {
                s_min_i32 => IntCmp::LtS,
                s_min_u32 => IntCmp::LtU,
                s_max_i32 => IntCmp::GtS,
                _ => IntCmp::GtU,
            };
            let t = b.icmp(cmp, a, bv);
            (b.sel(t, a, bv), Some(t))
        }
        s_cselect_b32 | s_cselect_b64 => {
            let t = l.scc_bool()?;
            (l.b.sel(t, a, bv), None)
        }
        s_and_b32 | s_and_b64 => nonzero(l, |b| b.and(a, bv)),
        s_or_b32 | s_or_b64 => nonzero(l, |b| b.or(a, bv)),
        s_xor_b32 | s_xor_b64 => nonzero(l, |b| b.xor(a, bv)),
        s_andn2_b32 | s_andn2_b64 => nonzero(l, |b| {
            let n = b.iu(IntUn::Not, bv);
            b.and(a, n)
        }),
        s_orn2_b32 | s_orn2_b64 => nonzero(l, |b| {
            let n = b.iu(IntUn::Not, bv);
            b.or(a, n)
        }),
        s_nand_b32 | s_nand_b64 => nonzero(l, |b| {
            let x = b.and(a, bv);
            b.iu(IntUn::Not, x)
        }),
        s_nor_b32 | s_nor_b64 => nonzero(l, |b| {
            let x = b.or(a, bv);
            b.iu(IntUn::Not, x)
        }),
        s_xnor_b32 | s_xnor_b64 => nonzero(l, |b| {
            let x = b.xor(a, bv);
            b.iu(IntUn::Not, x)
        }),
        s_lshl_b32 | s_lshl_b64 | s_lshr_b32 | s_lshr_b64 | s_ashr_i32 | s_ashr_i64 => {
            let op = match c.op {
                s_lshl_b32 | s_lshl_b64 => IntBin::Shl,
                s_lshr_b32 | s_lshr_b64 => IntBin::ShrU,
                _ => IntBin::ShrS,
            };
            let sh = if wide {
                let s = b.andc(bv, 63);
                b.zext(s)
            } else {
                b.andc(bv, 31)
            };
            nonzero(l, |b| b.ib(op, a, sh))
        }
        s_bfm_b32 | s_bfm_b64 => {
            // rule: s-bfm: width and offset are their low five (six) bits; SCC is unchanged
            let (w, o) = if c.op == s_bfm_b64 {
                let w = b.andc(a, 63);
                let o = b.andc(bv, 63);
                (b.zext(w), b.zext(o))
            } else {
                (b.andc(a, 31), b.andc(bv, 31))
            };
            let one = b.clike(w, 1);
            let m = b.ib(IntBin::Shl, one, w);
            let m = b.sub(m, one);
            (b.ib(IntBin::Shl, m, o), None)
        }
        s_mul_i32 => (b.ib(IntBin::Mul, a, bv), None),
        s_mul_hi_u32 => (b.ib(IntBin::MulHiU, a, bv), None),
        s_mul_hi_i32 => (b.ib(IntBin::MulHiS, a, bv), None),
        s_bfe_u32 | s_bfe_u64 | s_bfe_i32 | s_bfe_i64 => {
            // rule: s-bfe-scc: the bit-field extracts write SCC (result != 0)
            let signed = matches!(c.op, s_bfe_i32 | s_bfe_i64);
            let d = bfe(l, a, bv, signed);
            (d, Some(l.b.nec(d, 0)))
        }
        s_absdiff_i32 => nonzero(l, |b| {
            let d = b.sub(a, bv);
            let neg = b.icmpc(IntCmp::LtS, d, 0);
            let n = b.iu(IntUn::Neg, d);
            b.sel(neg, n, d)
        }),
        s_lshl1_add_u32 | s_lshl2_add_u32 | s_lshl3_add_u32 | s_lshl4_add_u32 => {
            let n = match c.op {
                s_lshl1_add_u32 => 1,
                s_lshl2_add_u32 => 2,
                s_lshl3_add_u32 => 3,
                _ => 4,
            };
            let za = b.zext(a);
            let za = b.shlc(za, n);
            let zb = b.zext(bv);
            let s = b.add(za, zb);
            let hi = b.hi32(s);
            (b.trunc64(s), Some(b.nec(hi, 0)))
        }
        s_pack_ll_b32_b16 | s_pack_lh_b32_b16 | s_pack_hh_b32_b16 => {
            let lo = if c.op == s_pack_hh_b32_b16 {
                b.shrc(a, 16)
            } else {
                b.andc(a, 0xffff)
            };
            let hi = if c.op == s_pack_ll_b32_b16 {
                b.shlc(bv, 16)
            } else {
                b.andc(bv, 0xffff_0000)
            };
            (b.or(lo, hi), None)
        }
        op => return Err(format!("{op}: not an SOP2 rule")),
    };
    l.s_dst(c, d)?;
    if let Some(s) = scc {
        l.scc_set(s);
    }
    Ok(())
}

/// A result and `SCC = result != 0`.
pub(super) fn nonzero(
    l: &mut Lowerer,
    f: impl FnOnce(&mut crate::build::Builder) -> Handle,
) -> (Handle, Option<Handle>) {
    let d = f(&mut l.b);
    let z = l.b.nec(d, 0);
    (d, Some(z))
}

/// SOPC: compares and bit tests that write only SCC.
pub(super) fn sopc(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    use Opcode::*;
    let a = l.s_src(c, 0)?;
    let bv = l.s_src(c, 1)?;
    l.uniform(&[a, bv])?;
    let b = &mut l.b;
    let t = match c.op {
        s_cmp_eq_i32 | s_cmp_eq_u32 | s_cmp_eq_u64 => b.icmp(IntCmp::Eq, a, bv),
        s_cmp_lg_i32 | s_cmp_lg_u32 | s_cmp_lg_u64 => b.icmp(IntCmp::Ne, a, bv),
        s_cmp_gt_i32 => b.icmp(IntCmp::GtS, a, bv),
        s_cmp_ge_i32 => b.icmp(IntCmp::GeS, a, bv),
        s_cmp_lt_i32 => b.icmp(IntCmp::LtS, a, bv),
        s_cmp_le_i32 => b.icmp(IntCmp::LeS, a, bv),
        s_cmp_gt_u32 => b.icmp(IntCmp::GtU, a, bv),
        s_cmp_ge_u32 => b.icmp(IntCmp::GeU, a, bv),
        s_cmp_lt_u32 => b.icmp(IntCmp::LtU, a, bv),
        s_cmp_le_u32 => b.icmp(IntCmp::LeU, a, bv),
        s_bitcmp0_b32 | s_bitcmp1_b32 | s_bitcmp0_b64 | s_bitcmp1_b64 => {
            let wide = b.ty(a) == Ty::U64;
            let sh = if wide {
                let s = b.andc(bv, 63);
                b.zext(s)
            } else {
                b.andc(bv, 31)
            };
            let x = b.ib(IntBin::ShrU, a, sh);
            let set = b.bit(x, 1);
            if matches!(c.op, s_bitcmp0_b32 | s_bitcmp0_b64) {
                b.bnot(set)
            } else {
                set
            }
        }
        op => return Err(format!("{op}: not an SOPC rule")),
    };
    l.scc_set(t);
    Ok(())
}
