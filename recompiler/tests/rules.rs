//! The rule registry (recompiler/rules.toml) against the code and the hardware rows:
//! - every rule cited in the code (`rule: ID`) has an entry, and every entry is cited;
//! - `modes` names float-mode fields; every rule has evidence or says why it has none;
//! - every evidence row exists and replays bit for bit on the CPU model (a lane row
//!   `FILE:ROW_ID`, or a whole wave `FILE:WAVE_ID` of the wave CSVs in datasets/notes and
//!   datasets/wave); every gap row is listed in tests/expected-mismatches.toml;
//! - docs/semantics.md is the registry rendered (`BLESS=1` rewrites it).

mod common;

use common::hwdata::{data_dir, load, Row};
use common::wavedata;
use rdnaprobe_dataset::ModeField;
use rdnaprobe_isa::known::{self, Scope};
use rdnaprobe_recompiler::rules::{self, Citations};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// Every `rule: ID` in the recompiler's and the ISA crate's sources.
fn citations() -> Citations {
    let root = repo();
    let mut files = Vec::new();
    for dir in ["recompiler/src", "recompiler/isa/src"] {
        rust_files(&root.join(dir), &mut files);
    }
    let mut out = Citations::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("readable source");
        let rel = f
            .strip_prefix(&root)
            .unwrap_or(&f)
            .to_string_lossy()
            .replace('\\', "/");
        if rel.ends_with("src/rules.rs") {
            continue; // the registry's own docs and tests
        }
        for (id, line) in rules::cited_ids(&text) {
            out.entry(id).or_default().push((rel.clone(), line));
        }
    }
    out
}

#[test]
fn registry_is_well_formed() {
    let reg = rules::parse(rules::SOURCE).expect("rules.toml parses");
    assert!(reg.len() >= 30, "only {} rules", reg.len());
    let mut bad = Vec::new();
    for r in &reg {
        let id_ok = !r.id.is_empty()
            && r.id.split('-').all(|w| {
                !w.is_empty()
                    && w.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
            });
        if !id_ok {
            bad.push(format!("{}: id is not lowercase words joined by `-`", r.id));
        }
        if r.summary.trim().is_empty() || r.statement.trim().is_empty() {
            bad.push(format!("{}: empty summary or statement", r.id));
        }
        for m in &r.modes {
            if ModeField::from_name(m).is_none() {
                bad.push(format!("{}: `{m}` is not a float-mode field", r.id));
            }
        }
        if r.instructions.is_empty() {
            bad.push(format!("{}: governs no instruction", r.id));
        }
        match (r.evidence.is_empty(), &r.no_evidence) {
            (true, None) => bad.push(format!("{}: no evidence rows and no reason", r.id)),
            (false, Some(_)) => bad.push(format!("{}: evidence and no_evidence both given", r.id)),
            _ => {}
        }
    }
    assert!(bad.is_empty(), "rules.toml:\n{}", bad.join("\n"));
    assert!(rules::get("div-scale").is_some_and(|r| r.governs("v_div_scale_f32")));
}

#[test]
fn code_and_registry_cite_each_other() {
    let cites = citations();
    let reg = rules::registry();
    let unknown: Vec<String> = cites
        .iter()
        .filter(|(id, _)| rules::get(id).is_none())
        .map(|(id, at)| format!("{id} (cited at {}:{})", at[0].0, at[0].1))
        .collect();
    assert!(
        unknown.is_empty(),
        "rules cited in code but missing from rules.toml: {unknown:?}"
    );
    let uncited: Vec<&str> = reg
        .iter()
        .filter(|r| !cites.contains_key(&r.id))
        .map(|r| r.id.as_str())
        .collect();
    assert!(
        uncited.is_empty(),
        "rules with no `rule: ID` citation in recompiler/src: {uncited:?}"
    );
}

/// The rows listed in tests/expected-mismatches.toml (`hardware` known differences).
fn expected_mismatches() -> HashSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected-mismatches.toml");
    let text = std::fs::read_to_string(&path).expect("expected-mismatches.toml");
    known::parse(&text, Scope::Hardware, &["rows", "instruction"])
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .into_iter()
        .flat_map(|e| e.rows)
        .collect()
}

#[test]
fn evidence_rows_replay_exactly() {
    // Hardware rows, and the rows written from the reference notes' statements (datasets/notes).
    let mut rows = load(&data_dir());
    rows.extend(load(&data_dir().join("../notes")));
    let by_id: HashMap<&str, &Row> = rows.iter().map(|r| (r.id.as_str(), r)).collect();
    let mut waves = wavedata::load(&data_dir().join("../notes"));
    waves.extend(wavedata::load(&data_dir().join("../wave")));
    let waves: HashMap<&str, &wavedata::Wave> = waves.iter().map(|w| (w.id.as_str(), w)).collect();
    let gaps_listed = expected_mismatches();
    let mut failures = Vec::new();
    let mut checked = 0;
    for r in rules::registry() {
        for id in &r.evidence {
            if let Some(w) = waves.get(id.as_str()) {
                checked += 1;
                match w.replay() {
                    Ok(d) if d.is_empty() => {}
                    Ok(d) => failures.push(format!("{}: wave {id}: {}", r.id, d.join("; "))),
                    Err(e) => failures.push(format!("{}: wave {id}: {e}", r.id)),
                }
                continue;
            }
            let Some(row) = by_id.get(id.as_str()) else {
                failures.push(format!(
                    "{}: evidence row {id} is not in datasets/rdna2 or datasets/notes",
                    r.id
                ));
                continue;
            };
            checked += 1;
            match row.replay() {
                Ok(out) if row.matches(&out) => {}
                Ok(out) => failures.push(format!(
                    "{}: {id} gives {:#010x},{:#010x}, the hardware {:08x?}",
                    r.id, out[0], out[1], row.expect
                )),
                Err(e) => failures.push(format!("{}: {id}: {e}", r.id)),
            }
        }
        for id in &r.gaps {
            if !gaps_listed.contains(id) {
                failures.push(format!(
                    "{}: gap row {id} is not in tests/expected-mismatches.toml",
                    r.id
                ));
            }
        }
    }
    eprintln!("{checked} evidence rows replayed");
    assert!(checked >= 60, "only {checked} evidence rows");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn semantics_doc_is_the_registry() {
    let path = repo().join("docs/semantics.md");
    let want = rules::render_markdown(rules::registry(), &citations());
    if std::env::var("BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, &want).expect("write docs/semantics.md");
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "docs/semantics.md is stale: regenerate it with \
         `BLESS=1 cargo test -p rdnaprobe-recompiler --test rules`\n{}",
        common::line_diff::line_diff(&have, &want, 80)
    );
}
