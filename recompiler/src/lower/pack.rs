//! Packing conversions: two f32 values to an f16 pair rounded toward zero
//! (v_cvt_pkrtz_f16_f32), two f16 halves into one dword (v_pack_b32_f16), two f32 values to
//! normalised 16-bit integers (v_cvt_pknorm_i16/u16_f32), and the signed 4-bit offset
//! v_cvt_off_f32_i4.

use super::arithmetic::finish_f32;
use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Fmt, Tiny};
use crate::ir::{Convert, FloatBin, FloatCmp, FloatUn, Handle, IntBin, Ty};
use rdnaprobe_isa::Round;

/// An output modifier that a packed result cannot honour.
fn no_omod(c: &Ctx) -> RuleResult {
    if c.mods.omod != 0 {
        return Err(RuleError::modifier(
            "omod on a packed result is not modelled",
        ));
    }
    Ok(())
}

/// rule: cvt-pkrtz: v_cvt_pkrtz_f16_f32: each f32 source (abs/neg applied, flushed with f32
/// input flushing as v_cvt_f16_f32) rounded toward zero to f16 in every float mode, so a finite
/// value never overflows; infinities stay infinite, a NaN keeps its sign and top payload bits,
/// quieted; an f16 denormal result is flushed with denorm16 bit 1 clear. S0 goes to the low
/// half, S1 to the high half; clamp applies to each half.
pub(super) fn pkrtz(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    no_omod(c)?;
    let fi = l.flush_in32();
    let fo16 = l.flush_out16();
    let mut halves = Vec::new();
    for i in 0..2 {
        let x = l.f32_src(c, i)?;
        let b = &mut l.b;
        let x = b.flush_if(Fmt::F32, x, fi);
        let w = b.f32_to_f64_exact(x);
        let nan = b.is_nan(Fmt::F32, x);
        // round_to needs a non-NaN value: a NaN is replaced below
        let z = b.cf64(0.0);
        let w = b.sel(nan, z, w);
        let r = b.round_to(Fmt::F16, w, None, Round::Zero, fo16, Tiny::Result);
        let q = b.nan32_to_16(x);
        let r = b.sel(nan, q, r);
        let r = if c.mods.clamp {
            l.clamp(Fmt::F16, r)
        } else {
            r
        };
        halves.push(l.b.andc(r, 0xffff));
    }
    let hi = l.b.shlc(halves[1], 16);
    let v = l.b.or(halves[0], hi);
    l.write_result(c.inst, v)
}

/// rule: pack-b32-f16: v_pack_b32_f16: the f16 sources (op_sel picks each one's half,
/// abs/neg apply) as the low and high halves; a signaling NaN half is quieted with IEEE=1
/// and kept with IEEE=0 (rule: snan-ieee). Whether a denormal half is flushed is not
/// measured, so only the mode that keeps f16 denormals (denorm16 = 3) is lowered; clamp, omod
/// and op_sel[3] are refused.
pub(super) fn pack_b32_f16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    no_omod(c)?;
    if c.mods.clamp || c.mods.op_sel & 8 != 0 {
        return Err(RuleError::modifier(
            "clamp or op_sel[3] on v_pack_b32_f16 is not modelled",
        ));
    }
    if l.mode.denorm16 != 3 {
        return Err(RuleError::not_measured(
            "v_pack_b32_f16 with f16 denormals flushed: not measured",
        ));
    }
    let ieee = l.mode.ieee;
    let mut halves = Vec::new();
    for i in 0..2 {
        let x = l.f16_src(c, i)?;
        let b = &mut l.b;
        let nan = b.is_nan(Fmt::F16, x);
        let q = b.nan_out(Fmt::F16, x, ieee);
        halves.push(b.sel(nan, q, x));
    }
    let hi = l.b.shlc(halves[1], 16);
    let v = l.b.or(halves[0], hi);
    l.write_result(c.inst, v)
}

