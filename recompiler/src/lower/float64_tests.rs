//! Hand-computed cases of the f64 rounding-mode and denormal rules (rules f64-rounding-mode
//! and f64-denormals), through the lowering and the CPU model.

use super::tests::run_in;
use rdnaprobe_isa::{FloatMode, Target};

const ONE: u64 = 0x3ff0_0000_0000_0000;
const TWO: u64 = 0x4000_0000_0000_0000;
const MAX: u64 = 0x7fef_ffff_ffff_ffff;
const INF: u64 = 0x7ff0_0000_0000_0000;
const NEG: u64 = 0x8000_0000_0000_0000;
const MIN_NORMAL: u64 = 0x0010_0000_0000_0000;
/// 2^-60.
const TINY: u64 = 0x3c30_0000_0000_0000;

fn mode(round16: u8, denorm16: u8) -> FloatMode {
    FloatMode {
        round16,
        denorm16,
        ..FloatMode::DEFAULT
    }
}

/// Runs `text` (result in v[10:11]) on f64 sources in v[4:5], v[6:7], v[8:9].
fn run64(text: &str, m: FloatMode, s: [u64; 3]) -> u64 {
    let i = [
        s[0] as u32,
        (s[0] >> 32) as u32,
        s[1] as u32,
        (s[1] >> 32) as u32,
        s[2] as u32,
        (s[2] >> 32) as u32,
    ];
    let o = run_in(text, m, Target::Gfx1036, i, 0);
    u64::from(o[0]) | (u64::from(o[1]) << 32)
}

const ADD: &str = "v_add_f64 v[10:11], v[4:5], v[6:7]";
const MUL: &str = "v_mul_f64 v[10:11], v[4:5], v[6:7]";
const FMA: &str = "v_fma_f64 v[10:11], v[4:5], v[6:7], v[8:9]";
const LDEXP: &str = "v_ldexp_f64 v[10:11], v[4:5], v6";
const DIV_FMAS: &str = "v_div_fmas_f64 v[10:11], v[4:5], v[6:7], v[8:9]";

/// `want[r]` is the result with round16 = r (0 nearest even, 1 +inf, 2 -inf, 3 toward zero),
/// f64 denormals kept.
fn each_mode(text: &str, s: [u64; 3], want: [u64; 4]) {
    for (r, w) in want.into_iter().enumerate() {
        let got = run64(text, mode(r as u8, 3), s);
        assert_eq!(got, w, "{text} {s:#018x?} round16={r}: got {got:#018x}");
    }
}

#[test]
fn add_rounds_in_each_direction() {
    let up = ONE + 1;
    let below = 0x3fef_ffff_ffff_ffff;
    each_mode(ADD, [ONE, TINY, 0], [ONE, up, ONE, ONE]);
    each_mode(
        ADD,
        [ONE | NEG, TINY | NEG, 0],
        [ONE | NEG, ONE | NEG, up | NEG, ONE | NEG],
    );
    each_mode(ADD, [ONE, TINY | NEG, 0], [ONE, ONE, below, below]);
    // an exact zero sum is -0 only toward -infinity, or when both addends are -0
    each_mode(ADD, [ONE, ONE | NEG, 0], [0, 0, NEG, 0]);
    each_mode(ADD, [0, NEG, 0], [0, 0, NEG, 0]);
    each_mode(ADD, [NEG, NEG, 0], [NEG; 4]);
}

#[test]
fn mul_rounds_in_each_direction_and_overflows_by_the_mode() {
    // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104
    let a = ONE + 1;
    each_mode(MUL, [a, a, 0], [ONE + 2, ONE + 3, ONE + 2, ONE + 2]);
    each_mode(
        MUL,
        [a | NEG, a, 0],
        [
            (ONE + 2) | NEG,
            (ONE + 2) | NEG,
            (ONE + 3) | NEG,
            (ONE + 2) | NEG,
        ],
    );
    // 2^1023 * 2: infinity, or the largest finite value where the mode rounds toward zero
    let big = 0x7fe0_0000_0000_0000;
    each_mode(MUL, [big, TWO, 0], [INF, INF, MAX, MAX]);
    each_mode(
        MUL,
        [big | NEG, TWO, 0],
        [INF | NEG, MAX | NEG, INF | NEG, MAX | NEG],
    );
    // a zero product keeps the sign of the product in every mode
    each_mode(MUL, [NEG, TWO, 0], [NEG; 4]);
}

#[test]
fn fma_rounds_in_each_direction() {
    each_mode(FMA, [ONE, ONE, TINY], [ONE, ONE + 1, ONE, ONE]);
    each_mode(
        FMA,
        [TWO, 0x4008_0000_0000_0000, 0xc018_0000_0000_0000],
        [0, 0, NEG, 0],
    );
    // the largest finite value times 1 plus a quarter ulp (2^969), then half an ulp (a tie
    // that rounds to the even infinity)
    each_mode(FMA, [MAX, ONE, 0x7c80_0000_0000_0000], [MAX, INF, MAX, MAX]);
    each_mode(FMA, [MAX, ONE, 0x7c90_0000_0000_0000], [INF, INF, MAX, MAX]);
}

#[test]
fn div_fmas_rounds_by_the_mode() {
    let t = format!("s_mov_b32 vcc_lo, 0\n{DIV_FMAS}");
    each_mode(&t, [ONE, ONE, TINY], [ONE, ONE + 1, ONE, ONE]);
}

