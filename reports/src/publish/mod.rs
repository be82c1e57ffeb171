//! `publish`: a static conformance site from a results store. It works from file:// and any
//! static host: no server, no network fetch; pages link each other and `assets/` relatively,
//! the index's data is a JSON `<script>` block read by plain JavaScript, pictures are SVG files
//! under `img/`.
//!
//! - `index.html`: instruction x backend matrix of the latest run per backend (exact share, max
//!   ULP), filters by family, backend and mode, a search box, history sparklines, and a heat map
//!   of instruction x mode per backend;
//! - `i/<mnemonic>.html`: encoding forms (instruction table), the rules that govern it, exact
//!   share and max ULP per backend and mode, ULP histograms, worst rows with a one-line repro,
//!   a history chart;
//! - `r/<rule>.html` and `rules.html`: the semantic rules (statement, mode fields, evidence rows
//!   with each backend's verdict, the instructions they govern);
//! - `history.html`: runs over time, groups that lost exact rows highlighted.
//!
//! The aggregation ([`data`]) reads the store in slices, so the site of a store of tens of
//! millions of rows is built in bounded memory. The site is written beside the target and
//! renamed onto it at the end.

pub mod data;
pub mod html;
pub mod pages;
pub mod svg;

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use crate::error::{Error, Result};
use crate::format;
use crate::input::Input;
use crate::report::aggregate::Histogram;
use crate::report::plot::histogram_svg;
use crate::store::Store;
use data::SiteData;
use html::slug;

/// A semantic rule as the site shows it (the recompiler's rule registry, handed in).
#[derive(Clone, Debug, Default)]
pub struct RuleInfo {
    pub id: String,
    pub summary: String,
    /// Float-mode fields the rule reads.
    pub modes: Vec<String>,
    /// Mnemonic patterns (`*` wildcard).
    pub instructions: Vec<String>,
    /// Markdown.
    pub statement: String,
    /// `FAMILY:ROW` ids of dataset rows (`row_id` cells).
    pub evidence: Vec<String>,
}

/// A rule's evidence row, read from the hardware dataset.
#[derive(Clone, Debug)]
pub struct EvidenceRow {
    pub row_id: String,
    pub instruction: String,
    pub mode: String,
    pub inputs: String,
    pub outputs: String,
}

/// One row of the instruction table as the site shows it: the table's facts and the
/// recompiler's lowering (handed in).
#[derive(Clone, Debug)]
pub struct OpcodeInfo {
    pub mnemonic: String,
    pub family: String,
    pub opcode: u16,
    /// `llvm` (llvm-mc-19 decodes it) or `hardware` (a row only the hardware is known to run).
    pub source: String,
    /// Why the recompiler does not lower it, or `None` when it does.
    pub unlowered: Option<String>,
}

/// Settings of a publish.
#[derive(Clone, Debug)]
pub struct PublishOptions {
    pub rules: Vec<RuleInfo>,
    pub title: String,
    /// Every row of the instruction table: each gets a page and a line of `table.html`,
    /// measured or not.
    pub opcodes: Vec<OpcodeInfo>,
}

impl Default for PublishOptions {
    fn default() -> Self {
        PublishOptions {
            rules: Vec::new(),
            title: "rdnaprobe conformance".into(),
            opcodes: Vec::new(),
        }
    }
}

/// What was written.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Published {
    pub pages: u64,
    pub files: u64,
    pub bytes: u64,
    pub runs: usize,
    pub instructions: usize,
    pub rules: usize,
    pub rows: u64,
}

struct Writer<'a> {
    dir: &'a Path,
    out: Published,
}

impl Writer<'_> {
    fn write(&mut self, rel: &str, text: &str) -> Result<()> {
        let path = self.dir.join(rel);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
        }
        fs::write(&path, text).map_err(|e| Error::io(&path, e))?;
        self.out.files += 1;
        self.out.bytes += text.len() as u64;
        if rel.ends_with(".html") {
            self.out.pages += 1;
        }
        Ok(())
    }
}

/// Reads the evidence rows named by `ids` from the hardware datasets of the latest runs.
fn evidence_rows(
    store: &Store,
    data: &SiteData,
    ids: &BTreeSet<String>,
) -> Result<Vec<EvidenceRow>> {
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    if ids.is_empty() {
        return Ok(out);
    }
    let mut files = BTreeSet::new();
    for (_, r) in data.latest_runs() {
        for o in &r.run.outputs {
            if let Some(f) = &o.reference {
                files.insert(store.path_of(f));
            }
        }
    }
    for path in files {
        let mut input = Input::open(&path)?;
        let Some(col) = input.extra_columns().iter().position(|c| c == "row_id") else {
            continue;
        };
        while let Some(item) = input.next_item()? {
            let Some(id) = item.row.extra.get(col) else {
                continue;
            };
            if ids.contains(id) && seen.insert(id.clone()) {
                let outputs: Vec<String> = item
                    .row
                    .outputs
                    .iter()
                    .enumerate()
                    .filter_map(|(i, o)| o.map(|v| format!("out{i}={}", format::hex(v))))
                    .filter(|s| !s.ends_with("=0x00000000") || s.starts_with("out0="))
                    .collect();
                out.push(EvidenceRow {
                    row_id: id.clone(),
                    instruction: item.row.instruction.clone(),
                    mode: format::mode(&item.row.mode, item.row.wave),
                    inputs: format::inputs(&item.row.inputs),
                    outputs: outputs.join(" "),
                });
            }
        }
    }
    Ok(out)
}

fn run_label(r: &crate::store::RunManifest) -> String {
    let t = r.time.get(5..16).unwrap_or(&r.time).replace('T', " ");
    format!("{t} {}", r.backend)
}

