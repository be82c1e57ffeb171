//! Sweep specs (TOML, docs/sweeps.md): the body, one generator per input, how inputs combine,
//! the float-mode matrix and the wave sizes, read into the plan model ([`crate::plan`]). A
//! parsed [`Sweep`] maps a row index to its row, so the row order is a pure function of the
//! spec: shards are slices of that order.
//!
//! Row order: modes outermost (wave, then the mode fields in schema order, each list in the
//! order written), inputs innermost (cartesian: in0 slowest, the last declared input fastest;
//! zip: the k-th value of every generator).

use std::collections::BTreeMap;

use anyhow::{bail, Context};
use rdnaprobe_dataset::{parse_hex, Row};
use serde::{Deserialize, Serialize};

use crate::plan::gen::{special_grid, Generator, OpType};
use crate::plan::modes::ModeMatrix;
use crate::plan::order::{digits, Fastest};

/// The spec as written in TOML (and recorded in manifests as JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecFile {
    pub name: String,
    /// gfx target written into every row's `gfx` cell.
    pub gfx: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    pub body: BodySpec,
    #[serde(default)]
    pub combine: Combine,
    #[serde(default)]
    pub inputs: BTreeMap<String, InputSpec>,
    #[serde(default)]
    pub modes: ModeLists,
    /// An image sweep: waves with a T#, an S# and texels (`super::image`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<super::image::ImageSpec>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodySpec {
    /// Instruction words, `0x` hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub words: Option<Vec<String>>,
    /// LLVM-syntax assembly, one instruction per line or `;`-separated, assembled by
    /// `rdnaprobe_isa::assemble`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub asm: Option<String>,
    /// Text for the `instruction` cell; default: the asm text, or the words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instruction: Option<String>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Combine {
    #[default]
    Cartesian,
    Zip,
}

/// One input's generator. Exactly one of `special`, `range`, `random`, `values` is given.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    /// Special-value grid of `f16`, `f32` or `f64`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub special: Option<OpType>,
    /// Grid level: 1 (default) or 2.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<u8>,
    /// Every value of `[lo, hi]`, inclusive.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<[u64; 2]>,
    /// Number of seeded random values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub random: Option<u64>,
    /// Seed of `random` (required with it, recorded in the manifest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Explicit values, `0x` hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub values: Option<Vec<String>>,
    /// Value type for `range`, `random` and `values`: u32 (default), f16, f32, f64.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub ty: Option<OpType>,
}

/// Lists of values per mode field; a missing field is "not stated" (empty cell).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModeLists {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wave: Option<Vec<u32>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ieee: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dx10_clamp: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub denorm32: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub denorm16: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round32: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round16: Option<Vec<u8>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fp16_overflow: Option<Vec<u8>>,
}

/// An input slot: which dword(s) it fills and its values.
#[derive(Clone, Debug)]
struct Slot {
    first: usize,
    ty: OpType,
    gen: Generator,
}

/// A validated sweep: the body words, the input slots and the mode matrix.
#[derive(Clone, Debug)]
pub struct Sweep {
    pub spec: SpecFile,
    pub words: Vec<u32>,
    pub instruction: String,
    slots: Vec<Slot>,
    /// The stated mode fields, in schema order.
    modes: ModeMatrix,
    waves: Vec<Option<u32>>,
    inputs_len: u64,
    total: u64,
}

impl Sweep {
    /// Parses TOML text. `assemble` turns `body.asm` into words.
    pub fn parse(
        text: &str,
        assemble: &dyn Fn(&str) -> anyhow::Result<Vec<u32>>,
    ) -> anyhow::Result<Sweep> {
        let spec: SpecFile = toml::from_str(text).map_err(|e| anyhow::anyhow!("{e}"))?;
        Sweep::from_spec(spec, assemble)
    }

