//! The diff engine on the fixture files: every class, the k-th occurrence join, a reordered
//! candidate, known discrepancies, and each kind of bad input with its message.

use std::path::{Path, PathBuf};

use rdnaprobe_reports::diff::{diff_files, Options};
use rdnaprobe_reports::output::{CsvSink, JsonSink, Table, CSV_COLUMNS};
use rdnaprobe_reports::{Class, Known, RowDiff};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn run(reference: &str, candidate: &str, options: &Options) -> Result<Vec<RowDiff>, String> {
    let mut rows = Vec::new();
    diff_files(&fixture(reference), &fixture(candidate), options, |d| {
        rows.push(d.clone());
        Ok(())
    })
    .map_err(|e| e.to_string())?;
    Ok(rows)
}

fn class_of(rows: &[RowDiff], reference_row: u64) -> Class {
    rows.iter()
        .find(|d| d.reference.index == reference_row)
        .map(|d| d.class)
        .unwrap_or_else(|| panic!("reference row {reference_row} not joined"))
}

#[test]
fn every_class_on_the_fixture() {
    let rows = run("reference.csv", "candidate.csv", &Options::default()).expect("diff runs");
    assert_eq!(rows.len(), 13);
    let expected = [
        (1, Class::Exact),
        (2, Class::Ulp1),
        (3, Class::UlpK),
        (4, Class::NanPayload),
        (5, Class::SignedZero),
        (6, Class::DenormFlush),
        (7, Class::Ulp1),
        (8, Class::Wrong),
        (9, Class::Wrong),
        (10, Class::Unsupported),
        // The same key twice: the first occurrence pairs with the first, the second with
        // the second (exact, then 1 ULP), whatever the order of the rows in between.
        (11, Class::Exact),
        (12, Class::Ulp1),
        (13, Class::Ulp1),
    ];
    for (row, class) in expected {
        assert_eq!(class_of(&rows, row), class, "reference row {row}");
    }
    let f64_row = rows.iter().find(|d| d.reference.index == 7).expect("row 7");
    assert_eq!(f64_row.max_ulp, Some(1));
    assert_eq!(f64_row.dwords.len(), 1, "an f64 pair is one compared value");
    let unsupported = rows
        .iter()
        .find(|d| d.reference.index == 10)
        .expect("row 10");
    assert_eq!(
        unsupported.status_detail.as_deref(),
        Some("no rule for v_cvt_i32_f32 yet")
    );
    assert!(rows.iter().all(|d| d.backend == "vulkan:lavapipe"));
}

#[test]
fn a_larger_k_turns_wrong_into_ulp_k() {
    let options = Options {
        ulp_k: 2,
        ..Options::default()
    };
    let rows = run("reference.csv", "candidate.csv", &options).expect("diff runs");
    assert_eq!(class_of(&rows, 3), Class::Wrong, "3 ULP is beyond k=2");
}

#[test]
fn known_discrepancies_are_expected() {
    let options = Options {
        known: Known::load(&fixture("known.toml")).expect("known file parses"),
        ..Options::default()
    };
    let mut summary = None;
    let mut rows = Vec::new();
    let s = diff_files(
        &fixture("reference.csv"),
        &fixture("candidate.csv"),
        &options,
        |d| {
            rows.push(d.clone());
            Ok(())
        },
    )
    .expect("diff runs");
    summary.replace(s);
    let s = summary.expect("summary");
    assert_eq!(s.rows, 13);
    assert_eq!(s.count(Class::Exact), 2);
    assert_eq!(s.expected, 2);
    assert_eq!(s.unexpected, 9);
    let nan = rows.iter().find(|d| d.reference.index == 4).expect("row 4");
    assert!(!nan.is_unexpected());
    assert_eq!(
        nan.known.as_ref().map(|k| k.0.as_str()),
        Some("SPIR-V does not preserve NaN payloads")
    );
    // The v_rcp entry covers ulp<=1 only; the 1-ULP v_add row stays unexpected.
    assert!(rows
        .iter()
        .find(|d| d.reference.index == 12)
        .expect("row 12")
        .is_unexpected());
}