#[test]
fn ldexp_of_a_negative_value_by_a_big_power_saturates_toward_zero() {
    // the seed fact: round16 = 3 gives the largest finite negative value, not -inf
    let x = 0xbff8_0000_0000_0000; // -1.5
    assert_eq!(
        run64(LDEXP, mode(3, 3), [x, 2000, 0]),
        0xffef_ffff_ffff_ffff
    );
    each_mode(
        LDEXP,
        [x, 2000, 0],
        [INF | NEG, MAX | NEG, INF | NEG, MAX | NEG],
    );
    each_mode(
        LDEXP,
        [0x3ff8_0000_0000_0000, 0x7fff_ffff, 0],
        [INF, INF, MAX, MAX],
    );
}

#[test]
fn ldexp_rounds_denormal_results_once() {
    let m1 = u64::from(u32::MAX); // -1
    each_mode(LDEXP, [1, m1, 0], [0, 1, 0, 0]);
    each_mode(LDEXP, [1 | NEG, m1, 0], [NEG, NEG, 1 | NEG, NEG]);
    // 1.5 smallest denormals: a tie to even
    each_mode(LDEXP, [3, m1, 0], [2, 2, 1, 1]);
    // (2^52 + 5) / 8 = 2^49 + 0.625: one rounding, where two halvings tie to 2^49
    let m3 = u64::from((-3i32) as u32);
    each_mode(
        LDEXP,
        [MIN_NORMAL + 5, m3, 0],
        [
            0x0002_0000_0000_0001,
            0x0002_0000_0000_0001,
            0x0002_0000_0000_0000,
            0x0002_0000_0000_0000,
        ],
    );
    // far below the smallest denormal: zero, or the smallest denormal rounding away
    let far = u64::from((-3000i32) as u32);
    each_mode(LDEXP, [ONE, far, 0], [0, 1, 0, 0]);
}

#[test]
fn fma_flushes_operands_and_result_tiny_before_rounding() {
    // (1 - 2^-53) * 2^-1022 rounds to 2^-1022, but is tiny before rounding
    let a = 0x3fef_ffff_ffff_ffff;
    for (op, text) in [("fma", FMA), ("mul", MUL)] {
        let s = [a, MIN_NORMAL, 0];
        assert_eq!(run64(text, mode(0, 3), s), MIN_NORMAL, "{op} kept");
        assert_eq!(
            run64(text, mode(0, 2), s),
            MIN_NORMAL,
            "{op} inputs flushed"
        );
        assert_eq!(run64(text, mode(0, 1), s), 0, "{op} results flushed");
        assert_eq!(run64(text, mode(0, 0), s), 0, "{op} both flushed");
        assert_eq!(
            run64(text, mode(1, 1), [a | NEG, MIN_NORMAL, 0]),
            NEG,
            "{op} sign"
        );
        assert_eq!(
            run64(text, mode(3, 3), s),
            0x000f_ffff_ffff_ffff,
            "{op} toward zero"
        );
    }
    // a denormal operand reads as zero with bit 0 clear: 2^-1074 * 2^52
    let s = [1, 0x4330_0000_0000_0000, 0];
    for (d, want) in [(0, 0), (1, MIN_NORMAL), (2, 0), (3, MIN_NORMAL)] {
        assert_eq!(run64(FMA, mode(0, d), s), want, "fma denorm16={d}");
        assert_eq!(run64(MUL, mode(0, d), s), want, "mul denorm16={d}");
    }
}

#[test]
fn div_fmas_flushes_only_its_result() {
    let t = format!("s_mov_b32 vcc_lo, 0\n{DIV_FMAS}");
    // a denormal operand is kept in every mode
    for d in 0..4 {
        let got = run64(&t, mode(0, d), [1, 0x4330_0000_0000_0000, 0]);
        assert_eq!(got, MIN_NORMAL, "denorm16={d}");
    }
    // a denormal result flushes with bit 1 clear
    for (d, want) in [(0, 0), (1, 0), (2, 1), (3, 1)] {
        assert_eq!(run64(&t, mode(0, d), [1, ONE, 0]), want, "denorm16={d}");
    }
}

#[test]
fn add_and_ldexp_flush_by_the_field_bits() {
    // 3 + 1 smallest denormals, and the largest denormal plus one reaching 2^-1022
    for (d, small, edge) in [(0, 0, 0), (1, 0, MIN_NORMAL), (2, 0, 0), (3, 4, MIN_NORMAL)] {
        assert_eq!(run64(ADD, mode(0, d), [3, 1, 0]), small, "denorm16={d}");
        let e = run64(ADD, mode(0, d), [0x000f_ffff_ffff_ffff, 1, 0]);
        assert_eq!(e, edge, "denorm16={d}");
    }
    // ldexp: a denormal input with bit 0 clear, a denormal result with bit 1 clear
    let m52 = u64::from((-52i32) as u32);
    for (d, from_den, to_den) in [(0, 0, 0), (1, MIN_NORMAL, 0), (2, 0, 1), (3, MIN_NORMAL, 1)] {
        assert_eq!(
            run64(LDEXP, mode(0, d), [1, 52, 0]),
            from_den,
            "denorm16={d}"
        );
        assert_eq!(
            run64(LDEXP, mode(0, d), [MIN_NORMAL, m52, 0]),
            to_den,
            "denorm16={d}"
        );
    }
}
