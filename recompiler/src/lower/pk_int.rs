//! The packed 16-bit integer ops (VOP3P v_pk_add/sub_i16/u16, v_pk_mul_lo_u16,
//! v_pk_mad_i16/u16, v_pk_min/max_i16/u16, v_pk_lshlrev/lshrrev/ashrrev): each half computed
//! apart, op_sel / op_sel_hi picking the source halves; the clamp bit saturates each half of
//! the add, sub and mad forms (rule: integer-clamp).

use super::error::{RuleError, RuleResult};
use super::int16::{ext16, int_mods, sat16};
use super::operands::Ctx;
use super::Lowerer;
use crate::ir::{Handle, IntBin, IntCmp};

impl Lowerer {
    /// Packed integer source `i`, element `hi`, extended to a U32.
    fn pk_int_src(&mut self, c: &Ctx, i: usize, hi: bool, signed: bool) -> RuleResult<Handle> {
        let op = self.src_op(c, i)?;
        let v = self.read32(&op)?;
        let sel = if hi { c.mods.op_sel_hi } else { c.mods.op_sel };
        let v = if sel & (1 << i) != 0 {
            self.b.shrc(v, 16)
        } else {
            v
        };
        Ok(ext16(&mut self.b, v, signed))
    }
}

/// A packed 16-bit integer op, and whether it reads its halves as signed: what the dispatch
/// passes for each opcode it routes to [`op`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PkInt {
    pub op: Pk16,
    pub signed: bool,
}

/// The computation on each half of a [`PkInt`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pk16 {
    Add,
    Sub,
    MulLo,
    Mad,
    Min,
    Max,
    /// Each half of src1 shifted by the same half of src0: the shift op.
    ShiftRev(IntBin),
}

/// The packed integer ops (their opcodes are routed here by the dispatch).
pub(super) fn op(l: &mut Lowerer, c: &Ctx, PkInt { op, signed: sg }: PkInt) -> RuleResult {
    let clamp_ok = match op {
        Pk16::Add | Pk16::Sub | Pk16::Mad | Pk16::Min | Pk16::Max => true,
        Pk16::MulLo | Pk16::ShiftRev(_) => false,
    };
    int_mods(c, clamp_ok)?;
    if c.mods.neg_lo != 0 || c.mods.neg_hi != 0 {
        return Err(RuleError::modifier(format!(
            "{}: neg_lo/neg_hi on an integer op",
            c.op
        )));
    }
    let n = if op == Pk16::Mad { 3 } else { 2 };
    let mut halves = [l.b.c32(0); 2];
    for (h, hv) in halves.iter_mut().enumerate() {
        let mut s = Vec::new();
        for i in 0..n {
            s.push(l.pk_int_src(c, i, h == 1, sg)?);
        }
        let (x, y) = (s[0], s[1]);
        let b = &mut l.b;
        let r = match op {
            Pk16::Add => b.add(x, y),
            Pk16::Sub => b.sub(x, y),
            Pk16::MulLo => b.ib(IntBin::Mul, x, y),
            Pk16::Mad => {
                let p = b.ib(IntBin::Mul, x, y);
                b.add(p, s[2])
            }
            Pk16::Min => {
                let k = b.icmp(if sg { IntCmp::LtS } else { IntCmp::LtU }, x, y);
                b.sel(k, x, y)
            }
            Pk16::Max => {
                let k = b.icmp(if sg { IntCmp::GtS } else { IntCmp::GtU }, x, y);
                b.sel(k, x, y)
            }
            Pk16::ShiftRev(shift) => {
                // each half of src1 shifted by the same half of src0, [3:0]
                let sh = b.andc(x, 15);
                b.ib(shift, y, sh)
            }
        };
        let r = if c.mods.clamp {
            // rule: integer-clamp
            let negative = op == Pk16::Sub && !sg;
            sat16(b, r, sg, negative)
        } else {
            r
        };
        *hv = b.andc(r, 0xffff);
    }
    let hi = l.b.shlc(halves[1], 16);
    let v = l.b.or(halves[0], hi);
    l.write_result(c.inst, v)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::out0;

    #[test]
    fn halves_are_apart_and_wrap() {
        assert_eq!(
            out0("v_pk_add_u16 v10, v4, v5", 0xffff_0001, 0x0002_0002, 0),
            0x0001_0003
        );
        assert_eq!(
            out0("v_pk_sub_i16 v10, v4, v5", 0x8000_0001, 0x0001_0002, 0),
            0x7fff_ffff
        );
        assert_eq!(
            out0("v_pk_mul_lo_u16 v10, v4, v5", 0x0100_ffff, 0x0100_ffff, 0),
            0x0000_0001
        );
        assert_eq!(
            out0(
                "v_pk_mad_u16 v10, v4, v5, v6",
                0x0003_0002,
                0x0005_0007,
                0x0001_0001
            ),
            0x0010_000f
        );
        assert_eq!(
            out0(
                "v_pk_mad_i16 v10, v4, v5, v6",
                0xffff_0002,
                0x0005_fff9,
                0x0001_0001
            ),
            0xfffc_fff3
        );
    }

    #[test]
    fn clamp_saturates_each_half() {
        assert_eq!(
            out0(
                "v_pk_add_u16 v10, v4, v5 clamp",
                0xffff_0001,
                0x0002_0002,
                0
            ),
            0xffff_0003
        );
        assert_eq!(
            out0(
                "v_pk_sub_u16 v10, v4, v5 clamp",
                0x0001_0005,
                0x0002_0002,
                0
            ),
            0x0000_0003
        );
        assert_eq!(
            out0(
                "v_pk_add_i16 v10, v4, v5 clamp",
                0x7fff_8000,
                0x0001_ffff,
                0
            ),
            0x7fff_8000
        );
        assert_eq!(
            out0(
                "v_pk_mad_u16 v10, v4, v5, v6 clamp",
                0x0100_0002,
                0x0100_0003,
                0
            ),
            0xffff_0006
        );
    }

    #[test]
    fn min_max_and_shifts() {
        assert_eq!(
            out0("v_pk_min_i16 v10, v4, v5", 0xffff_0001, 0x0001_8000, 0),
            0xffff_8000
        );
        assert_eq!(
            out0("v_pk_max_u16 v10, v4, v5", 0xffff_0001, 0x0001_8000, 0),
            0xffff_8000
        );
        assert_eq!(
            out0("v_pk_lshlrev_b16 v10, v4, v5", 0x0011_0004, 0x0001_0001, 0),
            0x0002_0010
        );
        assert_eq!(
            out0("v_pk_ashrrev_i16 v10, v4, v5", 0x0004_0004, 0x8000_4000, 0),
            0xf800_0400
        );
        assert_eq!(
            out0("v_pk_lshrrev_b16 v10, v4, v5", 0x0004_0004, 0x8000_4000, 0),
            0x0800_0400
        );
    }

    #[test]
    fn op_sel_picks_the_halves() {
        // low result from the high halves, high result from the low halves
        let t = "v_pk_add_u16 v10, v4, v5 op_sel:[1,1] op_sel_hi:[0,0]";
        assert_eq!(out0(t, 0x0001_0010, 0x0002_0020, 0), 0x0030_0003);
    }
}
