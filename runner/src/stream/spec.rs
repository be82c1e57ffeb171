//! What a streaming sweep covers: the input generators (one per input dword), the float-mode
//! list and the row order that makes every row addressable by its index, so that any row of a
//! run can be regenerated from the manifest alone.
//!
//! Row order: modes outermost, in the order of [`parse_modes`]; within a mode, row `i` takes
//! its input values by mixed radix with `in0` varying fastest (`in0 = values0[i % n0]`,
//! `in1 = values1[(i / n0) % n1]`, ...). A row runs as lane `i % wave` of its wave.

use rdnaprobe_isa::FloatMode;
use std::fmt;

/// A float mode as the dataset cells that state it (every cell given).
pub fn mode_cells(m: &FloatMode) -> rdnaprobe_dataset::ModeCells {
    rdnaprobe_dataset::ModeCells {
        ieee: Some(u8::from(m.ieee)),
        dx10_clamp: Some(u8::from(m.dx10_clamp)),
        denorm32: Some(m.denorm32),
        denorm16: Some(m.denorm16),
        round32: Some(m.round32),
        round16: Some(m.round16),
        fp16_overflow: Some(u8::from(m.fp16_overflow)),
    }
}

/// Most rows one mode may have (2^40): far beyond an exhaustive 2^32 sweep, small enough
/// that row indices, products and byte counts never overflow.
pub const MAX_ROWS_PER_MODE: u64 = 1 << 40;

/// The values of one input dword.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputGen {
    /// Every u32 bit pattern (all 2^32 f32 values), in increasing order.
    AllF32,
    /// Every f16 bit pattern in bits 15:0 (65,536 values), upper half zero.
    AllF16,
    /// `first..=last`, in increasing order.
    Range { first: u32, last: u32 },
    /// One value.
    Const(u32),
}

/// A malformed `--input` or `--modes` argument (the binary reports these with anyhow).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SpecError {
    Input { arg: String, reason: String },
    Modes { arg: String, reason: String },
    TooLarge { rows: u128 },
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Input { arg, reason } => write!(f, "input `{arg}`: {reason}"),
            SpecError::Modes { arg, reason } => write!(f, "modes `{arg}`: {reason}"),
            SpecError::TooLarge { rows } => write!(
                f,
                "the sweep has {rows} rows per mode, more than the limit of {MAX_ROWS_PER_MODE}"
            ),
        }
    }
}

impl std::error::Error for SpecError {}

fn number(s: &str) -> Option<u32> {
    let s = s.trim();
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(h) => u32::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

impl InputGen {
    /// Parses `f32:all`, `f16:all`, `range:A:B` (inclusive, decimal or 0x hex) or `const:X`
    /// (or a bare number).
    pub fn parse(s: &str) -> Result<InputGen, String> {
        let t = s.trim();
        match t {
            "f32:all" | "u32:all" => return Ok(InputGen::AllF32),
            "f16:all" | "u16:all" => return Ok(InputGen::AllF16),
            _ => {}
        }
        if let Some(r) = t.strip_prefix("range:") {
            let (a, b) = r.split_once(':').ok_or("expected range:FIRST:LAST")?;
            let first = number(a).ok_or_else(|| format!("`{a}` is not a u32"))?;
            let last = number(b).ok_or_else(|| format!("`{b}` is not a u32"))?;
            if last < first {
                return Err(format!("empty range: {first:#x} > {last:#x}"));
            }
            return Ok(InputGen::Range { first, last });
        }
        let c = t.strip_prefix("const:").unwrap_or(t);
        number(c)
            .map(InputGen::Const)
            .ok_or_else(|| "expected f32:all, f16:all, range:FIRST:LAST or const:VALUE".to_string())
    }

    /// Number of values.
    pub fn len(&self) -> u64 {
        match *self {
            InputGen::AllF32 => 1 << 32,
            InputGen::AllF16 => 1 << 16,
            InputGen::Range { first, last } => u64::from(last - first) + 1,
            InputGen::Const(_) => 1,
        }
    }

    /// The `i`-th value (`i < len()`).
    pub fn value(&self, i: u64) -> u32 {
        match *self {
            InputGen::AllF32 | InputGen::AllF16 => i as u32,
            InputGen::Range { first, .. } => first.wrapping_add(i as u32),
            InputGen::Const(v) => v,
        }
    }
}

impl fmt::Display for InputGen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            InputGen::AllF32 => f.write_str("f32:all"),
            InputGen::AllF16 => f.write_str("f16:all"),
            InputGen::Range { first, last } => write!(f, "range:{first:#010x}:{last:#010x}"),
            InputGen::Const(v) => write!(f, "const:{v:#010x}"),
        }
    }
}

