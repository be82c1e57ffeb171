//! The memory result bits of [`super::mem_apply`] and the float atomics rule.

use super::*;

const ONE64: u64 = 0x3ff0_0000_0000_0000;
const TWO64: u64 = 0x4000_0000_0000_0000;
const F64_SIGN: u64 = 1 << 63;

#[test]
fn f64_min_max_follow_the_notes_order() {
    let f = Fmt::F64;
    assert_eq!(float_minmax(f, TWO64, ONE64, false, false), ONE64);
    assert_eq!(float_minmax(f, TWO64, ONE64, false, true), TWO64);
    assert_eq!(float_minmax(f, 0, F64_SIGN, false, false), F64_SIGN);
    let snan = 0xfff0_0000_0000_0002;
    assert_eq!(
        float_minmax(f, ONE64, snan, false, false),
        snan | 1 << 51,
        "sNaN data stored quieted"
    );
    let qnan = 0x7ff8_0000_0000_0000;
    assert_eq!(float_minmax(f, qnan, ONE64, false, true), ONE64);
    assert_eq!(float_minmax(f, ONE64, qnan, false, true), ONE64);
    assert_eq!(
        float_minmax(f, 1, ONE64, true, false),
        0,
        "flushed old wins and is written"
    );
    assert_eq!(float_minmax(f, 1, ONE64, false, false), 1);
    let neg_one = ONE64 | F64_SIGN;
    assert_eq!(
        float_minmax(f, neg_one, TWO64 | F64_SIGN, false, true),
        neg_one
    );
}

#[test]
fn f32_min_max_keep_the_high_half_out() {
    let f = Fmt::F32;
    assert_eq!(
        float_minmax(f, 0x4000_0000, 0x3f80_0000, true, false),
        0x3f80_0000
    );
    assert_eq!(
        float_minmax(f, 0xbf80_0000, 0xc000_0000, true, true),
        0xbf80_0000
    );
    // through mem_apply at 4 bytes: the sNaN data is stored quieted, -0 is below +0
    let fmin = LdsOp::FMin { flush: false };
    assert_eq!(mem_apply(fmin, 4, 0x3f80_0000, 0x7f80_0001, 0), 0x7fc0_0001);
    assert_eq!(mem_apply(fmin, 4, 0, 0x8000_0000, 0), 0x8000_0000);
}

#[test]
fn compare_is_on_flushed_floats() {
    let (f32_, f64_) = (Fmt::F32, Fmt::F64);
    assert!(float_cmp_equal(f32_, 0, 0x8000_0000, false), "zeros equal");
    assert!(
        float_cmp_equal(f32_, 1, 0, true),
        "a flushed denormal is zero"
    );
    assert!(!float_cmp_equal(f32_, 1, 0, false), "kept, it is not");
    assert!(!float_cmp_equal(f32_, 0x7fc0_0000, 0x7fc0_0000, false));
    assert!(float_cmp_equal(f64_, ONE64, ONE64, false));
    assert!(float_cmp_equal(f64_, F64_SIGN, 0, false));
    assert!(!float_cmp_equal(f64_, ONE64, TWO64, false));
    // ds_cmpst_f32 stores data2 where the flushed floats compare equal
    let one = 0x3f80_0000u64;
    let cmpst = |flush| LdsOp::FCmpst { flush };
    assert_eq!(mem_apply(cmpst(false), 4, 0, 0x8000_0000, one), one);
    assert_eq!(mem_apply(cmpst(true), 4, 1, 0, one), one);
    assert_eq!(mem_apply(cmpst(false), 4, 1, 0, one), 1);
    assert_eq!(
        mem_apply(cmpst(true), 4, 0x7fc0_0000, 0x7fc0_0000, one),
        0x7fc0_0000
    );
}

#[test]
fn integer_ops_at_each_width() {
    assert_eq!(
        mem_apply(LdsOp::MskOr, 4, 0xffff_0000, 0xff00_0000, 0x12),
        0x00ff_0012
    );
    assert_eq!(mem_apply(LdsOp::Cmpst, 4, 5, 5, 9), 9);
    assert_eq!(mem_apply(LdsOp::Cmpst, 4, 5, 6, 9), 5);
    assert_eq!(mem_apply(LdsOp::Wrap, 4, 10, 3, 100), 7);
    assert_eq!(mem_apply(LdsOp::Wrap, 4, 2, 3, 100), 102);
    assert_eq!(
        mem_apply(
            LdsOp::CondXchg,
            8,
            0x1111_1111_2222_2222,
            0x8000_0005_0000_0007,
            0
        ),
        0x0000_0005_2222_2222
    );
    assert_eq!(mem_apply(LdsOp::Write, 1, 0, 0x1234, 0), 0x34);
    // 32-bit results wrap in 32 bits; the signed min/max compare at the operation's width
    assert_eq!(mem_apply(LdsOp::Add, 4, 0xffff_ffff, 2, 0), 1);
    assert_eq!(mem_apply(LdsOp::Add, 8, 0xffff_ffff, 2, 0), 0x1_0000_0001);
    assert_eq!(mem_apply(LdsOp::MinI, 4, 0xffff_ffff, 5, 0), 0xffff_ffff);
    assert_eq!(mem_apply(LdsOp::MinI, 8, 0xffff_ffff, 5, 0), 5);
    assert_eq!(mem_apply(LdsOp::MaxU, 4, 0xffff_ffff, 5, 0), 0xffff_ffff);
    assert_eq!(mem_apply(LdsOp::Inc, 4, 7, 7, 0), 0);
    assert_eq!(mem_apply(LdsOp::Dec, 4, 0, 7, 0), 7);
    assert_eq!(mem_apply(LdsOp::Csub, 4, 3, 5, 0), 0);
    assert_eq!(mem_apply(LdsOp::Rsub, 4, 3, 5, 0), 2);
}

#[test]
fn ds_add_f32() {
    assert_eq!(fadd32(0x3f80_0000, 0x3f80_0000, true), 0x4000_0000);
    assert_eq!(fadd32(0x7f80_0000, 0xff80_0000, true), 0x7fc0_0000);
    assert_eq!(fadd32(1, 1, true), 0);
    assert_eq!(fadd32(1, 1, false), 2);
    assert_eq!(
        mem_apply(LdsOp::FAdd { flush: false }, 4, 1, 0x007f_fffe, 0),
        0x007f_ffff
    );
}

#[test]
fn float_compare_and_swap() {
    let fc = LdsOp::FCmpSwap { flush: true };
    assert!(
        mem_swaps(fc, 4, 1, 0x8000_0000),
        "flushed denormal equals -0"
    );
    assert!(!mem_swaps(LdsOp::Write, 4, 1, 0x8000_0000), "bits differ");
    assert!(mem_swaps(fc, 8, F64_SIGN, 0));
}
