//! f64 instructions. add/mul use native F64 operations (one rounding, nearest even); fma and
//! div_fmas are built on the integer bits (rule f64-fma-exact) and rounding to integral values
//! too (rule f64-round-integral), so no driver's unfused Fma or f64 denormal flushing reaches
//! them. The NaN rules are applied on the bits (docs/semantics.md).
use super::division::div_fixup;
use super::minmax::minmax;
use super::operands::Ctx;
use super::Lowerer;
use crate::build::Fmt;
use crate::ir::{FloatBin, FloatUn, Handle, IntCmp};
use rdnaprobe_isa::{Opcode, Operand, Reg, RegKind, Wave};

/// The f64 instructions (their opcodes are routed here by the dispatch).
pub(super) fn lower_f64(l: &mut Lowerer, c: &Ctx) -> Result<(), String> {
    let ieee = l.mode.ieee;
    let f = Fmt::F64;
    let r = match c.op {
        Opcode::v_fma_f64 | Opcode::v_add_f64 | Opcode::v_mul_f64 | Opcode::v_div_fmas_f64 => {
            let n = if c.op == Opcode::v_fma_f64 || c.op == Opcode::v_div_fmas_f64 {
                3
            } else {
                2
            };
            let mut s = Vec::new();
            for i in 0..n {
                s.push(l.f64_src(c, i)?);
            }
            let vcc = if c.op == Opcode::v_div_fmas_f64 {
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
            let w: Vec<Handle> = s.iter().map(|&x| b.f64_of(x)).collect();
            let v = match c.op {
                Opcode::v_add_f64 => b.fb(FloatBin::Add, w[0], w[1]),
                Opcode::v_mul_f64 => b.fb(FloatBin::Mul, w[0], w[1]),
                _ => b.fma(w[0], w[1], w[2]),
            };
            // rule: div-fmas: with VCC set the result is scaled by 2^128 (|S2| >= 2) or 2^-128,
            // within the single rounding (S0 and S2 are scaled exactly before the fma)
            // rule: f64-fma-exact: the fused result is built on the integer bits, because a
            // driver's native f64 fma may be unfused and may flush denormals; the native value
            // is kept only where an operand is infinite or NaN (no rounding happens there)
            let v = if n == 3 {
                // rule: div-fmas: with VCC set the result is scaled by 2^128 (|S2| >= 2) or
                // 2^-128, within the single rounding
                let zero = b.c64(0);
                let scale = match vcc {
                    Some(vc) => {
                        let hi = b.shrc(s[2], 52);
                        let e = b.andc(hi, 0x7ff);
                        let big = b.icmpc(IntCmp::GeU, e, 1024);
                        let up = b.c64(128);
                        let dn = b.c64((-128i64) as u64);
                        let k = b.sel(big, up, dn);
                        b.sel(vc, k, zero)
                    }
                    None => zero,
                };
                let soft = b.fma_f64_bits(s[0], s[1], s[2], scale);
                let mut special = b.cb(false);
                for &x in &s {
                    let a = b.abs_bits(f, x);
                    let i = b.icmpc(IntCmp::GeU, a, f.exp_mask());
                    special = b.bor(special, i);
                }
                // exact zero plus zero: -0 only when both are negative
                let za = b.is_zero(f, s[0]);
                let zb = b.is_zero(f, s[1]);
                let zc = b.is_zero(f, s[2]);
                let zp = b.bor(za, zb);
                let zz = b.band(zp, zc);
                let sa = b.sign_of(f, s[0]);
                let sb = b.sign_of(f, s[1]);
                let sc = b.sign_of(f, s[2]);
                let sp = b.bxor(sa, sb);
                let both = b.band(sp, sc);
                let nz = b.c64(f.sign_mask());
                let zr = b.sel(both, nz, zero);
                let r = b.sel(zz, zr, soft);
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
            if n == 3 {
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
            }
        }
        Opcode::v_min_f64 | Opcode::v_max_f64 => {
            let a = l.f64_src(c, 0)?;
            let bb = l.f64_src(c, 1)?;
            minmax(&mut l.b, f, a, bb, c.op == Opcode::v_max_f64, ieee)
        }
        Opcode::v_div_fixup_f64 => {
            let a = l.f64_src(c, 0)?;
            let bb = l.f64_src(c, 1)?;
            let cc = l.f64_src(c, 2)?;
            div_fixup(l, f, a, bb, cc)
        }
        Opcode::v_ldexp_f64 => {
            let a = l.f64_src(c, 0)?;
            let op1 = l.src_op(c, 1)?;
            let n = l.read32(&op1)?;
            let b = &mut l.b;
            // scale in two halves so that 2^k stays a normal f64
            let lo = b.c32((-2100i32) as u32);
            let hi = b.c32(2100);
            let below = b.icmp(IntCmp::LtS, n, lo);
            let n = b.sel(below, lo, n);
            let above = b.icmp(IntCmp::GtS, n, hi);
            let n = b.sel(above, hi, n);
            let h1 = b.sarc(n, 1);
            let h2 = b.sub(n, h1);
            let mut v = b.f64_of(a);
            for h in [h1, h2] {
                let lo2 = b.c32((-1022i32) as u32);
                let hi2 = b.c32(1023);
                let bl = b.icmp(IntCmp::LtS, h, lo2);
                let hh = b.sel(bl, lo2, h);
                let ab = b.icmp(IntCmp::GtS, hh, hi2);
                let hh = b.sel(ab, hi2, hh);
                let e = b.addc(hh, 1023);
                let e = b.zext(e);
                let p = b.shlc(e, 52);
                let p = b.f64_of(p);
                v = b.fb(FloatBin::Mul, v, p);
            }
            let r = b.bits_of_f64(v);
            let nan = b.is_nan(f, a);
            let q = b.nan_out(f, a, ieee);
            b.sel(nan, q, r)
        }
        _ => {
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
            let r = match c.op {
                Opcode::v_ceil_f64
                | Opcode::v_floor_f64
                | Opcode::v_trunc_f64
                | Opcode::v_rndne_f64 => {
                    let op = match c.op {
                        Opcode::v_ceil_f64 => FloatUn::Ceil,
                        Opcode::v_floor_f64 => FloatUn::Floor,
                        Opcode::v_trunc_f64 => FloatUn::Trunc,
                        _ => FloatUn::RoundEven,
                    };
                    let v = b.fu(op, w);
                    let r = b.bits_of_f64(v);
                    let rz = b.is_zero(f, r);
                    b.sel(rz, sgn, r)
                }
                Opcode::v_fract_f64 => {
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
                Opcode::v_frexp_mant_f64 => {
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
                Opcode::v_sqrt_f64 => {
                    let v = b.fu(FloatUn::Sqrt, w);
                    let r = b.bits_of_f64(v);
                    let r = b.sel(zero, x, r);
                    b.sel(negnz, dn, r)
                }
                Opcode::v_rsq_f64 => {
                    let sq = b.fu(FloatUn::Sqrt, w);
                    let one = b.cf64(1.0);
                    let v = b.fb(FloatBin::Div, one, sq);
                    let r = b.bits_of_f64(v);
                    let zi = b.orc(sgn, 0x7ff0_0000_0000_0000);
                    let r = b.sel(zero, zi, r);
                    b.sel(negnz, dn, r)
                }
                Opcode::v_rcp_f64 => {
                    let one = b.cf64(1.0);
                    let v = b.fb(FloatBin::Div, one, w);
                    let r = b.bits_of_f64(v);
                    let zi = b.orc(sgn, 0x7ff0_0000_0000_0000);
                    let r = b.sel(zero, zi, r);
                    b.sel(inf, sgn, r)
                }
                _ => return Err(format!("{} has no f64 rule", c.op)),
            };
            b.sel(nan, q, r)
        }
    };
    let r = l.f64_result(c, r);
    l.write64(c, r)
}
