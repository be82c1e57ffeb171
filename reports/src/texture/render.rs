//! The texture report as Markdown: the totals, one line per group (counts and the ULP
//! histogram), the row classes per group, the statuses of rows a side did not run, and the
//! worst rows with their inputs and values as hex and f32.

use std::fmt::Write as _;

use super::{GroupStats, TextureReport, BUCKETS};
use crate::classify::Class;

/// The report as a Markdown document.
pub fn markdown(r: &TextureReport) -> String {
    let mut s = String::new();
    let t = &r.total;
    let _ = writeln!(s, "# Texture-unit report\n");
    let _ = writeln!(
        s,
        "- reference: `{}` (backend `{}`)",
        r.reference.path, r.reference.backend
    );
    let _ = writeln!(
        s,
        "- candidate: `{}` (backend `{}`)",
        r.candidate.path, r.candidate.backend
    );
    for c in &r.compared {
        let _ = writeln!(s, "- compared: {c}");
    }
    let _ = writeln!(
        s,
        "- classes: `ulp<=1` one step, `ulp<=k` 2 to {} steps, `wrong` further, or a NaN \
         against a number, or integer bits that differ\n",
        r.ulp_k
    );
    let _ = writeln!(
        s,
        "**{} rows** in {} groups: {} run on both sides, {} exact ({}), max ULP {}; {} not run \
         by the candidate, {} not run by the reference.\n",
        t.rows,
        r.groups.len(),
        t.both_ok,
        t.exact,
        share(t.exact, t.both_ok),
        ulp(t.max_ulp),
        t.candidate_not_ok.values().sum::<u64>(),
        t.reference_not_ok.values().sum::<u64>(),
    );
    groups_table(&mut s, r);
    classes_table(&mut s, r);
    statuses(&mut s, r);
    worst_table(&mut s, r);
    s
}

fn share(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * n as f64 / of as f64)
    }
}

fn ulp(u: Option<u64>) -> String {
    u.map_or_else(|| "-".into(), |u| u.to_string())
}

fn row(s: &mut String, cells: &[String]) {
    let _ = writeln!(s, "| {} |", cells.join(" | "));
}

fn header(s: &mut String, cells: &[&str]) {
    let _ = writeln!(s, "| {} |", cells.join(" | "));
    let _ = writeln!(s, "|{}", "---|".repeat(cells.len()));
}

/// `|` inside a cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}

fn groups_table(s: &mut String, r: &TextureReport) {
    let with_compare = r.groups.iter().any(|g| g.compare != "-");
    let _ = writeln!(
        s,
        "## Groups\n\nPer image format, filter, addressing mode and dimensionality (from the \
         wave's T# and S#). The histogram counts the compared dwords of the rows both sides ran \
         by ULP distance; `nan-payload`: both NaN, other bits; `nan`: a NaN against a number; \
         `bits`: integer or untyped dwords that differ.\n"
    );
    let mut cols = vec!["instruction", "dim", "format", "filter", "addressing"];
    if with_compare {
        cols.push("compare");
    }
    cols.extend(["rows", "both ok", "exact", "exact %", "max ULP"]);
    cols.extend(BUCKETS);
    cols.push("candidate not ok");
    header(s, &cols);
    let line = |s: &mut String, g: &GroupStats, total: bool| {
        let mut cells: Vec<String> = if total {
            let mut c = vec!["**total**".to_string()];
            c.extend(std::iter::repeat_n(String::new(), 4));
            c
        } else {
            vec![
                g.instruction.clone(),
                g.dim.clone(),
                g.format.clone(),
                g.filter.clone(),
                g.addressing.clone(),
            ]
        };
        if with_compare {
            cells.push(if total {
                String::new()
            } else {
                g.compare.clone()
            });
        }
        cells.extend([
            g.rows.to_string(),
            g.both_ok.to_string(),
            g.exact.to_string(),
            share(g.exact, g.both_ok),
            ulp(g.max_ulp),
        ]);
        cells.extend(g.ulp_histogram.0.iter().map(u64::to_string));
        cells.push(g.candidate_not_ok.values().sum::<u64>().to_string());
        row(s, &cells);
    };
    for g in &r.groups {
        line(s, g, false);
    }
    line(s, &r.total, true);
    s.push('\n');
}

