//! Parquet inputs of `diff` and `report`: a dataset exported to Parquet gives the diff CSV,
//! JSON rows and summary of its CSV, byte for byte, alone or mixed with CSV on the other side,
//! over several row groups and blocks, with wave uniform cells; and the report's tables are
//! the same. A truncated file, a missing column or a bad value is an error naming the file and
//! where; a build without polars says it cannot read Parquet.

#[cfg(feature = "polars")]
mod common;

use std::path::{Path, PathBuf};

use rdnaprobe_reports::output::{row_json, write_csv_line};
use rdnaprobe_reports::pipeline::diff_paths;
use rdnaprobe_reports::{Options, RowDiff, Summary};

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn fold(d: &RowDiff, acc: &mut (Vec<u8>, Vec<u8>)) {
    write_csv_line(&mut acc.0, d);
    serde_json::to_writer(&mut acc.1, &row_json(d)).expect("json");
    acc.1.push(b'\n');
}

/// CSV and JSON rows and the summary of the parallel diff, or the error text.
fn diff(
    reference: &Path,
    candidate: &Path,
    options: &Options,
) -> Result<(Vec<u8>, Vec<u8>, Summary), String> {
    let (mut csv, mut json) = (Vec::new(), Vec::new());
    let summary = diff_paths(
        reference,
        candidate,
        options,
        &|| (Vec::new(), Vec::new()),
        &fold,
        &mut |(c, j)| {
            csv.extend_from_slice(&c);
            json.extend_from_slice(&j);
            Ok(())
        },
    )
    .map_err(|e| e.to_string())?;
    Ok((csv, json, summary))
}

#[cfg(feature = "polars")]
mod with_polars {
    use super::*;
    use polars::prelude::*;
    use rdnaprobe_reports::export::export_dataset_file;
    use rdnaprobe_reports::Known;

    fn to_parquet(csv: &Path, dir: &Path, group_rows: usize) -> PathBuf {
        // No `.parquet` name: the reader goes by the magic bytes.
        let out = dir.join(format!(
            "{}.pq-data",
            csv.file_stem().unwrap().to_string_lossy()
        ));
        export_dataset_file(csv, &out, group_rows).expect("export");
        out
    }

    /// The four pairings of CSV and Parquet sides give the same bytes and summary.
    fn same_four_ways(
        r_csv: &Path,
        c_csv: &Path,
        dir: &Path,
        group_rows: usize,
        options: &Options,
    ) -> Summary {
        let r_pq = to_parquet(r_csv, dir, group_rows);
        let c_pq = to_parquet(c_csv, dir, group_rows);
        let want = diff(r_csv, c_csv, options).expect("csv diff");
        for (r, c) in [
            (&r_pq, &c_pq),
            (&r_pq.to_path_buf(), &c_csv.to_path_buf()),
            (&r_csv.to_path_buf(), &c_pq),
        ] {
            let got = diff(r, c, options).expect("parquet diff");
            assert_eq!(
                String::from_utf8_lossy(&got.0),
                String::from_utf8_lossy(&want.0),
                "{} vs {}",
                r.display(),
                c.display()
            );
            assert_eq!(got.1, want.1, "json rows");
            assert_eq!(format!("{:?}", got.2), format!("{:?}", want.2), "summary");
        }
        want.2
    }

    #[test]
    fn shipped_fixture_pair_gives_the_same_diff_from_parquet() {
        let dir = scratch("parquet_fixture");
        let options = Options {
            known: Known::load(&fixture("known.toml")).expect("known"),
            ..Options::default()
        };
        let s = same_four_ways(
            &fixture("reference.csv"),
            &fixture("candidate.csv"),
            &dir,
            4,
            &options,
        );
        assert_eq!(s.rows, 13);
        assert!(s.unexpected > 0 && s.expected > 0, "{s:?}");
    }

