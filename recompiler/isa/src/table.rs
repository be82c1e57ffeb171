//! The instruction table: one row per (family, opcode) of GFX10.3, with operand kinds, value types
//! and the result type. The opcode -> mnemonic list is generated from llvm-mc-19
//! (`scripts/isa/gen_table.py`, committed as `table/gfx10.txt`); operand shapes come from the
//! probe text llvm-mc printed for each row, and value types from rules on the mnemonic
//! (`rules.rs`). Decoder, encoder, printer, assembler and the diff's type lookup all read it.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::opcode::Opcode;
use crate::rules;

/// An encoding family: the opcode space an instruction's opcode number belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Family {
    SOP2,
    SOPK,
    SOP1,
    SOPC,
    SOPP,
    SMEM,
    VOP1,
    VOP2,
    VOPC,
    /// VOP3-only opcodes (VOP3a and VOP3b); promoted VOP1/VOP2/VOPC rows keep their own family.
    VOP3,
    VOP3P,
    VINTRP,
    DS,
    MUBUF,
    MTBUF,
    FLAT,
    GLOBAL,
    SCRATCH,
    MIMG,
    EXP,
}

impl Family {
    pub const ALL: [Family; 20] = [
        Family::SOP2,
        Family::SOPK,
        Family::SOP1,
        Family::SOPC,
        Family::SOPP,
        Family::SMEM,
        Family::VOP1,
        Family::VOP2,
        Family::VOPC,
        Family::VOP3,
        Family::VOP3P,
        Family::VINTRP,
        Family::DS,
        Family::MUBUF,
        Family::MTBUF,
        Family::FLAT,
        Family::GLOBAL,
        Family::SCRATCH,
        Family::MIMG,
        Family::EXP,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::SOP2 => "SOP2",
            Family::SOPK => "SOPK",
            Family::SOP1 => "SOP1",
            Family::SOPC => "SOPC",
            Family::SOPP => "SOPP",
            Family::SMEM => "SMEM",
            Family::VOP1 => "VOP1",
            Family::VOP2 => "VOP2",
            Family::VOPC => "VOPC",
            Family::VOP3 => "VOP3",
            Family::VOP3P => "VOP3P",
            Family::VINTRP => "VINTRP",
            Family::DS => "DS",
            Family::MUBUF => "MUBUF",
            Family::MTBUF => "MTBUF",
            Family::FLAT => "FLAT",
            Family::GLOBAL => "GLOBAL",
            Family::SCRATCH => "SCRATCH",
            Family::MIMG => "MIMG",
            Family::EXP => "EXP",
        }
    }

    pub fn from_name(s: &str) -> Option<Family> {
        Family::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
    }

    /// Vector ALU families (the ones the lane datasets exercise).
    pub fn is_valu(self) -> bool {
        matches!(
            self,
            Family::VOP1 | Family::VOP2 | Family::VOPC | Family::VOP3 | Family::VOP3P
        )
    }
}

impl std::fmt::Display for Family {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The type of the bits an operand or result carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum ValueType {
    F16,
    F32,
    F64,
    /// Two f16 values in one dword (low half = element 0).
    PackedF16,
    /// Two 16-bit integers in one dword.
    PackedI16,
    PackedU16,
    B16,
    B32,
    B64,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    /// One bit per lane (wave32: one SGPR, wave64: an SGPR pair).
    LaneMask,
    /// Memory data, addresses, descriptors and other operands with no arithmetic type.
    Untyped,
}

impl ValueType {
    /// Bits of an inline constant or literal for this type (16, 32 or 64).
    pub fn bits(self) -> u32 {
        match self {
            ValueType::F16 | ValueType::B16 | ValueType::I16 | ValueType::U16 => 16,
            ValueType::F64 | ValueType::B64 | ValueType::I64 | ValueType::U64 => 64,
            _ => 32,
        }
    }
    pub fn is_float(self) -> bool {
        matches!(
            self,
            ValueType::F16 | ValueType::F32 | ValueType::F64 | ValueType::PackedF16
        )
    }
}

/// What may stand in an operand slot.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum OperandKind {
    /// A VGPR (8-bit field).
    Vgpr,
    /// An SGPR-space destination or source field (7 bits: SGPRs, VCC, TTMP, M0, NULL, EXEC).
    Sgpr,
    /// The 9-bit source space: VGPRs, SGPRs, special registers, inline constants, literal.
    Src,
    /// A lane mask held in SGPRs (or VCC implicitly in the 32-bit encodings).
    LaneMask,
    /// A 16-bit immediate (SOPK/SOPP) or a literal dword (fmamk/fmaak).
    Imm,
    /// A memory operand (address, data, descriptor) described by the family's printer.
    Mem,
}

