//! The in-memory form of one dataset row.

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

/// The float-mode cells of a row as the dataset states them: `None` is an empty cell, "not
/// stated". Resolving against a default is the replay's job, which says which default it used.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ModeCells {
    pub ieee: Option<u8>,
    pub dx10_clamp: Option<u8>,
    pub denorm32: Option<u8>,
    pub denorm16: Option<u8>,
    pub round32: Option<u8>,
    pub round16: Option<u8>,
    pub fp16_overflow: Option<u8>,
}

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