    /// `rows` generated rows of several bodies and modes; the candidate differs on some.
    fn generate(dir: &Path, rows: usize) -> (PathBuf, PathBuf) {
        let header = "instruction,encoding,wave,ieee,dx10_clamp,denorm32,denorm16,round32,round16,fp16_overflow,in0,in1,in2,in3,in4,in5,out0,out1,out2,out3,out4,out5,out6,out7,out8,out9,out10,out11,out12,out13,out14,out15,gfx,source,note";
        let (rp, cp) = (dir.join("gen_ref.csv"), dir.join("gen_cand.csv"));
        let mut r = format!("{header}\n");
        let mut c = format!("{header},backend,status\n");
        let bodies = [
            ("v_add_f32 v10, v4, v5", "0x06140b04"),
            ("v_mul_f32 v10, v4, v5", "0x10140b04"),
            ("v_sqrt_f32 v10, v4", "0x7e146704"),
            ("v_fma_f32 v10, v4, v5, v6", "0xd54b000a 0x041a0b04"),
        ];
        let mut x = 0x2545_f491u32;
        for i in 0..rows {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let (text, enc) = bodies[(i / 700) % bodies.len()];
            let denorm = if (i / 2100) % 2 == 0 { "3" } else { "" };
            let out = x.rotate_left(9) ^ 0x3f80_0000;
            let got = match x % 50 {
                0 => out.wrapping_add(1),
                1 => out ^ 0x0040_0000,
                2 => 0x7fc0_0001,
                _ => out,
            };
            let status = if x % 97 == 3 {
                "unsupported: no such thing"
            } else {
                "ok"
            };
            let common = format!(
                "\"{text}\",{enc},32,1,,{denorm},3,0,0,0,0x{x:08x},0x{:08x},0x00000000,0x00000000,0x00000000,0x00000000",
                x.rotate_left(3)
            );
            let empty = ",".repeat(15);
            r.push_str(&format!(
                "{common},0x{out:08x}{empty},gfx1030,gen,\"n, {i}\"\n"
            ));
            c.push_str(&format!(
                "{common},0x{got:08x}{empty},gfx1030,gen,,cpu,{status}\n"
            ));
        }
        std::fs::write(&rp, r).expect("write");
        std::fs::write(&cp, c).expect("write");
        (rp, cp)
    }

    #[test]
    fn generated_mismatches_over_many_row_groups_and_blocks() {
        let dir = scratch("parquet_generated");
        let (r, c) = generate(&dir, 40_000);
        // 3,000-row groups: blocks end at row group ends, not only every 16,384 rows.
        let s = same_four_ways(&r, &c, &dir, 3_000, &Options::default());
        assert_eq!(s.rows, 40_000);
        assert!(s.unexpected > 1_000, "{s:?}");
        assert!(s.count(rdnaprobe_reports::Class::Exact) > 30_000, "{s:?}");
    }

    #[test]
    fn wave_uniform_cells_are_compared_from_parquet() {
        let dir = scratch("parquet_wave");
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../datasets/wave/crosslane.csv");
        let mut reader = csv::Reader::from_path(&src).expect("wave dataset");
        let header = reader.headers().expect("header").clone();
        let s_out = header.iter().position(|h| h == "s_out").expect("s_out");
        let mut rows: Vec<Vec<String>> = reader
            .records()
            .map(|r| r.expect("row").iter().map(String::from).collect())
            .collect();
        let r = dir.join("crosslane.csv");
        common::write_csv(&r, &header, &rows, false);
        let first = rows
            .iter()
            .position(|row| row[s_out].starts_with("0x"))
            .expect("an s_out cell");
        let cell = &mut rows[first][s_out];
        let flipped = if cell.ends_with('0') { "1" } else { "0" };
        cell.replace_range(cell.len() - 1.., flipped);
        let c = dir.join("crosslane_cand.csv");
        common::write_csv(&c, &header, &rows, false);
        let s = same_four_ways(&r, &c, &dir, 5, &Options::default());
        assert!(
            s.rows > 0 && s.rows > s.count(rdnaprobe_reports::Class::Exact),
            "{s:?}"
        );
    }

