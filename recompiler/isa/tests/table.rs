//! The committed instruction table against its generator and its snapshot:
//! `src/table/gfx10.txt` must be what `scripts/isa/gen_table.py` writes today (from llvm-mc-19
//! and `src/table/overrides.toml`), and the operand data the crate reads from it (every row's
//! destinations, sources with kind, value type and register width, result type and flags, in
//! table order) must be `tests/golden/table-operands.txt`, so a change to what the table says
//! about any row shows up as a diff of that file. `BLESS=1 cargo test -p rdnaprobe-isa --test
//! table` runs the generator and rewrites the snapshot.

use rdnaprobe_isa::difftest::llvm_mc_or_skip;
use rdnaprobe_isa::table::{table, OpInfo, OperandSpec};
use std::fmt::Write;
use std::path::Path;
use std::process::Command;

/// The line diff the recompiler's golden tests print (recompiler/tests/common/line_diff.rs).
#[path = "../../tests/common/line_diff.rs"]
mod line_diff;

fn bless() -> bool {
    std::env::var("BLESS").is_ok_and(|v| v == "1")
}

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
    let n: Vec<&str> = r.flags.iter_names().map(|(n, _)| n).collect();
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
         # BLESS=1 cargo test -p rdnaprobe-isa --test table\n",
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
    if bless() {
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
    assert!(
        text == committed,
        "tests/golden/table-operands.txt is stale\n{}",
        line_diff::line_diff(&committed, &text, 80)
    );
}

/// The generator run on the committed file with `--check` (without it under `BLESS=1`). It
/// needs python3 and llvm-mc-19: without them the test skips, except under CI.
#[test]
fn gfx10_txt_is_what_the_generator_writes() {
    if !llvm_mc_or_skip() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cmd = Command::new("python3");
    cmd.arg("scripts/isa/gen_table.py").current_dir(&root);
    if !bless() {
        cmd.arg("--check");
    }
    let out = match cmd.output() {
        Ok(o) => o,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            assert!(std::env::var("CI").is_err(), "python3 is required under CI");
            eprintln!("python3 not found; skipping");
            return;
        }
        Err(e) => panic!("running scripts/isa/gen_table.py: {e}"),
    };
    assert!(
        out.status.success(),
        "scripts/isa/gen_table.py --check: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
