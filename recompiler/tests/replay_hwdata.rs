//! Replays every shipped hardware row (datasets/rdna2/*.csv, lane contract) through
//! decode -> lower -> interp and compares out0/out1 bit for bit (an empty expected cell is not
//! compared). Prints per-file exact shares, asserts the overall share >= 99%, that every
//! mismatching row is listed in tests/expected-mismatches.toml with its reason class, and that
//! every listed row still mismatches (a stale entry fails the test).
//!
//! `BLESS=1 cargo test -p rdnaprobe-recompiler --test replay_hwdata` rewrites the list (new
//! rows get the class `unclassified`, rows that match again are dropped).
//! `RDNAPROBE_HWDATA=DIR` replays another folder of lane CSVs.

mod common;

use common::hwdata::{data_dir, load};
use common::TRANSCENDENTAL;
use rdnaprobe_isa::known::{self, KnownEntry, Scope};
use rdnaprobe_recompiler::{interp, lower_words};
use std::collections::{BTreeMap, HashMap};

/// The mnemonic of the first instruction of a body.
fn mnemonic(words: &[u32]) -> Option<&'static str> {
    match rdnaprobe_isa::decode_one(words, 0).ok()? {
        rdnaprobe_isa::Decoded::Inst(i) => Some(i.info().mnemonic),
        rdnaprobe_isa::Decoded::Unsupported(_) => None,
    }
}

/// ULP distance of two results of `op` on the ordered integer line of the result type (f64:
/// both dwords; f16: the low half; f32: the dword); NaNs of both sides count 0.
fn ulp_distance(op: &str, got: &[u32; 16], want: [Option<u32>; 2]) -> u64 {
    let ordered = |v: i64, sign: i64| if v & sign != 0 { sign - v } else { v };
    if op.ends_with("_f64") {
        let (Some(lo), Some(hi)) = (want[0], want[1]) else {
            return 0;
        };
        let w = (u64::from(hi) << 32 | u64::from(lo)) as i64;
        let g = (u64::from(got[1]) << 32 | u64::from(got[0])) as i64;
        if f64::from_bits(w as u64).is_nan() && f64::from_bits(g as u64).is_nan() {
            return 0;
        }
        let s = i64::MIN;
        let (a, b) = (ordered(w, s) as i128, ordered(g, s) as i128);
        return (a - b).unsigned_abs() as u64;
    }
    let Some(w) = want[0] else { return 0 };
    let (w, g, bits) = if op.ends_with("_f16") {
        (w & 0xffff, got[0] & 0xffff, 16)
    } else {
        (w, got[0], 32)
    };
    let exp = if bits == 16 { 0x7c00 } else { 0x7f80_0000 };
    let man = if bits == 16 { 0x3ff } else { 0x7f_ffff };
    let nan = |v: u32| v & exp == exp && v & man != 0;
    if nan(w) && nan(g) {
        return 0;
    }
    let s = 1i64 << (bits - 1);
    (ordered(i64::from(w), s) - ordered(i64::from(g), s)).unsigned_abs()
}
use std::path::{Path, PathBuf};

fn expected_list_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/expected-mismatches.toml")
}

/// The `hardware` entries of tests/expected-mismatches.toml (the project's known-differences
/// format): every listed row id with the id of its entry.
fn load_expected() -> (Vec<KnownEntry>, BTreeMap<String, String>) {
    let path = expected_list_path();
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let entries = known::parse(&text, Scope::Hardware, &["rows", "instruction"])
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let rows = entries
        .iter()
        .flat_map(|e| e.rows.iter().map(|r| (r.clone(), e.id.clone())))
        .collect();
    (entries, rows)
}

/// Rewrites tests/expected-mismatches.toml: each entry keeps the rows that still mismatch, new
/// rows go to an `unclassified` entry (to be classified by hand), entries left without rows go.
fn bless_expected(entries: &[KnownEntry], mism: &BTreeMap<String, String>) {
    let listed: BTreeMap<&str, &str> = entries
        .iter()
        .flat_map(|e| e.rows.iter().map(|r| (r.as_str(), e.id.as_str())))
        .collect();
    let q = |s: &str| format!("{s:?}");
    let mut text = String::from(
        "# Known differences of scope `hardware`: rows of datasets/rdna2 that the CPU model does not\n\
         # reproduce bit for bit, grouped by reason (format: recompiler/isa/src/known.rs). The\n\
         # replay_hwdata test fails on a mismatching row listed nowhere and on a listed row that\n\
         # matches; BLESS=1 rewrites the row lists (new rows go to `unclassified`: classify them by\n\
         # hand).\n",
    );
    let mut write =
        |id: &str, rule: Option<&str>, reason: &str, evidence: &str, rows: Vec<&str>| {
            if rows.is_empty() {
                return;
            }
            text.push_str(&format!(
                "\n[[known]]\nid = {}\nscope = \"hardware\"\n",
                q(id)
            ));
            if let Some(r) = rule {
                text.push_str(&format!("rule = {}\n", q(r)));
            }
            text.push_str(&format!(
                "reason = {}\nevidence = {}\nrows = [\n",
                q(reason),
                q(evidence)
            ));
            for r in rows {
                text.push_str(&format!("    {},\n", q(r)));
            }
            text.push_str("]\n");
        };
    for e in entries.iter().filter(|e| e.id != "unclassified") {
        let rows = e
            .rows
            .iter()
            .map(String::as_str)
            .filter(|r| mism.contains_key(*r))
            .collect();
        write(&e.id, e.rule.as_deref(), &e.reason, &e.evidence, rows);
    }
    let new = mism
        .keys()
        .map(String::as_str)
        .filter(|r| listed.get(r).is_none_or(|id| *id == "unclassified"))
        .collect();
    write(
        "unclassified",
        None,
        "not classified yet",
        "the replay_hwdata test's output",
        new,
    );
    std::fs::write(expected_list_path(), text).expect("write expected-mismatches.toml");
}

