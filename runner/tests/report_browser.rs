//! The HTML report in a real browser: headless Chromium loads `index.html` from disk, the DOM
//! must hold the matrix with its cells, the console must stay silent (no failed asset, no
//! script error), and a screenshot is kept as `target/test-artifacts/report.png`.
//!
//! Without Chromium the test is skipped with a message, unless `CI=true`, where it fails.
//! Built only with the `report` feature (the `report` command needs polars).
#![cfg(feature = "report")]

use std::path::{Path, PathBuf};
use std::process::Command;

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../reports/tests/fixtures")
        .join(name)
        .display()
        .to_string()
}

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::var_os("PATH").and_then(|paths| {
                std::env::split_paths(&paths)
                    .map(|dir| dir.join(name))
                    .find(|p| p.is_file())
            })
        })
}

fn headless(browser: &Path, profile: &Path, extra: &[&str], url: &str) -> std::process::Output {
    Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs")
}

#[test]
fn report_renders_in_chromium() {
    let Some(browser) = chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is required under CI=true (scripts/setup installs it)");
        }
        eprintln!("skipped: chromium not found (set CI=true to make this a failure)");
        return;
    };
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report_browser");
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let dir = tmp.join("report");
    let out = Command::new(env!("CARGO_BIN_EXE_rdnaprobe"))
        .args([
            "report",
            &fixture("reference.csv"),
            &fixture("candidate.csv"),
            "-o",
        ])
        .arg(&dir)
        .args(["--known", &fixture("known.toml")])
        .output()
        .expect("rdnaprobe runs");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let index = dir
        .join("index.html")
        .canonicalize()
        .expect("index.html written");
    let url = format!("file://{}", index.display());

    let dom = headless(&browser, &tmp.join("profile-dom"), &["--dump-dom"], &url);
    let html = String::from_utf8_lossy(&dom.stdout);
    assert!(
        html.contains("<table id=\"matrix\">"),
        "no matrix in the DOM:\n{html}"
    );
    assert!(
        html.contains("vulkan:lavapipe"),
        "no backend column in the matrix"
    );
    assert!(html.contains("<svg"), "no inline plot");
    assert!(html.contains("v_exp_f32"), "no instruction row");
    let log = String::from_utf8_lossy(&dom.stderr);
    let console: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("CONSOLE") || (l.contains("ERROR") && l.contains("file://")))
        .collect();
    assert!(
        console.is_empty(),
        "console messages:\n{}",
        console.join("\n")
    );

    let artifacts = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .join("test-artifacts");
    std::fs::create_dir_all(&artifacts).expect("artifact dir");
    let png = artifacts.join("report.png");
    let _ = std::fs::remove_file(&png);
    let shot = headless(
        &browser,
        &tmp.join("profile-shot"),
        &[
            &format!("--screenshot={}", png.display()),
            "--window-size=1400,2000",
        ],
        &url,
    );
    let bytes = std::fs::read(&png).unwrap_or_else(|e| {
        panic!(
            "no screenshot ({e}): {}",
            String::from_utf8_lossy(&shot.stderr)
        )
    });
    assert!(
        bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 10_000,
        "screenshot is not a real PNG"
    );
}
