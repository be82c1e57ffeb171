//! Tests of the builder's float rules and soft-float library against the host's IEEE 754
//! arithmetic and reference roundings, run through the CPU model.

use super::*;
use crate::interp;
use crate::ir::{FloatBin, FloatUn};
use rdnaprobe_isa::Round;

/// Builds a kernel computing `f` of inputs and returns its first output for `inputs`.
fn eval1(f: impl Fn(&mut Builder, [Handle; 3]) -> Handle, inputs: [u32; 3]) -> u32 {
    let k = kernel1(f);
    interp::run(&k, [inputs[0], inputs[1], inputs[2], 0, 0, 0], 0)[0]
}

/// A kernel whose first output is `f` of inputs 0..2 (the other outputs 0).
fn kernel1(f: impl Fn(&mut Builder, [Handle; 3]) -> Handle) -> Kernel {
    let mut b = Builder::new();
    let i = [
        b.push(Expr::Input(0)),
        b.push(Expr::Input(1)),
        b.push(Expr::Input(2)),
    ];
    let r = f(&mut b, i);
    let z = b.c32(0);
    let mut outs = vec![z; 16];
    outs[0] = r;
    b.k.outputs = outs;
    b.k.validate().expect("valid");
    b.k
}

#[test]
fn f16_widening_is_exact_for_every_half() {
    let k = kernel1(|b, i| b.f16_to_f32_bits(i[0]));
    let k64 = kernel1(|b, i| {
        let f = b.f16_to_f64_exact(i[0]);
        let bits = b.bits_of_f64(f);
        b.hi32(bits)
    });
    for h in 0..=0xffffu32 {
        let want = half::f16::from_bits(h as u16).to_f32();
        let got = interp::run(&k, [h | 0xabcd_0000, 0, 0, 0, 0, 0], 0)[0];
        if want.is_nan() {
            assert!(f32::from_bits(got).is_nan(), "{h:#x}");
            assert_eq!(got & 0x3f_ffff, (h & 0x1ff) << 13, "{h:#x} payload");
        } else {
            assert_eq!(got, want.to_bits(), "{h:#x}");
            let got64 = interp::run(&k64, [h, 0, 0, 0, 0, 0], 0)[0];
            assert_eq!(got64, (f64::from(want).to_bits() >> 32) as u32, "{h:#x}");
        }
    }
}

