//! The site's pages, written from [`SiteData`]: `index.html` (the matrix, its data embedded as
//! JSON for the filters and the search), `i/<mnemonic>.html`, `r/<rule>.html`, `rules.html`
//! and `history.html`.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::json;

use super::data::{regressions, Cell, SiteData};
use super::html::{esc, glob, inline_md, json_block, markdown, page, slug};
use super::{EvidenceRow, RuleInfo};
use crate::classify::Class;
use crate::report::aggregate::bucket_label;

fn pct(c: &Cell) -> String {
    format!("{:.2}%", 100.0 * c.share())
}

fn ulp(u: Option<u64>) -> String {
    u.map_or_else(|| "-".into(), |u| u.to_string())
}

/// The isa family of an instruction (`VOP3`, ...), or its dataset family for a macro body.
pub fn form_family(name: &str, dataset_family: &str) -> String {
    let forms = rdnaprobe_isa::table::lookup_name(name);
    match forms.first() {
        Some(f) => f.family.name().to_string(),
        None if name == dataset_family => "macro".into(),
        None => dataset_family.to_string(),
    }
}

/// Modes in the latest runs, sorted.
pub fn modes(data: &SiteData) -> Vec<String> {
    let mut m: Vec<String> = data
        .latest_runs()
        .flat_map(|(_, r)| r.cells.keys().map(|(_, m)| m.clone()))
        .collect();
    m.sort();
    m.dedup();
    m
}

pub fn index(data: &SiteData, title: &str) -> String {
    let modes = modes(data);
    let mode_index: BTreeMap<&str, usize> = modes
        .iter()
        .enumerate()
        .map(|(i, m)| (m.as_str(), i))
        .collect();
    let mut families = Vec::new();
    let mut instructions = Vec::new();
    for name in data.instructions() {
        let fam = form_family(&name, data.family(&name).unwrap_or(""));
        if !families.contains(&fam) {
            families.push(fam.clone());
        }
        let mut cells = serde_json::Map::new();
        for (backend, run) in data.latest_runs() {
            let Some(all) = run.instruction(&name) else {
                continue;
            };
            let mut per_mode = serde_json::Map::new();
            for ((i, m), c) in &run.cells {
                if *i == name {
                    per_mode.insert(
                        mode_index[m.as_str()].to_string(),
                        json!([c.rows, c.exact, c.max_ulp]),
                    );
                }
            }
            cells.insert(
                backend.clone(),
                json!({"all": [all.rows, all.exact, all.max_ulp], "modes": per_mode}),
            );
        }
        instructions
            .push(json!({"name": name, "file": slug(&name), "family": fam, "cells": cells}));
    }
    families.sort();
    let backends: Vec<&String> = data.latest.keys().collect();
    let value = json!({"backends": backends, "modes": modes, "families": families, "instructions": instructions});
    let mut body = String::new();
    let _ = write!(
        body,
        "<p>Latest run per backend, every row against the hardware reference: exact share and \
         largest ULP distance. {} runs, {} result rows. <a href=\"history.html\">History</a>.</p>\n\
         <div class=\"filters\"><label>family <select id=\"family\"><option value=\"\">all</option></select></label>\
         <label>backend <select id=\"backend\"><option value=\"\">all</option></select></label>\
         <label>mode <select id=\"mode\"><option value=\"\">all</option></select></label>\
         <label>search <input id=\"search\" type=\"search\" placeholder=\"v_fma\"></label>\
         <span id=\"shown\" class=\"muted\"></span></div>\n\
         <table id=\"matrix\"><thead><tr><th>instruction</th><th>family</th></tr></thead><tbody></tbody></table>\n",
        data.runs.len(),
        data.rows
    );
    if !data.merged.is_empty() {
        body.push_str(
            "<p class=\"muted\">Columns <code>&lt;backend&gt; exhaustive</code>: exhaustive \
             sweeps (every input of a set), each instruction's latest, against the CPU model.</p>\n",
        );
    }
    body.push_str("<h2>Instruction x mode</h2>\n");
    for backend in data.latest.keys() {
        let _ = writeln!(
            body,
            "<p><img src=\"img/heat-{}.svg\" alt=\"heat map {}\"></p>",
            slug(backend),
            esc(backend)
        );
    }
    body.push_str(&json_block("matrix-data", &value));
    page(title, "", &body, &["index.js"])
}