#[test]
fn replay_shipped_hardware_rows() {
    let dir = data_dir();
    let rows = load(&dir);
    assert!(!rows.is_empty(), "no rows under {}", dir.display());
    let mut kernels = HashMap::new();
    // per file: (rows, exact); legacy gfx1010 rows counted apart
    let mut per_file: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut mism: BTreeMap<String, String> = BTreeMap::new();
    // per transcendental op: (rows, exact, max ULP)
    let mut per_op: BTreeMap<&str, (usize, usize, u64)> = BTreeMap::new();
    for r in &rows {
        let key = (r.words.clone(), r.mode, r.wave, r.gfx);
        let k = kernels
            .entry(key)
            .or_insert_with(|| lower_words(&r.words, r.mode, r.wave, r.gfx));
        let label = if r.gfx.is_rdna1() {
            format!("{} ({})", r.file, r.gfx)
        } else {
            r.file.clone()
        };
        let e = per_file.entry(label).or_default();
        e.0 += 1;
        match k {
            Ok(kernel) => {
                let out = interp::run(kernel, r.inputs, 0);
                let ok = r
                    .expect
                    .iter()
                    .enumerate()
                    .all(|(i, x)| x.is_none_or(|x| x == out[i]));
                if let Some(op) = mnemonic(&r.words).filter(|m| TRANSCENDENTAL.contains(m)) {
                    let t = per_op.entry(op).or_default();
                    t.0 += 1;
                    t.1 += usize::from(ok);
                    t.2 = t.2.max(ulp_distance(op, &out, r.expect));
                }
                if ok {
                    e.1 += 1;
                } else {
                    let got: Vec<String> = (0..2)
                        .filter(|&i| r.expect[i].is_some())
                        .map(|i| format!("{:#010x}", out[i]))
                        .collect();
                    let want: Vec<String> = r
                        .expect
                        .iter()
                        .flatten()
                        .map(|x| format!("{x:#010x}"))
                        .collect();
                    mism.insert(
                        r.id.clone(),
                        format!("got {} want {}", got.join(","), want.join(",")),
                    );
                }
            }
            Err(err) => {
                mism.insert(r.id.clone(), format!("unsupported: {err}"));
            }
        }
    }
    let (mut n, mut ok) = (0, 0);
    for (f, (rows, exact)) in &per_file {
        eprintln!(
            "{f:40} {exact:5}/{rows:5} = {:6.2}%",
            100.0 * *exact as f64 / *rows as f64
        );
        n += rows;
        ok += exact;
    }
    let share = ok as f64 / n as f64;
    eprintln!("{:40} {ok:5}/{n:5} = {:6.2}%", "total", 100.0 * share);
    for (op, (rows, exact, ulp)) in &per_op {
        eprintln!("  {op:38} {exact:5}/{rows:5} exact, max {ulp} ULP");
    }

    let (entries, listed) = load_expected();
    let bless = std::env::var("BLESS").is_ok_and(|v| v == "1");
    if bless {
        bless_expected(&entries, &mism);
    }
    let new: Vec<String> = mism
        .iter()
        .filter(|(id, _)| !listed.contains_key(*id))
        .map(|(id, why)| format!("{id}: {why}"))
        .collect();
    // A listed row that was replayed and matches is a stale entry: the list must say what
    // differs today (rows of another RDNAPROBE_HWDATA folder are not judged).
    let replayed: std::collections::HashSet<&str> = rows.iter().map(|r| r.id.as_str()).collect();
    let stale: Vec<&String> = listed
        .keys()
        .filter(|id| replayed.contains(id.as_str()) && !mism.contains_key(*id))
        .collect();
    assert!(
        new.is_empty(),
        "{} rows mismatch that are not in expected-mismatches.toml:\n{}",
        new.len(),
        new.join("\n")
    );
    assert!(
        bless || stale.is_empty(),
        "{} rows listed in expected-mismatches.toml match now: {stale:?}; drop them with \
         `BLESS=1 cargo test -p rdnaprobe-recompiler --test replay_hwdata`",
        stale.len()
    );
    assert!(share >= 0.99, "exact share {share:.4} is below 0.99");
}