/// Exact reference: round the f64 `v` (exact) to f16 in a mode, via integer arithmetic on
/// a scaled value (independent of `round_to`'s construction).
fn ref_round_f16(v: f64, round: Round) -> u16 {
    if v == 0.0 {
        return if v.is_sign_negative() { 0x8000 } else { 0 };
    }
    let neg = v < 0.0;
    let a = v.abs();
    // candidates: the two f16 values around a, from half's conversion neighbours
    let mut lo = 0u16;
    let mut hi = 0x7c00u16;
    // binary search the largest finite half <= a
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if half::f16::from_bits(mid).to_f64() <= a {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lv = half::f16::from_bits(lo).to_f64();
    let hv = if hi == 0x7c00 {
        65536.0
    } else {
        half::f16::from_bits(hi).to_f64()
    };
    let pick_hi = if lv == a {
        false
    } else {
        match round {
            Round::NearestEven => {
                let d1 = a - lv;
                let d2 = hv - a;
                d2 < d1 || (d1 == d2 && lo & 1 == 1)
            }
            Round::Zero => false,
            Round::PlusInf => !neg,
            Round::MinusInf => neg,
        }
    };
    let m = if pick_hi { hi } else { lo };
    m | if neg { 0x8000 } else { 0 }
}

#[test]
fn round_to_f16_matches_reference_all_modes() {
    // sums of pairs of f16 values (exact in f64) cover ties, denormals and overflow
    let modes = [
        Round::NearestEven,
        Round::PlusInf,
        Round::MinusInf,
        Round::Zero,
    ];
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for &mode in &modes {
        let k = kernel1(|b, i| {
            let x = b.f16_to_f64_exact(i[0]);
            let y = b.f16_to_f64_exact(i[1]);
            // x * y + tiny: use the exact product (22 bits) as the value
            let p = b.fb(FloatBin::Mul, x, y);
            b.round_to(Fmt::F16, p, None, mode, false, Tiny::Result)
        });
        for _ in 0..20000 {
            let r = next();
            let x = (r & 0x7fff) as u32 & !0x7c00 | ((r >> 16) as u32 & 0x7800);
            let y = ((r >> 32) & 0xffff) as u32;
            let (xf, yf) = (
                half::f16::from_bits(x as u16).to_f64(),
                half::f16::from_bits(y as u16).to_f64(),
            );
            if !xf.is_finite() || !yf.is_finite() {
                continue;
            }
            let want = ref_round_f16(xf * yf, mode);
            let got = interp::run(&k, [x, y, 0, 0, 0, 0], 0)[0];
            assert_eq!(got, u32::from(want), "{x:#x} * {y:#x} in {mode:?}");
        }
    }
}

#[test]
fn round_to_f32_matches_native_nearest_even() {
    let k = kernel1(|b, i| {
        let x = b.f32_to_f64_exact(i[0]);
        let y = b.f32_to_f64_exact(i[1]);
        let c = b.f32_to_f64_exact(i[2]);
        let p = b.fb(FloatBin::Mul, x, y);
        b.round_sum(Fmt::F32, p, c, Round::NearestEven, false, Tiny::Result)
    });
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for n in 0..50000u32 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let x = seed as u32;
        let y = (seed >> 32) as u32;
        // bias exponents toward the denormal range for half of the cases
        let (x, y) = if n % 2 == 0 {
            (x & 0x9fff_ffff, y & 0xa07f_ffff | 0x1f00_0000)
        } else {
            (x, y)
        };
        let c = x.rotate_left(7) & 0x80ff_ffff;
        let (xf, yf, cf) = (f32::from_bits(x), f32::from_bits(y), f32::from_bits(c));
        let want = xf.mul_add(yf, cf);
        if !want.is_finite() || !(xf * yf).is_finite() {
            continue;
        }
        let got = interp::run(&k, [x, y, c, 0, 0, 0], 0)[0];
        assert_eq!(got, want.to_bits(), "{x:#x} * {y:#x} + {c:#x}");
    }
}

#[test]
fn tininess_after_rounding_mul_boundary() {
    // docs/semantics.md f32-denormals: 0x3f7ffffe * 0x00800001 gives 0x00800000 and
    // 0x3f7fffff * 0x00800000 gives zero when flushing.
    let f = |b: &mut Builder, i: [Handle; 3]| {
        let x = b.f32_to_f64_exact(i[0]);
        let y = b.f32_to_f64_exact(i[1]);
        let p = b.fb(FloatBin::Mul, x, y);
        b.round_to(
            Fmt::F32,
            p,
            None,
            Round::NearestEven,
            true,
            Tiny::AfterRounding,
        )
    };
    assert_eq!(eval1(f, [0x3f7f_fffe, 0x0080_0001, 0]), 0x0080_0000);
    assert_eq!(eval1(f, [0x3f7f_ffff, 0x0080_0000, 0]), 0);
    assert_eq!(eval1(f, [0xbf7f_ffff, 0x0080_0000, 0]), 0x8000_0000);
}

/// A kernel of three f64 inputs (in0/in1, in2/in3, in4/in5) whose f64 result is out0/out1.
fn kernel64(f: impl Fn(&mut Builder, [Handle; 3]) -> Handle) -> Kernel {
    let mut b = Builder::new();
    let mut i = vec![];
    for n in 0..3u8 {
        let lo = b.push(Expr::Input(2 * n));
        let hi = b.push(Expr::Input(2 * n + 1));
        i.push(b.pack64(lo, hi));
    }
    let r = f(&mut b, [i[0], i[1], i[2]]);
    let lo = b.trunc64(r);
    let hi = b.hi32(r);
    let z = b.c32(0);
    let mut outs = vec![z; 16];
    outs[0] = lo;
    outs[1] = hi;
    b.k.outputs = outs;
    b.k.validate().expect("valid");
    b.k
}

