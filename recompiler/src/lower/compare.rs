//! Compares: the integer v_cmp/v_cmpx forms (32 and 64 bits), the float ones with their NaN
//! cases (rule: float-compare) and v_cmp_class_*. A compare writes this lane's bit of its mask
//! destination (EXEC for v_cmpx_*).

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{Handle, IntCmp};

/// The condition of an integer compare.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ICond {
    /// `v_cmp_f_*`: always false.
    F,
    /// `v_cmp_t_*`: always true.
    T,
    Cmp(IntCmp),
}

/// The condition of a float compare (the 16 of the ISA: `f` .. `tru`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum FCond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Lg,
    Ge,
    O,
    U,
    Nge,
    Nlg,
    Ngt,
    Nle,
    Neq,
    Nlt,
    Tru,
}

/// v_cmp(x)_COND_{i32,u32} and, with `wide`, _{i64,u64}.
pub(super) fn int(l: &mut Lowerer, c: &Ctx, cond: ICond, wide: bool) -> RuleResult {
    let srcs = &c.srcs;
    if srcs.len() < 2 {
        return Err(RuleError::operand("compare needs two sources"));
    }
    let (a, b) = if wide {
        (l.read64(&srcs[0], false)?, l.read64(&srcs[1], false)?)
    } else {
        let v = l.int_srcs(c)?;
        (v[0], v[1])
    };
    let r = match cond {
        ICond::F => l.b.cb(false),
        ICond::T => l.b.cb(true),
        ICond::Cmp(op) => l.b.icmp(op, a, b),
    };
    let d = l.cmp_dst(c.inst)?;
    l.write_mask(&d, r)
}

/// v_cmp(x)_COND_{f16,f32,f64}.
pub(super) fn float(l: &mut Lowerer, c: &Ctx, fmt: Fmt, cond: FCond) -> RuleResult {
    let (x, y) = match fmt {
        Fmt::F16 => (l.f16_src(c, 0)?, l.f16_src(c, 1)?),
        Fmt::F32 => (l.f32_src(c, 0)?, l.f32_src(c, 1)?),
        Fmt::F64 => (l.f64_src(c, 0)?, l.f64_src(c, 1)?),
    };
    // rule: f32-denormals: compares flush their inputs with input flushing
    let fl = if fmt == Fmt::F32 {
        l.flush_in32()
    } else {
        l.flush_in16()
    };
    let x = l.b.flush_if(fmt, x, fl);
    let y = l.b.flush_if(fmt, y, fl);
    let r = fcompare(&mut l.b, fmt, x, y, cond);
    let d = l.cmp_dst(c.inst)?;
    l.write_mask(&d, r)
}

/// v_cmp(x)_class_{f16,f32,f64}.
pub(super) fn class(l: &mut Lowerer, c: &Ctx, fmt: Fmt) -> RuleResult {
    let x = match fmt {
        Fmt::F16 => l.f16_src(c, 0)?,
        Fmt::F32 => l.f32_src(c, 0)?,
        Fmt::F64 => l.f64_src(c, 0)?,
    };
    let op1 = l.src_op(c, 1)?;
    let mask = l.read32(&op1)?;
    let r = class_bits(&mut l.b, fmt, x, mask);
    let d = l.cmp_dst(c.inst)?;
    l.write_mask(&d, r)
}

/// Sign-magnitude ordering compare of float bits with the NaN cases apart
/// (rule: float-compare).
fn fcompare(b: &mut Builder, fmt: Fmt, x: Handle, y: Handle, cond: FCond) -> Handle {
    let nx = b.is_nan(fmt, x);
    let ny = b.is_nan(fmt, y);
    let un = b.bor(nx, ny);
    // ±0 compare equal
    let zx = b.is_zero(fmt, x);
    let zy = b.is_zero(fmt, y);
    let zz = b.band(zx, zy);
    let zero = b.cf(fmt, 0);
    let x = b.sel(zz, zero, x);
    let y = b.sel(zz, zero, y);
    let kx = super::minmax::order_key(b, fmt, x);
    let ky = super::minmax::order_key(b, fmt, y);
    let lt = b.icmp(IntCmp::LtS, kx, ky);
    let eq = b.icmp(IntCmp::Eq, kx, ky);
    let gt = b.icmp(IntCmp::GtS, kx, ky);
    let ord = b.bnot(un);
    let le = b.bor(lt, eq);
    let ge = b.bor(gt, eq);
    let ne = b.bnot(eq);
    let (base, unordered_true) = match cond {
        FCond::F => return b.cb(false),
        FCond::Tru => return b.cb(true),
        FCond::Lt => (lt, false),
        FCond::Eq => (eq, false),
        FCond::Le => (le, false),
        FCond::Gt => (gt, false),
        FCond::Lg => (ne, false),
        FCond::Ge => (ge, false),
        FCond::O => return ord,
        FCond::U => return un,
        FCond::Nge => (lt, true),
        FCond::Nlg => (eq, true),
        FCond::Ngt => (le, true),
        FCond::Nle => (gt, true),
        FCond::Neq => (ne, true),
        FCond::Nlt => (ge, true),
    };
    if unordered_true {
        b.bor(un, base)
    } else {
        b.band(ord, base)
    }
}

