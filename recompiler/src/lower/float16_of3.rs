//! The f16 forms that mirror an f32 rule: v_min3/max3/med3_f16 (rule: minmax-nan, as the f32
//! forms) and v_pk_fmac_f16 (each half through the packed fma rule, rule: packed-f16-nan).

use super::arithmetic::{arith, Arith};
use super::error::{RuleError, RuleResult};
use super::minmax::{med3, minmax, Of3};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::Fmt;
use rdnaprobe_isa::Encoding;

/// v_min3_f16, v_max3_f16 and v_med3_f16: the f32 rules on f16 sources (op_sel picks each
/// source's half), flushed with denorm16; omod and clamp as the other f16 results.
pub(super) fn of3_f16(l: &mut Lowerer, c: &Ctx, which: Of3) -> RuleResult {
    let ieee = l.mode.ieee;
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let mut s = Vec::new();
    for i in 0..3 {
        let x = l.f16_src(c, i)?;
        s.push(l.b.flush_if(Fmt::F16, x, fi));
    }
    let b = &mut l.b;
    // rule: minmax-nan
    let r = match which {
        Of3::Med => med3(b, Fmt::F16, s[0], s[1], s[2], ieee),
        Of3::Min | Of3::Max => {
            let mx = which == Of3::Max;
            let t = minmax(b, Fmt::F16, s[0], s[1], mx, ieee);
            minmax(b, Fmt::F16, t, s[2], mx, ieee)
        }
    };
    let r = l.b.flush_if(Fmt::F16, r, fo);
    let r = l.f16_result(c, r);
    l.write16(c, r)
}

