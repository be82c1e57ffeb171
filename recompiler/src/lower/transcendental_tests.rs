//! The software transcendental sequences against independent references on the CPU model:
//! v_rcp/sqrt/rsq_f32 correctly rounded in all four f32 rounding modes (decided here with
//! exact integer arithmetic), v_log/exp/sin_f32 within one ulp of the f64 functions of the
//! host, and the f16 forms against their f32 results rounded to half.

use super::lower_words;
use crate::interp;
use crate::ir::Kernel;
use rdnaprobe_isa::{assemble, FloatMode, Target, Wave};

fn kernel(text: &str, round32: u8) -> Kernel {
    let mode = FloatMode {
        round32,
        denorm32: 3,
        ..FloatMode::DEFAULT
    };
    let words = assemble(text).expect("assembles");
    lower_words(&words, mode, Wave::W32, Target::Gfx1036).expect("lowers")
}

fn eval(k: &Kernel, x: u32) -> u32 {
    interp::run(k, [x, 0, 0, 0, 0, 0], 0)[0]
}

/// Deterministic inputs: normal positive f32 values spread over the exponents, plus the
/// neighbours of the powers of two and of the perfect squares.
fn inputs() -> Vec<u32> {
    let mut v = Vec::new();
    let mut s = 0x9e37_79b9u32;
    for _ in 0..3000 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        v.push(0x0080_0000 + s % 0x7e80_0000);
    }
    for e in [1u32, 100, 126, 127, 128, 200, 253] {
        for d in 0..4 {
            v.push((e << 23) + d);
            if e > 1 {
                v.push((e << 23) - d - 1);
            }
        }
    }
    for n in [3.0f32, 9.0, 1.5 * 1.5, 1e-30, 7e20] {
        let b = n.to_bits();
        v.extend([b - 1, b, b + 1]);
    }
    v
}

/// The f32 result of an exact positive value given by `cmp(g)` = sign of (value - g) for an
/// f64 `g`, rounded in `mode` (0 nearest even, 1 up, 2 down, 3 toward zero) from the
/// candidate `near`, the f32 nearest to it or a neighbour.
fn rounded(near: f32, mode: u8, cmp: impl Fn(f64) -> std::cmp::Ordering) -> u32 {
    use std::cmp::Ordering::*;
    // find the f32 interval [lo, hi] around the value
    let mut lo = near.to_bits();
    while cmp(f64::from(f32::from_bits(lo))) == Less {
        lo -= 1;
    }
    while cmp(f64::from(f32::from_bits(lo + 1))) != Less {
        lo += 1;
    }
    if cmp(f64::from(f32::from_bits(lo))) == Equal {
        return lo;
    }
    let hi = lo + 1;
    match mode {
        1 => hi,
        2 | 3 => lo,
        _ => {
            let mid = (f64::from(f32::from_bits(lo)) + f64::from(f32::from_bits(hi))) / 2.0;
            match cmp(mid) {
                Greater => hi,
                Less => lo,
                Equal => {
                    if lo % 2 == 0 {
                        lo
                    } else {
                        hi
                    }
                }
            }
        }
    }
}

/// Exact sign of a - b for a positive f64 `a` times f64 products, with u128 integers: values
/// are given as (integer, power of two) pairs.
fn parts(v: f64) -> (u128, i32) {
    let b = v.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    let m = (b & ((1 << 52) - 1)) | (1 << 52);
    (u128::from(m), e - 1075)
}

fn cmp_scaled(a: (u128, i32), b: (u128, i32)) -> std::cmp::Ordering {
    let e = a.1.min(b.1);
    let x = a.0 << (a.1 - e) as u32;
    let y = b.0 << (b.1 - e) as u32;
    x.cmp(&y)
}

fn mul(a: (u128, i32), b: (u128, i32)) -> (u128, i32) {
    (a.0 * b.0, a.1 + b.1)
}

