//! Special operand values: the dwords where float and integer rules differ (signed zeros,
//! infinities, NaNs with payloads, denormals, the normal limits, values next to 1, integer
//! edges), as f32, as packed f16 halves and as halves of f64 values, and draws biased to them.
//! Both fuzzers take their operands from here: `fuzz` its input rows and literals, `progfuzz`
//! (through [`Draw`]) its lanes, SGPRs, LDS words and literals. The sweeps' TestFloat-style
//! grids are a different thing: every value of a level, in order ([`crate::plan::gen`]).

use rand::Rng;

/// f32 specials (each sign): zeros, infinities, quiet and signalling NaNs with payloads,
/// denormal and normal limits, values next to 1 and 2, integer-conversion edges.
pub const F32: &[u32] = &[
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

/// f16 specials, the same classes as [`F32`].
pub const F16: &[u16] = &[
    0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7d01, 0xfd23, 0x0001, 0x03ff, 0x8001, 0x83ff,
    0x0400, 0x8400, 0x7bff, 0xfbff, 0x3bff, 0x3c00, 0x3c01, 0xbc00, 0x3800, 0x4000, 0x5bf0,
];

/// High words of f64 specials (the low word comes from [`F64_LO`]).
pub const F64_HI: &[u32] = &[
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
/// Low words of f64 specials.
pub const F64_LO: &[u32] = &[0, 1, 0xffff_ffff, 0x8000_0000];

/// Integer edges: small values, shift counts, sign and width limits of 8, 16 and 32 bits.
pub const INT: &[u32] = &[
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

/// An element of `v` (not empty).
pub fn pick<T: Copy>(rng: &mut impl Rng, v: &[T]) -> T {
    v[rng.gen_range(0..v.len())]
}

/// An f32 near a special value: the value itself, or a few ulps from it.
pub fn f32_near(rng: &mut impl Rng) -> u32 {
    let v = pick(rng, F32);
    match rng.gen_range(0..4) {
        0 => v.wrapping_add(rng.gen_range(1..4)),
        1 => v.wrapping_sub(rng.gen_range(1..4)),
        _ => v,
    }
}

/// A dword whose low half is an f16: a special three times in four, else any half.
pub fn f16_value(rng: &mut impl Rng) -> u32 {
    if rng.gen_bool(0.75) {
        u32::from(pick(rng, F16))
    } else {
        rng.gen_range(0..=0xffff)
    }
}

/// One dword, biased to special values.
pub fn dword(rng: &mut impl Rng) -> u32 {
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

/// Six input dwords (in0..in5); a 64-bit pair sometimes gets an f64 special as a whole.
pub fn inputs(rng: &mut impl Rng) -> [u32; 6] {
    let mut v = [0u32; 6];
    for x in v.iter_mut() {
        *x = dword(rng);
    }
    for p in 0..3 {
        if rng.gen_bool(0.25) {
            v[2 * p] = pick(rng, F64_LO);
            v[2 * p + 1] = pick(rng, F64_HI);
        }
    }
    v
}

/// A [`rand::RngCore`] over the recompiler's SplitMix generator, which `progfuzz` (like the
/// recompiler's random kernels) is seeded with, so that it draws from the same lists.
pub struct Draw<'a>(pub &'a mut rdnaprobe_recompiler::spirv::arbitrary::Rng);

impl rand::RngCore for Draw<'_> {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u64() as u32
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn fill_bytes(&mut self, dest: &mut [u8]) {
        for chunk in dest.chunks_mut(8) {
            let bytes = self.0.next_u64().to_le_bytes();
            chunk.copy_from_slice(&bytes[..chunk.len()]);
        }
    }

    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand::Error> {
        self.fill_bytes(dest);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// The share of draws in `values` among `n` draws of `draw`.
    fn share(n: usize, values: &[u32], mut draw: impl FnMut() -> u32) -> f64 {
        (0..n).filter(|_| values.contains(&draw())).count() as f64 / n as f64
    }

    #[test]
    fn draws_hit_the_lists_often_and_other_values_too() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        let listed: Vec<u32> = F32.iter().chain(INT).copied().collect();
        let s = share(20_000, &listed, || dword(&mut rng));
        assert!((0.2..0.8).contains(&s), "{s}");
        let mut split = rdnaprobe_recompiler::spirv::arbitrary::Rng::new(7);
        let s = share(20_000, &listed, || dword(&mut Draw(&mut split)));
        assert!((0.2..0.8).contains(&s), "{s}");
        // Every list value can come out (an f32 special is drawn itself half the time).
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200_000 {
            seen.insert(dword(&mut rng));
        }
        for v in F32.iter().chain(INT) {
            assert!(seen.contains(v), "{v:#010x} never drawn");
        }
    }

    #[test]
    fn the_splitmix_adapter_fills_every_byte() {
        let mut split = rdnaprobe_recompiler::spirv::arbitrary::Rng::new(3);
        let mut bytes = [0u8; 13];
        rand::RngCore::fill_bytes(&mut Draw(&mut split), &mut bytes);
        let mut again = rdnaprobe_recompiler::spirv::arbitrary::Rng::new(3);
        let (a, b) = (
            again.next_u64().to_le_bytes(),
            again.next_u64().to_le_bytes(),
        );
        assert_eq!(bytes[..8], a);
        assert_eq!(bytes[8..], b[..5]);
    }
}
