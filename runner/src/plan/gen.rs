//! Operand generators: each is an indexed sequence of bit patterns, so row `i` of a sweep can
//! be computed without generating rows `0..i` (shards start anywhere and streaming runs compute
//! a chunk's inputs from its first row). Sweep specs name them in TOML (`special`, `range`,
//! `random`, `values`), `exhaustive` on the command line (`f32:all`, `range:A:B`, `const:X`);
//! both end up here.
//!
//! Special-value grids follow the TestFloat idea of covering every class of a binary float
//! format from its parameters (exponent and significand widths), one function for f16, f32
//! and f64: zeros, denormals, normals at the edges and around 1.0, infinities, and quiet and
//! signalling NaNs with payloads, both signs.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Operand type: how wide a generated value is and where it goes. `f16` values sit in the low
/// 16 bits with the upper half zero; `f64` values fill two consecutive inputs (low dword first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum OpType {
    U32,
    F16,
    F32,
    F64,
}

impl OpType {
    pub fn bits(self) -> u32 {
        match self {
            OpType::F16 => 16,
            OpType::U32 | OpType::F32 => 32,
            OpType::F64 => 64,
        }
    }
    /// Inputs (dwords) one value occupies.
    pub fn dwords(self) -> usize {
        if self == OpType::F64 {
            2
        } else {
            1
        }
    }
    fn mask(self) -> u64 {
        if self.bits() == 64 {
            u64::MAX
        } else {
            (1u64 << self.bits()) - 1
        }
    }
    fn format(self) -> Option<(u32, u32)> {
        // (exponent bits, significand bits)
        match self {
            OpType::F16 => Some((5, 10)),
            OpType::F32 => Some((8, 23)),
            OpType::F64 => Some((11, 52)),
            OpType::U32 => None,
        }
    }
}

/// One input's values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Generator {
    /// A fixed list (explicit values or a special-value grid).
    List(Vec<u64>),
    /// Every value of `lo..=hi`.
    Range { lo: u64, hi: u64 },
    /// `count` values from ChaCha8 seeded with `seed`; value k uses the stream's words
    /// 2k and 2k+1, so it does not depend on which other values were drawn.
    Random { count: u64, seed: u64, mask: u64 },
    /// Every bit pattern of a `bits`-wide value (16: all f16 values in bits 15:0, 32: all
    /// 2^32 f32 values), in increasing order.
    All { bits: u32 },
    /// One value.
    Const(u64),
}

impl Generator {
    /// Number of values.
    pub fn count(&self) -> u64 {
        match self {
            Generator::List(v) => v.len() as u64,
            Generator::Range { lo, hi } => hi - lo + 1,
            Generator::Random { count, .. } => *count,
            Generator::All { bits } => 1 << bits,
            Generator::Const(_) => 1,
        }
    }

    /// Value `k` (`k < count()`).
    pub fn get(&self, k: u64) -> u64 {
        match self {
            Generator::List(v) => v[k as usize],
            Generator::Range { lo, .. } => lo + k,
            Generator::Random { seed, mask, .. } => {
                let mut rng = ChaCha8Rng::seed_from_u64(*seed);
                rng.set_word_pos(u128::from(k) * 2);
                rng.next_u64() & mask
            }
            Generator::All { .. } => k,
            Generator::Const(v) => *v,
        }
    }

    /// `(first, count)` when value k is `first + k` (what a device computes from the row
    /// index by itself); `None` for lists and random values.
    pub fn counter(&self) -> Option<(u64, u64)> {
        match *self {
            Generator::Range { lo, hi } => Some((lo, hi - lo + 1)),
            Generator::All { bits } => Some((0, 1 << bits)),
            Generator::Const(v) => Some((v, 1)),
            Generator::List(_) | Generator::Random { .. } => None,
        }
    }