/// The six input generators of a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inputs {
    pub gens: [InputGen; 6],
}

impl Inputs {
    /// Parses `inN=GEN` arguments; inputs not named are `const:0`.
    pub fn parse(args: &[String]) -> Result<Inputs, SpecError> {
        let mut gens = [InputGen::Const(0); 6];
        let mut named = [false; 6];
        for arg in args {
            let bad = |reason: String| SpecError::Input {
                arg: arg.clone(),
                reason,
            };
            let (name, gen) = arg
                .split_once('=')
                .ok_or_else(|| bad("expected inN=GEN".into()))?;
            let idx = name
                .trim()
                .strip_prefix("in")
                .and_then(|n| n.parse::<usize>().ok())
                .filter(|&n| n < 6)
                .ok_or_else(|| bad(format!("`{name}` is not one of in0..in5")))?;
            if named[idx] {
                return Err(bad(format!("in{idx} is given twice")));
            }
            named[idx] = true;
            gens[idx] = InputGen::parse(gen).map_err(bad)?;
        }
        let inputs = Inputs { gens };
        let rows: u128 = gens.iter().map(|g| u128::from(g.len())).product();
        if rows > u128::from(MAX_ROWS_PER_MODE) {
            return Err(SpecError::TooLarge { rows });
        }
        Ok(inputs)
    }

    /// Rows per mode.
    pub fn rows(&self) -> u64 {
        self.gens.iter().map(InputGen::len).product()
    }

    /// The input dwords of row `i` (see the module docs for the order).
    pub fn row(&self, mut i: u64) -> [u32; 6] {
        let mut out = [0u32; 6];
        for (o, g) in out.iter_mut().zip(&self.gens) {
            let n = g.len();
            *o = g.value(i % n);
            i /= n;
        }
        out
    }

    /// The generators as the device computes them (`first + index`, `count` values each): the
    /// same values in the same row order as [`Inputs::row`].
    pub fn ranges(&self) -> [rdnaprobe_recompiler::spirv::InputRange; 6] {
        self.gens.map(|g| rdnaprobe_recompiler::spirv::InputRange {
            first: g.value(0),
            count: g.len(),
        })
    }

    /// Writes the inputs of rows `first..first + out.len()` into `out`.
    pub fn fill(&self, first: u64, out: &mut [[u32; 6]]) {
        // The common exhaustive shape (in0 varies, the rest constant) is a counter.
        let rest_const = self.gens[1..].iter().all(|g| g.len() == 1);
        if rest_const {
            let base = self.row(first);
            let g0 = self.gens[0];
            let n0 = g0.len();
            for (k, row) in out.iter_mut().enumerate() {
                *row = base;
                row[0] = g0.value((first + k as u64) % n0);
            }
        } else {
            for (k, row) in out.iter_mut().enumerate() {
                *row = self.row(first + k as u64);
            }
        }
    }

    /// The generators as they are spelled on the command line.
    pub fn describe(&self) -> Vec<String> {
        self.gens
            .iter()
            .enumerate()
            .map(|(i, g)| format!("in{i}={g}"))
            .collect()
    }
}

/// Parses a mode list: `default`, `all16` (denorm 0..3 x round 0..3, both widths: the 16
/// denormal/rounding modes), or comma-separated `FIELD=VALUES` where VALUES is `all` or values
/// separated by `/`. Fields: `ieee`, `dx10_clamp`, `denorm32`, `denorm16`, `denorm` (both),
/// `round32`, `round16`, `round` (both), `fp16_overflow`. Unnamed fields keep
/// [`FloatMode::DEFAULT`]. The list is the cartesian product, first field outermost.
pub fn parse_modes(arg: &str) -> Result<Vec<FloatMode>, SpecError> {
    let bad = |reason: String| SpecError::Modes {
        arg: arg.to_string(),
        reason,
    };
    let spec = match arg.trim() {
        "default" => return Ok(vec![FloatMode::DEFAULT]),
        "all16" => "denorm=all,round=all",
        s => s,
    };
    let mut modes = vec![FloatMode::DEFAULT];
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (field, values) = part
            .split_once('=')
            .ok_or_else(|| bad(format!("`{part}` is not FIELD=VALUES")))?;
        let field = field.trim();
        let max: u8 = match field {
            "ieee" | "dx10_clamp" | "fp16_overflow" => 1,
            "denorm32" | "denorm16" | "denorm" | "round32" | "round16" | "round" => 3,
            _ => return Err(bad(format!("unknown field `{field}`"))),
        };
        let vals: Vec<u8> = if values.trim() == "all" {
            (0..=max).collect()
        } else {
            values
                .split('/')
                .map(|v| {
                    v.trim()
                        .parse::<u8>()
                        .ok()
                        .filter(|&v| v <= max)
                        .ok_or_else(|| bad(format!("`{v}` is not a value of {field} (0..={max})")))
                })
                .collect::<Result<_, _>>()?
        };
        let mut next = Vec::with_capacity(modes.len() * vals.len());
        for m in &modes {
            for &v in &vals {
                let mut m = *m;
                match field {
                    "ieee" => m.ieee = v != 0,
                    "dx10_clamp" => m.dx10_clamp = v != 0,
                    "fp16_overflow" => m.fp16_overflow = v != 0,
                    "denorm32" => m.denorm32 = v,
                    "denorm16" => m.denorm16 = v,
                    "denorm" => (m.denorm32, m.denorm16) = (v, v),
                    "round32" => m.round32 = v,
                    "round16" => m.round16 = v,
                    _ => (m.round32, m.round16) = (v, v),
                }
                next.push(m);
            }
        }
        modes = next;
    }
    let mut seen = std::collections::HashSet::new();
    modes.retain(|m| seen.insert(*m));
    Ok(modes)
}

