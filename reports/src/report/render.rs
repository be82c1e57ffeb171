//! Writing a [`Report`] out: `index.html` (static: inline CSS, inline SVG, no script, no
//! external asset), `summary.md`, `summary.csv` (one line per instruction x mode x backend),
//! `summary.json` (the whole report) and `plots/*.svg`. Everything goes into a fresh sibling
//! directory first, which then replaces the target directory by rename.

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

use super::plot::histogram_svg;
use super::Report;
use crate::classify::Class;
use crate::error::{Error, Result};

fn fmt_ulp(u: Option<u64>) -> String {
    u.map_or_else(|| "-".into(), |u| u.to_string())
}

fn pct(share: f64) -> String {
    format!("{:.2}%", 100.0 * share)
}

/// HTML-escapes text.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Escapes a Markdown table cell.
fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}

/// Background colour of an exact share: red (0) through yellow to green (1).
fn share_colour(share: f64) -> String {
    let hue = (share.clamp(0.0, 1.0) * 120.0).round();
    format!("hsl({hue}, 70%, 80%)")
}

/// A file-name-safe form of a label.
fn slug(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

pub fn summary_csv(report: &Report) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let mut header: Vec<String> = [
        "instruction",
        "mode",
        "backend",
        "rows",
        "exact",
        "exact_share",
        "max_ulp",
        "unexpected",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    header.extend(Class::ALL.iter().map(|c| c.name().to_string()));
    let io = |e: csv::Error| Error::io("summary.csv", std::io::Error::other(e.to_string()));
    w.write_record(&header).map_err(io)?;
    for g in &report.groups {
        let mut rec = vec![
            g.instruction.clone(),
            g.mode.clone(),
            g.backend.clone(),
            g.rows.to_string(),
            g.exact.to_string(),
            format!("{:.6}", g.exact_share),
            g.max_ulp.map_or_else(String::new, |u| u.to_string()),
            g.unexpected.to_string(),
        ];
        rec.extend(g.classes.iter().map(|n| n.to_string()));
        w.write_record(&rec).map_err(io)?;
    }
    w.into_inner()
        .map_err(|e| Error::io("summary.csv", std::io::Error::other(e.to_string())))
}

fn defaults_text(report: &Report) -> Vec<String> {
    let mut lines = Vec::new();
    for input in &report.inputs {
        let text = match &input.manifest {
            Some(m) if !m.defaults.is_empty() => m
                .defaults
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(" "),
            Some(_) => "manifest states no defaults".into(),
            None => "no manifest".into(),
        };
        lines.push(format!(
            "{} ({}, {}): {}",
            input.path, input.role, input.label, text
        ));
    }
    lines
}

fn unstated_text(report: &Report) -> String {
    if report.unstated.is_empty() {
        return "every reference row states every mode cell".into();
    }
    report
        .unstated
        .iter()
        .map(|(k, n)| format!("{k} empty in {n} of {} rows", report.reference_rows))
        .collect::<Vec<_>>()
        .join("; ")
}

pub fn summary_md(report: &Report) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "# {}\n", report.title);
    let _ = writeln!(
        s,
        "Reference: `{}` ({} rows). Compared rows: {}, unexpected: {}. Class `ulp<=k` means 2..={} ULP.{}\n",
        report.reference,
        report.reference_rows,
        report.compared_rows,
        report.unexpected_rows,
        report.ulp_k,
        report
            .known_file
            .as_ref()
            .map_or_else(String::new, |k| format!(" Known discrepancies: `{k}`."))
    );
    let _ = writeln!(s, "## Instruction x backend (exact share)\n");
    let mut header = "| instruction |".to_string();
    let mut rule = "|---|".to_string();
    for b in &report.backends {
        let _ = write!(header, " {} |", md(b));
        rule.push_str("---|");
    }
    let _ = writeln!(s, "{header}\n{rule}");
    for instr in instructions(report) {
        let mut line = format!("| `{}` |", md(&instr));
        for b in &report.backends {
            match report
                .matrix
                .iter()
                .find(|m| m.instruction == instr && &m.backend == b)
            {
                Some(m) => {
                    let _ = write!(
                        line,
                        " {} ({} rows, max {} ulp) |",
                        pct(m.exact_share),
                        m.rows,
                        fmt_ulp(m.max_ulp)
                    );
                }
                None => line.push_str(" - |"),
            }
        }
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "\n## Instruction x mode x backend\n");
    let mut h =
        "| instruction | mode | backend | rows | exact | max ulp | unexpected |".to_string();
    let mut r = "|---|---|---|---:|---:|---:|---:|".to_string();
    for c in Class::ALL {
        let _ = write!(h, " {} |", c.name());
        r.push_str("---:|");
    }
    let _ = writeln!(s, "{h}\n{r}");
    for g in &report.groups {
        let mut line = format!(
            "| `{}` | {} | {} | {} | {} | {} | {} |",
            md(&g.instruction),
            md(&g.mode),
            md(&g.backend),
            g.rows,
            pct(g.exact_share),
            fmt_ulp(g.max_ulp),
            g.unexpected
        );
        for n in &g.classes {
            let _ = write!(line, " {n} |");
        }
        let _ = writeln!(s, "{line}");
    }
    let _ = writeln!(s, "\n## Worst rows\n");
    if report.worst.is_empty() {
        let _ = writeln!(s, "No differences.");
    }
    for w in &report.worst {
        let _ = writeln!(
            s,
            "- **{}** ({} ulp{}) `{}` on {} [{}]: {}\n  repro: `{}`",
            w.class,
            fmt_ulp(w.max_ulp),
            if w.expected { ", expected" } else { "" },
            md(&w.instruction),
            w.backend,
            w.mode,
            w.detail,
            w.repro
        );
    }
    let _ = writeln!(
        s,
        "\n## Mode cells\n\nUnstated in the reference: {}.\n",
        unstated_text(report)
    );
    for line in defaults_text(report) {
        let _ = writeln!(s, "- {line}");
    }
    if !report.unmatched.is_empty() {
        let _ = writeln!(s, "\n## Rows on one side only\n");
        for u in &report.unmatched {
            let _ = writeln!(
                s,
                "- {}: {} reference rows not replayed, {} rows without reference; first: {}",
                u.backend, u.reference_only, u.candidate_only, u.first
            );
        }
    }
    s
}

