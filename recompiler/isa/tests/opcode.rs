//! The generated opcode enum (`src/opcode.rs`) against the instruction table it is generated
//! from: the file must be what the generator writes today. `BLESS=1 cargo test -p
//! rdnaprobe-isa --test opcode` rewrites it after a table change.

use rdnaprobe_isa::table::{row_keys, table, Family};
use rdnaprobe_isa::Opcode;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::Path;

/// The line diff the recompiler's golden tests print (recompiler/tests/common/line_diff.rs).
#[path = "../../tests/common/line_diff.rs"]
mod line_diff;

/// Variant names: the mnemonic, with the family appended (lower case) where two rows of
/// different families share it (v_interp_p1_f32 in VOP3 and VINTRP).
fn variant_names(rows: &[(Family, u16, &str)]) -> Vec<String> {
    let mut count: HashMap<&str, usize> = HashMap::new();
    for (_, _, m) in rows {
        *count.entry(m).or_default() += 1;
    }
    rows.iter()
        .map(|(f, _, m)| {
            if count[m] > 1 {
                format!("{m}_{}", f.name().to_ascii_lowercase())
            } else {
                m.to_string()
            }
        })
        .collect()
}

/// The text of `src/opcode.rs` for the committed table.
fn generate() -> String {
    let rows = row_keys();
    let names = variant_names(&rows);
    let n = rows.len();
    let mut s = String::new();
    s.push_str(
        "//! The opcode enum: one variant per instruction-table row, spelled as the AMD/LLVM\n\
         //! mnemonic (with the family appended where two families share a mnemonic), in table\n\
         //! order. Generated from `table/gfx10.txt` by\n\
         //! `BLESS=1 cargo test -p rdnaprobe-isa --test opcode`; do not edit.\n\
         //! [`Opcode::info`] and [`OpInfo::op`](crate::OpInfo::op) lead from one to the other.\n\
         \n\
         use crate::table::Family;\n\
         \n\
         /// One instruction of the table (a family and an opcode number).\n\
         #[allow(non_camel_case_types)]\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]\n\
         pub enum Opcode {\n",
    );
    for ((f, code, _), name) in rows.iter().zip(&names) {
        let _ = writeln!(s, "    /// {f} {code}");
        let _ = writeln!(s, "    {name},");
    }
    s.push_str("}\n\nimpl Opcode {\n");
    let _ = writeln!(
        s,
        "    /// Every opcode in table order: `Opcode::ALL[op as usize] == op`.\n    \
         pub const ALL: [Opcode; {n}] = ["
    );
    for name in &names {
        let _ = writeln!(s, "        Opcode::{name},");
    }
    s.push_str("    ];\n\n");
    let _ = writeln!(
        s,
        "    /// (family, opcode number) of each opcode, in table order.\n    \
         pub(crate) const KEYS: [(Family, u16); {n}] = ["
    );
    for (f, code, _) in &rows {
        let _ = writeln!(s, "        (Family::{f}, {code}),");
    }
    s.push_str("    ];\n}\n");
    s
}

#[test]
fn opcode_rs_is_current() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/opcode.rs");
    let text = generate();
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write src/opcode.rs");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "src/opcode.rs is stale: BLESS=1 cargo test -p rdnaprobe-isa --test opcode\n{}",
        line_diff::line_diff(&committed, &text, 80)
    );
}

#[test]
fn opcode_and_row_lead_to_each_other() {
    let t = table();
    assert_eq!(t.rows.len(), Opcode::ALL.len());
    for (i, row) in t.rows.iter().enumerate() {
        let op = row.op();
        assert_eq!(op as usize, i, "{}", row.mnemonic);
        assert!(std::ptr::eq(op.info(), *row), "{}", row.mnemonic);
        assert_eq!((op.family(), op.code()), (row.family, row.opcode));
        assert_eq!(op.mnemonic(), row.mnemonic);
    }
    // the variant is spelled as the mnemonic, so a grep finds both
    assert_eq!(format!("{:?}", Opcode::v_add_f32), "v_add_f32");
    assert_eq!(Opcode::v_add_f32.family(), Family::VOP2);
    assert_eq!(Opcode::v_interp_p1_f32_vintrp.family(), Family::VINTRP);
    assert_eq!(Opcode::v_interp_p1_f32_vop3.mnemonic(), "v_interp_p1_f32");
}
