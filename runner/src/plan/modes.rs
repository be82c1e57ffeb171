//! The float-mode matrix: which mode fields a plan varies, over which values, and in which
//! order. A sweep spec lists values per field (`[modes]` in TOML, fields in schema order, a
//! field left out is "not stated"); `exhaustive --modes` names fields in the order written
//! (`denorm=all,round=0/3`, `all16`, `default`), fields left out take [`FloatMode::DEFAULT`].
//! Both are an ordered list of axes; mode `i` takes its digits by mixed radix with the first
//! axis outermost and the last fastest.

use rdnaprobe_dataset::{ModeCells, ModeField};
use rdnaprobe_isa::{FloatMode, Wave};

use super::order::{digits, Fastest};

/// One axis of the matrix: the fields it sets (two for `denorm` and `round`) and its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Axis {
    pub fields: Vec<ModeField>,
    pub values: Vec<u8>,
}

/// An ordered list of axes; fields no axis names stay empty ("not stated").
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ModeMatrix {
    pub axes: Vec<Axis>,
}

/// A malformed mode list: the argument and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModesError {
    pub arg: String,
    pub reason: String,
}

impl ModeMatrix {
    /// Number of modes (1 for no axes).
    pub fn len(&self) -> u64 {
        self.axes.iter().map(|a| a.values.len() as u64).product()
    }

    /// The cells of mode `index` (`index < len()`): later axes override earlier ones where
    /// they name the same field.
    pub fn cells(&self, index: u64) -> ModeCells {
        let radices: Vec<u64> = self.axes.iter().map(|a| a.values.len() as u64).collect();
        let mut d = vec![0; radices.len()];
        digits(index, &radices, Fastest::Last, &mut d);
        let mut cells = ModeCells::default();
        for (axis, k) in self.axes.iter().zip(d) {
            for &f in &axis.fields {
                *cells.get_mut(f) = Some(axis.values[k as usize]);
            }
        }
        cells
    }

    /// Every mode resolved against [`FloatMode::DEFAULT`], in order, without repeats.
    pub fn float_modes(&self) -> Vec<FloatMode> {
        let mut seen = std::collections::HashSet::new();
        (0..self.len())
            .map(|i| self.cells(i).resolve())
            .filter(|m| seen.insert(*m))
            .collect()
    }

    /// The sweep spec's per-field lists (`[modes]`), in schema order (`None`: not stated).
    pub fn from_lists(lists: [&Option<Vec<u8>>; 7]) -> Result<ModeMatrix, String> {
        let mut axes = Vec::new();
        for (f, list) in ModeField::ALL.into_iter().zip(lists) {
            let (name, max) = (f.name(), f.max());
            match list {
                None => {}
                Some(v) if v.is_empty() => {
                    return Err(format!(
                        "modes.{name} is an empty list (leave it out for \"not stated\")"
                    ))
                }
                Some(v) => {
                    if let Some(bad) = v.iter().find(|x| **x > max) {
                        return Err(format!("modes.{name}: {bad} is out of range 0..={max}"));
                    }
                    axes.push(Axis {
                        fields: vec![f],
                        values: v.clone(),
                    });
                }
            }
        }
        Ok(ModeMatrix { axes })
    }

    /// Parses a mode list: `default`, `all16` (denorm 0..3 x round 0..3, both widths: the 16
    /// denormal/rounding modes), or comma-separated `FIELD=VALUES` where VALUES is `all` or
    /// values separated by `/`. Fields: `ieee`, `dx10_clamp`, `denorm32`, `denorm16`, `denorm`
    /// (both), `round32`, `round16`, `round` (both), `fp16_overflow`. The first field named is
    /// outermost.
    pub fn parse_cli(arg: &str) -> Result<ModeMatrix, ModesError> {
        let bad = |reason: String| ModesError {
            arg: arg.to_string(),
            reason,
        };
        let spec = match arg.trim() {
            "default" => return Ok(ModeMatrix::default()),
            "all16" => "denorm=all,round=all",
            s => s,
        };
        let mut axes = Vec::new();
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (field, values) = part
                .split_once('=')
                .ok_or_else(|| bad(format!("`{part}` is not FIELD=VALUES")))?;
            let field = field.trim();
            let fields: Vec<ModeField> = match field {
                "denorm" => vec![ModeField::Denorm32, ModeField::Denorm16],
                "round" => vec![ModeField::Round32, ModeField::Round16],
                f => ModeField::from_name(f)
                    .map(|i| vec![i])
                    .ok_or_else(|| bad(format!("unknown field `{field}`")))?,
            };
            let max = fields[0].max();
            let values: Vec<u8> = if values.trim() == "all" {
                (0..=max).collect()
            } else {
                values
                    .split('/')
                    .map(|v| {
                        v.trim()
                            .parse::<u8>()
                            .ok()
                            .filter(|&v| v <= max)
                            .ok_or_else(|| {
                                bad(format!("`{v}` is not a value of {field} (0..={max})"))
                            })
                    })
                    .collect::<Result<_, _>>()?
            };
            axes.push(Axis { fields, values });
        }
        Ok(ModeMatrix { axes })
    }
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

/// A wave size as written (32 or 64).
pub fn wave(lanes: u32) -> Result<Wave, String> {
    match lanes {
        32 => Ok(Wave::W32),
        64 => Ok(Wave::W64),
        w => Err(format!("{w} is not 32 or 64")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_line_lists() {
        let all = ModeMatrix::parse_cli("all16").unwrap().float_modes();
        assert_eq!(all.len(), 16);
        assert!(all
            .iter()
            .all(|m| m.denorm32 == m.denorm16 && m.round32 == m.round16));
        // First field outermost: denorm changes every fourth mode.
        assert_eq!((all[3].denorm32, all[3].round32), (0, 3));
        assert_eq!((all[4].denorm32, all[4].round32), (1, 0));
        let some = ModeMatrix::parse_cli("denorm16=0/3,round16=all,ieee=0").unwrap();
        assert_eq!(some.len(), 8);
        assert!(some.float_modes().iter().all(|m| !m.ieee));
        assert_eq!(
            ModeMatrix::parse_cli("default").unwrap().float_modes(),
            vec![FloatMode::DEFAULT]
        );
        // A later field overrides an earlier one; repeated modes are dropped.
        let twice = ModeMatrix::parse_cli("denorm=all,denorm32=0").unwrap();
        assert_eq!((twice.len(), twice.float_modes().len()), (4, 4));
        assert!(ModeMatrix::parse_cli("round=4").is_err());
        assert!(ModeMatrix::parse_cli("speed=1").is_err());
        assert!(ModeMatrix::parse_cli("ieee").is_err());
    }

    #[test]
    fn spec_lists_keep_unstated_fields_empty() {
        let ieee = Some(vec![0, 1]);
        let denorm32 = Some(vec![0, 3]);
        let none = None;
        let m =
            ModeMatrix::from_lists([&ieee, &none, &denorm32, &none, &none, &none, &none]).unwrap();
        assert_eq!(m.len(), 4);
        let c = m.cells(1);
        assert_eq!((c.ieee, c.denorm32, c.round32), (Some(0), Some(3), None));
        assert_eq!(m.cells(2).ieee, Some(1));
        let bad = Some(vec![2]);
        let err = ModeMatrix::from_lists([&bad, &none, &none, &none, &none, &none, &none]);
        assert!(err.unwrap_err().contains("out of range"));
        let empty = Some(vec![]);
        let err = ModeMatrix::from_lists([&none, &empty, &none, &none, &none, &none, &none]);
        assert!(err.unwrap_err().contains("empty list"));
    }
}
