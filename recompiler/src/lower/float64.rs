//! f64 instructions. fma, div_fmas and ldexp are built on the integer bits (rule
//! f64-fma-exact), and so are add and mul wherever the float mode asks for a directed rounding
//! (rule f64-rounding-mode) or a denormal flush (rule f64-denormals); in the default mode add
//! and mul are native F64 operations (one rounding to nearest even). Rounding to integral
//! values is on the bits too (rule f64-round-integral), so no driver's unfused Fma, f64
//! denormal flushing or ignored rounding mode reaches these results. The NaN rules are applied
//! on the bits (docs/semantics.md).
use super::division::div_fixup;
use super::error::RuleResult;
use super::float64_recip::{recip64, Recip64};
use super::minmax::minmax;
use super::operands::Ctx;
use super::Lowerer;
use crate::builder::Fmt;
use crate::ir::{FloatBin, FloatUn, Handle, IntCmp};
use rdnaprobe_isa::{Operand, Reg, RegKind, Round, Wave};

/// An f64 instruction of [`lower_f64`]: what the dispatch passes for each opcode it routes
/// there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F64Op {
    /// One rounding in the f64 mode: fma, div_fmas, add, mul.
    Arith(F64Arith),
    /// v_min_f64, or v_max_f64 (`max`).
    MinMax {
        max: bool,
    },
    DivFixup,
    Ldexp,
    /// The one-source ops.
    Unary(F64Un),
}

/// The ops of [`F64Op::Arith`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F64Arith {
    Fma,
    DivFmas,
    Add,
    Mul,
}

/// The ops of [`F64Op::Unary`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum F64Un {
    /// ceil, floor, trunc, rndne: the rounding to an integral value.
    Round(FloatUn),
    Fract,
    FrexpMant,
    Sqrt,
    Rsq,
    Rcp,
}

/// The f64 instructions (their opcodes are routed here by the dispatch).
pub(super) fn lower_f64(l: &mut Lowerer, c: &Ctx, op: F64Op) -> RuleResult {
    let ieee = l.mode.ieee;
    let f = Fmt::F64;
    let r = match op {
        F64Op::Arith(arith_op) => arith(l, c, arith_op)?,
        F64Op::MinMax { max } => {
            let a = l.f64_src(c, 0)?;
            let bb = l.f64_src(c, 1)?;
            minmax(&mut l.b, f, a, bb, max, ieee)
        }
        F64Op::DivFixup => {
            let a = l.f64_src(c, 0)?;
            let bb = l.f64_src(c, 1)?;
            let cc = l.f64_src(c, 2)?;
            div_fixup(l, f, a, bb, cc)
        }
        F64Op::Ldexp => ldexp(l, c)?,
        F64Op::Unary(un) => {
            let x = l.f64_src(c, 0)?;
            let b = &mut l.b;
            let nan = b.is_nan(f, x);
            let q = b.nan_out(f, x, ieee);
            let w = b.f64_of(x);
            let zero = b.is_zero(f, x);
            let inf = b.is_inf(f, x);
            let neg = b.sign_of(f, x);
            let nz = b.bnot(zero);
            let negnz = b.band(neg, nz);
            let dn = b.cf(f, f.default_nan());
            let sgn = b.andc(x, 1 << 63);
            let r = match un {
                F64Un::Round(round) => {
                    let v = b.fu(round, w);
                    let r = b.bits_of_f64(v);
                    let rz = b.is_zero(f, r);
                    b.sel(rz, sgn, r)
                }
                F64Un::Fract => {
                    let fl = b.fu(FloatUn::Floor, w);
                    let d = b.fb(FloatBin::Sub, w, fl);
                    let r = b.bits_of_f64(d);
                    let one = b.c64(0x3ff0_0000_0000_0000);
                    let ge = b.icmp(IntCmp::GeU, r, one);
                    let below = b.c64(0x3fef_ffff_ffff_ffff);
                    let r = b.sel(ge, below, r);
                    let r = b.sel(zero, x, r);
                    b.sel(inf, dn, r)
                }
                F64Un::FrexpMant => {
                    // denormal inputs: normalise by 2^64 first
                    let k = b.cf64(2f64.powi(64));
                    let wn = b.fb(FloatBin::Mul, w, k);
                    let den = b.is_denorm(f, x);
                    let ww = b.sel(den, wn, w);
                    let wb = b.bits_of_f64(ww);
                    let mm = b.andc(wb, (1 << 52) - 1);
                    let e = b.c64(1022 << 52);
                    let r = b.or(mm, e);
                    let r = b.or(r, sgn);
                    let r = b.sel(zero, x, r);
                    b.sel(inf, x, r)
                }
                F64Un::Sqrt => {
                    // rule: f64-reciprocal-precision
                    let v = recip64(b, x, Recip64::Sqrt);
                    let r = b.sel(inf, x, v);
                    let r = b.sel(zero, x, r);
                    b.sel(negnz, dn, r)
                }
                F64Un::Rsq => {
                    let v = recip64(b, x, Recip64::Rsq);
                    let pz = b.c64(0);
                    let r = b.sel(inf, pz, v);
                    let zi = b.orc(sgn, 0x7ff0_0000_0000_0000);
                    let r = b.sel(zero, zi, r);
                    b.sel(negnz, dn, r)
                }
                F64Un::Rcp => {
                    let v = recip64(b, x, Recip64::Rcp);
                    let r = b.or(v, sgn);
                    let zi = b.orc(sgn, 0x7ff0_0000_0000_0000);
                    let r = b.sel(zero, zi, r);
                    b.sel(inf, sgn, r)
                }
            };
            b.sel(nan, q, r)
        }
    };
    let r = l.f64_result(c, r);
    l.write64(c, r)
}