    pub fn from_spec(
        spec: SpecFile,
        assemble: &dyn Fn(&str) -> anyhow::Result<Vec<u32>>,
    ) -> anyhow::Result<Sweep> {
        if spec.name.trim().is_empty() {
            bail!("`name` is empty");
        }
        let (words, default_text) = match (&spec.body.words, &spec.body.asm) {
            (Some(_), Some(_)) => bail!("body: give `words` or `asm`, not both"),
            (None, None) => bail!("body: give `words` or `asm`"),
            (Some(w), None) => {
                let words = w
                    .iter()
                    .enumerate()
                    .map(|(i, s)| {
                        parse_hex(s).map_err(|r| anyhow::anyhow!("body.words[{i}] `{s}`: {r}"))
                    })
                    .collect::<anyhow::Result<Vec<u32>>>()?;
                let text = rdnaprobe_dataset::encoding_cell(&words);
                (words, text)
            }
            (None, Some(a)) => {
                // an image sweep's body names `{op}`, `{dmask}` and `{vdata}`: checked with
                // the first op and DMASK 0x1 here, each variant assembled by `super::image`
                let first = match &spec.image {
                    Some(img) => {
                        let mut t = a.clone();
                        if let Some(op) = img.ops.first() {
                            t = t.replace("{op}", op);
                        }
                        t.replace("{dmask}", "0x1").replace("{vdata}", "v10")
                    }
                    None => a.clone(),
                };
                let words = assemble(&first).with_context(|| format!("body.asm `{a}`"))?;
                (
                    words,
                    a.lines()
                        .map(str::trim)
                        .filter(|l| !l.is_empty())
                        .collect::<Vec<_>>()
                        .join(" ; "),
                )
            }
        };
        if words.is_empty() {
            bail!("body has no instruction words");
        }
        let instruction = spec.body.instruction.clone().unwrap_or(default_text);

        let mut slots: Vec<Slot> = Vec::new();
        let mut used = [false; 6];
        for (key, input) in &spec.inputs {
            let first = match key.strip_prefix("in").and_then(|n| n.parse::<usize>().ok()) {
                Some(n) if n < 6 && key.len() == 3 => n,
                _ => bail!("inputs.{key}: inputs are in0..in5"),
            };
            let (ty, gen) = generator(key, input)?;
            if first + ty.dwords() > used.len() {
                bail!("inputs.{key}: an f64 value needs two inputs, {key} is the last");
            }
            for (d, slot) in used.iter_mut().enumerate().skip(first).take(ty.dwords()) {
                if *slot {
                    bail!(
                        "inputs.{key}: in{d} is already filled by another input (an f64 fills two)"
                    );
                }
                *slot = true;
            }
            if gen.count() == 0 {
                bail!("inputs.{key}: generates no values");
            }
            slots.push(Slot { first, ty, gen });
        }
        slots.sort_by_key(|s| s.first);
        let inputs_len = match spec.combine {
            Combine::Cartesian => slots
                .iter()
                .try_fold(1u64, |acc, s| acc.checked_mul(s.gen.count()))
                .context("the cartesian product of the inputs has more than 2^64 rows")?,
            Combine::Zip => {
                let lens: Vec<u64> = slots.iter().map(|s| s.gen.count()).collect();
                if lens.windows(2).any(|w| w[0] != w[1]) {
                    bail!("combine = \"zip\" needs inputs of equal length, got {lens:?}");
                }
                lens.first().copied().unwrap_or(1)
            }
        };
        let m = &spec.modes;
        let lists = [
            &m.ieee,
            &m.dx10_clamp,
            &m.denorm32,
            &m.denorm16,
            &m.round32,
            &m.round16,
            &m.fp16_overflow,
        ];
        let modes = ModeMatrix::from_lists(lists).map_err(|e| anyhow::anyhow!(e))?;
        let waves = match &m.wave {
            None => vec![Some(32)],
            Some(v) if v.is_empty() => bail!("modes.wave is an empty list"),
            Some(v) => {
                for &w in v {
                    crate::plan::modes::wave(w).map_err(|e| anyhow::anyhow!("modes.wave: {e}"))?;
                }
                v.iter().map(|w| Some(*w)).collect()
            }
        };
        let modes_len = modes.len() * waves.len() as u64;
        let total = inputs_len
            .checked_mul(modes_len)
            .context("the sweep has more than 2^64 rows")?;
        Ok(Sweep {
            spec,
            words,
            instruction,
            slots,
            modes,
            waves,
            inputs_len,
            total,
        })
    }

    /// Rows in the whole sweep.
    pub fn total_rows(&self) -> u64 {
        self.total
    }

    /// SHA-256 of the spec's canonical JSON: equal specs have equal hashes, however the TOML
    /// was laid out.
    pub fn hash(&self) -> String {
        let json = serde_json::to_vec(&self.spec).unwrap_or_default();
        rdnaprobe_dataset::sha256_hex(&json)
    }