#[test]
fn outputs_have_one_record_per_row() {
    let mut csv = CsvSink::new(Vec::new()).expect("header");
    let mut json = JsonSink::new(Vec::new());
    let mut table = Table::new(3);
    let summary = diff_files(
        &fixture("reference.csv"),
        &fixture("candidate.csv"),
        &Options::default(),
        |d| {
            csv.write(d).expect("csv");
            json.write(d).expect("json");
            table.add(d);
            Ok(())
        },
    )
    .expect("diff runs");
    let csv = String::from_utf8(csv.finish().expect("flush")).expect("utf8");
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    assert_eq!(header, CSV_COLUMNS);
    let records: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("record")).collect();
    assert_eq!(records.len(), 13);
    let f64_line = records.iter().find(|r| &r[26] == "7").expect("row 7");
    assert_eq!(&f64_line[17], "ulp<=1");
    assert_eq!(&f64_line[21], "0x3ff0000000000000");
    assert_eq!(&f64_line[22], "0x3fefffffffffffff");

    let json = String::from_utf8(json.finish(&summary).expect("flush")).expect("utf8");
    let lines: Vec<serde_json::Value> = json
        .lines()
        .map(|l| serde_json::from_str(l).expect("valid JSON line"))
        .collect();
    assert_eq!(lines.len(), 14);
    assert_eq!(lines[13]["record"], "summary");
    assert_eq!(lines[13]["classes"]["wrong"], 2);
    assert!(lines[..13].iter().all(|l| l["record"] == "row"));

    let text = table.render(&summary);
    assert!(
        text.contains("13 rows: 2 exact, 0 expected, 11 unexpected"),
        "{text}"
    );
    assert!(text.contains("... 8 more unexpected rows"), "{text}");
}

#[test]
fn bad_inputs_say_where() {
    let err = |r: &str, c: &str| run(r, c, &Options::default()).expect_err("must fail");
    let missing = err("missing_column.csv", "candidate.csv");
    assert!(missing.contains("missing_column.csv:1:7"), "{missing}");
    assert!(missing.contains("expected `denorm16`"), "{missing}");
    let non_hex = err("reference.csv", "non_hex.csv");
    assert!(
        non_hex.contains("non_hex.csv:3:12 (in1): `0xZZ`"),
        "{non_hex}"
    );
    let empty = err("empty.csv", "candidate.csv");
    assert!(empty.contains("empty.csv: empty file"), "{empty}");
    let unmatched = err("reference.csv", "subset.csv");
    assert!(
        unmatched.contains("8 row(s) only in the reference")
            && unmatched.contains("0 only in the candidate"),
        "{unmatched}"
    );
    assert!(
        unmatched.contains("first unmatched: reference row 3: v_sqrt_f32"),
        "{unmatched}"
    );
}

#[test]
fn the_shipped_known_file_parses() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/known-discrepancies.toml");
    Known::load(&path).expect("datasets/known-discrepancies.toml parses");
}

#[test]
fn known_entries_match_by_instruction_backend_and_class() {
    use rdnaprobe_dataset::ModeCells;
    use rdnaprobe_reports::known::Subject;

    let known = Known::load(&fixture("known-previous.toml")).expect("fixture parses");
    assert!(known.entries.len() >= 4);
    let mode = ModeCells::default();
    let subject = |mnemonic, backend, class| Subject {
        mnemonic,
        backend,
        class,
        encoding: &[],
        mode: &mode,
        wave: Some(32),
    };
    assert!(known
        .lookup(&subject("v_rcp_f32", "vulkan:nvidia", Class::UlpK))
        .is_some());
    assert!(known
        .lookup(&subject("v_rcp_f32", "vulkan:nvidia", Class::Wrong))
        .is_none());
    assert!(known
        .lookup(&subject("v_add_f32", "vulkan:nvidia", Class::Ulp1))
        .is_none());
    assert!(known
        .lookup(&subject("v_add_f16", "vulkan:radv", Class::NanPayload))
        .is_some());
    assert!(known
        .lookup(&subject("v_add_f16", "cpu", Class::NanPayload))
        .is_none());
}

#[test]
fn a_bad_status_cell_names_the_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let text = std::fs::read_to_string(fixture("candidate.csv")).expect("fixture");
    let bad: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| if i == 5 { l.replace(",ok", ",fine") } else { l.to_string() } + "\n")
        .collect();
    let path = dir.path().join("cand.csv");
    std::fs::write(&path, bad).expect("write");
    let err = diff_files(
        &fixture("reference.csv"),
        &path,
        &Options::default(),
        |_| Ok(()),
    )
    .expect_err("must fail")
    .to_string();
    assert!(
        err.ends_with("cand.csv: data row 5: column `status`: \"fine\" is not `ok`, `unsupported: <reason>` or `error: <message>`"),
        "{err}"
    );
}
