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
use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::regs::SCC;
use super::Lowerer;
use crate::ir::{Expr, Handle, IntBin, IntCmp, IntUn, Kernel, Space, Ty};
use rdnaprobe_isa::Operand;

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
                Expr::Input(_)
                | Expr::LaneId
                | Expr::Mem {
                    space: Space::Lds, ..
                } => true,
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
    pub(super) fn uniform(&mut self, hs: &[Handle]) -> RuleResult {
        if hs.iter().any(|&h| self.is_varying(h)) {
            return Err(RuleError::not_modelled(LANE_VIEW));
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
    pub(super) fn scc_bool(&mut self) -> RuleResult<Handle> {
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
    pub(super) fn s_read(&mut self, op: &Operand, dwords: u8) -> RuleResult<Handle> {
        let v = self.read(op, dwords, false)?;
        Ok(if dwords == 2 {
            self.b.pack64(v[0], v[1])
        } else {
            v[0]
        })
    }

    /// Scalar source `i` at the width of its operand spec.
    pub(super) fn s_src(&mut self, c: &Ctx, i: usize) -> RuleResult<Handle> {
        let op = self.src_op(c, i)?;
        let dwords = c.inst.info().srcs.get(i).map_or(1, |s| s.dwords);
        self.s_read(&op, dwords)
    }

    /// Writes a U32 or U64 value to the scalar register(s) of `op`.
    pub(super) fn s_write(&mut self, op: &Operand, v: Handle) -> RuleResult {
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
    pub(super) fn s_dst_op(&self, c: &Ctx) -> RuleResult<Operand> {
        c.inst
            .dsts(self.wave)
            .first()
            .copied()
            .ok_or_else(|| RuleError::operand("no destination"))
    }

    /// Writes the first destination.
    pub(super) fn s_dst(&mut self, c: &Ctx, v: Handle) -> RuleResult {
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

/// An SOP2 op of [`sop2`] (the 32- and 64-bit forms share one: the width is the operands').
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sop2 {
    AddU,
    SubU,
    AddI,
    SubI,
    Addc,
    Subb,
    /// s_min_* / s_max_*: the comparison that keeps src0 (and sets SCC).
    MinMax(IntCmp),
    Cselect,
    And,
    Or,
    Xor,
    Andn2,
    Orn2,
    Nand,
    Nor,
    Xnor,
    Shift(IntBin),
    Bfm,
    Mul,
    MulHiU,
    MulHiI,
    Bfe {
        signed: bool,
    },
    Absdiff,
    /// s_lshl{1,2,3,4}_add_u32: the shift.
    LshlAdd(u32),
    /// s_pack_{ll,lh,hh}_b32_b16: whether src0's and src1's high halves are taken.
    Pack {
        hi0: bool,
        hi1: bool,
    },
}

/// SOP2: two sources, one 32- or 64-bit result, SCC as the ISA gives it.
pub(super) fn sop2(l: &mut Lowerer, c: &Ctx, op: Sop2) -> RuleResult {
    let a = l.s_src(c, 0)?;
    let bv = l.s_src(c, 1)?;
    let bitwise = matches!(
        op,
        Sop2::And
            | Sop2::Or
            | Sop2::Xor
            | Sop2::Andn2
            | Sop2::Orn2
            | Sop2::Nand
            | Sop2::Nor
            | Sop2::Xnor
            | Sop2::Cselect
    );
    if !bitwise {
        l.uniform(&[a, bv])?;
    }
    let wide = l.b.ty(a) == Ty::U64;
    let b = &mut l.b;
    let (d, scc) = match op {
        Sop2::AddU => {
            let d = b.add(a, bv);
            (d, Some(b.icmp(IntCmp::LtU, d, a)))
        }
        Sop2::SubU => {
            let d = b.sub(a, bv);
            (d, Some(b.icmp(IntCmp::LtU, a, bv)))
        }
        Sop2::AddI => {
            let d = b.add(a, bv);
            let x = b.xor(a, d);
            let y = b.xor(bv, d);
            let o = b.and(x, y);
            (d, Some(sign_set(l, o)))
        }
        Sop2::SubI => {
            let d = b.sub(a, bv);
            let x = b.xor(a, bv);
            let y = b.xor(a, d);
            let o = b.and(x, y);
            (d, Some(sign_set(l, o)))
        }
        Sop2::Addc | Sop2::Subb => {
            let cin = l.scc_bool()?;
            let b = &mut l.b;
            let cin = b.b2u(cin);
            let (za, zb, zc) = (b.zext(a), b.zext(bv), b.zext(cin));
            if op == Sop2::Addc {
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
        Sop2::MinMax(cmp) => {
            let t = b.icmp(cmp, a, bv);
            (b.sel(t, a, bv), Some(t))
        }
        Sop2::Cselect => {
            let t = l.scc_bool()?;
            (l.b.sel(t, a, bv), None)
        }
        Sop2::And => nonzero(l, |b| b.and(a, bv)),
        Sop2::Or => nonzero(l, |b| b.or(a, bv)),
        Sop2::Xor => nonzero(l, |b| b.xor(a, bv)),
        Sop2::Andn2 => nonzero(l, |b| {
            let n = b.iu(IntUn::Not, bv);
            b.and(a, n)
        }),
        Sop2::Orn2 => nonzero(l, |b| {
            let n = b.iu(IntUn::Not, bv);
            b.or(a, n)
        }),
        Sop2::Nand => nonzero(l, |b| {
            let x = b.and(a, bv);
            b.iu(IntUn::Not, x)
        }),
        Sop2::Nor => nonzero(l, |b| {
            let x = b.or(a, bv);
            b.iu(IntUn::Not, x)
        }),
        Sop2::Xnor => nonzero(l, |b| {
            let x = b.xor(a, bv);
            b.iu(IntUn::Not, x)
        }),
        Sop2::Shift(shift) => {
            let sh = if wide {
                let s = b.andc(bv, 63);
                b.zext(s)
            } else {
                b.andc(bv, 31)
            };
            nonzero(l, |b| b.ib(shift, a, sh))
        }
        Sop2::Bfm => {
            // rule: s-bfm: width and offset are their low five (six) bits; SCC is unchanged
            let (w, o) = if c.inst.info().dsts.first().is_some_and(|d| d.dwords == 2) {
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
        Sop2::Mul => (b.ib(IntBin::Mul, a, bv), None),
        Sop2::MulHiU => (b.ib(IntBin::MulHiU, a, bv), None),
        Sop2::MulHiI => (b.ib(IntBin::MulHiS, a, bv), None),
        Sop2::Bfe { signed } => {
            // rule: s-bfe-scc: the bit-field extracts write SCC (result != 0)
            let d = bfe(l, a, bv, signed);
            (d, Some(l.b.nec(d, 0)))
        }
        Sop2::Absdiff => nonzero(l, |b| {
            let d = b.sub(a, bv);
            let neg = b.icmpc(IntCmp::LtS, d, 0);
            let n = b.iu(IntUn::Neg, d);
            b.sel(neg, n, d)
        }),
        Sop2::LshlAdd(n) => {
            let za = b.zext(a);
            let za = b.shlc(za, n);
            let zb = b.zext(bv);
            let s = b.add(za, zb);
            let hi = b.hi32(s);
            (b.trunc64(s), Some(b.nec(hi, 0)))
        }
        Sop2::Pack { hi0, hi1 } => {
            let lo = if hi0 {
                b.shrc(a, 16)
            } else {
                b.andc(a, 0xffff)
            };
            let hi = if hi1 {
                b.andc(bv, 0xffff_0000)
            } else {
                b.shlc(bv, 16)
            };
            (b.or(lo, hi), None)
        }
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
    f: impl FnOnce(&mut crate::builder::Builder) -> Handle,
) -> (Handle, Option<Handle>) {
    let d = f(&mut l.b);
    let z = l.b.nec(d, 0);
    (d, Some(z))
}

/// SOPC: compares and bit tests that write only SCC.
/// An SOPC op of [`sopc`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sopc {
    Cmp(IntCmp),
    /// s_bitcmp0 (`set` false) / s_bitcmp1: SCC = the tested bit is `set`.
    Bitcmp {
        set: bool,
    },
}

pub(super) fn sopc(l: &mut Lowerer, c: &Ctx, op: Sopc) -> RuleResult {
    let a = l.s_src(c, 0)?;
    let bv = l.s_src(c, 1)?;
    l.uniform(&[a, bv])?;
    let b = &mut l.b;
    let t = match op {
        Sopc::Cmp(cmp) => b.icmp(cmp, a, bv),
        Sopc::Bitcmp { set: want } => {
            let wide = b.ty(a) == Ty::U64;
            let sh = if wide {
                let s = b.andc(bv, 63);
                b.zext(s)
            } else {
                b.andc(bv, 31)
            };
            let x = b.ib(IntBin::ShrU, a, sh);
            let set = b.bit(x, 1);
            if want {
                set
            } else {
                b.bnot(set)
            }
        }
    };
    l.scc_set(t);
    Ok(())
}