    /// Row `index` (`index < total_rows()`), with the `sweep_row` extra cell.
    pub fn row(&self, index: u64) -> Row {
        // Digits: wave outermost, then the modes (the last field fastest), then the inputs.
        let mut d = [0u64; 3];
        let radices = [self.waves.len() as u64, self.modes.len(), self.inputs_len];
        digits(index, &radices, Fastest::Last, &mut d);
        let [wave_idx, mode_idx, input_idx] = d;
        let wave = self.waves[wave_idx as usize];
        let mut inputs = [0u32; 6];
        let mut put = |slot: &Slot, k: u64| {
            let v = slot.gen.get(k);
            inputs[slot.first] = v as u32;
            if slot.ty.dwords() == 2 {
                inputs[slot.first + 1] = (v >> 32) as u32;
            }
        };
        match self.spec.combine {
            Combine::Cartesian => {
                let counts: Vec<u64> = self.slots.iter().map(|s| s.gen.count()).collect();
                let mut ks = vec![0; counts.len()];
                // In0 slowest, the last declared input fastest.
                digits(input_idx, &counts, Fastest::Last, &mut ks);
                for (slot, k) in self.slots.iter().zip(ks) {
                    put(slot, k);
                }
            }
            Combine::Zip => {
                for slot in &self.slots {
                    put(slot, input_idx);
                }
            }
        }
        Row {
            instruction: self.instruction.clone(),
            encoding: self.words.clone(),
            wave,
            mode: self.modes.cells(mode_idx),
            inputs,
            outputs: [None; 16],
            gfx: self.spec.gfx.clone(),
            source: format!("sweep {}", self.spec.name),
            note: String::new(),
            extra: vec![index.to_string()],
        }
    }

    /// One line per input, for manifests and `--dry-run`.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .spec
            .inputs
            .iter()
            .map(|(k, i)| format!("{k}: {}", describe_input(i)))
            .collect();
        parts.push(format!(
            "combine {:?}, {} input rows x {} modes = {} rows",
            self.spec.combine,
            self.inputs_len,
            self.total / self.inputs_len.max(1),
            self.total
        ));
        parts.join("; ")
    }
}

/// The extra column every sweep row carries: its index in the sweep's row order.
pub const SWEEP_ROW_COLUMN: &str = "sweep_row";

fn describe_input(i: &InputSpec) -> String {
    if let Some(t) = i.special {
        format!("{t:?} special grid level {}", i.level.unwrap_or(1))
    } else if let Some([lo, hi]) = i.range {
        format!("range {lo:#x}..={hi:#x}")
    } else if let Some(n) = i.random {
        format!("{n} random (ChaCha8, seed {})", i.seed.unwrap_or(0))
    } else if let Some(v) = &i.values {
        format!("{} listed values", v.len())
    } else {
        "?".into()
    }
}

fn generator(key: &str, i: &InputSpec) -> anyhow::Result<(OpType, Generator)> {
    let given = [
        i.special.is_some(),
        i.range.is_some(),
        i.random.is_some(),
        i.values.is_some(),
    ]
    .iter()
    .filter(|b| **b)
    .count();
    if given != 1 {
        bail!("inputs.{key}: give exactly one of special, range, random, values");
    }
    if i.level.is_some() && i.special.is_none() {
        bail!("inputs.{key}: `level` belongs to `special`");
    }
    if i.seed.is_some() && i.random.is_none() {
        bail!("inputs.{key}: `seed` belongs to `random`");
    }
    if let Some(ty) = i.special {
        if i.ty.is_some() {
            bail!("inputs.{key}: `special` names the type itself; leave out `type`");
        }
        if ty == OpType::U32 {
            bail!("inputs.{key}: special grids exist for f16, f32 and f64");
        }
        let level = i.level.unwrap_or(1);
        if !(1..=2).contains(&level) {
            bail!("inputs.{key}: level is 1 or 2");
        }
        return Ok((ty, Generator::List(special_grid(ty, level))));
    }
    let ty = i.ty.unwrap_or(OpType::U32);
    let max = if ty.bits() == 64 {
        u64::MAX
    } else {
        (1u64 << ty.bits()) - 1
    };
    if let Some([lo, hi]) = i.range {
        if lo > hi || hi > max {
            bail!("inputs.{key}: range [{lo}, {hi}] must satisfy lo <= hi <= {max:#x} ({ty:?})");
        }
        if lo == 0 && hi == u64::MAX {
            bail!("inputs.{key}: a range of 2^64 values is too long");
        }
        return Ok((ty, Generator::Range { lo, hi }));
    }
    if let Some(count) = i.random {
        let seed = i.seed.with_context(|| {
            format!("inputs.{key}: `random` needs a `seed` (it is recorded in the manifest)")
        })?;
        return Ok((ty, Generator::random(count, seed, ty)));
    }
    let values = i.values.as_deref().unwrap_or_default();
    let mut out = Vec::with_capacity(values.len());
    for (n, s) in values.iter().enumerate() {
        let v = parse_value(s, ty)
            .map_err(|r| anyhow::anyhow!("inputs.{key}.values[{n}] `{s}`: {r}"))?;
        out.push(v);
    }
    Ok((ty, Generator::List(out)))
}