fn run64(k: &Kernel, x: [u64; 3]) -> u64 {
    let ins = [
        x[0] as u32,
        (x[0] >> 32) as u32,
        x[1] as u32,
        (x[1] >> 32) as u32,
        x[2] as u32,
        (x[2] >> 32) as u32,
    ];
    let o = interp::run(k, ins, 0);
    u64::from(o[0]) | (u64::from(o[1]) << 32)
}

/// Interesting f64 bit patterns: zeros, denormals, boundaries, integers and halves.
fn f64_cases() -> Vec<u64> {
    let mut v: Vec<u64> = vec![
        0,
        1,
        0x000f_ffff_ffff_ffff,
        0x0010_0000_0000_0000,
        0x3fe0_0000_0000_0000,
        0x3fe0_0000_0000_0001,
        0x3fdf_ffff_ffff_ffff,
        0x3ff0_0000_0000_0000,
        0x3ff8_0000_0000_0000,
        0x4004_0000_0000_0000,
        0x400c_0000_0000_0000,
        0x4330_0000_0000_0000,
        0x432f_ffff_ffff_ffff,
        0x4242_db6c_0000_000b,
        0x7fef_ffff_ffff_ffff,
    ];
    // a deterministic spread over all exponents
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..400 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        v.push(x & 0x7fff_ffff_ffff_ffff);
    }
    let neg: Vec<u64> = v.iter().map(|b| b | 1 << 63).collect();
    v.extend(neg);
    v
}

#[test]
fn round_integral_matches_std_for_f64() {
    type Reference = fn(f64) -> f64;
    let ops: [(FloatUn, Reference); 4] = [
        (FloatUn::Floor, f64::floor),
        (FloatUn::Ceil, f64::ceil),
        (FloatUn::Trunc, f64::trunc),
        (FloatUn::RoundEven, f64::round_ties_even),
    ];
    for (op, reference) in ops {
        let k = kernel64(|b, i| {
            let f = b.f64_of(i[0]);
            let r = b.fu(op, f);
            b.bits_of_f64(r)
        });
        assert!(!k.exprs.iter().any(|e| matches!(e, Expr::FloatUn { .. })));
        for x in f64_cases() {
            if f64::from_bits(x).is_nan() {
                continue;
            }
            let want = reference(f64::from_bits(x)).to_bits();
            let got = run64(&k, [x, 0, 0]);
            assert_eq!(got, want, "{op:?}({x:#018x})");
        }
    }
}

#[test]
fn fma_f64_bits_matches_std_mul_add() {
    let k = kernel64(|b, i| {
        let z = b.c64(0);
        b.fma_f64_bits(i[0], i[1], i[2], z)
    });
    let cases = f64_cases();
    let mut checked = 0;
    for (n, &a) in cases.iter().enumerate() {
        for (m, &bb) in cases.iter().enumerate().skip(n % 17).step_by(17) {
            let c = cases[(n * 31 + m * 17) % cases.len()];
            // also an addend that nearly cancels the product, when the product is finite
            let p = f64::from_bits(a) * f64::from_bits(bb);
            let cancel = if p.is_finite() { (-p).to_bits() } else { c };
            for c in [c, cancel] {
                let (fa, fb, fc) = (f64::from_bits(a), f64::from_bits(bb), f64::from_bits(c));
                let finite = fa.is_finite() && fb.is_finite() && fc.is_finite();
                if !finite || (fa * fb == 0.0 && fc == 0.0) {
                    continue;
                }
                let want = fa.mul_add(fb, fc);
                if want.is_nan() {
                    continue;
                }
                let got = run64(&k, [a, bb, c]);
                assert_eq!(got, want.to_bits(), "fma({a:#018x}, {bb:#018x}, {c:#018x})");
                checked += 1;
            }
        }
    }
    assert!(checked > 30_000, "{checked}");
}