/// Builds the site of `store` into `out` (replaced as a whole).
pub fn publish(store: &Store, out: &Path, options: &PublishOptions) -> Result<Published> {
    let evidence_ids: BTreeSet<String> = options
        .rules
        .iter()
        .flat_map(|r| r.evidence.iter().cloned())
        .collect();
    let ids: Vec<String> = evidence_ids.iter().cloned().collect();
    let data = data::gather(store, &ids)?;
    if data.runs.is_empty() {
        return Err(Error::Usage(format!(
            "{}: the store holds no runs (`rdnaprobe store add` adds one)",
            store.dir.display()
        )));
    }
    let evidence = evidence_rows(store, &data, &evidence_ids)?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "site".into());
    let parent = out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(parent).map_err(|e| Error::io(parent, e))?;
    // The process id keeps two runs publishing beside each other apart.
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    let mut w = Writer {
        dir: &tmp,
        out: Published::default(),
    };
    w.write("assets/site.css", html::CSS)?;
    w.write("assets/index.js", html::INDEX_JS)?;
    w.write("index.html", &pages::index(&data, &options.title))?;
    w.write("history.html", &pages::history(&data))?;
    w.write("rules.html", &pages::rules_index(&options.rules))?;

    let labels: Vec<String> = data.runs.iter().map(|r| run_label(&r.run)).collect();
    let backends: Vec<String> = data.latest.keys().cloned().collect();
    let overall: Vec<(String, Vec<Option<f64>>)> = backends
        .iter()
        .map(|b| {
            let v = data
                .runs
                .iter()
                .map(|r| (r.run.backend == *b).then(|| r.run.exact_share()))
                .collect();
            (b.clone(), v)
        })
        .collect();
    w.write(
        "img/history.svg",
        &svg::history_chart("exact share per run", &labels, &overall),
    )?;
    let modes = pages::modes(&data);
    for (backend, run) in data.latest_runs() {
        let rows: Vec<String> = run.families.keys().cloned().collect();
        let cells: Vec<Vec<Option<f64>>> = rows
            .iter()
            .map(|i| {
                modes
                    .iter()
                    .map(|m| run.cells.get(&(i.clone(), m.clone())).map(|c| c.share()))
                    .collect()
            })
            .collect();
        w.write(
            &format!("img/heat-{}.svg", slug(backend)),
            &svg::heat_map(
                &format!("exact share on {backend}, instruction x mode"),
                &rows,
                &modes,
                &cells,
            ),
        )?;
    }
    let instructions = data.instructions();
    for name in &instructions {
        let series: Vec<(String, Vec<Option<f64>>)> = backends
            .iter()
            .map(|b| {
                let v = data
                    .runs
                    .iter()
                    .map(|r| {
                        if r.run.backend == *b {
                            r.instruction(name).map(|c| c.share())
                        } else {
                            None
                        }
                    })
                    .collect();
                (b.clone(), v)
            })
            .collect();
        // Each backend's own runs, in order.
        let spark: Vec<Vec<Option<f64>>> = series
            .iter()
            .map(|(_, v)| v.iter().flatten().map(|x| Some(*x)).collect())
            .collect();
        w.write(
            &format!("img/spark-{}.svg", slug(name)),
            &svg::sparkline(&spark),
        )?;
        w.write(
            &format!("img/history-{}.svg", slug(name)),
            &svg::history_chart(&format!("{name}: exact share per run"), &labels, &series),
        )?;
        let mut histograms = Vec::new();
        for (backend, run) in data.latest_runs() {
            let Some(cell) = run.instruction(name) else {
                continue;
            };
            if cell.buckets.is_empty() {
                continue;
            }
            let h = Histogram {
                instruction: name.clone(),
                backend: backend.clone(),
                buckets: cell.buckets.iter().map(|(b, n)| (*b, *n)).collect(),
            };
            let file = format!("hist-{}-{}.svg", slug(name), slug(backend));
            w.write(&format!("img/{file}"), &histogram_svg(&h)?)?;
            histograms.push((backend.clone(), file));
        }
        let lowering = pages::lowering(&options.opcodes, name);
        w.write(
            &format!("i/{}.html", slug(name)),
            &pages::instruction(&data, name, &options.rules, &histograms, &lowering),
        )?;
    }
    // The rest of the table: a page each, with its lowering, rules and encodings.
    let mut table_names: Vec<&str> = options
        .opcodes
        .iter()
        .map(|o| o.mnemonic.as_str())
        .collect();
    table_names.sort_unstable();
    table_names.dedup();
    for name in table_names {
        if instructions.contains(name) {
            continue;
        }
        let lowering = pages::lowering(&options.opcodes, name);
        w.write(
            &format!("i/{}.html", slug(name)),
            &pages::instruction(&data, name, &options.rules, &[], &lowering),
        )?;
    }
    if !options.opcodes.is_empty() {
        w.write("table.html", &pages::table(&data, &options.opcodes))?;
    }
    let by_id: BTreeMap<&str, &EvidenceRow> =
        evidence.iter().map(|e| (e.row_id.as_str(), e)).collect();
    for r in &options.rules {
        let rows: Vec<EvidenceRow> = r
            .evidence
            .iter()
            .filter_map(|id| by_id.get(id.as_str()).map(|e| (*e).clone()))
            .collect();
        w.write(
            &format!("r/{}.html", slug(&r.id)),
            &pages::rule(&data, r, &rows),
        )?;
    }
    let mut published = w.out;
    published.runs = data.runs.len();
    published.instructions = instructions.len();
    published.rules = options.rules.len();
    published.rows = data.rows;
    if out.exists() {
        fs::remove_dir_all(out).map_err(|e| Error::io(out, e))?;
    }
    fs::rename(&tmp, out).map_err(|e| Error::io(out, e))?;
    Ok(published)
}
