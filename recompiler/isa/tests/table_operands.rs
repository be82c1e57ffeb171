//! A snapshot of the table's operand data: every row's destinations, sources (kind, value type,
//! register width), result type and flags, in table order (tests/golden/table-operands.txt).
//! A change to what the table says about any row shows up as a diff of that file;
//! `BLESS=1 cargo test -p rdnaprobe-isa --test table_operands` rewrites it.

use rdnaprobe_isa::table::{table, OpInfo, OperandSpec};
use std::fmt::Write;
use std::path::Path;

const FLAG_NAMES: [(u32, &str); 7] = [
    (1, "CMPX"),
    (2, "VOP3B"),
    (4, "READS_VCC"),
    (8, "WRITES_VCC"),
    (16, "LITERAL_OPERAND"),
    (32, "KEEPS_HIGH"),
    (64, "INTERP"),
];

fn specs(v: &[OperandSpec]) -> String {
    if v.is_empty() {
        return "-".into();
    }
    let s: Vec<String> = v
        .iter()
        .map(|s| format!("{:?}:{:?}:{}", s.kind, s.ty, s.dwords))
        .collect();
    s.join(" ")
}

fn flags(r: &OpInfo) -> String {
    let n: Vec<&str> = FLAG_NAMES
        .iter()
        .filter(|(b, _)| r.flags & b != 0)
        .map(|(_, n)| *n)
        .collect();
    if n.is_empty() {
        "-".into()
    } else {
        n.join(" ")
    }
}

fn snapshot() -> String {
    let mut out = String::from(
        "# The table's operand data, one row per line: family opcode mnemonic [vop3 opcode] |\n\
         # destinations | sources | result type | flags. Regenerate with\n\
         # BLESS=1 cargo test -p rdnaprobe-isa --test table_operands\n",
    );
    for r in &table().rows {
        let vop3 = r
            .vop3_opcode
            .map(|o| format!(" vop3={o}"))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "{} {} {}{vop3} | {} | {} | {:?} | {}",
            r.family,
            r.opcode,
            r.mnemonic,
            specs(&r.dsts),
            specs(&r.srcs),
            r.result,
            flags(r)
        );
    }
    out
}

#[test]
fn table_operand_data_is_the_snapshot() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/table-operands.txt");
    let text = snapshot();
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write the snapshot");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    let changed: Vec<&str> = text
        .lines()
        .filter(|l| !committed.lines().any(|c| c == *l))
        .collect();
    assert!(
        changed.is_empty(),
        "{} row(s) differ from tests/golden/table-operands.txt (BLESS=1 rewrites it), first:\n{}",
        changed.len(),
        changed
            .iter()
            .take(5)
            .copied()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert_eq!(text, committed, "tests/golden/table-operands.txt is stale");
}
