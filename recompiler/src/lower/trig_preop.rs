//! v_trig_preop_f64 (rule: trig-preop): 53 bits of 2/pi, chosen by S1 and the exponent of S0,
//! scaled to their place value, for the argument reduction of f64 sine and cosine.

use super::error::{RuleError, RuleResult};
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::{Builder, Fmt};
use crate::ir::{Convert, FloatBin, Handle, IntBin, IntCmp, Ty};

/// The fraction of 2/pi, bits b1200..b17 of its 1201-bit table (b1200 has place value 2^-1),
/// 32 bits a word, most significant first; the hardware reads b16..b0 as zero.
const TWO_OVER_PI: [u32; 37] = [
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561,
    0xb7246e3a, 0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484,
    0xe99c7026, 0xb45f7e41, 0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f,
    0xef2f118b, 0x5a0a6d1f, 0x6d367ecf, 0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b,
    0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08, 0x56033046,
];

/// Word `k` of the table (0 past its end).
fn word(b: &mut Builder, k: Handle) -> Handle {
    let mut v = b.c32(0);
    for (j, &w) in TWO_OVER_PI.iter().enumerate() {
        let is = b.eqc(k, j as u64);
        let c = b.c32(w);
        v = b.sel(is, c, v);
    }
    v
}

/// rule: trig-preop: shift = 53 * S1[4:0] + max(exponent(S0) - 1077, 0) on the biased exponent
/// field; the 53 table bits from b(1200 - shift) down are an integer W, and the result is
/// W * 2^(-53 - shift), times 2^128 when exponent(S0) >= 1968, rounded once to nearest even
/// (only a denormal result rounds). The sign and value of S0 matter only through its
/// exponent field. omod is ignored (measured); clamp is refused. Whether a denormal result
/// follows the f64 denormal and round fields is not measured, so only the mode that keeps f64
/// denormals and rounds to nearest even is lowered.
pub(super) fn trig_preop_f64(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    if c.mods.clamp {
        return Err(RuleError::modifier(
            "clamp on v_trig_preop_f64 is not modelled",
        ));
    }
    if l.mode.denorm16 != 3 || l.mode.round16 != 0 {
        return Err(RuleError::not_measured(
            "v_trig_preop_f64 with f64 denormals flushed or a directed rounding: not measured",
        ));
    }
    let x = l.f64_src(c, 0)?;
    let op1 = l.src_op(c, 1)?;
    let n = l.read32(&op1)?;
    let b = &mut l.b;
    let e = b.shrc(x, 52);
    let e = b.andc(e, 0x7ff);
    let e = b.trunc64(e);
    let n = b.andc(n, 31);
    let k53 = b.c32(53);
    let shift = b.ib(IntBin::Mul, n, k53);
    let big = b.icmpc(IntCmp::GtU, e, 1077);
    let extra = b.addc(e, (-1077i32) as u32 as u64);
    let z = b.c32(0);
    let extra = b.sel(big, extra, z);
    let shift = b.add(shift, extra);
    // the 96 bits of words k, k + 1 and k + 2, shifted left by shift % 32: the top 53 bits
    let k = b.shrc(shift, 5);
    let o = b.andc(shift, 31);
    let w0 = word(b, k);
    let k1 = b.addc(k, 1);
    let w1 = word(b, k1);
    let k2 = b.addc(k, 2);
    let w2 = word(b, k2);
    let ab = b.pack64(w1, w0);
    let c64 = b.zext(w2);
    let o64 = b.zext(o);
    let hi = b.ib(IntBin::Shl, ab, o64);
    let lo = b.ib(IntBin::Shl, c64, o64);
    let lo = b.shrc(lo, 32);
    let win = b.or(hi, lo);
    let win = b.shrc(win, 11);
    // W < 2^53 is exact in f64: its two halves converted and added
    let whi = b.hi32(win);
    let wlo = b.trunc64(win);
    let fhi = b.cvt(Convert::U32ToF64, whi, Ty::F64);
    let flo = b.cvt(Convert::U32ToF64, wlo, Ty::F64);
    let two32 = b.cf64(4294967296.0);
    let fhi = b.fb(FloatBin::Mul, fhi, two32);
    let w = b.fb(FloatBin::Add, fhi, flo);
    let wb = b.bits_of_f64(w);
    // scale = -53 - shift (+128), clamped where every W rounds to 0 anyway
    let s = b.zext(shift);
    let zero64 = b.c64(0);
    let ns = b.sub(zero64, s);
    let ns = b.addc(ns, (-53i64) as u64);
    let huge = b.icmpc(IntCmp::GeU, e, 1968);
    let up = b.addc(ns, 128);
    let scale = b.sel(huge, up, ns);
    let floor = b.c64((-2100i64) as u64);
    let below = b.icmp(IntCmp::LtS, scale, floor);
    let scale = b.sel(below, floor, scale);
    let one = b.c64(Fmt::F64.one());
    let r = b.fma_f64_bits(wb, one, zero64, scale);
    let wz = b.eqc(win, 0);
    let r = b.sel(wz, zero64, r);
    l.write64(c, r)
}

#[cfg(test)]
mod tests {
    use crate::lower::tests::run;

    fn preop(x: u64, n: u32) -> u64 {
        let t = "v_trig_preop_f64 v[10:11], v[4:5], v6";
        let o = run(t, [x as u32, (x >> 32) as u32, n, 0, 0, 0], 0);
        u64::from(o[0]) | u64::from(o[1]) << 32
    }

    #[test]
    fn trig_preop_reads_the_2_over_pi_window() {
        let one = 1.0f64.to_bits();
        // S1 = 0, small exponent: the first 53 bits of 2/pi, truncated (2/pi rounds to ...883)
        assert_eq!(preop(one, 0), 0x3fe4_5f30_6dc9_c882);
        // S1 = 1: bits b1147..b1095, scaled by 2^-106
        assert_eq!(preop(one, 1), 0x3c94_a7f0_9d5f_47d4);
        // the sign and mantissa of S0 do not matter, only its exponent field
        assert_eq!(preop((-1.5f64).to_bits(), 0), 0x3fe4_5f30_6dc9_c882);
        // exponent 1078 adds one bit of shift
        assert_eq!(preop(1078 << 52, 0), 0x3fc1_7cc1_b727_220a);
        // exponent >= 1968 scales by 2^128
        assert_eq!(preop(1968 << 52, 0), 0x1037_4f46_3f66_9e5f);
        assert_eq!(preop(2000 << 52, 3), 0x0445_35fd_afd8_8fc6);
        // a window near 2^-1008 is normal; near 2^-1061 it is a denormal, rounded to even
        assert_eq!(preop(one, 19), 0x00ff_17b3_d073_9f78);
        assert_eq!(preop(one, 20), 0x294a);
        // past the 1184-bit table everything reads as zero
        assert_eq!(preop(one, 31), 0);
    }

    #[test]
    fn trig_preop_refuses_the_modes_it_does_not_model() {
        use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};
        let words = assemble("v_trig_preop_f64 v[10:11], v[4:5], v6").unwrap();
        let flush = FloatMode {
            denorm16: 0,
            ..FloatMode::DEFAULT
        };
        let e = crate::lower::lower_words(&words, flush, Wave::W32, Target::Gfx1030);
        assert!(e.unwrap_err().to_string().contains("not measured"));
    }
}