#[test]
fn fma_f64_bits_scales_within_the_rounding() {
    let k = kernel64(|b, i| {
        let s = b.c64((-128i64) as u64);
        b.fma_f64_bits(i[0], i[1], i[2], s)
    });
    let cases = f64_cases();
    for (n, &a) in cases.iter().enumerate().step_by(3) {
        let bb = cases[(n * 7 + 1) % cases.len()];
        let c = cases[(n * 13 + 5) % cases.len()];
        let (fa, fb, fc) = (f64::from_bits(a), f64::from_bits(bb), f64::from_bits(c));
        let k128 = 2f64.powi(-128);
        // exact scaling of a and c, then one rounding: valid while a * 2^-128 stays normal
        let sa = fa * k128;
        let sc = fc * k128;
        if !(fa.is_finite() && fb.is_finite() && fc.is_finite())
            || sa.abs() < f64::MIN_POSITIVE
            || sc.abs() < f64::MIN_POSITIVE
            || fa * fb == 0.0
        {
            continue;
        }
        let want = sa.mul_add(fb, sc);
        if want.is_nan() || want.is_infinite() {
            continue;
        }
        assert_eq!(
            run64(&k, [a, bb, c]),
            want.to_bits(),
            "{a:#x} {bb:#x} {c:#x}"
        );
    }
}

#[test]
fn multiplying_by_a_constant_zero_is_built_on_the_bits() {
    for zero in [0.0f64, -0.0] {
        for swap in [false, true] {
            let k = kernel64(|b, i| {
                let x = b.f64_of(i[0]);
                let z = b.cf64(zero);
                let p = if swap {
                    b.fb(FloatBin::Mul, z, x)
                } else {
                    b.fb(FloatBin::Mul, x, z)
                };
                b.bits_of_f64(p)
            });
            assert!(!k.exprs.iter().any(|e| matches!(e, Expr::FloatBin { .. })));
            let mut cases = f64_cases();
            cases.extend([
                0x7ff0_0000_0000_0000,
                0xfff0_0000_0000_0000,
                0x7ff0_0000_0000_0001,
            ]);
            for x in cases {
                let want = (f64::from_bits(x) * zero).to_bits();
                assert_eq!(run64(&k, [x, 0, 0]), want, "{x:#018x} * {zero}");
            }
        }
    }
}

/// The sign of the exact sum of `xs` (finite, no overflow): Shewchuk's grow-expansion gives a
/// nonoverlapping expansion whose largest (last non-zero) component carries the sign.
fn sign_of_exact_sum(xs: &[f64]) -> std::cmp::Ordering {
    let mut e: Vec<f64> = Vec::new();
    for &x in xs {
        let mut q = x;
        let mut next = Vec::with_capacity(e.len() + 1);
        for &h in &e {
            let s = q + h;
            let bb = s - q;
            next.push((q - (s - bb)) + (h - bb));
            q = s;
        }
        next.push(q);
        e = next;
    }
    e.iter()
        .rev()
        .find(|v| **v != 0.0)
        .map_or(std::cmp::Ordering::Equal, |v| v.total_cmp(&0.0))
}