/// The lowering section of an instruction page: each table row of `name`, lowered or the
/// recompiler's reason (empty for a name that is no table row).
pub fn lowering(opcodes: &[super::OpcodeInfo], name: &str) -> String {
    let rows: Vec<&super::OpcodeInfo> = opcodes.iter().filter(|o| o.mnemonic == name).collect();
    if rows.is_empty() {
        return String::new();
    }
    let mut b = String::from("<h2>Lowering</h2>\n<ul id=\"lowering\">\n");
    for o in rows {
        let what = match &o.unlowered {
            None => "<b>lowered</b> by the recompiler".to_string(),
            Some(r) => format!("<b>not lowered</b>: {}", esc(r)),
        };
        let _ = writeln!(
            b,
            "<li>{} opcode {} ({}): {what}</li>",
            esc(&o.family),
            o.opcode,
            if o.source == "hardware" {
                "a row only the hardware is known to run"
            } else {
                "llvm-mc-19 decodes it"
            }
        );
    }
    b.push_str("</ul>\n");
    b
}

/// The status of a table row in the latest runs: `measured, exact`, `measured, with misses`,
/// `lowered, unmeasured` or `not lowered`.
pub fn status(data: &SiteData, o: &super::OpcodeInfo) -> &'static str {
    let cells: Vec<Cell> = data
        .latest_runs()
        .filter_map(|(_, r)| r.instruction(&o.mnemonic))
        .collect();
    if cells.iter().any(|c| c.rows > 0) {
        if cells.iter().all(|c| c.unexpected == 0) {
            "measured, exact"
        } else {
            "measured, with misses"
        }
    } else if o.unlowered.is_none() {
        "lowered, unmeasured"
    } else {
        "not lowered"
    }
}

/// `table.html`: every row of the instruction table with its family, opcode and status,
/// counted at the top, filterable by family and status and searchable by name (a short inline
/// script: the page works from file://).
pub fn table(data: &SiteData, opcodes: &[super::OpcodeInfo]) -> String {
    let statuses = [
        "measured, exact",
        "measured, with misses",
        "lowered, unmeasured",
        "not lowered",
    ];
    let rows: Vec<(&super::OpcodeInfo, &str)> =
        opcodes.iter().map(|o| (o, status(data, o))).collect();
    let mut b = String::new();
    let _ = write!(b, "<p id=\"summary\">{} table rows:", rows.len());
    for st in statuses {
        let _ = write!(b, " {} {st};", rows.iter().filter(|r| r.1 == st).count());
    }
    b.push_str("</p>\n");
    let mut families: Vec<&str> = opcodes.iter().map(|o| o.family.as_str()).collect();
    families.dedup();
    b.push_str("<p><input id=\"q\" placeholder=\"search mnemonics\"> <select id=\"family\"><option value=\"\">every family</option>");
    for f in &families {
        let _ = write!(b, "<option>{}</option>", esc(f));
    }
    b.push_str("</select> <select id=\"status\"><option value=\"\">every status</option>");
    for st in statuses {
        let _ = write!(b, "<option>{st}</option>");
    }
    b.push_str("</select> <span id=\"shown\"></span></p>\n");
    b.push_str("<table id=\"opcodes\"><tr><th>family</th><th>opcode</th><th>instruction</th><th>status</th><th>why not lowered</th></tr>\n");
    for (o, st) in &rows {
        let _ = writeln!(
            b,
            "<tr data-family=\"{f}\" data-status=\"{st}\" data-name=\"{n}\"><td>{f}</td><td class=\"num\">{}</td><td><a href=\"i/{}.html\">{n}</a></td><td>{st}</td><td>{}</td></tr>",
            o.opcode,
            slug(&o.mnemonic),
            esc(o.unlowered.as_deref().unwrap_or("")),
            f = esc(&o.family),
            n = esc(&o.mnemonic),
        );
    }
    b.push_str("</table>\n");
    b.push_str(
        "<script>\n(function () {\n\
         var q = document.getElementById('q'), fam = document.getElementById('family'),\n\
             st = document.getElementById('status'), shown = document.getElementById('shown');\n\
         function apply() {\n\
           var n = 0, rows = document.querySelectorAll('#opcodes tr[data-name]');\n\
           rows.forEach(function (r) {\n\
             var ok = r.dataset.name.indexOf(q.value.trim()) >= 0 &&\n\
               (!fam.value || r.dataset.family === fam.value) &&\n\
               (!st.value || r.dataset.status === st.value);\n\
             r.style.display = ok ? '' : 'none'; if (ok) n++;\n\
           });\n\
           shown.textContent = n + ' shown';\n\
         }\n\
         [q, fam, st].forEach(function (e) { e.addEventListener('input', apply); });\n\
         apply();\n\
         })();\n</script>\n",
    );
    page("The instruction table", "", &b, &[])
}