    /// Parses the command-line spelling of a 32-bit input: `f32:all` (`u32:all`), `f16:all`
    /// (`u16:all`), `range:FIRST:LAST` (inclusive, decimal or 0x hex) or `const:X` (or a bare
    /// number).
    pub fn parse_cli(s: &str) -> Result<Generator, String> {
        let t = s.trim();
        match t {
            "f32:all" | "u32:all" => return Ok(Generator::All { bits: 32 }),
            "f16:all" | "u16:all" => return Ok(Generator::All { bits: 16 }),
            _ => {}
        }
        if let Some(r) = t.strip_prefix("range:") {
            let (a, b) = r.split_once(':').ok_or("expected range:FIRST:LAST")?;
            let first = cli_number(a).ok_or_else(|| format!("`{a}` is not a u32"))?;
            let last = cli_number(b).ok_or_else(|| format!("`{b}` is not a u32"))?;
            if last < first {
                return Err(format!("empty range: {first:#x} > {last:#x}"));
            }
            return Ok(Generator::Range {
                lo: u64::from(first),
                hi: u64::from(last),
            });
        }
        let c = t.strip_prefix("const:").unwrap_or(t);
        cli_number(c)
            .map(|v| Generator::Const(u64::from(v)))
            .ok_or_else(|| "expected f32:all, f16:all, range:FIRST:LAST or const:VALUE".to_string())
    }

    pub fn random(count: u64, seed: u64, ty: OpType) -> Generator {
        Generator::Random {
            count,
            seed,
            mask: ty.mask(),
        }
    }
}

fn cli_number(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

/// The command-line spelling ([`Generator::parse_cli`] reads it back for the counters).
impl std::fmt::Display for Generator {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Generator::All { bits } => write!(f, "f{bits}:all"),
            Generator::Range { lo, hi } => write!(f, "range:{lo:#010x}:{hi:#010x}"),
            Generator::Const(v) => write!(f, "const:{v:#010x}"),
            Generator::List(v) => write!(f, "{} listed values", v.len()),
            Generator::Random { count, seed, .. } => {
                write!(f, "{count} random (ChaCha8, seed {seed})")
            }
        }
    }
}