/// `a * b + c` rounded once in `round`, from the host's nearest-even fma and the sign of its
/// exact residual; `None` where the reference cannot tell (overflow, a zero result, or a
/// product so small that its rounding error is not an f64).
fn ref_fma_rounded(a: f64, b: f64, c: f64, round: Round) -> Option<u64> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let r = a.mul_add(b, c);
    let p = a * b;
    let tiny_product = a != 0.0 && b != 0.0 && p.abs() < 2f64.powi(-900);
    if !r.is_finite() || !p.is_finite() || r == 0.0 || tiny_product {
        return None;
    }
    let ep = a.mul_add(b, -p);
    let resid = sign_of_exact_sum(&[p, ep, c, -r]);
    let want = match (round, resid) {
        (Round::NearestEven, _) | (_, Equal) => r,
        (Round::PlusInf, Greater) => r.next_up(),
        (Round::MinusInf, Less) => r.next_down(),
        (Round::PlusInf, Less) | (Round::MinusInf, Greater) => r,
        (Round::Zero, Greater) if r < 0.0 => r.next_up(),
        (Round::Zero, Less) if r > 0.0 => r.next_down(),
        (Round::Zero, _) => r,
    };
    Some(want.to_bits())
}

#[test]
fn fma_f64_rounded_matches_the_exact_residual_in_every_mode() {
    let cases = f64_cases();
    for round in [
        Round::NearestEven,
        Round::PlusInf,
        Round::MinusInf,
        Round::Zero,
    ] {
        let k = kernel64(|b, i| {
            let z = b.c64(0);
            b.fma_f64_rounded(i[0], i[1], i[2], z, round, false)
        });
        let mut checked = 0;
        let mut moved = 0;
        for (n, &a) in cases.iter().enumerate() {
            for (m, &bb) in cases.iter().enumerate().skip(n % 13).step_by(13) {
                let (fa, fb) = (f64::from_bits(a), f64::from_bits(bb));
                let c = cases[(n * 31 + m * 17) % cases.len()];
                // an addend that nearly cancels the product, and one a few ulps off it
                let p = fa * fb;
                let near = (-p).to_bits() ^ (m as u64 & 7);
                for c in [c, near] {
                    let fc = f64::from_bits(c);
                    if !(fa.is_finite() && fb.is_finite() && fc.is_finite()) {
                        continue;
                    }
                    let Some(want) = ref_fma_rounded(fa, fb, fc, round) else {
                        continue;
                    };
                    let got = run64(&k, [a, bb, c]);
                    assert_eq!(got, want, "{round:?} fma({a:#018x}, {bb:#018x}, {c:#018x})");
                    checked += 1;
                    moved += usize::from(want != fa.mul_add(fb, fc).to_bits());
                }
            }
        }
        assert!(checked > 20_000, "{round:?}: {checked}");
        // the directed modes differ from nearest even on many of these rows
        assert_eq!(
            moved == 0,
            round == Round::NearestEven,
            "{round:?}: {moved}"
        );
    }
}

#[test]
fn fma_f64_rounded_flushes_results_tiny_before_rounding() {
    use std::cmp::Ordering::{Greater, Less};
    let cases = f64_cases();
    let k = kernel64(|b, i| {
        let z = b.c64(0);
        b.fma_f64_rounded(i[0], i[1], i[2], z, Round::NearestEven, true)
    });
    let (mut checked, mut flushed) = (0, 0);
    for (n, &a) in cases.iter().enumerate() {
        for &bb in cases.iter().skip(n % 7).step_by(7) {
            let (fa, fb) = (f64::from_bits(a), f64::from_bits(bb));
            // addends around the product's negation reach the denormal range
            let p = fa * fb;
            for c in [(-p).to_bits() ^ 1, (-p).to_bits() ^ 3, (p * 0.5).to_bits()] {
                let fc = f64::from_bits(c);
                if !fc.is_finite() || !fa.is_finite() || !fb.is_finite() {
                    continue;
                }
                let Some(kept) = ref_fma_rounded(fa, fb, fc, Round::NearestEven) else {
                    continue;
                };
                let r = f64::from_bits(kept);
                let min = f64::MIN_POSITIVE.copysign(r);
                let ep = fa.mul_add(fb, -p);
                // |exact| < 2^-1022, with the exact value of r's sign
                let tiny =
                    sign_of_exact_sum(&[p, ep, fc, -min]) == if r > 0.0 { Less } else { Greater };
                let want = if tiny { kept & (1 << 63) } else { kept };
                assert_eq!(
                    run64(&k, [a, bb, c]),
                    want,
                    "fma({a:#018x}, {bb:#018x}, {c:#018x})"
                );
                checked += 1;
                flushed += usize::from(tiny);
            }
        }
    }
    assert!(
        checked > 10_000 && flushed > 100,
        "{checked} rows, {flushed} flushed"
    );
}