pub fn instruction(
    data: &SiteData,
    name: &str,
    rules: &[RuleInfo],
    histograms: &[(String, String)],
    lowering: &str,
) -> String {
    let mut b = String::new();
    let fam = data.family(name).unwrap_or("");
    let measured = data
        .latest_runs()
        .any(|(_, r)| r.instruction(name).is_some_and(|c| c.rows > 0));
    if measured {
        let _ = writeln!(
            b,
            "<p>Family <b>{}</b> (dataset {}).</p>",
            esc(&form_family(name, fam)),
            esc(fam)
        );
    } else {
        b.push_str(
            "<p id=\"unmeasured\" class=\"muted\">No row of this instruction is in the store's \
             latest runs.</p>\n",
        );
    }
    b.push_str(lowering);
    b.push_str("<h2>Encoding forms</h2>\n");
    let forms = rdnaprobe_isa::table::lookup_name(name);
    if forms.is_empty() {
        b.push_str("<p class=\"muted\">Not one table row: a body of several instructions, named by its dataset.</p>\n");
    } else {
        b.push_str("<table id=\"forms\"><tr><th>encoding</th><th>opcode</th><th>result</th><th>sources</th><th>probe</th></tr>\n");
        for f in forms {
            let srcs: Vec<String> = f.srcs.iter().map(|s| format!("{:?}", s.ty)).collect();
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td class=\"num\">{}</td><td>{:?}</td><td>{}</td><td><code>{}</code></td></tr>",
                f.family.name(),
                f.opcode,
                f.result,
                esc(&srcs.join(", ")),
                esc(f.probe_text)
            );
        }
        b.push_str("</table>\n");
    }
    b.push_str("<h2>Rules</h2>\n<ul id=\"rules\">\n");
    let mut any = false;
    for r in rules
        .iter()
        .filter(|r| r.instructions.iter().any(|p| glob(p, name)))
    {
        any = true;
        let _ = writeln!(
            b,
            "<li><a href=\"../r/{}.html\">{}</a>: {}</li>",
            slug(&r.id),
            esc(&r.id),
            inline_md(&r.summary)
        );
    }
    if !any {
        b.push_str("<li class=\"muted\">no semantic rule names this instruction</li>\n");
    }
    b.push_str("</ul>\n<h2>Exact share and max ULP per backend and mode</h2>\n");
    b.push_str("<table id=\"modes\"><tr><th>backend</th><th>mode</th><th>rows</th><th>exact</th><th>max ULP</th><th>unexpected</th><th>classes</th></tr>\n");
    for (backend, run) in data.latest_runs() {
        for ((i, m), c) in &run.cells {
            if i != name {
                continue;
            }
            let classes: Vec<String> = Class::ALL
                .iter()
                .filter(|k| c.classes[k.code() as usize] > 0)
                .map(|k| format!("{} {}", k.name(), c.classes[k.code() as usize]))
                .collect();
            let _ = writeln!(
                b,
                "<tr data-backend=\"{be}\"><td>{be}</td><td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num exact\">{}</td><td class=\"num maxulp\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                esc(m),
                c.rows,
                pct(c),
                ulp(c.max_ulp),
                c.unexpected,
                esc(&classes.join(", ")),
                be = esc(backend)
            );
        }
    }
    b.push_str("</table>\n<h2>ULP histograms</h2>\n");
    if histograms.is_empty() && measured {
        b.push_str("<p class=\"muted\">Every row is exact on every backend.</p>\n");
    }
    for (backend, file) in histograms {
        let _ = writeln!(
            b,
            "<p><img src=\"../img/{}\" alt=\"ULP histogram on {}\"></p>",
            esc(file),
            esc(backend)
        );
    }
    b.push_str("<h2>Worst rows</h2>\n");
    let mut worst_any = false;
    for backend in data.latest.keys() {
        let Some(list) = data.worst.get(&(name.to_string(), backend.clone())) else {
            continue;
        };
        worst_any = true;
        let _ = writeln!(
            b,
            "<h3>{}</h3>\n<table class=\"worst\"><tr><th>class</th><th>ULP</th><th>mode</th><th>detail</th><th>repro</th></tr>",
            esc(backend)
        );
        for w in list {
            let _ = writeln!(
                b,
                "<tr><td>{}</td><td class=\"num\">{}</td><td><code>{}</code></td><td><code>{}</code></td><td><div class=\"repro\">{}</div></td></tr>",
                esc(&w.class),
                ulp(w.max_ulp),
                esc(&w.mode),
                esc(&w.detail),
                esc(&repro_command(&w.repro, backend))
            );
        }
        b.push_str("</table>\n");
    }
    if !worst_any {
        b.push_str("<p class=\"muted\">No row differs from the hardware.</p>\n");
    }
    b.push_str("<h2>History</h2>\n");
    let _ = writeln!(
        b,
        "<p><img src=\"../img/history-{}.svg\" alt=\"history of {}\"></p>",
        slug(name),
        esc(name)
    );
    page(name, "../", &b, &[])
}

