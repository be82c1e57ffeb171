//! The published site in a real browser: three shipped datasets are replayed on the CPU model
//! and on lavapipe, stored as runs (plus a later CPU run with one row made wrong, so the
//! history has a regression), published, and headless Chromium, driven over the DevTools
//! protocol, loads the site from file://, uses the search and the three filters, follows a link
//! to an instruction page and from there to a rule page, opens the history, and reads values
//! in the DOM. The matrix value is checked against `rdnaprobe report`'s own aggregation, the
//! cell colours against the share scale, the heat map against the instruction page, the
//! encoding forms against the instruction table and the rules against the recompiler's
//! registry. No
//! console error is allowed. Screenshots are kept under `target/test-artifacts/site-*.png`.
//!
//! Without Chromium or lavapipe the test is skipped with a message, unless `CI=true`.
#![cfg(feature = "report")]

mod cdp;
mod common;

use std::path::Path;

use common::s;
use serde_json::Value;

const DATASETS: [&str; 3] = ["log", "f16_rounding", "fp16_overflow"];

/// Runs `rdnaprobe ARGS` and requires exit code 0 or 1 (differences found).
fn rdnaprobe(args: &[&str]) -> std::process::Output {
    let out = common::rdnaprobe(args);
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "rdnaprobe {}: {}",
        args.join(" "),
        common::stderr(&out)
    );
    out
}

fn csvs(dir: &Path) -> Vec<String> {
    DATASETS
        .iter()
        .map(|d| s(&dir.join(format!("{d}.csv"))))
        .collect()
}

/// Replays the datasets on `backend` into `dir`.
fn replay(hw: &[String], backend: &str, dir: &Path) {
    std::fs::create_dir_all(dir).unwrap();
    let mut args: Vec<&str> = vec!["replay"];
    args.extend(hw.iter().map(String::as_str));
    let d = format!("{}/", dir.display());
    args.extend(["--backend", backend, "-o", &d]);
    rdnaprobe(&args);
}

fn add(store: &Path, dir: &Path, time: &str) {
    let files = csvs(dir);
    let st = s(store);
    let mut args: Vec<&str> = vec!["store", "add"];
    args.extend(files.iter().map(String::as_str));
    args.extend(["--store", &st, "--time", time]);
    rdnaprobe(&args);
}

/// `rgb(r,g,b)` or `rgb(r, g, b)` as numbers.
fn rgb(text: &str) -> Vec<i64> {
    text.trim_start_matches("rgb(")
        .trim_end_matches(')')
        .split(',')
        .map(|v| v.trim().parse().unwrap())
        .collect()
}

fn keep_screenshot(b: &mut cdp::Browser, name: &str) {
    let png = b.screenshot();
    assert!(
        png.starts_with(b"\x89PNG\r\n\x1a\n") && png.len() > 5_000,
        "{name}: not a real PNG"
    );
    std::fs::write(
        common::artifacts_dir().join(format!("site-{name}.png")),
        png,
    )
    .unwrap();
}