#[test]
fn computations_on_constants_become_one_constant() {
    // max_i32(0, 0xbf800000) as the lowering builds it: compare and select on constants
    let mut b = Builder::new();
    let z = b.c32(0);
    let m = b.c32(0xbf80_0000);
    let c = b.icmp(IntCmp::GtS, z, m);
    let r = b.sel(c, z, m);
    assert_eq!(b.known(r), Some(0));
    assert!(matches!(b.k.expr(r), Expr::Const { .. }));
    // float arithmetic on constants folds with eval's bits (NaN rule included)
    let x = b.cst(Ty::F32, 0x7f80_0001);
    let one = b.cst(Ty::F32, 1f32.to_bits().into());
    let s = b.fb(FloatBin::Add, one, x);
    assert_eq!(b.known(s), Some(0x7fc0_0001));
    // an input stops folding
    let i = b.push(Expr::Input(0));
    let t = b.add(i, z);
    assert_eq!(b.known(t), None);
}

#[test]
fn zero_factors_and_zero_addends_follow_ieee_on_the_bits() {
    let f = |x: f32| x.to_bits();
    // the factor is zero only at run time: the product keeps its sign and NaN rule
    let mul = |a: u32, b: u32| {
        eval1(
            |b, i| {
                let x = b.cvt(Convert::Bitcast, i[0], Ty::F32);
                let y = b.cvt(Convert::Bitcast, i[1], Ty::F32);
                let p = b.fb(FloatBin::Mul, x, y);
                b.cvt(Convert::Bitcast, p, Ty::U32)
            },
            [a, b, 0],
        )
    };
    assert_eq!(mul(f(-0.0), f(3.0)), f(-0.0));
    assert_eq!(mul(f(-2.0), 0), f(-0.0));
    assert_eq!(mul(0x7f80_0000, 0), 0xffc0_0000);
    assert_eq!(mul(0, 0x7f80_0001), 0x7fc0_0001);
    assert_eq!(mul(f(1.5), f(2.0)), f(3.0));
    // x + 0.0 and x - 0.0 with a constant zero
    let add = |x: u32, sub: bool, zero: f32| {
        eval1(
            |b, i| {
                let v = b.cvt(Convert::Bitcast, i[0], Ty::F32);
                let z = b.cst(Ty::F32, zero.to_bits().into());
                let op = if sub { FloatBin::Sub } else { FloatBin::Add };
                let r = b.fb(op, v, z);
                b.cvt(Convert::Bitcast, r, Ty::U32)
            },
            [x, 0, 0],
        )
    };
    assert_eq!(add(f(-0.0), false, 0.0), f(0.0));
    assert_eq!(add(f(-0.0), false, -0.0), f(-0.0));
    assert_eq!(add(f(-0.0), true, 0.0), f(-0.0));
    assert_eq!(add(f(0.0), true, 0.0), f(0.0));
    assert_eq!(add(f(2.5), true, 0.0), f(2.5));
    assert_eq!(add(0x7f80_0001, false, 0.0), 0x7fc0_0001);
    // 0 - x negates x
    let rsub = eval1(
        |b, i| {
            let v = b.cvt(Convert::Bitcast, i[0], Ty::F32);
            let z = b.cst(Ty::F32, 0);
            let r = b.fb(FloatBin::Sub, z, v);
            b.cvt(Convert::Bitcast, r, Ty::U32)
        },
        [f(2.5), 0, 0],
    );
    assert_eq!(rsub, f(-2.5));
}
