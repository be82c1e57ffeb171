//! The fuzzer's own draws: source operands that are not registers (inline constants, literals
//! biased to [`crate::specials`]) and random float modes.

use rand::Rng;
use rdnaprobe_dataset::ModeCells;

use crate::specials::{f16_value, f32_near, pick, INT};

/// A source operand that is not a register: an inline constant (integers -16..64 and the
/// float constants) or, when `literal` is allowed, a 32-bit literal biased to special values.
pub fn constant(rng: &mut impl Rng, literal: bool) -> String {
    const FLOATS: &[&str] = &[
        "0.5",
        "-0.5",
        "1.0",
        "-1.0",
        "2.0",
        "-2.0",
        "4.0",
        "-4.0",
        "0.15915494",
    ];
    if literal && rng.gen_bool(0.4) {
        let v = match rng.gen_range(0..3) {
            0 => f32_near(rng),
            1 => f16_value(rng) | (f16_value(rng) << 16),
            _ => pick(rng, INT).wrapping_add(0x100),
        };
        return format!("0x{v:x}");
    }
    if rng.gen_bool(0.5) {
        pick(rng, FLOATS).to_string()
    } else {
        rng.gen_range(-16i32..=64).to_string()
    }
}

/// A random float mode with every cell stated.
pub fn mode(rng: &mut impl Rng) -> ModeCells {
    ModeCells {
        ieee: Some(rng.gen_range(0..2)),
        dx10_clamp: Some(rng.gen_range(0..2)),
        denorm32: Some(rng.gen_range(0..4)),
        denorm16: Some(rng.gen_range(0..4)),
        round32: Some(rng.gen_range(0..4)),
        round16: Some(rng.gen_range(0..4)),
        fp16_overflow: Some(u8::from(rng.gen_bool(0.25))),
    }
}