/// The classes a row both sides ran can take.
const ROW_CLASSES: [Class; 8] = [
    Class::Exact,
    Class::NanPayload,
    Class::SignedZero,
    Class::DenormFlush,
    Class::Ulp1,
    Class::UlpK,
    Class::Wrong,
    Class::NoOutputs,
];

fn classes_table(s: &mut String, r: &TextureReport) {
    let _ = writeln!(
        s,
        "## Row classes\n\nRows both sides ran, by the class of their worst compared dword \
         (docs/reports.md, \"Classes\").\n"
    );
    let mut cols = vec!["group"];
    cols.extend(ROW_CLASSES.iter().map(|c| c.name()));
    header(s, &cols);
    for (g, label) in r
        .groups
        .iter()
        .map(|g| (g, g.label()))
        .chain([(&r.total, "**total**".to_string())])
    {
        let mut cells = vec![label];
        cells.extend(ROW_CLASSES.iter().map(|c| g.classes.get(*c).to_string()));
        row(s, &cells);
    }
    s.push('\n');
}

fn statuses(s: &mut String, r: &TextureReport) {
    let _ = writeln!(s, "## Rows not run\n");
    let lines: Vec<(String, &str, &String, u64)> = r
        .groups
        .iter()
        .flat_map(|g| {
            let c = g
                .candidate_not_ok
                .iter()
                .map(move |(k, n)| (g.label(), "candidate", k, *n));
            let rf = g
                .reference_not_ok
                .iter()
                .map(move |(k, n)| (g.label(), "reference", k, *n));
            c.chain(rf)
        })
        .collect();
    if lines.is_empty() {
        let _ = writeln!(s, "Every row ran on both sides.\n");
        return;
    }
    header(s, &["group", "side", "status", "rows"]);
    for (g, side, status, n) in lines {
        row(s, &[g, side.to_string(), cell(status), n.to_string()]);
    }
    let _ = writeln!(s, "\nPer status, over all groups:\n");
    header(s, &["side", "status", "rows"]);
    for (side, map) in [
        ("candidate", &r.total.candidate_not_ok),
        ("reference", &r.total.reference_not_ok),
    ] {
        for (k, n) in map {
            row(s, &[side.to_string(), cell(k), n.to_string()]);
        }
    }
    s.push('\n');
}

/// An f32 for people: shortest round-trip digits, exponent form far from 1.
pub fn f32_text(bits: u32) -> String {
    let v = f32::from_bits(bits);
    let a = v.abs();
    if v.is_nan() {
        "NaN".into()
    } else if a != 0.0 && a.is_finite() && !(1e-4..1e7).contains(&a) {
        format!("{v:e}")
    } else {
        format!("{v}")
    }
}

fn hex_f32(bits: u32) -> String {
    format!("0x{bits:08x} ({})", f32_text(bits))
}

fn worst_table(s: &mut String, r: &TextureReport) {
    let _ = writeln!(
        s,
        "## Worst rows\n\nThe rows both sides ran that differ, worst class first, then the \
         largest ULP distance (a NaN against a number first), then file order; `row` is the \
         reference's data row. Values: hex (f32).\n"
    );
    if r.worst.is_empty() {
        let _ = writeln!(s, "No row differs.");
        return;
    }
    header(
        s,
        &[
            "#",
            "row",
            "wave",
            "lane",
            "group",
            "in0",
            "in1",
            "in2",
            "out",
            "reference",
            "candidate",
            "ULP",
            "class",
        ],
    );
    for (k, w) in r.worst.iter().enumerate() {
        row(
            s,
            &[
                (k + 1).to_string(),
                w.reference_row.to_string(),
                cell(&w.wave_id),
                w.lane.to_string(),
                w.group.clone(),
                hex_f32(w.inputs[0]),
                hex_f32(w.inputs[1]),
                hex_f32(w.inputs[2]),
                format!("{} ({})", w.out, w.ty),
                hex_f32(w.reference),
                hex_f32(w.candidate),
                ulp(w.ulp),
                w.class.clone(),
            ],
        );
    }
}
