//! The clamp bit of the integer VALU ops (rule: integer-clamp): the exact result, computed in
//! 64 bits, saturates to the destination type's range instead of wrapping.

use super::integer::IntOp;
use crate::builder::Builder;
use crate::ir::{Handle, IntBin, IntCmp};

/// Sign-extends the low `bits` bits of the U32 `x` to a U64.
pub(super) fn sext64(b: &mut Builder, x: Handle, bits: u32) -> Handle {
    let field = if bits == 32 {
        x
    } else {
        b.andc(x, (1 << bits) - 1)
    };
    let z = b.zext(field);
    let top = 1u64 << (bits - 1);
    let flipped = b.xorc(z, top);
    let top = b.c64(top);
    b.sub(flipped, top)
}

/// The U64 two's-complement value `r` saturated to u32, or to i32 when `signed` (a U32).
pub(super) fn saturate(b: &mut Builder, r: Handle, signed: bool) -> Handle {
    let (lo, hi) = if signed {
        (i64::from(i32::MIN) as u64, i32::MAX as u64)
    } else {
        (0, u64::from(u32::MAX))
    };
    let below = b.icmpc(IntCmp::LtS, r, lo);
    let above = b.icmpc(IntCmp::GtS, r, hi);
    let lo = b.c64(lo);
    let hi = b.c64(hi);
    let v = b.sel(below, lo, r);
    let v = b.sel(above, hi, v);
    b.trunc64(v)
}