/// One operand slot of a table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OperandSpec {
    pub kind: OperandKind,
    pub ty: ValueType,
    /// Register width in dwords for register operands (1, 2, 3, 4, 8, 16).
    pub dwords: u8,
}

/// Where a row comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Source {
    /// llvm-mc-19 decodes this opcode.
    Llvm,
    /// Executes on RDNA2 hardware; LLVM rejects it (evidence in docs/isa.md).
    HardwareOnly,
}

/// Row flags.
pub mod flags {
    /// VOPC that writes EXEC (v_cmpx_*): the 32-bit form has no printed destination.
    pub const CMPX: u32 = 1;
    /// VOP3b: the 32-bit destination slot of VOP3 holds an SGPR destination (carry, VCC).
    pub const VOP3B: u32 = 2;
    /// The opcode reads VCC implicitly in its 32-bit form (v_cndmask, v_add_co_ci).
    pub const READS_VCC: u32 = 4;
    /// The opcode writes VCC implicitly in its 32-bit form.
    pub const WRITES_VCC: u32 = 8;
    /// The 32-bit form carries a literal dword (fmamk / fmaak).
    pub const LITERAL_OPERAND: u32 = 16;
    /// The 16-bit result keeps bits 31:16 of the destination (f16/u16/i16 results of VOP1/VOP2/VOP3).
    pub const KEEPS_HIGH: u32 = 32;
    /// Interpolation with an attribute operand.
    pub const INTERP: u32 = 64;
}

/// One instruction of the table.
#[derive(Debug, serde::Serialize)]
pub struct OpInfo {
    pub mnemonic: &'static str,
    pub family: Family,
    pub opcode: u16,
    /// The VOP3 opcode of the promoted (`_e64`) form of a VOP1/VOP2/VOPC row.
    pub vop3_opcode: Option<u16>,
    /// The gfx1010 (RDNA1) mnemonic where it differs (legacy mad/mac).
    pub gfx1010_mnemonic: Option<&'static str>,
    pub source: Source,
    /// Destinations in the full (VOP3 / native) form, in printed order.
    pub dsts: Vec<OperandSpec>,
    /// Sources in the full form, in printed order.
    pub srcs: Vec<OperandSpec>,
    /// Type of the main result (the first destination); `Untyped` if none.
    pub result: ValueType,
    pub flags: u32,
    /// The words llvm-mc decoded when the table was generated, and its text (empty for
    /// hardware-only rows): the table's own golden case.
    pub probe_words: Vec<u32>,
    pub probe_text: &'static str,
    /// The generated enum's variant for this row ([`OpInfo::op`]).
    #[serde(skip)]
    op: Opcode,
}

/// Rows are unique (one per family and opcode), so identity is equality.
impl PartialEq for OpInfo {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other) || (self.family == other.family && self.opcode == other.opcode)
    }
}
impl Eq for OpInfo {}