fn parse_value(s: &str, ty: OpType) -> Result<u64, String> {
    let digits = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .ok_or("expected 0x-prefixed hex")?;
    let v = u64::from_str_radix(digits, 16).map_err(|e| e.to_string())?;
    if ty.bits() < 64 && v >> ty.bits() != 0 {
        return Err(format!("does not fit in {} bits ({ty:?})", ty.bits()));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_asm(_: &str) -> anyhow::Result<Vec<u32>> {
        bail!("no assembler in this test")
    }

    const SPEC: &str = r#"
name = "t"
gfx = "gfx1036"
[body]
words = ["0xd503000a", "0x00020b04"]
[inputs]
in0 = { values = ["0x1", "0x2", "0x3"] }
in1 = { range = [10, 11] }
[modes]
ieee = [0, 1]
denorm32 = [0, 3]
"#;

    #[test]
    fn row_order_is_modes_outer_inputs_inner_last_input_fastest() {
        let s = Sweep::parse(SPEC, &no_asm).unwrap();
        assert_eq!(s.total_rows(), 3 * 2 * 2 * 2);
        let r0 = s.row(0);
        assert_eq!((r0.inputs[0], r0.inputs[1]), (1, 10));
        let r1 = s.row(1);
        assert_eq!((r1.inputs[0], r1.inputs[1]), (1, 11));
        let r2 = s.row(2);
        assert_eq!((r2.inputs[0], r2.inputs[1]), (2, 10));
        assert_eq!(
            (r0.mode.ieee, r0.mode.denorm32, r0.mode.round32),
            (Some(0), Some(0), None)
        );
        let r6 = s.row(6);
        assert_eq!((r6.mode.ieee, r6.mode.denorm32), (Some(0), Some(3)));
        let r12 = s.row(12);
        assert_eq!((r12.mode.ieee, r12.mode.denorm32), (Some(1), Some(0)));
        assert_eq!(r12.wave, Some(32));
        assert_eq!(r12.extra, vec!["12"]);
        assert_eq!(r12.encoding, vec![0xd503000a, 0x00020b04]);
    }

    #[test]
    fn zip_and_f64_pairs() {
        let spec = r#"
name = "z"
gfx = "gfx1035"
combine = "zip"
[body]
words = ["0xd54c000a"]
[inputs]
in0 = { values = ["0x3ff0000000000000", "0x1"], type = "f64" }
in2 = { random = 2, seed = 5, type = "f64" }
"#;
        let s = Sweep::parse(spec, &no_asm).unwrap();
        assert_eq!(s.total_rows(), 2);
        assert_eq!(&s.row(0).inputs[..2], &[0, 0x3ff0_0000]);
        assert_eq!(&s.row(1).inputs[..2], &[1, 0]);
        assert_ne!(s.row(0).inputs[2..4], s.row(1).inputs[2..4]);
    }

    #[test]
    fn bad_specs_say_why() {
        let cases = [
            (
                SPEC.replace(
                    "in1 = { range = [10, 11] }",
                    "in1 = { range = [10, 11], random = 3 }",
                ),
                "exactly one",
            ),
            (
                SPEC.replace("in1 = { range = [10, 11] }", "in1 = { random = 3 }"),
                "seed",
            ),
            (SPEC.replace("in1 = ", "in7 = "), "in0..in5"),
            (
                SPEC.replace("ieee = [0, 1]", "ieee = [0, 2]"),
                "out of range",
            ),
            (SPEC.replace("\"0x2\"", "\"2\""), "values[1]"),
            (
                SPEC.replace("words = [", "asm = \"v_nop\"\nwords = ["),
                "not both",
            ),
            (
                SPEC.replace(
                    "in1 = { range = [10, 11] }",
                    "in1 = { range = [10, 11] }\nin5 = { special = \"f64\" }",
                ),
                "last",
            ),
            (SPEC.replace("gfx =", "gfxx ="), "unknown field"),
            (
                SPEC.replace("[modes]", "[modes]\nwave = [32, 48]"),
                "modes.wave: 48 is not 32 or 64",
            ),
        ];
        for (text, want) in cases {
            let err = format!("{:#}", Sweep::parse(&text, &no_asm).unwrap_err());
            assert!(err.contains(want), "{want}: {err}");
        }
    }

    #[test]
    fn asm_goes_through_the_assembler() {
        let spec = SPEC.replace(
            "words = [\"0xd503000a\", \"0x00020b04\"]",
            "asm = \"v_add_f32 v10, v4, v5\"",
        );
        let s = Sweep::parse(&spec, &|t: &str| {
            assert_eq!(t, "v_add_f32 v10, v4, v5");
            Ok(vec![0x060a0b04])
        })
        .unwrap();
        assert_eq!(s.words, vec![0x060a0b04]);
        assert_eq!(s.row(0).instruction, "v_add_f32 v10, v4, v5");
        let hash = s.hash();
        let again = Sweep::parse(
            &spec.replace("gfx = \"gfx1036\"", "gfx    =    \"gfx1036\""),
            &|_: &str| Ok(vec![0x060a0b04]),
        )
        .unwrap();
        assert_eq!(again.hash(), hash);
    }
}