/// A mode as `ieee=1 dx10_clamp=1 denorm32=0 ...` (the manifest's and the progress line's
/// spelling).
pub fn mode_text(m: &FloatMode) -> String {
    format!(
        "ieee={} dx10_clamp={} denorm32={} denorm16={} round32={} round16={} fp16_overflow={}",
        u8::from(m.ieee),
        u8::from(m.dx10_clamp),
        m.denorm32,
        m.denorm16,
        m.round32,
        m.round16,
        u8::from(m.fp16_overflow)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generators_parse_and_count() {
        assert_eq!(InputGen::parse("f32:all").unwrap().len(), 1 << 32);
        assert_eq!(InputGen::parse("f16:all").unwrap().len(), 65536);
        let r = InputGen::parse("range:0x10:0x1f").unwrap();
        assert_eq!((r.len(), r.value(0), r.value(15)), (16, 0x10, 0x1f));
        assert_eq!(
            InputGen::parse("const:0x3f800000").unwrap(),
            InputGen::Const(0x3f80_0000)
        );
        assert_eq!(InputGen::parse("7").unwrap(), InputGen::Const(7));
        assert!(InputGen::parse("range:5:4").is_err());
        assert!(InputGen::parse("f64:all").is_err());
    }

    #[test]
    fn rows_follow_mixed_radix_with_in0_fastest() {
        let inputs = Inputs::parse(&[
            "in0=range:0:2".into(),
            "in2=range:10:11".into(),
            "in5=9".into(),
        ])
        .unwrap();
        assert_eq!(inputs.rows(), 6);
        assert_eq!(inputs.row(0), [0, 0, 10, 0, 0, 9]);
        assert_eq!(inputs.row(4), [1, 0, 11, 0, 0, 9]);
        let mut filled = vec![[0u32; 6]; 4];
        inputs.fill(2, &mut filled);
        assert_eq!(filled, (2..6).map(|i| inputs.row(i)).collect::<Vec<_>>());
        let counter = Inputs::parse(&["in0=f16:all".into(), "in1=5".into()]).unwrap();
        let mut filled = vec![[0u32; 6]; 3];
        counter.fill(65534, &mut filled);
        assert_eq!(filled[0], [65534, 5, 0, 0, 0, 0]);
        assert_eq!(filled[2], counter.row(65536));
        assert!(Inputs::parse(&["in6=1".into()]).is_err());
        assert!(Inputs::parse(&["in0=1".into(), "in0=2".into()]).is_err());
        assert!(Inputs::parse(&["in0=f32:all".into(), "in1=f32:all".into()]).is_err());
    }

    #[test]
    fn mode_lists() {
        let all = parse_modes("all16").unwrap();
        assert_eq!(all.len(), 16);
        assert!(all
            .iter()
            .all(|m| m.denorm32 == m.denorm16 && m.round32 == m.round16));
        let some = parse_modes("denorm16=0/3,round16=all,ieee=0").unwrap();
        assert_eq!(some.len(), 8);
        assert!(some.iter().all(|m| !m.ieee));
        assert_eq!(parse_modes("default").unwrap(), vec![FloatMode::DEFAULT]);
        assert!(parse_modes("round=4").is_err());
        assert!(parse_modes("speed=1").is_err());
    }
}