/// A one-line shell command that replays one row on a backend: `line` is the row's stored
/// schema v1 line (the store's `repro` column), turned into a `rdnaprobe replay --asm ...`
/// command ([`crate::format::repro_command`]); a line that does not read as a row is shown as
/// the CSV it is, under the v1 header.
pub fn repro_command(line: &str, backend: &str) -> String {
    let header = rdnaprobe_dataset::V1_COLUMNS.join(",");
    let text = format!("{header}\n{line}\n");
    match rdnaprobe_dataset::parse_dataset(text.as_bytes(), "repro") {
        Ok(ds) if ds.rows.len() == 1 => crate::format::repro_command(&ds.rows[0], backend),
        _ => format!("{header}\n{line}"),
    }
}

pub fn rule(data: &SiteData, r: &RuleInfo, evidence: &[EvidenceRow]) -> String {
    let mut b = String::new();
    let _ = writeln!(b, "<p class=\"summary\">{}</p>", inline_md(&r.summary));
    b.push_str("<h2>Statement</h2>\n<div id=\"statement\">");
    b.push_str(&markdown(&r.statement));
    b.push_str("</div>\n<h2>Mode fields</h2>\n<p id=\"mode-fields\">");
    if r.modes.is_empty() {
        b.push_str("none");
    }
    let fields: Vec<String> = r
        .modes
        .iter()
        .map(|m| format!("<code>{}</code>", esc(m)))
        .collect();
    b.push_str(&fields.join(" "));
    b.push_str("</p>\n<h2>Instructions it governs</h2>\n<ul id=\"governs\">\n");
    for p in &r.instructions {
        let matched: Vec<String> = data
            .instructions()
            .into_iter()
            .filter(|n| glob(p, n))
            .map(|n| format!("<a href=\"../i/{}.html\">{}</a>", slug(&n), esc(&n)))
            .collect();
        if p.contains('*') {
            let _ = writeln!(
                b,
                "<li><code>{}</code>: {}</li>",
                esc(p),
                if matched.is_empty() {
                    "<span class=\"muted\">none measured</span>".to_string()
                } else {
                    matched.join(", ")
                }
            );
        } else if matched.is_empty() {
            let _ = writeln!(
                b,
                "<li>{} <span class=\"muted\">(not measured)</span></li>",
                esc(p)
            );
        } else {
            let _ = writeln!(b, "<li>{}</li>", matched.join(""));
        }
    }
    b.push_str("</ul>\n<h2>Evidence rows</h2>\n");
    if evidence.is_empty() {
        b.push_str("<p class=\"muted\">No shipped row shows this rule.</p>\n");
    } else {
        let backends: Vec<&String> = data.latest.keys().collect();
        b.push_str("<table id=\"evidence\"><tr><th>row</th><th>instruction</th><th>mode</th><th>inputs</th><th>hardware outputs</th>");
        for be in &backends {
            let _ = write!(b, "<th>{}</th>", esc(be));
        }
        b.push_str("</tr>\n");
        for e in evidence {
            let _ = write!(
                b,
                "<tr><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td><td><code>{}</code></td>",
                esc(&e.row_id),
                esc(&e.instruction),
                esc(&e.mode),
                esc(&e.inputs),
                esc(&e.outputs)
            );
            let verdicts = data.evidence.get(&e.row_id);
            for be in &backends {
                let v = verdicts.and_then(|v| v.iter().find(|v| &&v.backend == be));
                let text = match v {
                    Some(v) if v.max_ulp.is_some_and(|u| u > 0) => {
                        format!("{} ({} ulp)", v.class, ulp(v.max_ulp))
                    }
                    Some(v) => v.class.clone(),
                    None => "-".into(),
                };
                let _ = write!(b, "<td class=\"verdict\">{}</td>", esc(&text));
            }
            b.push_str("</tr>\n");
        }
        b.push_str("</table>\n");
    }
    page(&format!("rule: {}", r.id), "../", &b, &[])
}

