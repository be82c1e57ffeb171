//! The facts the reference notes state (datasets/reference-facts.csv, one row each, written by
//! scripts/reference-facts/make.py) replay bit for bit on the CPU model: every row whose
//! `replay` column is `exact` must give the outputs it states; a `pending: REASON` row is
//! reported with its reason (and flagged once it passes, so that the mark is removed). The
//! dataset matches its manifest.

mod common;

use rdnaprobe_dataset::{read_dataset, verify};
use rdnaprobe_recompiler::{interp, lower_words};

#[test]
fn the_reference_facts_replay_bit_for_bit_on_the_cpu_model() {
    let path = common::repo_root().join("datasets/reference-facts.csv");
    let checked = verify(&path).unwrap_or_else(|e| panic!("{e}"));
    let ds = read_dataset(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(ds.rows.len() as u64, checked.rows);
    let col = ds
        .extra_columns
        .iter()
        .position(|c| c == "replay")
        .expect("a `replay` column");
    let (mut exact, mut failures, mut pending) = (0, Vec::new(), Vec::new());
    for (i, row) in ds.rows.iter().enumerate() {
        let line = i + 2;
        let replay = row.extra[col].as_str();
        let wave = row.wave_size().expect("wave");
        let gfx = row.target().expect("gfx");
        let got = lower_words(&row.encoding, row.float_mode(), wave, gfx)
            .map(|k| interp::run(&k, row.inputs, 0));
        let ok = match &got {
            Ok(out) => row
                .outputs
                .iter()
                .zip(out)
                .all(|(want, got)| want.is_none_or(|w| w == *got)),
            Err(_) => false,
        };
        let stated: Vec<String> = row
            .outputs
            .iter()
            .flatten()
            .map(|v| format!("0x{v:08x}"))
            .collect();
        let what = format!(
            "line {line}: {} {:x?} -> {} ({}): cpu {:x?}",
            row.instruction,
            &row.inputs[..3],
            stated.join(" "),
            row.source,
            got.as_ref().map(|o| &o[..stated.len()])
        );
        match (replay, ok) {
            ("exact", true) => exact += 1,
            ("exact", false) => failures.push(what),
            (p, false) if p.starts_with("pending: ") => pending.push(format!("{what}: {p}")),
            (p, true) if p.starts_with("pending: ") => {
                failures.push(format!("{what}: now exact, mark it `exact`"))
            }
            (p, _) => failures.push(format!("line {line}: unknown replay mark `{p}`")),
        }
    }
    for p in &pending {
        eprintln!("pending: {p}");
    }
    eprintln!(
        "{exact} of {} facts bit-exact, {} pending",
        ds.rows.len(),
        pending.len()
    );
    assert!(exact >= 60, "only {exact} exact facts");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
