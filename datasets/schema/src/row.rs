//! The in-memory form of one dataset row, and how its unstated cells resolve: empty mode cells
//! take [`FloatMode::DEFAULT`]'s field, an empty `wave` cell [`Wave::DEFAULT`], an empty `gfx`
//! cell [`Target::DEFAULT`] (docs/dataset-format.md). Every backend resolves rows here.

pub use rdnaprobe_contract::ModeCells;
use rdnaprobe_contract::{FloatMode, Target, Wave};

/// The schema v1 columns, in order. Unknown columns follow them and are carried through.
pub const V1_COLUMNS: [&str; 35] = [
    "instruction",
    "encoding",
    "wave",
    "ieee",
    "dx10_clamp",
    "denorm32",
    "denorm16",
    "round32",
    "round16",
    "fp16_overflow",
    "in0",
    "in1",
    "in2",
    "in3",
    "in4",
    "in5",
    "out0",
    "out1",
    "out2",
    "out3",
    "out4",
    "out5",
    "out6",
    "out7",
    "out8",
    "out9",
    "out10",
    "out11",
    "out12",
    "out13",
    "out14",
    "out15",
    "gfx",
    "source",
    "note",
];

/// One lane of a dataset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Row {
    /// Readable text of the body (mnemonic and operands).
    pub instruction: String,
    /// The body's instruction words, in order. Empty for rows without words (`n/a`).
    pub encoding: Vec<u32>,
    /// 32 or 64; `None` when the cell is empty.
    pub wave: Option<u32>,
    pub mode: ModeCells,
    /// in0..in5: the lane's v4..v9 before the body.
    pub inputs: [u32; 6],
    /// out0..out15: v10..v25 after the body; `None` is "not captured".
    pub outputs: [Option<u32>; 16],
    pub gfx: String,
    pub source: String,
    pub note: String,
    /// Values of the columns after the v1 columns, in the file's order (see the dataset's
    /// `extra_columns`).
    pub extra: Vec<String>,
}

impl Row {
    /// The float mode the row replays under: its stated cells, [`FloatMode::DEFAULT`]'s field
    /// for every empty one.
    pub fn float_mode(&self) -> FloatMode {
        self.mode.resolve()
    }

    /// The row's wave size: its `wave` cell, [`Wave::DEFAULT`] when empty.
    pub fn wave_size(&self) -> Result<Wave, String> {
        match self.wave {
            None => Ok(Wave::DEFAULT),
            Some(w) => Wave::from_lanes(w).map_err(|_| format!("wave {w} is not 32 or 64")),
        }
    }

    /// The row's target: its `gfx` cell (a chip or `gfx103x`), [`Target::DEFAULT`] when empty.
    pub fn target(&self) -> Result<Target, rdnaprobe_contract::UnknownTarget> {
        Target::from_cell(&self.gfx)
    }
}

/// The float mode `row` replays under (see [`Row::float_mode`]): the one resolution every
/// backend uses.
pub fn resolve_mode(row: &Row) -> FloatMode {
    row.float_mode()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unstated_cells_resolve_to_the_documented_defaults() {
        let row = Row::default();
        assert_eq!(resolve_mode(&row), FloatMode::DEFAULT);
        assert_eq!(row.wave_size(), Ok(Wave::W32));
        assert_eq!(row.target(), Ok(Target::Gfx1030));
        let row = Row {
            wave: Some(64),
            gfx: "gfx103x".into(),
            mode: ModeCells {
                denorm32: Some(3),
                ..ModeCells::default()
            },
            ..Row::default()
        };
        assert_eq!(resolve_mode(&row).denorm32, 3);
        assert_eq!(resolve_mode(&row).denorm16, FloatMode::DEFAULT.denorm16);
        assert_eq!(row.wave_size(), Ok(Wave::W64));
        assert_eq!(row.target(), Ok(Target::Gfx103x));
        let bad = Row {
            wave: Some(16),
            gfx: "gfx900".into(),
            ..Row::default()
        };
        assert_eq!(bad.wave_size(), Err("wave 16 is not 32 or 64".to_string()));
        assert!(bad.target().is_err());
    }

    #[test]
    fn mode_columns_follow_the_contract_field_order() {
        for (k, field) in rdnaprobe_contract::ModeField::ALL.into_iter().enumerate() {
            assert_eq!(V1_COLUMNS[3 + k], field.name());
        }
    }
}
