//! What a streaming sweep covers, in the terms of the plan model ([`crate::plan`]): the input
//! generators (one per input dword), the float-mode list and the row order that makes every
//! row addressable by its index, so that any row of a run can be regenerated from the
//! manifest alone.
//!
//! Row order: modes outermost, in the order of [`parse_modes`]; within a mode, row `i` takes
//! its input values by mixed radix with `in0` varying fastest (`in0 = values0[i % n0]`,
//! `in1 = values1[(i / n0) % n1]`, ...). A row runs as lane `i % wave` of its wave.

use rdnaprobe_isa::FloatMode;
use std::fmt;

pub use crate::plan::gen::Generator as InputGen;
pub use crate::plan::modes::mode_text;
use crate::plan::modes::ModeMatrix;
use crate::plan::order::{digits, Fastest};

/// Most rows one mode may have (2^40): far beyond an exhaustive 2^32 sweep, small enough
/// that row indices, products and byte counts never overflow.
pub const MAX_ROWS_PER_MODE: u64 = 1 << 40;

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

/// The six input generators of a sweep. Each is a counter (`first + index`, what
/// [`InputGen::parse_cli`] makes), so a device can compute it from the row index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    gens: [InputGen; 6],
}

impl Inputs {
    /// Parses `inN=GEN` arguments; inputs not named are `const:0`.
    pub fn parse(args: &[String]) -> Result<Inputs, SpecError> {
        let mut gens: [InputGen; 6] = std::array::from_fn(|_| InputGen::Const(0));
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
            let g = InputGen::parse_cli(gen).map_err(bad)?;
            debug_assert!(
                g.counter().is_some(),
                "command-line generators are counters"
            );
            gens[idx] = g;
        }
        let rows: u128 = gens.iter().map(|g| u128::from(g.count())).product();
        if rows > u128::from(MAX_ROWS_PER_MODE) {
            return Err(SpecError::TooLarge { rows });
        }
        Ok(Inputs { gens })
    }

    /// Rows per mode.
    pub fn rows(&self) -> u64 {
        self.gens.iter().map(InputGen::count).product()
    }

    /// The input dwords of row `i` (see the module docs for the order).
    pub fn row(&self, i: u64) -> [u32; 6] {
        let radices = self.gens.each_ref().map(InputGen::count);
        let mut k = [0u64; 6];
        digits(i, &radices, Fastest::First, &mut k);
        std::array::from_fn(|d| self.gens[d].get(k[d]) as u32)
    }

    /// The generators as the device computes them (`first + index`, `count` values each): the
    /// same values in the same row order as [`Inputs::row`].
    pub fn ranges(&self) -> [rdnaprobe_recompiler::spirv::InputRange; 6] {
        self.gens.each_ref().map(|g| {
            // Every generator is a counter (see the type's docs); a list would have no range.
            let (first, count) = g.counter().unwrap_or((g.get(0), g.count()));
            rdnaprobe_recompiler::spirv::InputRange {
                first: first as u32,
                count,
            }
        })
    }

    /// Writes the inputs of rows `first..first + out.len()` into `out`.
    pub fn fill(&self, first: u64, out: &mut [[u32; 6]]) {
        // The common exhaustive shape (in0 varies, the rest constant) is a counter.
        let rest_const = self.gens[1..].iter().all(|g| g.count() == 1);
        if rest_const {
            let base = self.row(first);
            let g0 = &self.gens[0];
            let n0 = g0.count();
            for (k, row) in out.iter_mut().enumerate() {
                *row = base;
                row[0] = g0.get((first + k as u64) % n0) as u32;
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

/// Parses a mode list (see [`ModeMatrix::parse_cli`]): the modes in order, resolved against
/// [`FloatMode::DEFAULT`], without repeats.
pub fn parse_modes(arg: &str) -> Result<Vec<FloatMode>, SpecError> {
    ModeMatrix::parse_cli(arg)
        .map(|m| m.float_modes())
        .map_err(|e| SpecError::Modes {
            arg: e.arg,
            reason: e.reason,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