/// v_pk_fmac_f16 (VOP2): D.lo = fma(S0.lo, S1.lo, D.lo), D.hi = fma(S0.hi, S1.hi, D.hi), each
/// half by the v_pk_fma_f16 rules (rule: packed-f16-nan) with FP16_OVFL.
pub(super) fn pk_fmac_f16(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    if c.enc != Encoding::VOP2 {
        return Err(RuleError::not_modelled(format!(
            "v_pk_fmac_f16 in {:?} is not modelled",
            c.enc
        )));
    }
    let ieee = l.mode.ieee;
    let round = l.mode.round16();
    let (fi, fo) = (l.flush_in16(), l.flush_out16());
    let a = l.src_op(c, 0)?;
    let a = l.read32(&a)?;
    let bb = l.src_op(c, 1)?;
    let bb = l.read32(&bb)?;
    let dsts = c.inst.dsts(l.wave);
    let d = *dsts.first().ok_or(RuleError::operand("no destination"))?;
    let acc = l.read32(&d)?;
    let mut halves = Vec::new();
    for h in 0..2 {
        let mut s = Vec::new();
        for &v in &[a, bb, acc] {
            let v = l.b.shrc(v, 16 * h);
            s.push(l.b.andc(v, 0xffff));
        }
        // rule: packed-f16-nan
        let r = arith(&mut l.b, Fmt::F16, Arith::Fma, &s, round, fi, fo, ieee);
        let si = l.any_inf(Fmt::F16, &s);
        let r = l.fp16_ovfl(r, si);
        halves.push(l.b.andc(r, 0xffff));
    }
    let hi = l.b.shlc(halves[1], 16);
    let v = l.b.or(halves[0], hi);
    l.write_result(c.inst, v)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::{run, run_in};
    use rdnaprobe_isa::{FloatMode, Target};

    fn of3(t: &str, ieee: bool, a: u32, b: u32, c: u32) -> u32 {
        let mode = FloatMode {
            ieee,
            ..FloatMode::DEFAULT
        };
        run_in(t, mode, Target::Gfx1030, [a, b, c, 0, 0, 0], 0)[0] & 0xffff
    }

    #[test]
    fn three_operand_f16_forms_follow_the_f32_rules() {
        let (one, two, three) = (0x3c00, 0x4000, 0x4200);
        let max3 = "v_max3_f16 v10, v4, v5, v6";
        let min3 = "v_min3_f16 v10, v4, v5, v6";
        let med3 = "v_med3_f16 v10, v4, v5, v6";
        assert_eq!(of3(max3, true, two, three, one), three);
        assert_eq!(of3(min3, true, two, three, one), one);
        assert_eq!(of3(med3, true, three, one, two), two);
        // -0 orders below +0
        assert_eq!(of3(max3, true, 0x8000, 0, 0x8000), 0);
        assert_eq!(of3(min3, true, 0, 0x8000, 0), 0x8000);
        // a quiet NaN is ignored; med3 with a NaN is min3 of the rest
        assert_eq!(of3(max3, true, 0x7e00, one, two), two);
        assert_eq!(of3(med3, true, 0x7e00, three, two), two);
        // as in the f32 forms, max3 is max(max(S0, S1), S2): a signaling NaN S2 wins, quieted,
        // only with IEEE=1, while one in S0 is quieted by the first max and then ignored
        assert_eq!(of3(max3, true, one, two, 0x7c01), 0x7e01);
        assert_eq!(of3(max3, false, one, two, 0x7c01), two);
        assert_eq!(of3(max3, true, 0x7c01, one, two), two);
        // op_sel reads the high half of a source
        let t = "v_max3_f16 v10, v4, v5, v6 op_sel:[1,0,0,0]";
        assert_eq!(of3(t, true, 0x4400_0000, one, two), 0x4400);
    }

    #[test]
    fn pk_fmac_f16_accumulates_each_half() {
        // v10 = {1.0, 2.0}; v10 += {2, 3} * {3, 0.5}
        let t = "v_mov_b32 v10, v6\nv_pk_fmac_f16 v10, v4, v5";
        let i = [0x4200_4000, 0x3800_4200, 0x4000_3c00, 0, 0, 0];
        assert_eq!(run(t, i, 0)[0], 0x4300_4700); // {7.0, 3.5}
                                                  // an overflowing half gives infinity; with FP16_OVFL=1 it clamps to 65504
        let i = [0x7bff_7bff, 0x4000_3c00, 0, 0, 0, 0];
        let t = "v_pk_fmac_f16 v10, v4, v5";
        assert_eq!(run(t, i, 0)[0], 0x7c00_7bff);
        let ovfl = FloatMode {
            fp16_overflow: true,
            ..FloatMode::DEFAULT
        };
        assert_eq!(run_in(t, ovfl, Target::Gfx1030, i, 0)[0], 0x7bff_7bff);
    }

    #[test]
    fn fmamk_and_fmaak_f16_take_the_literal_low_half() {
        // fmamk: S0 * K + S1; fmaak: S0 * S1 + K (K = 3.0 = 0x4200)
        let i = [0x4000, 0x3c00, 0, 0, 0, 0]; // 2.0, 1.0
        let mk = "v_fmamk_f16 v10, v4, 0x4200, v5";
        let ak = "v_fmaak_f16 v10, v4, v5, 0x4200";
        assert_eq!(run(mk, i, 0)[0] & 0xffff, 0x4700); // 7.0
        assert_eq!(run(ak, i, 0)[0] & 0xffff, 0x4500); // 5.0
                                                       // one rounding: (1 + 2^-10)(1 - 2^-11) - 1 = 2^-11 - 2^-21 exactly (0x0ffe); a
                                                       // separately rounded product would give 0
        let i = [0x3c01, 0xbc00, 0, 0, 0, 0];
        let mk = "v_fmamk_f16 v10, v4, 0x3bff, v5";
        assert_eq!(run(mk, i, 0)[0] & 0xffff, 0x0ffe);
        // the f16 round field: 2.0 * 1.0 + 2^-11 rounds up to 2 + 2^-9 toward +inf only
        let i = [0x4000, 0x3c00, 0, 0, 0, 0];
        let ak = "v_fmaak_f16 v10, v4, v5, 0x1000";
        assert_eq!(run(ak, i, 0)[0] & 0xffff, 0x4000);
        let up = FloatMode {
            round16: 1,
            ..FloatMode::DEFAULT
        };
        assert_eq!(run_in(ak, up, Target::Gfx1030, i, 0)[0] & 0xffff, 0x4001);
    }
}