/// The special-value grid of a float type at `level` 1 or 2 (level 2 is a superset), both
/// signs, without duplicates, in a fixed order.
pub fn special_grid(ty: OpType, level: u8) -> Vec<u64> {
    let Some((e, m)) = ty.format() else {
        return Vec::new();
    };
    let mant = (1u64 << m) - 1;
    let emax = (1u64 << e) - 1; // all-ones exponent: inf/NaN
    let bias = (1u64 << (e - 1)) - 1;
    let quiet = 1u64 << (m - 1);
    let f = |exp: u64, sig: u64| (exp << m) | (sig & mant);
    let mut pos = vec![
        0,                            // zero
        1,                            // min denormal
        mant,                         // max denormal
        f(1, 0),                      // min normal
        f(emax - 1, mant),            // max normal
        f(bias, 0),                   // 1.0
        f(bias - 1, mant),            // 1.0 - ulp/2 (largest below one)
        f(bias, 1),                   // 1.0 + ulp
        f(bias - 1, 0),               // 0.5
        f(bias + 1, 0),               // 2.0
        f(bias + 1, 1),               // 2.0 + ulp
        f(emax, 0),                   // infinity
        f(emax, quiet),               // default quiet NaN
        f(emax, quiet | 1),           // quiet NaN with payload
        f(emax, quiet | (mant >> 2)), // quiet NaN, wide payload
        f(emax, 1),                   // signalling NaN, smallest payload
        f(emax, mant >> 1),           // signalling NaN, widest payload
        f(emax, (quiet >> 1) | 5),    // signalling NaN with payload
    ];
    if level >= 2 {
        let alt5 = 0x5555_5555_5555_5555 & mant;
        let alta = 0xaaaa_aaaa_aaaa_aaaa & mant;
        let sigs = [
            0,
            1,
            2,
            mant,
            mant - 1,
            quiet,
            quiet - 1,
            quiet + 1,
            alt5,
            alta,
        ];
        // Exponents at the edges, around the bias, and where a result of an add or a
        // multiply would cross into the denormal or overflow range.
        let mut exps = vec![
            1,
            2,
            3,
            bias.saturating_sub(u64::from(m) + 1).max(1),
            bias - 2,
            bias - 1,
            bias,
            bias + 1,
            bias + 2,
            bias + u64::from(m),
            bias + u64::from(m) + 1,
            emax - 2,
            emax - 1,
        ];
        exps.retain(|&x| x >= 1 && x < emax);
        for &s in &sigs {
            pos.push(f(0, s)); // denormal patterns (0 is zero)
        }
        for &x in &exps {
            for &s in &sigs {
                pos.push(f(x, s));
            }
        }
        for s in [2, 3, quiet >> 1, mant - quiet] {
            pos.push(f(emax, s)); // more signalling NaN payloads
        }
        for s in [quiet | 2, mant] {
            pos.push(f(emax, s)); // more quiet NaN payloads
        }
    }
    let sign = 1u64 << (e + m);
    let mut out = Vec::with_capacity(pos.len() * 2);
    for v in pos.iter().flat_map(|&v| [v, v | sign]) {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classes(ty: OpType, grid: &[u64]) -> [bool; 7] {
        let (e, m) = ty.format().unwrap();
        let mant = (1u64 << m) - 1;
        let emax = (1u64 << e) - 1;
        let mut seen = [false; 7];
        for &v in grid {
            let exp = (v >> m) & emax;
            let sig = v & mant;
            let negative = (v >> (e + m)) & 1 == 1;
            let class = match (exp, sig) {
                (0, 0) => 0,
                (0, _) => 1,
                (x, 0) if x == emax => 3,
                (x, s) if x == emax && s >> (m - 1) == 1 => 4,
                (x, _) if x == emax => 5,
                _ => 2,
            };
            seen[class] = true;
            seen[6] |= negative;
        }
        seen
    }

    #[test]
    fn level1_covers_every_class_in_every_format() {
        for ty in [OpType::F16, OpType::F32, OpType::F64] {
            let g = special_grid(ty, 1);
            assert_eq!(classes(ty, &g), [true; 7], "{ty:?}");
            assert!(g.iter().all(|&v| v & !ty.mask() == 0));
            let mut sorted = g.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), g.len(), "no duplicates");
        }
        let f32 = special_grid(OpType::F32, 1);
        for v in [
            0x0000_0001,
            0x007f_ffff,
            0x0080_0000,
            0x7f7f_ffff,
            0x3f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7f80_0001,
        ] {
            assert!(f32.contains(&v), "{v:#x}");
        }
        assert!(special_grid(OpType::F16, 1).contains(&0x7c00));
        assert!(special_grid(OpType::F64, 1).contains(&0x3ff0_0000_0000_0000));
    }

    #[test]
    fn level2_is_a_superset() {
        for ty in [OpType::F16, OpType::F32, OpType::F64] {
            let l1 = special_grid(ty, 1);
            let l2 = special_grid(ty, 2);
            // docs/sweeps.md states these sizes.
            assert_eq!((l1.len(), l2.len()), (36, 304), "{ty:?}");
            assert!(l1.iter().all(|v| l2.contains(v)));
        }
    }

    #[test]
    fn command_line_generators_parse_count_and_print() {
        let all32 = Generator::parse_cli("f32:all").unwrap();
        assert_eq!((all32.count(), all32.get(7)), (1 << 32, 7));
        assert_eq!(Generator::parse_cli("u16:all").unwrap().count(), 65536);
        let r = Generator::parse_cli("range:0x10:0x1f").unwrap();
        assert_eq!((r.count(), r.get(0), r.get(15)), (16, 0x10, 0x1f));
        assert_eq!(r.to_string(), "range:0x00000010:0x0000001f");
        assert_eq!(r.counter(), Some((0x10, 16)));
        let c = Generator::parse_cli("const:0x3f800000").unwrap();
        assert_eq!(c, Generator::Const(0x3f80_0000));
        assert_eq!(c.to_string(), "const:0x3f800000");
        assert_eq!(Generator::parse_cli("7").unwrap(), Generator::Const(7));
        assert_eq!(all32.to_string(), "f32:all");
        assert!(Generator::parse_cli("range:5:4").is_err());
        assert!(Generator::parse_cli("f64:all").is_err());
        assert_eq!(Generator::List(vec![1, 2]).counter(), None);
    }

    #[test]
    fn random_values_depend_only_on_seed_and_index() {
        let g = Generator::random(100, 7, OpType::F32);
        let all: Vec<u64> = (0..100).map(|k| g.get(k)).collect();
        assert_eq!(g.get(57), all[57]);
        assert!(all.iter().all(|&v| v <= u64::from(u32::MAX)));
        let distinct: std::collections::HashSet<_> = all.iter().collect();
        assert!(distinct.len() > 95);
        let other = Generator::random(100, 8, OpType::F32);
        assert_ne!(other.get(0), g.get(0));
    }
}
