//! Lowering coverage over the instruction table: counts the VALU mnemonics (VOP1, VOP2, VOPC,
//! VOP3, VOP3P; gfx1030 names) that lower, and checks the unlowered ones against the committed
//! list tests/unlowered-valu.txt so that gaps stay visible. `BLESS=1` rewrites the list.

use rdnaprobe_isa::{table, Target};
use rdnaprobe_recompiler::is_lowered;
use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn valu_lowering_coverage() {
    let names: BTreeSet<&str> = table()
        .rows
        .iter()
        .filter(|r| r.family.is_valu())
        .map(|r| r.mnemonic)
        .collect();
    let missing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|m| !is_lowered(m, Target::Gfx1030))
        .collect();
    eprintln!(
        "VALU mnemonics lowered: {} of {} ({} unlowered)",
        names.len() - missing.len(),
        names.len(),
        missing.len()
    );
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/unlowered-valu.txt");
    let text: String = missing.iter().map(|m| format!("{m}\n")).collect();
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &text).expect("write unlowered-valu.txt");
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        committed, text,
        "tests/unlowered-valu.txt is stale: rerun with BLESS=1"
    );
}