impl OpInfo {
    /// This row's variant of the generated [`Opcode`] enum.
    pub fn op(&self) -> Opcode {
        self.op
    }
    pub fn has(&self, flag: u32) -> bool {
        self.flags & flag != 0
    }
    /// Mnemonic on a target (gfx1010 names legacy mad/mac differently).
    pub fn mnemonic_for(&self, target: crate::Target) -> &'static str {
        match (target.is_rdna1(), self.gfx1010_mnemonic) {
            (true, Some(m)) => m,
            _ => self.mnemonic,
        }
    }
}

/// The whole table with its lookups.
pub struct Table {
    pub rows: Vec<&'static OpInfo>,
    by_op: HashMap<(Family, u16), &'static OpInfo>,
    by_vop3: HashMap<u16, &'static OpInfo>,
    by_name: HashMap<&'static str, Vec<&'static OpInfo>>,
}

const TABLE_TEXT: &str = include_str!("table/gfx10.txt");

/// The process-wide table, parsed once from the committed generated file.
pub fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(build)
}

/// Row of a family's opcode, if the table has it.
pub fn lookup(family: Family, opcode: u16) -> Option<&'static OpInfo> {
    table().by_op.get(&(family, opcode)).copied()
}

/// Row whose VOP3 encoding uses `opcode` (VOP3-only rows and promoted VOP1/VOP2/VOPC rows).
pub fn lookup_vop3(opcode: u16) -> Option<&'static OpInfo> {
    table().by_vop3.get(&opcode).copied()
}

/// Rows with this mnemonic (one per family: e.g. v_add_f32 only in VOP2; FLAT/GLOBAL differ).
pub fn lookup_name(mnemonic: &str) -> &'static [&'static OpInfo] {
    table()
        .by_name
        .get(mnemonic)
        .map(|v| v.as_slice())
        .unwrap_or(&[])
}

struct RawRow {
    family: Family,
    opcode: u16,
    mnemonic: &'static str,
    source: Source,
    gfx1010: Option<&'static str>,
    words: Vec<u32>,
    text: &'static str,
}

fn parse_rows() -> Vec<RawRow> {
    // The file is generated and committed; a malformed line is a build defect that the
    // table tests catch, so parsing skips it rather than panicking at run time.
    let mut rows = Vec::new();
    for line in TABLE_TEXT.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut parts = line.splitn(3, " | ");
        let head = parts.next().unwrap_or("");
        let words = parts.next().unwrap_or("");
        let text = parts.next().unwrap_or("").trim();
        let mut h = head.split_whitespace();
        let (Some(fam), Some(op), Some(mn), Some(src)) = (h.next(), h.next(), h.next(), h.next())
        else {
            continue;
        };
        let (Some(family), Ok(opcode)) = (Family::from_name(fam), op.parse::<u16>()) else {
            continue;
        };
        let gfx1010 = h.next().and_then(|x| x.strip_prefix("gfx1010="));
        let source = if src == "hardware" {
            Source::HardwareOnly
        } else {
            Source::Llvm
        };
        let words = words
            .split_whitespace()
            .filter_map(|w| u32::from_str_radix(w.trim_start_matches("0x"), 16).ok())
            .collect();
        rows.push(RawRow {
            family,
            opcode,
            mnemonic: mn,
            source,
            gfx1010,
            words,
            text,
        });
    }
    rows
}

