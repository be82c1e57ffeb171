//! The datasets shipped in datasets/: every CSV has a manifest, matches its SHA-256 and row
//! count, parses as schema v1 (except the declared non-v1 interp table), and keeps the mode
//! cells its source leaves unstated empty.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rdnaprobe_dataset::{manifest_path, read_dataset, verify, Manifest, SCHEMA_VERSION};

fn datasets_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets")
}

fn csvs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "csv"))
        .collect();
    v.sort();
    v
}

#[test]
fn rdna2_lane_datasets_match_their_manifests() {
    let files = csvs(&datasets_dir().join("rdna2"));
    assert_eq!(files.len(), 12, "{files:?}");
    let mut total = 0;
    for path in &files {
        let checked = verify(path).unwrap_or_else(|e| panic!("{e}"));
        let manifest = Manifest::read(&manifest_path(path)).unwrap();
        assert_eq!(manifest.schema_version, SCHEMA_VERSION);
        assert!(
            manifest.producer.backend.starts_with("hip"),
            "{}",
            path.display()
        );
        assert_eq!(
            manifest.provenance["source"],
            "public AnyPS5 test tables, transcribed"
        );
        let ds = read_dataset(path).unwrap();
        assert_eq!(ds.rows.len() as u64, checked.rows);
        assert_eq!(ds.extra_columns, vec!["row_id"]);
        // Unstated mode cells stay unstated: the manifest's count equals the parsed one.
        let mut empty: BTreeMap<String, u64> = BTreeMap::new();
        for r in &ds.rows {
            let m = r.mode;
            for (name, cell) in [
                ("ieee", m.ieee),
                ("dx10_clamp", m.dx10_clamp),
                ("denorm32", m.denorm32),
                ("denorm16", m.denorm16),
                ("round32", m.round32),
                ("round16", m.round16),
                ("fp16_overflow", m.fp16_overflow),
            ] {
                if cell.is_none() {
                    *empty.entry(name.into()).or_default() += 1;
                }
            }
            assert!(
                !r.encoding.is_empty(),
                "{}: row without words",
                path.display()
            );
            assert!(
                r.outputs[0].is_some(),
                "{}: out0 not captured",
                path.display()
            );
        }
        let stated: BTreeMap<String, u64> =
            serde_json::from_value(manifest.provenance["unstated_mode_cells"].clone()).unwrap();
        assert_eq!(stated, empty, "{}", path.display());
        total += checked.rows;
    }
    assert_eq!(total, 8909);
}

#[test]
fn interp_table_is_declared_not_v1_and_matches_its_manifest() {
    let path = datasets_dir().join("rdna2-interp/interp_f16_modes.csv");
    let checked = verify(&path).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(checked.rows, 537);
    let manifest = Manifest::read(&manifest_path(&path)).unwrap();
    assert_eq!(manifest.schema_version, 0);
    assert!(manifest.format.starts_with("NOT schema v1"));
    // It really is not v1: the reader refuses its header.
    assert!(read_dataset(&path).is_err());
}
