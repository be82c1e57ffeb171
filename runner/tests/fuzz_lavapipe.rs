//! The differential VALU fuzzer in the test suite: `rdnaprobe fuzz` runs random bodies of
//! lowered VALU instructions with special-value inputs in random float modes on the CPU model
//! and on lavapipe, and any differing row fails the test with its one-line repro.
//!
//! The seed is `RDNAPROBE_FUZZ_SEED` when set, else drawn from the clock; it is printed either
//! way. `RDNAPROBE_FUZZ_ROWS` sets the size (default 16,384 rows, a few seconds); a big run is
//! `RDNAPROBE_FUZZ_ROWS=1000000 cargo test --test fuzz_lavapipe` or
//! `rdnaprobe fuzz --rows 1000000 --backend vulkan:lavapipe` directly. Without lavapipe the test
//! is skipped with a message, unless `CI=true`.

mod common;

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.trim()
            .parse()
            .unwrap_or_else(|e| panic!("{name}={v}: not a number ({e})"))
    })
}

#[test]
fn random_valu_bodies_agree_on_cpu_and_lavapipe() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let seed = env_u64("RDNAPROBE_FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
    });
    let rows = env_u64("RDNAPROBE_FUZZ_ROWS").unwrap_or(16_384);
    eprintln!("fuzz seed {seed}, {rows} rows (RDNAPROBE_FUZZ_SEED / RDNAPROBE_FUZZ_ROWS)");
    let o = common::command(["fuzz", "--backend", "vulkan:lavapipe", "--seed"])
        .arg(seed.to_string())
        .arg("--rows")
        .arg(rows.to_string())
        .output()
        .expect("run rdnaprobe fuzz");
    let stdout = common::stdout(&o);
    let stderr = common::stderr(&o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "seed {seed}: cpu and lavapipe differ; one repro per line:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.trim().is_empty(),
        "no repro lines expected: {stdout}"
    );
    let summary = stderr.lines().last().unwrap_or_default();
    assert!(
        summary.contains(&format!("{rows} rows")) && summary.contains(" 0 mismatching rows"),
        "{summary}"
    );
}

#[test]
fn the_cli_prints_the_seed_and_refuses_an_unknown_backend() {
    // the CPU model against itself never differs; an unknown backend is an error (exit 2)
    let o = common::command(["fuzz", "--backend", "cpu", "--seed", "5", "--rows", "512"])
        .output()
        .expect("run rdnaprobe fuzz");
    assert_eq!(o.status.code(), Some(0), "{}", common::stderr(&o));
    let stderr = common::stderr(&o);
    assert!(stderr.contains("seed 5"), "the seed is printed: {stderr}");
    let o = common::command(["fuzz", "--backend", "nope", "--rows", "1"])
        .output()
        .expect("run rdnaprobe fuzz");
    assert_eq!(o.status.code(), Some(2));
}