/// v_fma_f64, v_div_fmas_f64, v_add_f64 and v_mul_f64: one rounding in the f64 mode.
fn arith(l: &mut Lowerer, c: &Ctx, op: F64Arith) -> RuleResult<Handle> {
    let ieee = l.mode.ieee;
    let round = l.mode.round16();
    let f = Fmt::F64;
    let fused = matches!(op, F64Arith::Fma | F64Arith::DivFmas);
    let n = if fused { 3 } else { 2 };
    let mut s = Vec::new();
    for i in 0..n {
        s.push(l.f64_src(c, i)?);
    }
    // rule: f64-denormals: v_div_fmas_f64 keeps denormal operands and flushes only its result
    let flush_in = l.flush_in16() && op != F64Arith::DivFmas;
    let flush_out = l.flush_out16();
    let vcc = if op == F64Arith::DivFmas {
        let vcc_op = Operand::Reg(Reg {
            kind: RegKind::Vcc,
            index: 0,
            count: if l.wave == Wave::W64 { 2 } else { 1 },
        });
        Some(l.read_mask(&vcc_op)?)
    } else {
        None
    };
    let b = &mut l.b;
    // rule: f64-denormals: inputs flush with denorm16 bit 0 clear
    let s: Vec<Handle> = s.iter().map(|&x| b.flush_if(f, x, flush_in)).collect();
    let w: Vec<Handle> = s.iter().map(|&x| b.f64_of(x)).collect();
    let v = match op {
        F64Arith::Add => b.fb(FloatBin::Add, w[0], w[1]),
        F64Arith::Mul => b.fb(FloatBin::Mul, w[0], w[1]),
        F64Arith::Fma | F64Arith::DivFmas => b.fma(w[0], w[1], w[2]),
    };
    // rule: f64-rounding-mode: a directed mode or a flush needs the rounding on the bits
    let soft = fused || round != Round::NearestEven || flush_in || flush_out;
    let v = if soft {
        // add is s0 * 1 + s1, mul is s0 * s1 + (the zero of the product's sign)
        let (x, y, z) = match op {
            F64Arith::Add => (s[0], b.c64(f.one()), s[1]),
            F64Arith::Mul => {
                let sa = b.andc(s[0], f.sign_mask());
                let sb = b.andc(s[1], f.sign_mask());
                (s[0], s[1], b.xor(sa, sb))
            }
            F64Arith::Fma | F64Arith::DivFmas => (s[0], s[1], s[2]),
        };
        // rule: div-fmas: with VCC set the result is scaled by 2^128 (|S2| >= 2) or
        // 2^-128, within the single rounding
        let zero = b.c64(0);
        let scale = match vcc {
            Some(vc) => {
                let hi = b.shrc(z, 52);
                let e = b.andc(hi, 0x7ff);
                let big = b.icmpc(IntCmp::GeU, e, 1024);
                let up = b.c64(128);
                let dn = b.c64((-128i64) as u64);
                let k = b.sel(big, up, dn);
                b.sel(vc, k, zero)
            }
            None => zero,
        };
        // rule: f64-fma-exact: the fused result is built on the integer bits, because a
        // driver's native f64 fma may be unfused and may flush denormals; the native value
        // is kept only where an operand is infinite or NaN (no rounding happens there)
        let r = b.fma_f64_rounded(x, y, z, scale, round, flush_out);
        let r = zero_sum(b, x, y, z, round, r);
        let mut special = b.cb(false);
        for &x in &s {
            let a = b.abs_bits(f, x);
            let i = b.icmpc(IntCmp::GeU, a, f.exp_mask());
            special = b.bor(special, i);
        }
        let nat = b.bits_of_f64(v);
        let r = b.sel(special, nat, r);
        b.f64_of(r)
    } else {
        v
    };
    let vb = b.bits_of_f64(v);
    let (any_nan, pick) = b.first_nan(f, &s, ieee);
    let vnan = b.is_nan(f, vb);
    let dnan = b.cf(f, f.default_nan());
    let r = b.sel(vnan, dnan, vb);
    let r = b.sel(any_nan, pick, r);
    Ok(if fused {
        // an invalid product gives the default NaN even against a NaN addend
        let za = b.is_zero(f, s[0]);
        let zb = b.is_zero(f, s[1]);
        let ia = b.is_inf(f, s[0]);
        let ib = b.is_inf(f, s[1]);
        let i1 = b.band(za, ib);
        let i2 = b.band(ia, zb);
        let inv = b.bor(i1, i2);
        b.sel(inv, dnan, r)
    } else {
        r
    })
}