/// v_cvt_pknorm_i16_f32 (`signed`) and v_cvt_pknorm_u16_f32: each f32 source (flushed with
/// f32 input flushing) to a normalised 16-bit integer by the rule of v_cvt_norm_i16/u16_f16
/// (rule: cvt-norm); S0 in the low half, S1 in the high half.
pub(super) fn pknorm_f32(l: &mut Lowerer, c: &Ctx, signed: bool) -> RuleResult {
    no_omod(c)?;
    if c.mods.clamp {
        return Err(RuleError::modifier(
            "clamp on an integer pack is not modelled",
        ));
    }
    let fi = l.flush_in32();
    let mut halves = Vec::new();
    for i in 0..2 {
        let x = l.f32_src(c, i)?;
        let x = l.b.flush_if(Fmt::F32, x, fi);
        let r = norm16_f32(l, x, signed);
        halves.push(l.b.andc(r, 0xffff));
    }
    let hi = l.b.shlc(halves[1], 16);
    let v = l.b.or(halves[0], hi);
    l.write_result(c.inst, v)
}

/// rule: cvt-norm: an f32 source widened exactly, then the f16 forms' rule.
fn norm16_f32(l: &mut Lowerer, x: Handle, signed: bool) -> Handle {
    let b = &mut l.b;
    let w = b.f32_to_f64_exact(x);
    let nan = b.is_nan(Fmt::F32, x);
    super::float16::norm16_of(b, w, nan, signed)
}

/// rule: cvt-off-f32-i4: v_cvt_off_f32_i4: bits 3:0 of S0 as a signed 4-bit integer, divided
/// by 16 (exact: -0.5 to 0.4375); the f32 result modifiers apply.
pub(super) fn cvt_off_f32_i4(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let x = *l
        .int_srcs(c)?
        .first()
        .ok_or(RuleError::operand("missing source 0"))?;
    let b = &mut l.b;
    let v = b.shlc(x, 28);
    let v = b.sarc(v, 28);
    let w = b.cvt(Convert::S32ToF64, v, Ty::F64);
    let k = b.cf64(1.0 / 16.0);
    let w = b.fb(FloatBin::Mul, w, k);
    let r = b.round_to(Fmt::F32, w, None, Round::NearestEven, false, Tiny::Result);
    finish_f32(l, c, r)
}

