//! The report on the parallel diff aggregates exactly what the streaming diff gives row by
//! row: the same groups, matrix, histograms, counts, unstated cells and worst rows, over files
//! of several blocks and two candidate backends with rows missing on one side.
#![cfg(feature = "polars")]

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rdnaprobe_reports::diff::{diff_inputs, Options};
use rdnaprobe_reports::input::Chain;
use rdnaprobe_reports::report::aggregate::{tables, Aggregator};
use rdnaprobe_reports::report::{build, ReportOptions, WORST_PER_GROUP};
use rdnaprobe_reports::{Class, RowDiff};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// `reps` copies of a fixture's rows (in5 = copy number); `backend` replaces the backend cell.
fn write_copies(name: &str, reps: usize, out: &Path, backend: Option<&str>, skip: usize) {
    let mut reader = csv::Reader::from_path(fixture(name)).expect("fixture");
    let header = reader.headers().expect("header").clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("row")).collect();
    let mut w = csv::Writer::from_path(out).expect("create");
    w.write_record(&header).expect("header");
    let backend_col = header.iter().position(|h| h == "backend");
    let mut n = 0;
    for rep in 0..reps {
        for row in &rows {
            n += 1;
            if skip > 0 && n % skip == 0 {
                continue;
            }
            let mut cells: Vec<String> = row.iter().map(str::to_string).collect();
            cells[15] = format!("0x{rep:08x}");
            if let (Some(c), Some(b)) = (backend_col, backend) {
                cells[c] = b.to_string();
            }
            w.write_record(&cells).expect("row");
        }
    }
    w.flush().expect("flush");
}

type WorstKey = (String, String, String, String, Option<u64>, String);

#[test]
fn parallel_report_equals_the_row_by_row_aggregation() {
    let dir = tempfile::tempdir().expect("tmp");
    let r = dir.path().join("reference.csv");
    let a = dir.path().join("a.csv");
    let b = dir.path().join("b.csv");
    write_copies("reference.csv", 1500, &r, None, 0);
    write_copies("candidate.csv", 1500, &a, Some("vulkan:lavapipe"), 0);
    write_copies("candidate.csv", 1500, &b, Some("cpu"), 997);
    let options = ReportOptions::default();
    let report = build(&[r.clone(), a.clone(), b.clone()], &options).expect("report");

    // The same figures, row by row through the streaming diff.
    let mut agg = Aggregator::default();
    let mut worst: HashMap<u32, Vec<RowDiff>> = HashMap::new();
    let (mut compared, mut unexpected) = (0, 0);
    let mut unmatched = Vec::new();
    for cand in [&b, &a] {
        // Candidates in label order (cpu, vulkan:lavapipe), as the report takes them.
        let (summary, left) = diff_inputs(
            &mut Chain::new(vec![r.clone()]),
            &mut Chain::new(vec![cand.clone()]),
            &Options::default(),
            |d| {
                let group = agg.add(d)?;
                if d.class != Class::Exact && d.class != Class::NoOutputs {
                    let list = worst.entry(group).or_default();
                    let rank = |d: &RowDiff| (d.class, d.max_ulp.unwrap_or(u64::MAX));
                    if list.len() < WORST_PER_GROUP || list.iter().any(|w| rank(w) < rank(d)) {
                        list.push(d.clone());
                        list.sort_by_key(|w| std::cmp::Reverse(rank(w)));
                        list.truncate(WORST_PER_GROUP);
                    }
                }
                Ok(())
            },
        )
        .expect("diff");
        compared += summary.rows;
        unexpected += summary.unexpected;
        unmatched.push((
            left.reference_only,
            left.candidate_only,
            left.describe_first(),
        ));
    }
    let (keys, fine) = agg.finish().expect("aggregate");
    let expected = tables(&keys, fine).expect("tables");
    assert_eq!(json(&report.groups), json(&expected.groups));
    assert_eq!(json(&report.matrix), json(&expected.matrix));
    assert_eq!(json(&report.histograms), json(&expected.histograms));
    assert_eq!(report.compared_rows, compared);
    assert_eq!(report.unexpected_rows, unexpected);
    assert_eq!(report.reference_rows, 1500 * 13);
    assert!(report.unmatched.len() == 1 && unmatched[0].1 == 0 && unmatched[0].0 > 0);
    assert_eq!(report.unmatched[0].first, unmatched[0].2);
    let mut want: Vec<WorstKey> = worst
        .values()
        .flatten()
        .map(|d| {
            (
                d.reference.row.instruction.clone(),
                d.backend.clone(),
                rdnaprobe_reports::format::mode(&d.reference.row.mode, d.reference.row.wave),
                d.class.name().to_string(),
                d.max_ulp,
                rdnaprobe_reports::format::repro_command(&d.reference.row, &d.backend),
            )
        })
        .collect();
    let mut got: Vec<WorstKey> = report
        .worst
        .iter()
        .map(|w| {
            (
                w.instruction.clone(),
                w.backend.clone(),
                w.mode.clone(),
                w.class.clone(),
                w.max_ulp,
                w.repro.clone(),
            )
        })
        .collect();
    want.sort();
    got.sort();
    assert_eq!(got, want);
    let stated: BTreeMap<String, u64> = report.unstated.clone();
    assert!(stated.values().all(|n| *n <= 1500 * 13));
}

/// JSON of a table, for comparing.
fn json<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("serialises")
}
