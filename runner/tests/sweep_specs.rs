//! Every example spec in datasets/specs parses (through the project's assembler where it
//! uses `asm`) and a slice of it runs on the cpu backend into a valid dataset.

mod common;

use std::path::Path;

use common::{command, stderr};

/// The row count `--dry-run` reports (`... = N rows`).
fn dry_run_rows(spec: &Path) -> u64 {
    let o = command(["sweep", "--backend", "cpu", "-o", "unused.csv", "--dry-run"])
        .arg(spec)
        .output()
        .unwrap();
    let err = stderr(&o);
    assert!(o.status.success(), "{}: {err}", spec.display());
    let tail = err.rsplit("= ").next().unwrap();
    tail.trim()
        .trim_end_matches(" rows")
        .parse()
        .unwrap_or_else(|_| panic!("{err}"))
}

#[test]
fn example_specs_parse_and_run_on_cpu() {
    let specs = common::repo_files("datasets/specs", "toml");
    assert!(specs.len() >= 12, "{specs:?}");
    let out_dir = common::scratch_dir("sweep-specs");
    for spec in &specs {
        let total = dry_run_rows(spec);
        assert!(total > 0);
        // The first of 32 shards keeps the debug test fast even for the exhaustive spec.
        let out = out_dir
            .join(spec.file_stem().unwrap())
            .with_extension("csv");
        let o = command(["sweep", "--backend", "cpu", "--shard", "1/32", "-o"])
            .arg(&out)
            .arg(spec)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}: {}", spec.display(), stderr(&o));
        let checked = rdnaprobe_dataset::verify(&out).unwrap();
        assert_eq!(checked.rows, total / 32, "{}", spec.display());
        let ds = rdnaprobe_dataset::read_dataset(&out).unwrap();
        assert_eq!(ds.extra_columns, ["backend", "status", "sweep_row"]);
        for (i, row) in ds.rows.iter().enumerate() {
            assert_eq!(row.extra[2], i.to_string());
            assert!(!row.encoding.is_empty());
        }
    }
}
