//! Conversions between f32 and the other types: integers (v_cvt_f32_i32, v_cvt_i32_f32,
//! v_cvt_flr/rpi_i32_f32, the unsigned bytes of v_cvt_f32_ubyteN), f16 and f64.

use super::arithmetic::finish_f32;
use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Ty};
use rdnaprobe_isa::Round;

/// v_cvt_f32_i32 (`signed`) and v_cvt_f32_u32.
pub(super) fn f32_from_int(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    let round = l.mode.round32();
    let fo = l.flush_out32();
    let op = l.src_op(c, 0)?;
    let x = l.read32(&op)?;
    let b = &mut l.b;
    let cv = if signed {
        Convert::S32ToF64
    } else {
        Convert::U32ToF64
    };
    let w = b.cvt(cv, x, Ty::F64);
    let r = b.round_to(Fmt::F32, w, None, round, fo, Tiny::Result);
    finish_f32(l, c, r)
}

/// v_cvt_f32_f16: exact; a NaN is quieted with IEEE=1.
pub(super) fn f32_from_f16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let ieee = l.mode.ieee;
    let x = l.f16_src(c, 0)?;
    let x = l.b.flush_if(Fmt::F16, x, l.flush_in16());
    let nan = l.b.is_nan(Fmt::F16, x);
    let r = l.b.f16_to_f32_bits(x);
    let q = l.b.nan_out(Fmt::F32, r, ieee);
    let r = l.b.sel(nan, q, r);
    finish_f32(l, c, r)
}

/// v_cvt_f32_f64: rounded in the f32 mode; the f64 input flushes with denorm16.
pub(super) fn f32_from_f64(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let round = l.mode.round32();
    let fo = l.flush_out32();
    let x = l.f64_src(c, 0)?;
    let b = &mut l.b;
    let x = b.flush_if(Fmt::F64, x, !l.mode.keep_in16());
    let w = b.f64_of(x);
    let r = b.round_to(Fmt::F32, w, None, round, fo, Tiny::Result);
    let nan = b.is_nan(Fmt::F64, x);
    // rule: snan-ieee: v_cvt_f32_f64 always quiets
    let hi = b.hi32(x);
    let sgn = b.andc(hi, 0x8000_0000);
    let pay = b.shrc(x, 29);
    let pay = b.trunc64(pay);
    let pay = b.andc(pay, 0x3f_ffff);
    let q = b.orc(pay, 0x7fc0_0000);
    let q = b.or(q, sgn);
    let r = b.sel(nan, q, r);
    finish_f32(l, c, r)
}

/// How an f32 becomes a 32-bit integer.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum ToInt {
    /// v_cvt_flr_i32_f32: floor.
    Floor,
    /// v_cvt_rpi_i32_f32: floor(x + 0.5).
    RoundPlusHalf,
    /// v_cvt_i32_f32: truncate.
    TruncSigned,
    /// v_cvt_u32_f32: truncate.
    TruncUnsigned,
}

/// f32 to a saturated 32-bit integer; NaN gives 0 (0x7fffffff for flr and rpi).
pub(super) fn f32_to_int(l: &mut Lowerer, c: &Ctx, how: ToInt) -> RuleResult {
    let u = l.f32_unary_input(c, false)?;
    let (w, nan) = (u.w, u.nan);
    let b = &mut l.b;
    let v = match how {
        ToInt::Floor => b.fu(FloatUn::Floor, w),
        ToInt::RoundPlusHalf => {
            let h = b.cf64(0.5);
            let s = b.fb(FloatBin::Add, w, h);
            b.fu(FloatUn::Floor, s)
        }
        ToInt::TruncSigned | ToInt::TruncUnsigned => b.fu(FloatUn::Trunc, w),
    };
    let (lo, hi, cv) = if how == ToInt::TruncUnsigned {
        (0.0, 4294967295.0, Convert::F64ToU32)
    } else {
        (-2147483648.0, 2147483647.0, Convert::F64ToS32)
    };
    let lo_c = b.cf64(lo);
    let hi_c = b.cf64(hi);
    let below = b.fcmp(FloatCmp::OrdLt, v, lo_c);
    let v = b.sel(below, lo_c, v);
    let above = b.fcmp(FloatCmp::OrdGt, v, hi_c);
    let v = b.sel(above, hi_c, v);
    let r = b.cvt(cv, v, Ty::U32);
    let nan_v = if matches!(how, ToInt::Floor | ToInt::RoundPlusHalf) {
        0x7fff_ffff
    } else {
        0
    };
    let z = b.c32(nan_v);
    let r = b.sel(nan, z, r);
    l.write_result(c.inst, r)
}