#[test]
fn rcp_sqrt_and_rsq_are_correctly_rounded_in_every_mode() {
    let one = parts(1.0);
    for mode in 0..4u8 {
        let rcp = kernel("v_rcp_f32 v10, v4", mode);
        let sqrt = kernel("v_sqrt_f32 v10, v4", mode);
        let rsq = kernel("v_rsq_f32 v10, v4", mode);
        for &x in &inputs() {
            let xf = f64::from(f32::from_bits(x));
            let xp = parts(xf);
            // 1/x vs g: compare 1 with x g
            let r = rounded((1.0 / xf) as f32, mode, |g| {
                cmp_scaled(one, mul(xp, parts(g)))
            });
            assert_eq!(eval(&rcp, x), r, "rcp {x:#x} mode {mode}");
            // sqrt x vs g: compare x with g^2
            let s = rounded(xf.sqrt() as f32, mode, |g| {
                let gp = parts(g);
                cmp_scaled(xp, mul(gp, gp))
            });
            assert_eq!(eval(&sqrt, x), s, "sqrt {x:#x} mode {mode}");
            // 1/sqrt x vs g: compare 1 with x g^2 (u128 holds 53 + 2 * 53 bits)
            let q = rounded((1.0 / xf.sqrt()) as f32, mode, |g| {
                let gp = parts(g);
                let (m, e) = (gp.0 >> 24, gp.1 + 24);
                let gg = (m * m, 2 * e);
                let p = (xp.0 >> 24, xp.1 + 24);
                cmp_scaled(one, mul(p, gg))
            });
            assert_eq!(eval(&rsq, x), q, "rsq {x:#x} mode {mode}");
        }
    }
}

fn ulps(a: u32, b: u32) -> u32 {
    (a as i32).wrapping_sub(b as i32).unsigned_abs()
}

#[test]
fn log_exp_and_sin_are_within_one_ulp_of_the_functions() {
    let log = kernel("v_log_f32 v10, v4", 0);
    let exp = kernel("v_exp_f32 v10, v4", 0);
    let sin = kernel("v_sin_f32 v10, v4", 0);
    let cos = kernel("v_cos_f32 v10, v4", 0);
    for &x in &inputs() {
        let xf = f64::from(f32::from_bits(x));
        let want = xf.log2() as f32;
        let got = eval(&log, x);
        assert!(
            ulps(got, want.to_bits()) <= 1,
            "log {x:#x}: {got:#x} vs {:#x}",
            want.to_bits()
        );
        // exp2 of the inputs scaled into [-64, 64]
        let e = (xf.log2() / 2.0) as f32;
        let eb = e.to_bits();
        let want = f64::from(e).exp2() as f32;
        assert!(ulps(eval(&exp, eb), want.to_bits()) <= 1, "exp {eb:#x}");
        // sine and cosine of turns in [0, 1), away from the linear bands
        let t = ((xf.log2() + 200.0) / 400.0) as f32;
        let tf = f64::from(t) * std::f64::consts::TAU;
        let tb = t.to_bits();
        let (s, c) = (tf.sin() as f32, tf.cos() as f32);
        if s.abs() > 0.01 {
            assert!(ulps(eval(&sin, tb), s.to_bits()) <= 1, "sin {tb:#x}");
        }
        if c.abs() > 0.01 {
            assert!(ulps(eval(&cos, tb), c.to_bits()) <= 1, "cos {tb:#x}");
        }
    }
}

#[test]
fn exact_results_are_exact() {
    let log = kernel("v_log_f32 v10, v4", 0);
    let exp = kernel("v_exp_f32 v10, v4", 0);
    for e in [-126i32, -1, 0, 1, 5, 127] {
        let p = 2f32.powi(e);
        assert_eq!(eval(&log, p.to_bits()), (e as f32).to_bits());
        assert_eq!(eval(&exp, (e as f32).to_bits()), p.to_bits());
    }
}

#[test]
fn the_sequences_stay_small() {
    // expression counts of the lowered kernels (constants included), in the default mode
    let bodies = [
        "v_rcp_f32 v10, v4",
        "v_rsq_f32 v10, v4",
        "v_sqrt_f32 v10, v4",
        "v_log_f32 v10, v4",
        "v_exp_f32 v10, v4",
        "v_sin_f32 v10, v4",
        "v_cos_f32 v10, v4",
        "v_log_f16 v10, v4",
        "v_sqrt_f64 v[10:11], v[4:5]",
        "v_rsq_f64 v[10:11], v[4:5]",
        "v_rcp_f64 v[10:11], v[4:5]",
    ];
    for body in bodies {
        let n = kernel(body, 0).exprs.len();
        eprintln!("{body}: {n} expressions");
        assert!(n < 400, "{body}: {n} expressions");
    }
}