/// The raw rows the table keeps, in file order: VOP3 rows that are the promoted form of a
/// VOP1/VOP2/VOPC row are merged into that row (their opcode and probe text go with it).
fn merged_rows(raw: &[RawRow]) -> Vec<(&RawRow, Option<u16>, &'static str)> {
    let mut vop3_of: HashMap<&str, (u16, &'static str)> = HashMap::new();
    for r in raw {
        if r.family == Family::VOP3 {
            vop3_of.insert(r.mnemonic, (r.opcode, r.text));
        }
    }
    let mut short: HashMap<&str, Family> = HashMap::new();
    for r in raw {
        if matches!(r.family, Family::VOP1 | Family::VOP2 | Family::VOPC) {
            short.insert(r.mnemonic, r.family);
        }
    }
    let mut rows = Vec::new();
    for r in raw {
        if r.family == Family::VOP3 && short.contains_key(r.mnemonic) {
            continue;
        }
        let (vop3_opcode, full_text) = match r.family {
            Family::VOP1 | Family::VOP2 | Family::VOPC => match vop3_of.get(r.mnemonic) {
                Some((op, t)) => (Some(*op), *t),
                None => (None, r.text),
            },
            _ => (None, r.text),
        };
        rows.push((r, vop3_opcode, full_text));
    }
    rows
}

/// (family, opcode number, mnemonic) of every row, in table order, read from the committed
/// file without building the table: the input of the [`Opcode`] generator.
pub fn row_keys() -> Vec<(Family, u16, &'static str)> {
    let raw = parse_rows();
    merged_rows(&raw)
        .into_iter()
        .map(|(r, _, _)| (r.family, r.opcode, r.mnemonic))
        .collect()
}

fn build() -> Table {
    let raw = parse_rows();
    let merged = merged_rows(&raw);
    // opcode.rs is generated from the same rows; the `opcode` test fails when it is stale.
    assert_eq!(
        merged.len(),
        Opcode::ALL.len(),
        "recompiler/isa/src/opcode.rs is stale: BLESS=1 cargo test -p rdnaprobe-isa --test opcode"
    );
    let mut rows: Vec<&'static OpInfo> = Vec::new();
    for (i, (r, vop3_opcode, full_text)) in merged.into_iter().enumerate() {
        let op = Opcode::ALL[i];
        assert_eq!(
            (op.family(), op.code()),
            (r.family, r.opcode),
            "recompiler/isa/src/opcode.rs is stale at {}: BLESS=1 cargo test -p rdnaprobe-isa --test opcode",
            r.mnemonic
        );
        let shape = rules::shape(r.family, r.mnemonic, full_text, vop3_opcode.is_some());
        let info = OpInfo {
            mnemonic: r.mnemonic,
            family: r.family,
            opcode: r.opcode,
            vop3_opcode,
            gfx1010_mnemonic: r.gfx1010,
            source: r.source,
            result: shape
                .dsts
                .first()
                .map(|d| d.ty)
                .unwrap_or(ValueType::Untyped),
            dsts: shape.dsts,
            srcs: shape.srcs,
            flags: shape.flags,
            probe_words: r.words.clone(),
            probe_text: r.text,
            op,
        };
        rows.push(Box::leak(Box::new(info)));
    }
    let mut by_op = HashMap::new();
    let mut by_vop3 = HashMap::new();
    let mut by_name: HashMap<&'static str, Vec<&'static OpInfo>> = HashMap::new();
    for &row in &rows {
        by_op.insert((row.family, row.opcode), row);
        if row.family == Family::VOP3 {
            by_vop3.insert(row.opcode, row);
        }
        if let Some(op) = row.vop3_opcode {
            by_vop3.insert(op, row);
        }
        by_name.entry(row.mnemonic).or_default().push(row);
        if let Some(alt) = row.gfx1010_mnemonic {
            by_name.entry(alt).or_default().push(row);
        }
    }
    Table {
        rows,
        by_op,
        by_vop3,
        by_name,
    }
}

impl Opcode {
    /// The table row of this opcode.
    pub fn info(self) -> &'static OpInfo {
        table().rows[self as usize]
    }
    /// The row's mnemonic (the table's GFX10.3 spelling, without the family suffix some
    /// variant names carry).
    pub fn mnemonic(self) -> &'static str {
        self.info().mnemonic
    }
    /// The encoding family of the row.
    pub fn family(self) -> Family {
        Opcode::KEYS[self as usize].0
    }
    /// The opcode number within the family.
    pub fn code(self) -> u16 {
        Opcode::KEYS[self as usize].1
    }
}

impl std::fmt::Display for Opcode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.mnemonic())
    }
}