/// v_cvt_f16_f32: rounded to f16 (rule: f16-directed-rounding), NaN payload kept and quieted,
/// FP16_OVFL and clamp applied.
pub(super) fn f16_from_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let u = l.f32_unary_input(c, false)?;
    let (x, w, nan, inf) = (u.x, u.w, u.nan, u.inf);
    let b = &mut l.b;
    // rule: f16-directed-rounding: round16 applies only with f16 denormals kept
    let r16 = if l.mode.denorm16 == 3 {
        l.mode.round16()
    } else {
        Round::NearestEven
    };
    let fo16 = !l.mode.keep_out16();
    let r = b.round_to(Fmt::F16, w, None, r16, fo16, Tiny::Result);
    let qn = b.nan32_to_16(x);
    let r = b.sel(nan, qn, r);
    let r = l.f16_finish(c, r, inf);
    l.write16(c, r)
}

/// v_cvt_f64_f32: exact widening; NaN quieted only with IEEE=1.
pub(super) fn f64_from_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let ieee = l.mode.ieee;
    let u = l.f32_unary_input(c, false)?;
    let (w, nan) = (u.w, u.nan);
    let b = &mut l.b;
    let wb = b.bits_of_f64(w);
    let qb = b.orc(wb, 1 << 51);
    let nr = if ieee { qb } else { wb };
    let r = b.sel(nan, nr, wb);
    let r = l.f64_result(c, r);
    l.write64(c, r)
}

/// v_cvt_f32_ubyte0..3: byte `k` of the source, exactly.
pub(super) fn f32_from_ubyte(l: &mut Lowerer, c: &Ctx, k: u32) -> RuleResult {
    let s = l.int_srcs(c)?;
    let x = *s.first().ok_or(RuleError::operand("missing source 0"))?;
    let b = &mut l.b;
    // a byte is exactly representable: build the f32 bits from the f64 value
    let v = b.shrc(x, 8 * k);
    let v = b.andc(v, 0xff);
    let w = b.cvt(Convert::U32ToF64, v, Ty::F64);
    let r = b.round_to(Fmt::F32, w, None, Round::NearestEven, false, Tiny::Result);
    l.write_result(c.inst, r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run;

    fn cvt(op: &str, x: u32) -> u32 {
        run(&format!("{op} v10, v4"), [x, 0, 0, 0, 0, 0], 0)[0]
    }

    #[test]
    fn f32_to_int_saturates_and_maps_nan() {
        let nan = 0x7fc0_0000;
        assert_eq!(cvt("v_cvt_i32_f32", 0x4f32_d05e), 0x7fff_ffff); // 3e9
        assert_eq!(cvt("v_cvt_i32_f32", nan), 0);
        assert_eq!(cvt("v_cvt_u32_f32", 0xbf80_0000), 0); // -1.0
        assert_eq!(cvt("v_cvt_flr_i32_f32", 0xbfc0_0000), (-2i32) as u32); // -1.5
        assert_eq!(cvt("v_cvt_flr_i32_f32", nan), 0x7fff_ffff);
        assert_eq!(cvt("v_cvt_rpi_i32_f32", 0x4020_0000), 3); // 2.5
    }

    #[test]
    fn ubyte_picks_its_byte() {
        assert_eq!(cvt("v_cvt_f32_ubyte2", 0x00ab_0000), 0x432b_0000); // 171.0
        assert_eq!(cvt("v_cvt_f32_ubyte0", 0x00ab_0000), 0);
    }

    #[test]
    fn f64_widening_is_exact() {
        let o = run(
            "v_cvt_f64_f32 v[10:11], v4",
            [0x3fc0_0000, 0, 0, 0, 0, 0],
            0,
        );
        assert_eq!((o[0], o[1]), (0, 0x3ff8_0000)); // 1.5
    }
}