pub fn rules_index(rules: &[RuleInfo]) -> String {
    let mut b = String::from(
        "<table id=\"rule-list\"><tr><th>rule</th><th>summary</th><th>mode fields</th></tr>\n",
    );
    for r in rules {
        let _ = writeln!(
            b,
            "<tr><td><a href=\"r/{}.html\">{}</a></td><td>{}</td><td>{}</td></tr>",
            slug(&r.id),
            esc(&r.id),
            inline_md(&r.summary),
            esc(&r.modes.join(", "))
        );
    }
    b.push_str("</table>\n");
    page("Semantic rules", "", &b, &[])
}

pub fn history(data: &SiteData) -> String {
    let regs = regressions(data);
    let mut per_run: BTreeMap<usize, usize> = BTreeMap::new();
    for r in &regs {
        *per_run.entry(r.run).or_default() += 1;
    }
    let mut b = String::from(
        "<p>Runs oldest first. A run is marked when an instruction x mode lost exact rows \
         against the previous run of the same backend.</p>\n<p><img src=\"img/history.svg\" alt=\"exact share over runs\"></p>\n\
         <table id=\"runs\"><tr><th>time</th><th>run</th><th>kind</th><th>backend</th><th>device</th><th>driver</th><th>commit</th><th>host</th><th>rows</th><th>exact</th><th>unexpected</th><th>regressions</th></tr>\n",
    );
    for (i, r) in data.runs.iter().enumerate() {
        let m = &r.run;
        let regs = per_run.get(&i);
        let _ = writeln!(
            b,
            "<tr class=\"{}\" data-run=\"{}\"><td>{}</td><td><code>{}</code></td><td class=\"kind\">{}</td><td>{}</td><td>{}</td><td>{} {}</td><td><code>{}</code></td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.2}%</td><td class=\"num\">{}</td><td>{}</td></tr>",
            if regs.is_some() { "regressed" } else { "" },
            esc(&m.id),
            esc(&m.time),
            esc(&m.id),
            esc(&m.kind),
            esc(&m.backend),
            esc(&m.device),
            esc(&m.driver),
            esc(&m.driver_version),
            esc(m.git_commit.get(..10).unwrap_or(&m.git_commit)),
            esc(&m.host),
            m.compared,
            100.0 * m.exact_share(),
            m.unexpected,
            match regs {
                Some(n) => format!("<span class=\"badge\">{n} regressed</span>"),
                None => String::new(),
            }
        );
    }
    b.push_str("</table>\n");
    if !regs.is_empty() {
        b.push_str("<h2>Regressions</h2>\n<table id=\"regressions\"><tr><th>run</th><th>backend</th><th>instruction</th><th>mode</th><th>exact before</th><th>exact now</th></tr>\n");
        for g in &regs {
            let run = &data.runs[g.run].run;
            let _ = writeln!(
                b,
                "<tr class=\"regressed\"><td><code>{}</code></td><td>{}</td><td><a href=\"i/{}.html\">{}</a></td><td><code>{}</code></td><td class=\"num\">{:.2}%</td><td class=\"num\">{:.2}%</td></tr>",
                esc(&run.id),
                esc(&run.backend),
                slug(&g.instruction),
                esc(&g.instruction),
                esc(&g.mode),
                100.0 * g.before,
                100.0 * g.after
            );
        }
        b.push_str("</table>\n");
    }
    page("History", "", &b, &[])
}

/// Label of a bucket for the histogram captions.
pub fn bucket(b: u32) -> String {
    bucket_label(b)
}