/// rule: integer-clamp. The exact result of `op` on the sources `s` as a U64 and whether it
/// saturates to i32 (else u32), for the lowered integer ops whose VOP3 form has a clamp bit
/// (the carry forms are clamped where their carry is computed); `None` for the others.
pub(super) fn exact(b: &mut Builder, op: IntOp, s: &[Handle]) -> Option<(Handle, bool)> {
    let u = |b: &mut Builder, i: usize| b.zext(s[i]);
    let u24 = |b: &mut Builder, i: usize| {
        let x = b.andc(s[i], 0xff_ffff);
        b.zext(x)
    };
    let r = match op {
        IntOp::AddU => {
            let (x, y) = (u(b, 0), u(b, 1));
            (b.add(x, y), false)
        }
        IntOp::SubU | IntOp::SubrevU => {
            let (x, y) = (u(b, 0), u(b, 1));
            let (x, y) = if op == IntOp::SubU { (x, y) } else { (y, x) };
            (b.sub(x, y), false)
        }
        IntOp::AddI | IntOp::SubI => {
            let x = sext64(b, s[0], 32);
            let y = sext64(b, s[1], 32);
            let v = if op == IntOp::AddI {
                b.add(x, y)
            } else {
                b.sub(x, y)
            };
            (v, true)
        }
        IntOp::MulU24 | IntOp::MadU24 => {
            let (x, y) = (u24(b, 0), u24(b, 1));
            let p = b.ib(IntBin::Mul, x, y);
            if op == IntOp::MadU24 {
                let z = u(b, 2);
                (b.add(p, z), false)
            } else {
                (p, false)
            }
        }
        IntOp::MulI24 | IntOp::MadI24 => {
            let x = sext64(b, s[0], 24);
            let y = sext64(b, s[1], 24);
            let p = b.ib(IntBin::Mul, x, y);
            if op == IntOp::MadI24 {
                let z = sext64(b, s[2], 32);
                (b.add(p, z), true)
            } else {
                (p, true)
            }
        }
        IntOp::Mov
        | IntOp::Not
        | IntOp::Bfrev
        | IntOp::Ffbl
        | IntOp::FfbhU
        | IntOp::FfbhI
        | IntOp::Bcnt
        | IntOp::Cndmask
        | IntOp::ShiftRev(_)
        | IntOp::ShiftRev64(_)
        | IntOp::And
        | IntOp::Or
        | IntOp::Xor
        | IntOp::Xnor
        | IntOp::Align { .. }
        | IntOp::Bfm
        | IntOp::MulHiU24
        | IntOp::MulHiI24
        | IntOp::MulLo
        | IntOp::MulHiU
        | IntOp::MulHiI
        | IntOp::Xad
        | IntOp::Mbcnt { .. }
        | IntOp::MinMax(_)
        | IntOp::Of3(_)
        | IntOp::Med3 { .. }
        | IntOp::Bfe { .. }
        | IntOp::Bfi
        | IntOp::LshlAdd
        | IntOp::AddLshl
        | IntOp::LshlOr
        | IntOp::AndOr
        | IntOp::Or3
        | IntOp::Xor3
        | IntOp::Add3
        | IntOp::Carry(_) => return None,
    };
    Some(r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{out0, run};

    #[test]
    fn unsigned_add_and_sub_saturate() {
        let add = "v_add_nc_u32_e64 v10, v4, v5 clamp";
        assert_eq!(out0(add, 0xffff_fff0, 0x20, 0), u32::MAX);
        assert_eq!(out0(add, 0x10, 0x20, 0), 0x30);
        assert_eq!(
            out0("v_add_nc_u32_e64 v10, v4, v5", 0xffff_fff0, 0x20, 0),
            0x10
        );
        assert_eq!(out0("v_sub_nc_u32_e64 v10, v4, v5 clamp", 5, 7, 0), 0);
        assert_eq!(out0("v_sub_nc_u32_e64 v10, v4, v5 clamp", 7, 5, 0), 2);
        assert_eq!(out0("v_subrev_nc_u32_e64 v10, v4, v5 clamp", 7, 5, 0), 0);
        assert_eq!(
            out0("v_subrev_nc_u32_e64 v10, v4, v5", 7, 5, 0),
            0xffff_fffe
        );
    }

    #[test]
    fn signed_add_and_sub_saturate_both_ways() {
        let add = "v_add_nc_i32 v10, v4, v5 clamp";
        assert_eq!(out0(add, 0x7fff_fff0, 0x20, 0), 0x7fff_ffff);
        assert_eq!(out0(add, 0x8000_0010, 0xffff_ffe0, 0), 0x8000_0000);
        assert_eq!(out0(add, 5, 0xffff_fff9, 0), 0xffff_fffe);
        let sub = "v_sub_nc_i32 v10, v4, v5 clamp";
        assert_eq!(out0(sub, 0x8000_0000, 1, 0), 0x8000_0000);
        assert_eq!(out0(sub, 0x7fff_ffff, u32::MAX, 0), 0x7fff_ffff);
        assert_eq!(
            out0("v_sub_nc_i32 v10, v4, v5", 0x8000_0000, 1, 0),
            0x7fff_ffff
        );
    }

    #[test]
    fn carry_forms_saturate_and_keep_the_carry() {
        let t = "v_add_co_u32 v10, s0, v4, v5 clamp\nv_cndmask_b32_e64 v11, 0, 1, s0";
        let o = run(t, [u32::MAX, 2, 0, 0, 0, 0], 0);
        assert_eq!((o[0], o[1]), (u32::MAX, 1));
        let t = "v_sub_co_u32 v10, s0, v4, v5 clamp\nv_cndmask_b32_e64 v11, 0, 1, s0";
        let o = run(t, [1, 2, 0, 0, 0, 0], 0);
        assert_eq!((o[0], o[1]), (0, 1));
        let t = "v_subrev_co_u32 v10, s0, v4, v5 clamp";
        assert_eq!(out0(t, 2, 1, 0), 0);
        // carry-in 1 from a compare: u32::MAX + 0 + 1 saturates
        let t = "v_cmp_eq_u32_e64 s1, v6, v6\nv_add_co_ci_u32_e64 v10, s0, v4, v5, s1 clamp";
        assert_eq!(out0(t, u32::MAX, 0, 0), u32::MAX);
        let t = "v_cmp_eq_u32_e64 s1, v6, v6\nv_sub_co_ci_u32_e64 v10, s0, v4, v5, s1 clamp";
        assert_eq!(out0(t, 1, 1, 0), 0);
        assert_eq!(out0(t, 5, 1, 0), 3);
    }

    #[test]
    fn twenty_four_bit_products_saturate() {
        let mad = "v_mad_u32_u24 v10, v4, v5, v6 clamp";
        assert_eq!(out0(mad, 0xff_ffff, 0xff_ffff, 0), u32::MAX);
        assert_eq!(out0(mad, 0xffff, 0xffff, 0x1fffe), u32::MAX);
        assert_eq!(out0(mad, 0xffff, 0xffff, 0x1fffd), u32::MAX - 1);
        assert_eq!(
            out0("v_mad_u32_u24 v10, v4, v5, v6", 0xff_ffff, 0xff_ffff, 0),
            0xfe00_0001
        );
        let mad = "v_mad_i32_i24 v10, v4, v5, v6 clamp";
        assert_eq!(out0(mad, 0x7f_ffff, 0x7f_ffff, 0), 0x7fff_ffff);
        assert_eq!(out0(mad, 0x80_0000, 0x7f_ffff, 0), 0x8000_0000);
        // 2^12 * -2^12 + i32::MIN is below the range; the upper source bits are ignored
        assert_eq!(out0(mad, 0xab00_1000, 0xff_f000, 0x8000_0000), 0x8000_0000);
        assert_eq!(out0(mad, 3, 0xff_fffe, 10), 4);
        let mul = "v_mul_u32_u24_e64 v10, v4, v5 clamp";
        assert_eq!(out0(mul, 0x1_0000, 0x1_0000, 0), u32::MAX);
        assert_eq!(out0(mul, 0xffff, 0xffff, 0), 0xfffe_0001);
        let mul = "v_mul_i32_i24_e64 v10, v4, v5 clamp";
        assert_eq!(out0(mul, 0x80_0000, 0x80_0000, 0), 0x7fff_ffff);
        assert_eq!(out0(mul, 0xff_ffff, 0x80_0000, 0), 0x0080_0000);
        assert_eq!(out0(mul, 0x1_0000, 0xff_0000, 0), 0x8000_0000);
    }
}