/// v_cmp_class_*: bit tests of the class mask (0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
/// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
fn class_bits(b: &mut Builder, fmt: Fmt, x: Handle, mask: Handle) -> Handle {
    let snan = b.is_snan(fmt, x);
    let nan = b.is_nan(fmt, x);
    let qnan = {
        let ns = b.bnot(snan);
        b.band(nan, ns)
    };
    let inf = b.is_inf(fmt, x);
    let zero = b.is_zero(fmt, x);
    let den = b.is_denorm(fmt, x);
    let neg = b.sign_of(fmt, x);
    let pos = b.bnot(neg);
    let a = b.bor(nan, inf);
    let a = b.bor(a, zero);
    let a = b.bor(a, den);
    let normal = b.bnot(a);
    let classes = [
        snan,
        qnan,
        b.band(neg, inf),
        b.band(neg, normal),
        b.band(neg, den),
        b.band(neg, zero),
        b.band(pos, zero),
        b.band(pos, den),
        b.band(pos, normal),
        b.band(pos, inf),
    ];
    let mut any = b.cb(false);
    for (i, c) in classes.into_iter().enumerate() {
        let bit = b.bit(mask, 1 << i);
        let t = b.band(bit, c);
        any = b.bor(any, t);
    }
    any
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run;

    /// This lane's compare result, through VCC and v_cndmask_b32.
    fn cmp(text: &str, a: u32, b: u32) -> u32 {
        let body = format!("{text} vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo");
        run(&body, [a, b, 0, 0, 0, 0], 0)[0]
    }

    #[test]
    fn float_conditions_split_on_unordered() {
        let (nan, one) = (0x7fc0_0000, 0x3f80_0000);
        for (cond, a, b, want) in [
            ("u", nan, one, 1),
            ("o", nan, one, 0),
            ("lt", nan, one, 0),
            ("nge", nan, one, 1),
            ("lt", one, 0x4000_0000, 1),
            ("nge", one, 0x4000_0000, 1),
            ("ge", one, 0x4000_0000, 0),
            ("eq", 0x8000_0000, 0, 1),
            ("lg", one, one, 0),
            ("neq", nan, nan, 1),
            ("tru", nan, nan, 1),
            ("f", one, one, 0),
        ] {
            assert_eq!(cmp(&format!("v_cmp_{cond}_f32"), a, b), want, "{cond}");
        }
    }

    #[test]
    fn integer_compares_are_signed_or_unsigned() {
        assert_eq!(cmp("v_cmp_lt_i32", u32::MAX, 0), 1);
        assert_eq!(cmp("v_cmp_lt_u32", u32::MAX, 0), 0);
        assert_eq!(cmp("v_cmp_t_u32", 0, 0), 1);
        assert_eq!(cmp("v_cmp_f_i32", 0, 0), 0);
        let wide = "v_cmp_gt_i64 vcc_lo, v[4:5], v[6:7]\nv_cndmask_b32 v10, 0, 1, vcc_lo";
        // (hi 1, lo 0) > (hi 0, lo 0xffffffff) as signed 64-bit values
        assert_eq!(run(wide, [0, 1, u32::MAX, 0, 0, 0], 0)[0], 1);
        assert_eq!(run(wide, [0, u32::MAX, 0, 0, 0, 0], 0)[0], 0);
    }

    #[test]
    fn class_tests_the_mask_bit_of_the_class() {
        // bit 1 quiet NaN, bit 5 -0, bit 6 +0
        assert_eq!(cmp("v_cmp_class_f32", 0x7fc0_0000, 1 << 1), 1);
        assert_eq!(cmp("v_cmp_class_f32", 0x7fc0_0000, 1 << 0), 0);
        assert_eq!(cmp("v_cmp_class_f32", 0x8000_0000, 1 << 6), 0);
        assert_eq!(cmp("v_cmp_class_f32", 0x8000_0000, 1 << 5), 1);
    }
}
