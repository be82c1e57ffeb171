//! Writes a synthetic results store for timing `rdnaprobe publish`: `RUNS` runs (default 10)
//! of `ROWS / RUNS` result rows each (default 10,000,000 rows in all), alternating two
//! backends, 24 instructions x 4 modes, 97% exact, 2% 1 ULP, 0.5% 3 ULP, 0.3% NaN payload,
//! 0.2% wrong (the diff benchmark's mix, docs/reports.md), seeded. Not a test.
//!
//! `cargo run -p rdnaprobe-reports --example store_bench -- 10000000 /tmp/store10m [RUNS]`

use std::collections::BTreeMap;
use std::path::PathBuf;

use polars::prelude::*;
use rdnaprobe_reports::classify::Class;
use rdnaprobe_reports::report::aggregate::ulp_bucket;
use rdnaprobe_reports::store::{write_run, RunManifest, Store};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let rows: u64 = args.get(1).map_or(Ok(10_000_000), |s| s.parse())?;
    let dir = PathBuf::from(
        args.get(2)
            .cloned()
            .unwrap_or_else(|| "/tmp/store10m".into()),
    );
    let runs: u64 = args.get(3).map_or(Ok(10), |s| s.parse())?;
    let _ = std::fs::remove_dir_all(&dir);
    let store = Store::create(&dir)?;
    let names = [
        "v_add_f32",
        "v_mul_f32",
        "v_fma_f32",
        "v_sqrt_f32",
        "v_rcp_f32",
        "v_rsq_f32",
        "v_exp_f32",
        "v_log_f32",
        "v_sin_f32",
        "v_cos_f32",
        "v_add_f16",
        "v_mul_f16",
        "v_fma_f16",
        "v_sqrt_f16",
        "v_rcp_f16",
        "v_min_f32",
        "v_max_f32",
        "v_fract_f32",
        "v_ldexp_f32",
        "v_frexp_mant_f32",
        "v_cvt_f16_f32",
        "v_cvt_f32_f16",
        "v_fma_f64",
        "v_add_f64",
    ];
    let modes = [
        "ieee=1 clamp=1 d32=3 d16=3 r32=0 r16=0 ovf=0 w32",
        "ieee=1 clamp=1 d32=0 d16=3 r32=0 r16=0 ovf=0 w32",
        "ieee=0 clamp=1 d32=3 d16=3 r32=3 r16=3 ovf=0 w32",
        "ieee=1 clamp=0 d32=3 d16=0 r32=1 r16=1 ovf=1 w64",
    ];
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let per_run = rows / runs;
    for r in 0..runs {
        let backend = if r % 2 == 0 { "cpu" } else { "vulkan:lavapipe" };
        let id = format!("{:016x}", 0x1000 + r);
        let run_dir = store.run_dir(&id);
        std::fs::create_dir_all(&run_dir)?;
        let file = std::fs::File::create(run_dir.join("results.parquet"))?;
        let mut writer = None;
        let mut classes: BTreeMap<String, u64> = BTreeMap::new();
        let (mut exact, mut unexpected) = (0u64, 0u64);
        let mut done = 0u64;
        while done < per_run {
            let n = (per_run - done).min(1 << 18) as usize;
            let mut cols: [Vec<String>; 4] = Default::default();
            let (mut class, mut code, mut ulp, mut bucket, mut unexp) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
            let (mut detail, mut repro, mut row_id, mut row) =
                (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for k in 0..n {
                let i = done + k as u64;
                let group = (i / 4096) as usize;
                let ins = names[group % names.len()];
                cols[0].push(backend.to_string());
                cols[1].push(ins.to_string());
                cols[2].push(ins.to_string());
                cols[3].push(modes[(group / names.len()) % modes.len()].to_string());
                let x = next() % 1000;
                let (c, u) = match x {
                    0..=969 => (Class::Exact, Some(0)),
                    970..=989 => (Class::Ulp1, Some(1)),
                    990..=994 => (Class::UlpK, Some(3)),
                    995..=997 => (Class::NanPayload, None),
                    _ => (Class::Wrong, Some(1 + next() % 100_000)),
                };
                class.push(c.name());
                code.push(c.code());
                ulp.push(u);
                bucket.push(ulp_bucket(u));
                unexp.push(c != Class::Exact);
                *classes.entry(c.name().to_string()).or_default() += 1;
                if c == Class::Exact {
                    exact += 1;
                    detail.push(None);
                    repro.push(None);
                } else {
                    unexpected += 1;
                    detail.push(Some(format!(
                        "out0 f32 ref 0x3f800000 got 0x{:08x}",
                        next() as u32
                    )));
                    repro.push(Some(format!("\"{ins} v10, v4\",0x7e000000,32,1,1,3,3,0,0,0,0x{:08x},0x00000000,0x00000000,0x00000000,0x00000000,0x00000000,,,,,,,,,,,,,,,,,gfx1030,,", next() as u32)));
                }
                row_id.push(Some(format!("bench:{i}")));
                row.push(i + 1);
            }
            let [b, ins, fam, mode] = cols;
            let df = DataFrame::new_infer_height(vec![
                Column::new("run".into(), vec![id.clone(); n]),
                Column::new("backend".into(), b),
                Column::new("family".into(), fam),
                Column::new("instruction".into(), ins),
                Column::new("mode".into(), mode),
                Column::new("wave".into(), vec![Some(32u32); n]),
                Column::new("class".into(), class),
                Column::new("class_code".into(), code),
                Column::new("max_ulp".into(), ulp),
                Column::new("ulp_bucket".into(), bucket),
                Column::new("unexpected".into(), unexp),
                Column::new("row_id".into(), row_id),
                Column::new("file".into(), vec!["bench.csv".to_string(); n]),
                Column::new("row".into(), row),
                Column::new("detail".into(), detail),
                Column::new("repro".into(), repro),
            ])?;
            if writer.is_none() {
                writer = Some(ParquetWriter::new(file.try_clone()?).batched(df.schema())?);
            }
            writer.as_mut().unwrap().write_batch(&df)?;
            done += n as u64;
        }
        writer.unwrap().finish()?;
        let run = RunManifest {
            id: id.clone(),
            kind: "replay".into(),
            backend: backend.into(),
            device: "synthetic".into(),
            driver: "store_bench".into(),
            driver_version: String::new(),
            recompiler_version: "0.1.0".into(),
            git_commit: String::new(),
            time: format!("2026-11-{:02}T12:00:00Z", 1 + r),
            added: "2026-12-01T00:00:00Z".into(),
            host: "bench".into(),
            outputs: Vec::new(),
            rows: per_run,
            compared: per_run,
            exact,
            unexpected,
            classes,
            result_rows: None,
            modes: Vec::new(),
        };
        write_run(&run_dir.join("run.json"), &run)?;
        eprintln!("run {id}: {per_run} rows");
    }
    Ok(())
}