/// An exact zero product plus a zero addend: -0 when both are negative, or toward -infinity
/// when either is (IEEE 754's sign of an exact zero sum); `r` otherwise.
fn zero_sum(
    b: &mut crate::builder::Builder,
    x: Handle,
    y: Handle,
    z: Handle,
    round: Round,
    r: Handle,
) -> Handle {
    let f = Fmt::F64;
    let za = b.is_zero(f, x);
    let zb = b.is_zero(f, y);
    let zc = b.is_zero(f, z);
    let zp = b.bor(za, zb);
    let zz = b.band(zp, zc);
    let sa = b.sign_of(f, x);
    let sb = b.sign_of(f, y);
    let sc = b.sign_of(f, z);
    let sp = b.bxor(sa, sb);
    let neg = if round == Round::MinusInf {
        b.bor(sp, sc)
    } else {
        b.band(sp, sc)
    };
    let nz = b.c64(f.sign_mask());
    let zero = b.c64(0);
    let zr = b.sel(neg, nz, zero);
    b.sel(zz, zr, r)
}

/// v_ldexp_f64: `s0 * 2^s1` rounded once in the f64 mode, on the integer bits.
fn ldexp(l: &mut Lowerer, c: &Ctx) -> RuleResult<Handle> {
    let ieee = l.mode.ieee;
    let round = l.mode.round16();
    let f = Fmt::F64;
    let a = l.f64_src(c, 0)?;
    let op1 = l.src_op(c, 1)?;
    let n = l.read32(&op1)?;
    // rule: f64-denormals: inputs flush with denorm16 bit 0 clear, results with bit 1 clear
    let flush_in = l.flush_in16();
    let flush_out = l.flush_out16();
    let b = &mut l.b;
    let a = b.flush_if(f, a, flush_in);
    // beyond ±2100 every finite non-zero input overflows or rounds below the smallest denormal
    let n = b.clamp_s32(n, 2100);
    let k = b.addc(n, 2100);
    let k = b.zext(k);
    let scale = b.addc(k, (-2100i64) as u64);
    // rule: f64-rounding-mode: a * 1 + (the zero of a's sign), scaled within the one rounding
    let one = b.c64(f.one());
    let z = b.andc(a, f.sign_mask());
    let r = b.fma_f64_rounded(a, one, z, scale, round, flush_out);
    // zeros and infinities are returned as they are
    let zero = b.is_zero(f, a);
    let inf = b.is_inf(f, a);
    let keep = b.bor(zero, inf);
    let r = b.sel(keep, a, r);
    let nan = b.is_nan(f, a);
    let q = b.nan_out(f, a, ieee);
    Ok(b.sel(nan, q, r))
}