#[test]
fn site_works_in_chromium() {
    let Some(browser) = cdp::chromium() else {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("chromium is required under CI=true (scripts/setup installs it)");
        }
        eprintln!("skipped: chromium not found (set CI=true to make this a failure)");
        return;
    };
    if common::skip_without_lavapipe().is_some() {
        return;
    }
    let tmp = common::scratch_dir("publish_browser");
    let hw = csvs(&common::repo_root().join("datasets/rdna2"));
    let store = tmp.join("store");
    replay(&hw, "cpu", &tmp.join("cpu"));
    replay(&hw, "vulkan:lavapipe", &tmp.join("lvp"));
    // A later CPU run where the first v_log_f32 row (log(0.5) = -1) came out 16 ULP off.
    let later = tmp.join("cpu-later");
    std::fs::create_dir_all(&later).unwrap();
    for d in DATASETS {
        for ext in ["csv", "manifest.json"] {
            let name = format!("{d}.{ext}");
            std::fs::copy(tmp.join("cpu").join(&name), later.join(&name)).unwrap();
        }
    }
    let log = later.join("log.csv");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains(",0xbf800000,"), "log.csv row 1 changed");
    std::fs::write(&log, text.replacen(",0xbf800000,", ",0xbf800010,", 1)).unwrap();
    add(&store, &tmp.join("cpu"), "2026-01-01T00:00:00Z");
    add(&store, &tmp.join("lvp"), "2026-01-01T00:00:01Z");
    add(&store, &later, "2026-01-02T00:00:00Z");
    let site = tmp.join("site");
    rdnaprobe(&["publish", "--store", &s(&store), "-o", &s(&site)]);

    // The oracle for one matrix value: `report`'s own aggregation of the later CPU run.
    let report = tmp.join("report");
    let mut args = vec!["report".to_string()];
    args.extend(hw.iter().cloned());
    args.extend(csvs(&later));
    args.extend(["-o".into(), s(&report)]);
    rdnaprobe(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let summary: Value =
        serde_json::from_str(&std::fs::read_to_string(report.join("summary.json")).unwrap())
            .unwrap();
    let expected = summary["matrix"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["instruction"] == "v_log_f32" && c["backend"] == "cpu")
        .expect("v_log_f32 on cpu in the report")["exact_share"]
        .as_f64()
        .unwrap();

    let mut b = cdp::Browser::launch(&browser, &tmp.join("profile"));
    let root = site.canonicalize().unwrap();
    b.navigate(&format!("file://{}/index.html", root.display()));
    let rows = "[...document.querySelectorAll('#matrix tbody tr')]";
    let all = b.eval(&format!("{rows}.length")).as_u64().unwrap();
    // One matrix row per measured instruction; the table's other rows have pages too.
    let pages: Vec<String> = std::fs::read_dir(site.join("i"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    let measured = pages
        .iter()
        .filter(|p| !p.contains("id=\"unmeasured\""))
        .count() as u64;
    assert_eq!(
        all, measured,
        "one matrix row per measured instruction page"
    );
    let table_rows = rdnaprobe_isa::table().rows.len();
    let mnemonics: std::collections::BTreeSet<&str> = rdnaprobe_isa::table()
        .rows
        .iter()
        .map(|r| r.mnemonic)
        .collect();
    assert!(
        pages.len() >= mnemonics.len(),
        "{} pages for {} mnemonics",
        pages.len(),
        mnemonics.len()
    );
    keep_screenshot(&mut b, "matrix");

    // The whole instruction table: a row per table row, filtered by status and searched.
    b.navigate(&format!("file://{}/table.html", root.display()));
    let table = "[...document.querySelectorAll('#opcodes tr[data-name]')]";
    let n = b.eval(&format!("{table}.length")).as_u64().unwrap();
    assert_eq!(n as usize, table_rows);
    let refused = b.eval(&format!(
        "(() => {{ const s = document.getElementById('status'); s.value = 'not lowered'; \
         s.dispatchEvent(new Event('input')); return {table}.filter(r => r.style.display !== 'none')\
         .map(r => [r.dataset.name, r.cells[4].textContent]); }})()"
    ));
    let refused = refused.as_array().unwrap();
    let unlowered = rdnaprobe_isa::table()
        .rows
        .iter()
        .filter(|r| {
            rdnaprobe_recompiler::unlowered_reason(r.op(), rdnaprobe_isa::Target::Gfx1030).is_some()
        })
        .count();
    assert_eq!(refused.len(), unlowered, "{refused:?}");
    assert!(
        refused.iter().all(|r| !r[1].as_str().unwrap().is_empty()),
        "{refused:?}"
    );
    let found = b.eval(&format!(
        "(() => {{ const s = document.getElementById('status'); s.value = ''; \
         s.dispatchEvent(new Event('input')); const q = document.getElementById('q'); \
         q.value = 'v_med3'; q.dispatchEvent(new Event('input')); \
         return {table}.filter(r => r.style.display !== 'none').map(r => [r.dataset.name, r.dataset.status]); }})()"
    ));
    let found = found.as_array().unwrap();
    assert!(
        found
            .iter()
            .any(|r| r[0] == "v_med3_f16" && r[1] == "lowered, unmeasured"),
        "{found:?}"
    );
    assert!(found
        .iter()
        .all(|r| r[0].as_str().unwrap().contains("v_med3")));
    keep_screenshot(&mut b, "table");
    let page = std::fs::read_to_string(site.join("i/v_med3_f16.html")).unwrap();
    assert!(page.contains("<b>lowered</b>") && page.contains("id=\"unmeasured\""));
    b.navigate(&format!("file://{}/index.html", root.display()));

    // Search.
    let found = b.eval(&format!(
        "(() => {{ const s = document.getElementById('search'); s.value = 'log'; \
         s.dispatchEvent(new Event('input')); return {rows}.map(r => r.dataset.instruction); }})()"
    ));
    let found: Vec<&str> = found
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert!(found.contains(&"v_log_f32"), "{found:?}");
    assert!(found.iter().all(|n| n.contains("log")), "{found:?}");
    assert!((found.len() as u64) < all);
    // Backend filter: one backend column, every cell of it.
    let cells = b.eval(
        "(() => { const s = document.getElementById('search'); s.value = ''; \
         s.dispatchEvent(new Event('input')); const f = document.getElementById('backend'); \
         f.value = 'cpu'; f.dispatchEvent(new Event('change')); \
         return [document.querySelectorAll('#matrix thead th').length, \
                 [...document.querySelectorAll('#matrix td[data-backend]')].map(c => c.dataset.backend)]; })()",
    );
    assert_eq!(cells[0], 4, "instruction, family, cpu, history");
    assert!(cells[1].as_array().unwrap().iter().all(|b| b == "cpu"));
    // The value in the DOM is the report's.
    let share = b
        .eval("document.querySelector('#matrix tr[data-instruction=\"v_log_f32\"] td[data-backend]').dataset.share")
        .as_str()
        .unwrap()
        .parse::<f64>()
        .unwrap();
    assert!(
        (share - expected).abs() < 1e-4,
        "DOM {share} vs report {expected}"
    );
    // Every cell is coloured by its exact share, on the scale of the heat maps.
    let colours = b.eval(
        "[...document.querySelectorAll('#matrix td[data-share]')].map(c => [c.dataset.share, getComputedStyle(c).backgroundColor])",
    );
    let colours = colours.as_array().unwrap();
    assert!(!colours.is_empty());
    for c in colours {
        let share: f64 = c[0].as_str().unwrap().parse().unwrap();
        let want = rgb(&rdnaprobe_reports::publish::svg::share_colour(share));
        let got = rgb(c[1].as_str().unwrap());
        assert!(
            want.iter().zip(&got).all(|(a, b)| (a - b).abs() <= 3),
            "share {share}: cell {got:?}, scale {want:?}"
        );
    }
    // One heat map of instruction x mode per backend, loaded.
    let heat = b.eval(
        "Promise.all([...document.querySelectorAll('img[alt^=\"heat map \"]')].map(i => i.decode().then(() => [i.alt, i.naturalWidth])))",
    );
    let heat: Vec<String> = heat
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            assert!(h[1].as_u64() > Some(0), "{h}");
            h[0].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(heat, ["heat map cpu", "heat map vulkan:lavapipe"]);
    // Family filter.
    let families = b.eval(
        "(() => { const f = document.getElementById('family'); f.value = 'VOP1'; \
         f.dispatchEvent(new Event('change')); \
         return [...document.querySelectorAll('#matrix tbody tr')].map(r => r.children[1].textContent); })()",
    );
    let families = families.as_array().unwrap();
    assert!(
        !families.is_empty() && families.iter().all(|f| f == "VOP1"),
        "{families:?}"
    );
    // Mode filter: each mode keeps only the instructions measured in it (some, not all).
    let by_mode = b.eval(&format!(
        "(() => {{ document.getElementById('family').value = ''; \
         const m = document.getElementById('mode'); const counts = []; \
         for (let i = 0; i < m.options.length - 1; i++) {{ m.value = String(i); \
         m.dispatchEvent(new Event('change')); counts.push({rows}.length); }} \
         return Math.min(...counts); }})()"
    ));
    let by_mode = by_mode.as_u64().unwrap();
    assert!(by_mode > 0 && by_mode < all, "{by_mode} of {all}");

    // Follow the link to the instruction page.
    b.eval("(() => { const m = document.getElementById('mode'); m.value = ''; m.dispatchEvent(new Event('change')); })()");
    b.follow("document.querySelector('#matrix tr[data-instruction=\"v_log_f32\"] a').click()");
    let here = b.eval("location.pathname").as_str().unwrap().to_string();
    assert!(here.ends_with("/i/v_log_f32.html"), "{here}");
    let modes = b.eval(
        "[...document.querySelectorAll('#modes tr[data-backend]')].map(r => [r.dataset.backend, r.querySelector('.exact').textContent])",
    );
    let modes = modes.as_array().unwrap();
    assert!(modes.iter().any(|m| m[0] == "cpu") && modes.iter().any(|m| m[0] == "vulkan:lavapipe"));
    // The heat map's cells are the page's per-mode exact shares (latest CPU run).
    let heat_svg = std::fs::read_to_string(site.join("img/heat-cpu.svg")).unwrap();
    let mut from_map: Vec<String> = heat_svg
        .split("<title>v_log_f32 mode ")
        .skip(1)
        .filter_map(|t| {
            let t = &t[..t.find("</title>").unwrap()];
            t.split(": ")
                .nth(1)
                .map(|v| v.trim_end_matches(" exact").to_string())
        })
        .filter(|v| v != "not measured")
        .collect();
    let mut from_page: Vec<String> = modes
        .iter()
        .filter(|m| m[0] == "cpu")
        .map(|m| m[1].as_str().unwrap().to_string())
        .collect();
    from_map.sort();
    from_page.sort();
    assert!(!from_page.is_empty());
    assert_eq!(from_map, from_page, "heat map vs the page's mode table");
    // Encoding forms: the instruction table's rows.
    let forms = b.eval("[...document.querySelectorAll('#forms tr')].slice(1).map(r => [r.children[0].textContent, r.children[1].textContent])");
    let want: Vec<Value> = rdnaprobe_isa::table::lookup_name("v_log_f32")
        .iter()
        .map(|f| serde_json::json!([f.family.name(), f.opcode.to_string()]))
        .collect();
    assert!(!want.is_empty());
    assert_eq!(forms.as_array().unwrap(), &want);
    // The rules listed are those the recompiler's registry applies to the instruction.
    let listed = b.eval("[...document.querySelectorAll('#rules a')].map(a => a.textContent)");
    let governing: Vec<Value> = rdnaprobe_recompiler::rules::governing("v_log_f32")
        .map(|r| Value::from(r.id.clone()))
        .collect();
    assert_eq!(listed.as_array().unwrap(), &governing);
    // A ULP histogram per backend with rows that are not exact, and only those.
    let histograms = b.eval("[...document.querySelectorAll('img[alt^=\"ULP histogram on \"]')].map(i => i.alt.slice(17))");
    let mut inexact: Vec<Value> = modes
        .iter()
        .filter(|m| m[1] != "100.00%")
        .map(|m| m[0].clone())
        .collect();
    inexact.dedup();
    assert!(!inexact.is_empty());
    assert_eq!(histograms.as_array().unwrap(), &inexact);
    let images =
        b.eval("Promise.all([...document.images].map(i => i.decode().then(() => i.naturalWidth)))");
    assert!(
        images
            .as_array()
            .unwrap()
            .iter()
            .all(|w| w.as_u64() > Some(0)),
        "every picture loads: {images}"
    );
    let repro = b.eval("document.querySelector('.worst .repro').textContent");
    assert!(
        repro.as_str().unwrap().contains("rdnaprobe replay"),
        "{repro}"
    );
    keep_screenshot(&mut b, "instruction");

    // And on to a rule page.
    let rule = b.eval("document.querySelector('#rules a').textContent");
    b.follow("document.querySelector('#rules a').click()");
    let h1 = b.eval("document.querySelector('h1').textContent");
    assert_eq!(
        h1.as_str().unwrap(),
        format!("rule: {}", rule.as_str().unwrap())
    );
    let governs = b.eval("[...document.querySelectorAll('#governs a')].map(a => a.textContent)");
    assert!(
        governs.as_array().unwrap().iter().any(|g| g == "v_log_f32"),
        "{governs}"
    );
    assert!(b
        .eval("document.getElementById('statement').textContent.length")
        .as_u64()
        .is_some_and(|n| n > 20));
    b.navigate(&format!("file://{}/r/rounding.html", root.display()));
    let verdicts =
        b.eval("[...document.querySelectorAll('#evidence td.verdict')].map(c => c.textContent)");
    assert!(
        !verdicts.as_array().unwrap().is_empty(),
        "rounding has evidence rows"
    );
    keep_screenshot(&mut b, "rule");

    // History: the later CPU run is marked, with the group that lost a row.
    b.navigate(&format!("file://{}/history.html", root.display()));
    let runs = b.eval("document.querySelectorAll('#runs tr[data-run]').length");
    assert_eq!(runs, 3);
    let marked = b.eval(
        "[...document.querySelectorAll('#regressions tr.regressed td:nth-child(3)')].map(c => c.textContent)",
    );
    assert_eq!(marked.as_array().unwrap(), &[Value::from("v_log_f32")]);
    keep_screenshot(&mut b, "history");

    let errors = b.errors();
    assert!(errors.is_empty(), "console errors:\n{}", errors.join("\n"));
}
