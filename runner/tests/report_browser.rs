//! The HTML report in a real browser: headless Chromium loads `index.html` from disk, the DOM
//! must hold the matrix with its cells, the console must stay silent (no failed asset, no
//! script error), and a screenshot is kept as `target/test-artifacts/report.png`.
//!
//! Without Chromium the test is skipped with a message, unless `CI=true`, where it fails.
//! Built only with the `report` feature (the `report` command needs polars).
#![cfg(feature = "report")]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{fixture_arg, stderr};

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
    let tmp = common::scratch_dir("report_browser");
    let dir = tmp.join("report");
    let out = common::rdnaprobe([
        "report",
        &fixture_arg("reference.csv"),
        &fixture_arg("candidate.csv"),
        "-o",
        &common::s(&dir),
        "--known",
        &fixture_arg("known.toml"),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
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

    let png = common::artifacts_dir().join("report.png");
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
