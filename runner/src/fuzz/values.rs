//! Random operands for the fuzzer: input dwords biased to the values where float and integer
//! rules differ (signed zeros, infinities, NaNs with payloads, denormals, the normal limits,
//! values next to 1, integer edges; as f32, as packed f16 halves and as halves of f64 values),
//! inline constants and literals for source slots, and random float modes.

use rand::Rng;
use rdnaprobe_dataset::ModeCells;

const F32: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7f80_0000,
    0xff80_0000,
    0x7fc0_0000,
    0xffc0_0000,
    0x7fc1_2345,
    0x7f80_0001,
    0x7fa0_0000,
    0xff81_2345,
    0x0000_0001,
    0x007f_ffff,
    0x8000_0001,
    0x807f_ffff,
    0x0040_0000,
    0x0080_0000,
    0x8080_0000,
    0x7f7f_ffff,
    0xff7f_ffff,
    0x3f7f_ffff,
    0x3f80_0000,
    0x3f80_0001,
    0xbf80_0000,
    0xbf7f_ffff,
    0x3f00_0000,
    0x4000_0000,
    0x4b00_0000,
    0x4f00_0000,
    0x4f80_0000,
    0xcf00_0000,
    0x477f_e000,
    0x3380_0000,
    0x4380_0000,
];

const F16: &[u16] = &[
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d01, 0xfd23, 0x0001, 0x03ff, 0x8001, 0x83ff,
    0x0400, 0x8400, 0x7bff, 0xfbff, 0x3bff, 0x3c00, 0x3c01, 0xbc00, 0x3800, 0x4000, 0x5bf0,
];

/// High words of f64 specials (the low word comes from [`F64_LO`]).
const F64_HI: &[u32] = &[
    0x0000_0000,
    0x8000_0000,
    0x7ff0_0000,
    0xfff0_0000,
    0x7ff8_0000,
    0x7ff0_0001,
    0xfff4_0000,
    0x000f_ffff,
    0x800f_ffff,
    0x0010_0000,
    0x8010_0000,
    0x7fef_ffff,
    0xffef_ffff,
    0x3fef_ffff,
    0x3ff0_0000,
    0xbff0_0000,
    0x4330_0000,
    0x41e0_0000,
    0xc1e0_0000,
    0x41f0_0000,
];
const F64_LO: &[u32] = &[0, 1, 0xffff_ffff, 0x8000_0000];

const INT: &[u32] = &[
    0,
    1,
    2,
    3,
    0xffff_ffff,
    0xffff_fffe,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xff,
    0x80,
    0x7f,
    0xffff,
    0x8000,
    0x7fff,
    0x1_0000,
    31,
    32,
    33,
    63,
    64,
    0xffff_0000,
    0x00ff_00ff,
];

fn pick<T: Copy>(rng: &mut impl Rng, v: &[T]) -> T {
    v[rng.gen_range(0..v.len())]
}

/// An f32 near a special value: the value itself, or a few ulps from it.
fn f32_near(rng: &mut impl Rng) -> u32 {
    let v = pick(rng, F32);
    match rng.gen_range(0..4) {
        0 => v.wrapping_add(rng.gen_range(1..4)),
        1 => v.wrapping_sub(rng.gen_range(1..4)),
        _ => v,
    }
}

fn f16_value(rng: &mut impl Rng) -> u32 {
    if rng.gen_bool(0.75) {
        u32::from(pick(rng, F16))
    } else {
        rng.gen_range(0..=0xffff)
    }
}

/// One input dword, biased to special values.
pub fn input_dword(rng: &mut impl Rng) -> u32 {
    match rng.gen_range(0..16) {
        0..=4 => f32_near(rng),
        5..=7 => f16_value(rng) | (f16_value(rng) << 16),
        8 => pick(rng, F64_HI) | rng.gen_range(0..2),
        9 => pick(rng, F64_LO),
        10..=12 => {
            let v = pick(rng, INT);
            if rng.gen_bool(0.3) {
                v.wrapping_neg()
            } else {
                v
            }
        }
        13 => {
            // a random finite f32 with a small exponent spread around 1
            let e = rng.gen_range(100u32..156) << 23;
            e | rng.gen_range(0..1 << 23) | (u32::from(rng.gen_bool(0.5)) << 31)
        }
        _ => rng.gen(),
    }
}

/// Six input dwords; a 64-bit pair sometimes gets an f64 special as a whole.
pub fn inputs(rng: &mut impl Rng) -> [u32; 6] {
    let mut v = [0u32; 6];
    for x in v.iter_mut() {
        *x = input_dword(rng);
    }
    for p in 0..3 {
        if rng.gen_bool(0.25) {
            v[2 * p] = pick(rng, F64_LO);
            v[2 * p + 1] = pick(rng, F64_HI);
        }
    }
    v
}

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