fn instructions(report: &Report) -> Vec<String> {
    let mut v: Vec<String> = report
        .matrix
        .iter()
        .map(|m| m.instruction.clone())
        .collect();
    v.dedup();
    v
}

const CSS: &str = "body{font-family:system-ui,sans-serif;margin:24px;color:#222}\
table{border-collapse:collapse;margin:8px 0 24px}\
th,td{border:1px solid #bbb;padding:3px 8px;font-size:13px}\
th{background:#eee;text-align:left}td.n{text-align:right}\
code,.mono{font-family:ui-monospace,monospace;font-size:12px}\
.plots{display:flex;flex-wrap:wrap;gap:12px}.repro{user-select:all;word-break:break-all}\
.bad{color:#a00;font-weight:bold}";

pub fn index_html(report: &Report, plots: &[(String, String)]) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{CSS}</style></head><body>\n",
        esc(&report.title)
    );
    let _ = writeln!(s, "<h1>{}</h1>", esc(&report.title));
    let _ = writeln!(
        s,
        "<p id=\"totals\">Reference <code>{}</code>: {} rows. Compared rows: {}. Unexpected: <span class=\"{}\">{}</span>. Class <code>ulp&lt;=k</code> is 2..={} ULP.{}</p>",
        esc(&report.reference),
        report.reference_rows,
        report.compared_rows,
        if report.unexpected_rows > 0 { "bad" } else { "" },
        report.unexpected_rows,
        report.ulp_k,
        report.known_file.as_ref().map_or_else(String::new, |k| format!(" Known discrepancies: <code>{}</code>.", esc(k)))
    );
    let _ = writeln!(
        s,
        "<h2>Instruction x backend</h2>\n<table id=\"matrix\"><thead><tr><th>instruction</th>"
    );
    for b in &report.backends {
        let _ = write!(s, "<th>{}</th>", esc(b));
    }
    s.push_str("</tr></thead><tbody>\n");
    for instr in instructions(report) {
        let _ = write!(s, "<tr><th><code>{}</code></th>", esc(&instr));
        for b in &report.backends {
            match report
                .matrix
                .iter()
                .find(|m| m.instruction == instr && &m.backend == b)
            {
                Some(m) => {
                    let _ = write!(
                        s,
                        "<td class=\"n\" style=\"background:{}\" title=\"{} rows, max {} ulp, {} unexpected\">{}</td>",
                        share_colour(m.exact_share),
                        m.rows,
                        fmt_ulp(m.max_ulp),
                        m.unexpected,
                        pct(m.exact_share)
                    );
                }
                None => s.push_str("<td>-</td>"),
            }
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n<h2>Instruction x mode x backend</h2>\n<table id=\"groups\"><thead><tr><th>instruction</th><th>mode</th><th>backend</th><th>rows</th><th>exact</th><th>max ulp</th><th>unexpected</th>");
    for c in Class::ALL {
        let _ = write!(s, "<th>{}</th>", esc(c.name()));
    }
    s.push_str("</tr></thead><tbody>\n");
    for g in &report.groups {
        let _ = write!(
            s,
            "<tr><td><code>{}</code></td><td class=\"mono\">{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\" style=\"background:{}\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            esc(&g.instruction),
            esc(&g.mode),
            esc(&g.backend),
            g.rows,
            share_colour(g.exact_share),
            pct(g.exact_share),
            fmt_ulp(g.max_ulp),
            g.unexpected
        );
        for n in &g.classes {
            let _ = write!(s, "<td class=\"n\">{n}</td>");
        }
        s.push_str("</tr>\n");
    }
    s.push_str("</tbody></table>\n<h2>Worst rows</h2>\n");
    if report.worst.is_empty() {
        s.push_str("<p>No differences.</p>\n");
    } else {
        s.push_str("<table id=\"worst\"><thead><tr><th>class</th><th>ulp</th><th>backend</th><th>instruction</th><th>mode</th><th>worst output</th><th>repro</th></tr></thead><tbody>\n");
        for w in &report.worst {
            let _ = writeln!(
                s,
                "<tr><td class=\"{}\">{}{}</td><td class=\"n\">{}</td><td>{}</td><td><code>{}</code></td><td class=\"mono\">{}</td><td class=\"mono\">{}</td><td class=\"mono repro\">{}</td></tr>",
                if w.expected { "" } else { "bad" },
                esc(&w.class),
                if w.expected { " (expected)" } else { "" },
                fmt_ulp(w.max_ulp),
                esc(&w.backend),
                esc(&w.instruction),
                esc(&w.mode),
                esc(&w.detail),
                esc(&w.repro)
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("<h2>ULP histograms (non-exact rows)</h2>\n");
    if plots.is_empty() {
        s.push_str("<p>No differences to plot.</p>\n");
    }
    s.push_str("<div class=\"plots\">\n");
    for (_, svg) in plots {
        let _ = writeln!(s, "<figure>{svg}</figure>");
    }
    s.push_str("</div>\n<h2>Mode cells</h2>\n");
    let _ = writeln!(
        s,
        "<p>Unstated in the reference: {}.</p>\n<ul>",
        esc(&unstated_text(report))
    );
    for line in defaults_text(report) {
        let _ = writeln!(s, "<li>{}</li>", esc(&line));
    }
    s.push_str("</ul>\n");
    if !report.unmatched.is_empty() {
        s.push_str("<h2>Rows on one side only</h2>\n<ul>\n");
        for u in &report.unmatched {
            let _ = writeln!(
                s,
                "<li>{}: {} reference rows not replayed, {} rows without reference; first: <code>{}</code></li>",
                esc(&u.backend),
                u.reference_only,
                u.candidate_only,
                esc(&u.first)
            );
        }
        s.push_str("</ul>\n");
    }
    s.push_str("<h2>Inputs</h2>\n<ul>\n");
    for i in &report.inputs {
        let _ = writeln!(
            s,
            "<li><code>{}</code>: {} <code>{}</code></li>",
            esc(&i.path),
            i.role,
            esc(&i.label)
        );
    }
    s.push_str("</ul>\n</body></html>\n");
    s
}

fn write_file(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let path = dir.join(name);
    fs::write(&path, bytes).map_err(|e| Error::io(&path, e))
}

/// Writes the report into `dir`: into a sibling temporary directory first, then renamed.
pub fn write_dir(report: &Report, dir: &Path) -> Result<()> {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| Error::Usage(format!("{}: not a directory name", dir.display())))?;
    fs::create_dir_all(&parent).map_err(|e| Error::io(&parent, e))?;
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    if tmp.exists() {
        fs::remove_dir_all(&tmp).map_err(|e| Error::io(&tmp, e))?;
    }
    let result = (|| {
        fs::create_dir_all(tmp.join("plots")).map_err(|e| Error::io(&tmp, e))?;
        let mut plots = Vec::new();
        for h in &report.histograms {
            let svg = histogram_svg(h)?;
            let file = format!("plots/{}__{}.svg", slug(&h.instruction), slug(&h.backend));
            write_file(&tmp, &file, svg.as_bytes())?;
            plots.push((file, svg));
        }
        write_file(&tmp, "summary.csv", &summary_csv(report)?)?;
        let json = serde_json::to_vec_pretty(report)
            .map_err(|e| Error::io(tmp.join("summary.json"), std::io::Error::other(e)))?;
        write_file(&tmp, "summary.json", &json)?;
        write_file(&tmp, "summary.md", summary_md(report).as_bytes())?;
        write_file(&tmp, "index.html", index_html(report, &plots).as_bytes())?;
        Ok(())
    })();
    if let Err(e) = result {
        let _ = fs::remove_dir_all(&tmp);
        return Err(e);
    }
    // Swap: the old report (if any) moves aside, the new one takes its name, the old goes.
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let had_old = dir.exists();
    if had_old {
        fs::rename(dir, &old).map_err(|e| Error::io(dir, e))?;
    }
    fs::rename(&tmp, dir).map_err(|e| Error::io(dir, e))?;
    if had_old {
        fs::remove_dir_all(&old).map_err(|e| Error::io(&old, e))?;
    }
    Ok(())
}
