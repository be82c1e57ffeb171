//! The transfer functions against every value they describe: for each pair of operands with
//! bits 0..3 known 0, known 1 or unknown (bits 4.. known 0), every result the values allow
//! must agree with the known bits of the result.

use super::*;

/// The 81 known-bits patterns of a 4-bit value, each with the values it allows.
fn patterns() -> Vec<(Bits, Vec<u64>)> {
    let mut out = Vec::new();
    for code in 0..81u32 {
        let (mut zero, mut one) = (!0xfu64, 0u64);
        let mut c = code;
        for bit in 0..4 {
            match c % 3 {
                0 => zero |= 1 << bit,
                1 => one |= 1 << bit,
                _ => {}
            }
            c /= 3;
        }
        let b = Bits { zero, one };
        let values = (0..16u64)
            .filter(|v| v & zero == 0 && v & one == one)
            .collect();
        out.push((b, values));
    }
    out
}

fn concrete(op: IntBin, a: u64, b: u64) -> u64 {
    let (a, b) = (a as u32, b as u32);
    u64::from(match op {
        IntBin::Add => a.wrapping_add(b),
        IntBin::Sub => a.wrapping_sub(b),
        IntBin::And => a & b,
        IntBin::Or => a | b,
        IntBin::Xor => a ^ b,
        IntBin::Shl => a << (b % 32),
        IntBin::ShrU => a >> (b % 32),
        _ => unreachable!(),
    })
}

/// Checks `e` (operands handles 0 and 1, result of type `ty`) over every pair of patterns:
/// every value `concrete` gives for values the patterns allow agrees with the known bits, and
/// two constants give a constant.
fn check_pairs(e: &Expr, ty: Ty, concrete: impl Fn(u64, u64) -> u64) {
    let pats = patterns();
    for (pa, va) in &pats {
        for (pb, vb) in &pats {
            let of = |h: Handle| if h == Handle(0) { *pa } else { *pb };
            let r = eval(e, ty, &of, &|_| Bits::unknown(Ty::U32));
            assert_eq!(r.zero & r.one, 0, "{e:?} {pa:?} {pb:?}");
            for &a in va {
                for &b in vb {
                    let v = concrete(a, b);
                    assert!(
                        v & r.zero == 0 && v & r.one == r.one,
                        "{e:?}: {a:#x}, {b:#x} = {v:#x} against {r:x?} ({pa:x?}, {pb:x?})"
                    );
                }
            }
            if let (Some(a), Some(b)) = (pa.value(), pb.value()) {
                assert_eq!(r.value(), Some(concrete(a, b)), "{e:?} of constants");
            }
        }
    }
}

#[test]
fn every_value_the_operands_allow_agrees_with_the_result() {
    for op in [
        IntBin::Add,
        IntBin::Sub,
        IntBin::And,
        IntBin::Or,
        IntBin::Xor,
        IntBin::Shl,
        IntBin::ShrU,
    ] {
        let e = Expr::IntBin {
            op,
            a: Handle(0),
            b: Handle(1),
        };
        check_pairs(&e, Ty::U32, |a, b| concrete(op, a, b));
    }
}

#[test]
fn equality_is_decided_by_a_bit_known_to_differ_or_by_two_values() {
    for op in [IntCmp::Eq, IntCmp::Ne] {
        let e = Expr::IntCmp {
            op,
            a: Handle(0),
            b: Handle(1),
        };
        check_pairs(&e, Ty::Bool, |a, b| {
            u64::from((a == b) == (op == IntCmp::Eq))
        });
    }
    // EXEC all ones: whatever the lane, its bit is set (lane_bit's shift by an unknown amount)
    let all = Bits::constant(Ty::U32, u64::from(u32::MAX));
    let lane = Bits::unknown(Ty::U32);
    let shr = Expr::IntBin {
        op: IntBin::ShrU,
        a: Handle(0),
        b: Handle(1),
    };
    let of = |h: Handle| if h == Handle(0) { all } else { lane };
    let r = eval(&shr, Ty::U32, &of, &|_| Bits::unknown(Ty::U32));
    assert!(r.is_one(0), "{r:x?}");
}

#[test]
fn a_carry_into_a_known_word_leaves_the_bits_it_cannot_reach() {
    // 0x8000_1000 + (0 or 1), as s_addc_u32 adds a carry to a V#'s second word
    let word = Bits::constant(Ty::U32, 0x8000_1000);
    let carry = Bits { zero: !1, one: 0 };
    let sum = add(word, carry, 0, u64::from(u32::MAX));
    assert!(sum.is_one(31) && sum.is_one(12));
    assert_eq!(
        sum.zero & 0xffff_ffff,
        0x7fff_effe,
        "bits 1..=30 but 12 known 0"
    );
    // 0x8000_1fff + (0 or 1): the carry may run through bit 12, not into bit 31
    let sum = add(
        Bits::constant(Ty::U32, 0x8000_1fff),
        carry,
        0,
        u64::from(u32::MAX),
    );
    assert!(sum.is_one(31));
    assert_eq!(sum.one & 0xffff, 0, "bits 0..=13 may change");
}

#[test]
fn conversions_keep_the_bits_within_the_width() {
    let x = Bits::constant(Ty::U64, 0x1_8000_0001);
    let e = Expr::Convert {
        op: Convert::TruncU64,
        a: Handle(0),
        to: Ty::U32,
    };
    let r = eval(&e, Ty::U32, &|_| x, &|_| Bits::unknown(Ty::U32));
    assert_eq!(r.value(), Some(0x8000_0001));
    let e = Expr::Pack64 {
        lo: Handle(0),
        hi: Handle(1),
    };
    let (lo, hi) = (Bits::constant(Ty::U32, 7), Bits::unknown(Ty::U32));
    let of = |h: Handle| if h == Handle(0) { lo } else { hi };
    let r = eval(&e, Ty::U64, &of, &|_| Bits::unknown(Ty::U32));
    assert_eq!((r.zero as u32, r.one as u32), (!7, 7));
    assert_eq!(r.zero >> 32 | r.one >> 32, 0, "the high word unknown");
}