    #[test]
    fn report_tables_are_the_same_from_parquet() {
        use rdnaprobe_reports::report::{write_report, ReportOptions};
        let dir = scratch("parquet_report");
        let (r, c) = generate(&dir, 5_000);
        let (rq, cq) = (to_parquet(&r, &dir, 1_000), to_parquet(&c, &dir, 1_000));
        let options = ReportOptions::default();
        let a = write_report(&[r, c], &dir.join("csv"), &options).expect("csv report");
        let b = write_report(&[rq, cq], &dir.join("pq"), &options).expect("parquet report");
        assert_eq!(b.reference, "hardware");
        let tables = |rep: &rdnaprobe_reports::report::Report| {
            let mut v = serde_json::to_value(rep).expect("json");
            v.as_object_mut().expect("object").remove("inputs");
            v
        };
        assert_eq!(tables(&a), tables(&b));
        assert_eq!(a.compared_rows, 5_000);
        for file in ["summary.csv", "summary.json"] {
            let (x, y) = (dir.join("csv").join(file), dir.join("pq").join(file));
            let (x, y) = (
                std::fs::read_to_string(x).expect("csv"),
                std::fs::read_to_string(y).expect("pq"),
            );
            if file == "summary.csv" {
                assert_eq!(x, y);
            } else {
                let strip = |s: &str| {
                    let mut v: serde_json::Value = serde_json::from_str(s).expect("json");
                    v.as_object_mut().map(|o| o.remove("inputs"));
                    v
                };
                assert_eq!(strip(&x), strip(&y));
            }
        }
    }

    /// Rewrites the Parquet file `path` through `edit`.
    fn rewrite(path: &Path, out: &Path, edit: impl FnOnce(DataFrame) -> DataFrame) {
        let df = ParquetReader::new(std::fs::File::open(path).expect("open"))
            .finish()
            .expect("read");
        let mut df = edit(df);
        ParquetWriter::new(std::fs::File::create(out).expect("create"))
            .finish(&mut df)
            .expect("write");
    }

    #[test]
    fn bad_parquet_inputs_name_the_file_and_the_place() {
        let dir = scratch("parquet_errors");
        let good = to_parquet(&fixture("reference.csv"), &dir, 5);
        let csv = fixture("reference.csv");

        let truncated = dir.join("truncated.parquet");
        let bytes = std::fs::read(&good).expect("read");
        std::fs::write(&truncated, &bytes[..bytes.len() / 2]).expect("write");
        let e = diff(&csv, &truncated, &Options::default()).unwrap_err();
        assert!(
            e.contains("truncated.parquet") && e.contains("truncated or corrupt"),
            "{e}"
        );

        let missing = dir.join("missing.parquet");
        rewrite(&good, &missing, |df| df.drop("in3").expect("drop"));
        let e = diff(&missing, &csv, &Options::default()).unwrap_err();
        assert!(
            e.contains("missing.parquet") && e.contains("no column `in3`"),
            "{e}"
        );

        let bad = dir.join("bad_wave.parquet");
        rewrite(&good, &bad, |mut df| {
            let n = df.height();
            let waves: Vec<u32> = (0..n).map(|i| if i == 7 { 48 } else { 32 }).collect();
            df.with_column(Column::new("wave".into(), waves))
                .expect("wave");
            df
        });
        // The rows before the bad one are delivered before the error, as for CSV.
        let mut delivered = 0usize;
        let e = diff_paths(
            &csv,
            &bad,
            &Options::default(),
            &|| 0usize,
            &|_, n: &mut usize| *n += 1,
            &mut |n| {
                delivered += n;
                Ok(())
            },
        )
        .unwrap_err()
        .to_string();
        assert_eq!(delivered, 7, "{e}");
        assert!(
            e.contains("bad_wave.parquet")
                && e.contains("row group 1, data row 8, column `wave`")
                && e.contains("48"),
            "{e}"
        );

        // Commands that read CSV only say so.
        let e = rdnaprobe_reports::Input::open(&good)
            .err()
            .expect("an error")
            .to_string();
        assert!(e.contains("Parquet") && e.contains("CSV"), "{e}");
    }
}

#[cfg(not(feature = "polars"))]
#[test]
fn a_build_without_polars_says_it_cannot_read_parquet() {
    let dir = scratch("parquet_no_polars");
    let file = dir.join("data.csv");
    std::fs::write(&file, b"PAR1\x15\x04 not really\x00PAR1").expect("write");
    let e = diff(&fixture("reference.csv"), &file, &Options::default()).unwrap_err();
    assert!(
        e.contains("data.csv") && e.contains("without Parquet support"),
        "{e}"
    );
}
