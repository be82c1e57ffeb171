//! `rdnaprobe fuzz --images N` (docs/cli.md, `fuzz`): random image sweep specs run on the CPU
//! model and on a candidate backend. The CPU model agrees with itself and with lavapipe (row
//! for row: outputs, status, the memory region after the body), the same seed gives the same
//! specs and so the same summary, and `--rows 0` without `--images` is refused. A planted
//! mismatch and its reproducer are the unit tests of `runner/src/fuzz/image_run.rs` (no real
//! backend can be made to differ).
//!
//! Without lavapipe the lavapipe test is skipped with a message, unless `CI=true`.

mod common;

use std::process::Output;

fn fuzz(backend: &str, seed: u64, images: usize, dir: &std::path::Path) -> Output {
    common::command(["fuzz", "--rows", "0", "--backend", backend])
        .arg("--seed")
        .arg(seed.to_string())
        .arg("--images")
        .arg(images.to_string())
        .arg("--repro-dir")
        .arg(dir)
        .output()
        .expect("run rdnaprobe fuzz")
}

/// The summary line (the last on stderr) without its time.
fn summary(o: &Output) -> String {
    let err = common::stderr(o);
    let line = err
        .lines()
        .rfind(|l| l.starts_with("fuzz --images: seed"))
        .unwrap_or_else(|| panic!("no summary: {err}"))
        .to_string();
    match line.rfind(", ") {
        Some(k) if line.ends_with(" s") => line[..k].to_string(),
        _ => line,
    }
}

/// The number before `what` in `line` (`..., 123 rows, ...`).
fn count(line: &str, what: &str) -> u64 {
    let end = line
        .find(what)
        .unwrap_or_else(|| panic!("`{what}` in {line}"));
    line[..end]
        .trim_end()
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count before `{what}` in {line}"))
}

/// Requires exit 0, no reproducer, 0 mismatching rows, and some rows run on both; returns
/// the summary.
fn agrees(o: &Output, specs: u64) -> String {
    let s = summary(o);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}\n{}",
        common::stdout(o),
        common::stderr(o)
    );
    assert!(common::stdout(o).trim().is_empty(), "{}", common::stdout(o));
    assert_eq!(count(&s, " specs"), specs, "{s}");
    assert_eq!(count(&s, " mismatching rows"), 0, "{s}");
    assert!(count(&s, " ok on both") > 0, "{s}");
    assert!(
        count(&s, " output dwords") >= 16 * count(&s, " ok on both"),
        "{s}"
    );
    assert_eq!(
        count(&s, " rows,"),
        count(&s, " ok on both") + count(&s, " unsupported on both") + count(&s, " errors on both"),
        "{s}"
    );
    s
}

#[test]
fn the_cpu_model_agrees_with_itself_and_the_same_seed_gives_the_same_specs() {
    let dir = common::scratch_dir("fuzz-images-cpu");
    let a = fuzz("cpu", 1, 12, &dir);
    let s = agrees(&a, 12);
    assert!(s.starts_with("fuzz --images: seed 1: 12 specs"), "{s}");
    let b = fuzz("cpu", 1, 12, &dir);
    assert_eq!(summary(&b), s, "the same seed, the same specs");
    let ops = |o: &Output| {
        common::stderr(o)
            .lines()
            .find(|l| l.contains("ops drawn"))
            .map(str::to_string)
    };
    assert_eq!(ops(&a), ops(&b));
    let c = fuzz("cpu", 2, 12, &dir);
    assert_ne!(summary(&c), s, "another seed, other specs");
    // nothing differed: no reproducer was written
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}

#[test]
fn lavapipe_agrees_with_the_cpu_model_on_random_image_specs() {
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let dir = common::scratch_dir("fuzz-images-lavapipe");
    let started = std::time::Instant::now();
    let o = fuzz("vulkan:lavapipe", 20_261_201, 48, &dir);
    let s = agrees(&o, 48);
    eprintln!("{s} ({:.1} s)", started.elapsed().as_secs_f64());
}

#[test]
fn rows_0_needs_images() {
    let o = common::command(["fuzz", "--rows", "0", "--backend", "cpu"])
        .output()
        .expect("run rdnaprobe fuzz");
    assert_eq!(o.status.code(), Some(2), "{}", common::stderr(&o));
    assert!(
        common::stderr(&o).contains("--images"),
        "{}",
        common::stderr(&o)
    );
}