/// rule: cvt-pk-u8: v_cvt_pk_u8_f32: S0 (abs/neg applied, flushed with `denorm32` input
/// flushing) rounded to the nearest integer, ties to even, in every round mode, saturated to
/// [0, 255] (NaN gives 0), written into byte S1[1:0] of S2; the other bytes of S2 pass
/// unchanged. Modifiers on the integer sources, clamp and omod are refused.
pub(super) fn cvt_pk_u8_f32(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    no_omod(c)?;
    if c.mods.clamp || c.mods.abs[1..].iter().chain(&c.mods.neg[1..]).any(|&m| m) {
        return Err(RuleError::modifier(
            "clamp or a modifier on an integer source of v_cvt_pk_u8_f32",
        ));
    }
    let fi = l.flush_in32();
    let x = l.f32_src(c, 0)?;
    let sel = l.read32(&l.src_op(c, 1)?)?;
    let old = l.read32(&l.src_op(c, 2)?)?;
    let b = &mut l.b;
    let x = b.flush_if(Fmt::F32, x, fi);
    let nan = b.is_nan(Fmt::F32, x);
    let w = b.f32_to_f64_exact(x);
    let z = b.cf64(0.0);
    let w = b.sel(nan, z, w);
    let r = b.fu(FloatUn::RoundEven, w);
    let lo = b.fcmp(FloatCmp::OrdLt, r, z);
    let r = b.sel(lo, z, r);
    let top = b.cf64(255.0);
    let hi = b.fcmp(FloatCmp::OrdGt, r, top);
    let r = b.sel(hi, top, r);
    let byte = b.cvt(Convert::F64ToU32, r, Ty::U32);
    let sh = b.andc(sel, 3);
    let sh = b.shlc(sh, 3);
    let placed = b.ib(IntBin::Shl, byte, sh);
    let ff = b.c32(0xff);
    let mask = b.ib(IntBin::Shl, ff, sh);
    let keep = b.xorc(mask, 0xffff_ffff);
    let keep = b.and(old, keep);
    let v = b.or(keep, placed);
    l.write_result(c.inst, v)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{run, run_in};
    use rdnaprobe_isa::{FloatMode, Target};

    fn pkrtz(mode: FloatMode, a: u32, b: u32) -> u32 {
        let t = "v_cvt_pkrtz_f16_f32 v10, v4, v5";
        run_in(t, mode, Target::Gfx1030, [a, b, 0, 0, 0, 0], 0)[0]
    }

    #[test]
    fn pkrtz_rounds_toward_zero_and_never_overflows() {
        let m = FloatMode::DEFAULT;
        // 1.0 and -2.0 exactly
        assert_eq!(pkrtz(m, 0x3f80_0000, 0xc000_0000), 0xc000_3c00);
        // 1 + 1.5 ulp (a tie, nearest even gives 0x3c02) and 1 + 1.75 ulp truncate to 0x3c01
        assert_eq!(pkrtz(m, 0x3f80_3000, 0x3f80_3800), 0x3c01_3c01);
        // negative values truncate toward zero too
        assert_eq!(pkrtz(m, 0xbf80_3800, 0), 0x0000_bc01);
        // 65536 and 1e10 stay finite (0x7bff); infinities stay infinite
        assert_eq!(pkrtz(m, 0x4780_0000, 0xd01502f9), 0xfbff_7bff);
        assert_eq!(pkrtz(m, 0x7f80_0000, 0xff80_0000), 0xfc00_7c00);
        // a NaN keeps its sign and top payload bits, quieted
        assert_eq!(pkrtz(m, 0x7f80_2000, 0xffc0_0000), 0xfe00_7e01);
        // 2^-25 truncates to +0 (nearest even would give the smallest denormal for 2^-24)
        assert_eq!(pkrtz(m, 0x3300_0000, 0x3380_0000), 0x0001_0000);
        // f16 denormal results are flushed with denorm16 bit 1 clear
        let flush16 = FloatMode {
            denorm16: 0,
            ..FloatMode::DEFAULT
        };
        assert_eq!(pkrtz(flush16, 0x3380_0000, 0xb380_0000), 0x8000_0000);
        // f32 denormal inputs read as zero with f32 input flushing (the default denorm32 = 0)
        assert_eq!(pkrtz(m, 0x8000_0001, 0x0000_0001), 0x0000_8000);
        // the round fields do not change it: toward -inf and +inf still truncate
        for (round16, round32) in [(1, 1), (2, 2)] {
            let r = FloatMode {
                round16,
                round32,
                ..FloatMode::DEFAULT
            };
            assert_eq!(pkrtz(r, 0xbf80_3800, 0x3f80_3800), 0x3c01_bc01);
            assert_eq!(pkrtz(r, 0xc780_0000, 0x4780_0000), 0x7bff_fbff);
        }
    }

    #[test]
    fn pkrtz_honours_source_modifiers_and_clamp() {
        let i = [0x3f80_0000, 0x4000_0000, 0, 0, 0, 0];
        let t = "v_cvt_pkrtz_f16_f32_e64 v10, -v4, |v5| clamp";
        // -1.0 clamps to 0, 2.0 to 1.0
        assert_eq!(run(t, i, 0)[0], 0x3c00_0000);
        let t = "v_cvt_pkrtz_f16_f32_e64 v10, v4, v5 mul:2";
        let words = rdnaprobe_isa::assemble(t).expect("assembles");
        let e = crate::lower::lower_words(
            &words,
            FloatMode::DEFAULT,
            rdnaprobe_isa::Wave::W32,
            Target::Gfx1030,
        );
        assert!(e.unwrap_err().to_string().contains("omod"));
    }

    fn pack(ieee: bool, t: &str, a: u32, b: u32) -> u32 {
        let mode = FloatMode {
            ieee,
            ..FloatMode::DEFAULT
        };
        run_in(t, mode, Target::Gfx1030, [a, b, 0, 0, 0, 0], 0)[0]
    }

    #[test]
    fn pack_b32_f16_takes_the_selected_halves() {
        let t = "v_pack_b32_f16 v10, v4, v5";
        assert_eq!(pack(true, t, 0xaaaa_3c00, 0xbbbb_c000), 0xc000_3c00);
        let t = "v_pack_b32_f16 v10, v4, v5 op_sel:[1,0]";
        assert_eq!(pack(true, t, 0x4400_3c00, 0xbbbb_c000), 0xc000_4400);
        let t = "v_pack_b32_f16 v10, -v4, |v5|";
        assert_eq!(pack(true, t, 0x3c00, 0xc000), 0x4000_bc00);
        // denormal halves are kept in the default mode
        assert_eq!(
            pack(true, "v_pack_b32_f16 v10, v4, v5", 1, 0x8001),
            0x8001_0001
        );
    }

    #[test]
    fn pack_b32_f16_quiets_signaling_nans_only_in_ieee_mode() {
        let t = "v_pack_b32_f16 v10, v4, v5";
        assert_eq!(pack(true, t, 0x7c01, 0xfd00), 0xff00_7e01);
        assert_eq!(pack(false, t, 0x7c01, 0xfd00), 0xfd00_7c01);
        // a quiet NaN is unchanged in both modes
        assert_eq!(pack(true, t, 0x7e05, 0), 0x0000_7e05);
    }

    #[test]
    fn pknorm_f32_clamps_scales_and_rounds_to_even() {
        let i16 = "v_cvt_pknorm_i16_f32 v10, v4, v5";
        let u16 = "v_cvt_pknorm_u16_f32 v10, v4, v5";
        let r = |t: &str, a: f32, b: f32| run(t, [a.to_bits(), b.to_bits(), 0, 0, 0, 0], 0)[0];
        assert_eq!(r(i16, 1.0, -1.0), 0x8001_7fff);
        assert_eq!(r(i16, 2.0, -7.0), 0x8001_7fff);
        assert_eq!(r(i16, 0.5, -0.0), 0x0000_4000); // 16383.5 -> 16384 (even)
        assert_eq!(r(i16, 0.25, f32::NAN), 0x0000_2000); // 8191.75 -> 8192
        assert_eq!(r(u16, 1.0, -1.0), 0x0000_ffff);
        assert_eq!(r(u16, 0.5, 2.0), 0xffff_8000); // 32767.5 -> 32768
        assert_eq!(r(u16, 0.25, f32::NAN), 0x0000_4000); // 16383.75 -> 16384
    }

    #[test]
    fn cvt_off_f32_i4_is_the_signed_nibble_over_16() {
        let t = "v_cvt_off_f32_i4 v10, v4";
        let r = |x: u32| f32::from_bits(run(t, [x, 0, 0, 0, 0, 0], 0)[0]);
        assert_eq!(r(0), 0.0);
        assert_eq!(r(1), 0.0625);
        assert_eq!(r(7), 0.4375);
        assert_eq!(r(8), -0.5);
        assert_eq!(r(0xffff_fff0 | 15), -0.0625);
        assert_eq!(r(0x1234_5671), 0.0625); // only bits 3:0 count
                                            // omod applies with IEEE=0 and f32 results flushed (rule: output-modifier)
        let t = "v_cvt_off_f32_i4_e64 v10, v4 mul:4";
        let titles = FloatMode {
            ieee: false,
            ..FloatMode::DEFAULT
        };
        let o = run_in(t, titles, Target::Gfx1030, [7, 0, 0, 0, 0, 0], 0)[0];
        assert_eq!(f32::from_bits(o), 1.75);
        assert_eq!(f32::from_bits(run(t, [7, 0, 0, 0, 0, 0], 0)[0]), 0.4375);
    }

    #[test]
    fn cvt_pk_u8_rounds_saturates_and_places_the_byte() {
        let t = "v_cvt_pk_u8_f32 v10, v4, v5, v6";
        let o = |x: f32, sel: u32| run(t, [x.to_bits(), sel, 0x1122_3344, 0, 0, 0], 0)[0];
        assert_eq!(o(2.5, 0), 0x1122_3302, "ties to even");
        assert_eq!(o(3.5, 1), 0x1122_0444);
        assert_eq!(o(254.7, 2), 0x11ff_3344);
        assert_eq!(o(300.0, 3), 0xff22_3344, "saturates high");
        assert_eq!(o(-7.0, 0), 0x1122_3300, "saturates low");
        assert_eq!(o(f32::NAN, 0), 0x1122_3300);
        assert_eq!(o(1.0, 6), 0x1101_3344, "only S1[1:0] selects");
        let t = "v_cvt_pk_u8_f32 v10, -v4, v5, v6";
        assert_eq!(run(t, [(-9.0f32).to_bits(), 0, 0, 0, 0, 0], 0)[0], 9);
    }
}
