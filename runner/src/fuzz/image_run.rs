//! `rdnaprobe fuzz --images N`: the random image sweep specs of [`super::image`] built into
//! wave datasets in memory ([`crate::sweep::image::dataset`]) and run on the CPU model and on
//! a candidate backend. A row agrees when both give it the same status and, where it ran, the
//! same out0..out15 and (on a wave's first row) the same memory region after the body
//! (`mem_out`: what a store or an atomic wrote); rows both refuse with the same reason agree
//! as `unsupported`. Each image variant (format, DMASK, S#) with a differing row gets a
//! reproducer: the spec reduced to that variant, written as a TOML file, and the one-line
//! `rdnaprobe sweep` command that reruns it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context;
use rdnaprobe_dataset::{Dataset, WaveLayout};

use super::describe;
use crate::backend::{Backend, Status, WaveResults};
use crate::sweep::spec::{SpecFile, Sweep};

/// What `fuzz --images` runs.
pub struct Config {
    pub seed: u64,
    /// Specs to draw.
    pub specs: usize,
    /// The candidate backend, as on the command line (for the reproducers).
    pub backend: String,
    /// Reproducers written; the other differing variants are counted.
    pub max_repros: usize,
    /// Where the reproducers go (default: a fresh directory under the system's temp dir).
    pub repro_dir: Option<PathBuf>,
}

/// The counts of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub specs: usize,
    /// Drawn specs the sweep parser or the dataset builder refused (drawn again).
    pub refused: usize,
    pub rows: usize,
    /// Rows run on both backends with the same outputs.
    pub ok: usize,
    /// Rows both backends refuse with the same reason.
    pub unsupported: usize,
    /// Rows both backends fail with the same error.
    pub errors: usize,
    pub mismatches: usize,
    /// Image variants with a differing row.
    pub variants: usize,
    /// Output dwords (out0..out15) compared on rows run on both.
    pub dwords: u64,
    /// Dwords of the memory region after the body (`mem_out`) compared on waves run on both.
    pub mem_dwords: u64,
    /// The slowest specs on the candidate: (milliseconds, spec index, op), slowest first, at
    /// most [`SLOWEST`].
    pub slowest: Vec<(u64, u64, String)>,
    /// Specs drawn and rows run ok on both, per op (its mnemonic, with `[cube a16 d16]` where
    /// the spec has them).
    pub ops: BTreeMap<String, [usize; 2]>,
}

impl Tally {
    /// The summary line (without the time).
    pub fn summary(&self, seed: u64) -> String {
        format!(
            "fuzz --images: seed {seed}: {} specs ({} redrawn), {} rows, {} ok on both, {} unsupported on both, {} errors on both, {} mismatching rows in {} variants, {} output dwords and {} mem_out dwords compared",
            self.specs,
            self.refused,
            self.rows,
            self.ok,
            self.unsupported,
            self.errors,
            self.mismatches,
            self.variants,
            self.dwords,
            self.mem_dwords
        )
    }

    /// The slowest specs on the candidate, `#12 image_sample_l [cube] 3.2 s, ...`.
    pub fn slowest_line(&self) -> String {
        let s: Vec<String> = self
            .slowest
            .iter()
            .map(|(ms, i, op)| format!("#{i} {op} {:.1} s", *ms as f64 / 1000.0))
            .collect();
        format!(
            "fuzz --images: slowest specs on the candidate: {}",
            s.join(", ")
        )
    }

    /// The ops drawn, `image_load 3 (120 rows ok), ...`.
    pub fn ops_line(&self) -> String {
        let ops: Vec<String> = self
            .ops
            .iter()
            .map(|(k, [n, ok])| format!("{k} {n} ({ok} rows ok)"))
            .collect();
        format!("fuzz --images: ops drawn: {}", ops.join(", "))
    }
}

/// The label a spec's op is counted under: the image instruction's mnemonic (its body's last
/// line), with the forms a spec may add, e.g. `image_sample_l [cube a16]`.
fn op_label(asm: &str) -> String {
    let last = asm.lines().last().unwrap_or("");
    let mut words = last.split_whitespace();
    let op = words.next().unwrap_or("?").to_string();
    let mut tags = Vec::new();
    if last.contains("SQ_RSRC_IMG_CUBE") {
        tags.push("cube");
    }
    for w in words {
        if w == "a16" || w == "d16" {
            tags.push(w);
        }
    }
    if tags.is_empty() {
        op
    } else {
        format!("{op} [{}]", tags.join(" "))
    }
}

/// How many of the slowest specs a [`Tally`] keeps.
pub const SLOWEST: usize = 5;

/// A spec whose candidate run takes longer than this many seconds is named on stderr as it
/// ends (a driver that compiles a module for minutes shows before a run's time limit).
const SLOW_SECS: f64 = 10.0;

/// A row where the backends differ: its index in the spec's dataset and what differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RowDiff {
    pub row: usize,
    pub detail: String,
}

/// Compares the CPU model's results `want` with the candidate's `got` for the rows of `ds`,
/// adding the rows to `tally` and returning those that differ.
pub fn compare(
    ds: &Dataset,
    want: &WaveResults,
    got: &WaveResults,
    backend: &str,
    tally: &mut Tally,
) -> Vec<RowDiff> {
    let wave_id = ds.extra_columns.iter().position(|c| c == "wave_id");
    let lane = ds.extra_columns.iter().position(|c| c == "lane");
    let cell = |i: usize, k: Option<usize>| {
        k.and_then(|k| ds.rows[i].extra.get(k))
            .map_or("?", String::as_str)
            .to_string()
    };
    let mut out = Vec::new();
    for i in 0..ds.rows.len() {
        tally.rows += 1;
        let (w, g) = (&want.rows[i], got.rows[i].clone());
        let wm = want.uniform.get(i).and_then(|u| u.as_ref()).map(|u| &u.mem);
        let gm = got.uniform.get(i).and_then(|u| u.as_ref()).map(|u| &u.mem);
        let mut why = Vec::new();
        if *w != g {
            why.push(format!("cpu {} vs {backend} {}", describe(w), describe(&g)));
        }
        if wm != gm {
            why.push(match (wm, gm) {
                (Some(a), Some(b)) => {
                    let k = a.iter().zip(b).position(|(x, y)| x != y);
                    match k {
                        Some(k) => format!(
                            "mem_out dword {k}: cpu {:08x} vs {backend} {:08x}",
                            a[k], b[k]
                        ),
                        None => format!("mem_out: cpu {} dwords vs {backend} {}", a.len(), b.len()),
                    }
                }
                (a, b) => format!(
                    "mem_out: cpu {} vs {backend} {}",
                    if a.is_some() { "written" } else { "none" },
                    if b.is_some() { "written" } else { "none" }
                ),
            });
        }
        if why.is_empty() {
            match &w.status {
                Status::Ok => {
                    tally.ok += 1;
                    tally.dwords += w.outputs.iter().flatten().count() as u64;
                    tally.mem_dwords += wm.map_or(0, |m| m.len() as u64);
                }
                Status::Unsupported(_) => tally.unsupported += 1,
                Status::Error(_) => tally.errors += 1,
            }
            continue;
        }
        tally.mismatches += 1;
        out.push(RowDiff {
            row: i,
            detail: format!(
                "wave {} lane {}: {}",
                cell(i, wave_id),
                cell(i, lane),
                why.join("; ")
            ),
        });
    }
    out
}

/// One image variant of a spec: its format, DMASK, op and S#, with their indices as the
/// dataset's wave ids name them (`f{format}_b{body}_s{sampler}_w{wave}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variant {
    pub format: u32,
    pub body: usize,
    pub sampler: usize,
    pub op: Option<String>,
    pub dmask: Option<u32>,
}

/// The variant row `row` of `sweep`'s image dataset belongs to: the rows are every lane of
/// the sweep for each format, then each body (ops, then DMASKs), then each S#.
pub fn variant(sweep: &Sweep, row: usize) -> Option<Variant> {
    let image = sweep.spec.image.as_ref()?;
    let lanes = usize::try_from(sweep.total_rows()).ok()?.max(1);
    let v = row / lanes;
    let samplers = image.sampler.len().max(1);
    let masks = image.dmask.len().max(1);
    let bodies = image.ops.len().max(1) * masks;
    let (f, b, s) = (v / (samplers * bodies), v / samplers % bodies, v % samplers);
    Some(Variant {
        format: *image.formats.get(f)?,
        body: b,
        sampler: s,
        op: image.ops.get(b / masks).cloned(),
        dmask: image.dmask.get(b % masks).copied(),
    })
}

/// `spec` reduced to the one variant `v`: one format, op, DMASK and S#.
pub fn reduce(spec: &SpecFile, v: &Variant) -> SpecFile {
    let mut s = spec.clone();
    if let Some(image) = s.image.as_mut() {
        image.formats = vec![v.format];
        if let Some(op) = &v.op {
            image.ops = vec![op.clone()];
        }
        if let Some(m) = v.dmask {
            image.dmask = vec![m];
        }
        if let Some(sampler) = image.sampler.get(v.sampler).cloned() {
            image.sampler = vec![sampler];
        }
    }
    s.name = format!("{}_f{}_b{}_s{}", spec.name, v.format, v.body, v.sampler);
    s
}

/// The reproducer of variant `v` of `spec` on `backend`: the reduced spec written to
/// `DIR/NAME.toml` (headed by comments naming the variant and `detail`), and the one-line
/// command that reruns it.
pub fn write_repro(
    dir: &Path,
    spec: &SpecFile,
    v: &Variant,
    backend: &str,
    detail: &str,
) -> anyhow::Result<(PathBuf, String)> {
    let reduced = reduce(spec, v);
    let path = dir.join(format!("{}.toml", reduced.name));
    let mut text = format!(
        "# {}\n# reduced to one variant: format {}, DMASK {}, op {}, sampler {} of the drawn spec\n# first differing row: {detail}\n",
        spec.description,
        v.format,
        v.dmask.map_or("-".into(), |m| format!("{m:#x}")),
        v.op.as_deref().unwrap_or("-"),
        v.sampler,
    );
    text.push_str(&toml::to_string(&reduced).context("writing the spec as TOML")?);
    std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
    let cmd = format!(
        "rdnaprobe sweep {} --backend {backend} -o {}",
        path.display(),
        path.with_extension("csv").display()
    );
    Ok((path, cmd))
}

fn assemble(asm: &str) -> anyhow::Result<Vec<u32>> {
    rdnaprobe_isa::assemble(asm).map_err(|e| anyhow::anyhow!("{e}"))
}

/// A drawn spec as a sweep and its dataset; `None` where either refuses it.
pub fn build(spec: &SpecFile) -> Option<(Sweep, Dataset)> {
    let sweep = Sweep::from_spec(spec.clone(), &assemble).ok()?;
    let ds = crate::sweep::image::dataset(&sweep, &assemble).ok()?;
    Some((sweep, ds))
}

/// The results of `ds`'s rows on `backend`.
fn run_on(backend: &mut dyn Backend, ds: &Dataset) -> anyhow::Result<WaveResults> {
    let layout = WaveLayout::from_columns(&ds.extra_columns)
        .context("an image dataset has the wave columns")?;
    let r = backend.run_waves(&ds.rows, &layout);
    anyhow::ensure!(
        r.rows.len() == ds.rows.len(),
        "the backend gave {} results for {} rows",
        r.rows.len(),
        ds.rows.len()
    );
    Ok(r)
}

/// Draws `cfg.specs` specs, runs each on `cpu` and `candidate`, prints a reproducer command
/// per differing variant (up to `cfg.max_repros`) on `out` and the rows' details on stderr.
pub fn run(
    cfg: &Config,
    cpu: &mut dyn Backend,
    candidate: &mut dyn Backend,
    out: &mut dyn Write,
) -> anyhow::Result<Tally> {
    let mut tally = Tally::default();
    let mut dir: Option<PathBuf> = None;
    let mut index = 0u64;
    while tally.specs < cfg.specs {
        let spec = super::image::draw(cfg.seed, index);
        index += 1;
        let Some((sweep, ds)) = build(&spec) else {
            tally.refused += 1;
            anyhow::ensure!(
                tally.refused <= 10 * cfg.specs.max(10),
                "fuzz --images: the drawn specs are refused over and over"
            );
            continue;
        };
        tally.specs += 1;
        let op = op_label(spec.body.asm.as_deref().unwrap_or(""));
        let want = run_on(cpu, &ds)?;
        let started = std::time::Instant::now();
        let got = run_on(candidate, &ds)?;
        let secs = started.elapsed().as_secs_f64();
        if secs > SLOW_SECS {
            note!(
                "fuzz --images: spec #{} ({op}, {} rows) took {secs:.1} s on {}",
                index - 1,
                ds.rows.len(),
                cfg.backend
            );
        }
        tally
            .slowest
            .push(((secs * 1000.0) as u64, index - 1, op.clone()));
        tally
            .slowest
            .sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        tally.slowest.truncate(SLOWEST);
        let ok_before = tally.ok;
        let diffs = compare(&ds, &want, &got, &cfg.backend, &mut tally);
        let entry = tally.ops.entry(op).or_default();
        entry[0] += 1;
        entry[1] += tally.ok - ok_before;
        let mut seen: Vec<Variant> = Vec::new();
        for d in &diffs {
            let Some(v) = variant(&sweep, d.row) else {
                continue;
            };
            if seen.contains(&v) {
                continue;
            }
            seen.push(v.clone());
            if tally.variants < cfg.max_repros {
                let dir = match &dir {
                    Some(d) => d.clone(),
                    None => {
                        let d = cfg.repro_dir.clone().unwrap_or_else(|| {
                            std::env::temp_dir().join(format!(
                                "rdnaprobe-fuzz-images-{}-{}",
                                cfg.seed,
                                std::process::id()
                            ))
                        });
                        std::fs::create_dir_all(&d)
                            .with_context(|| format!("creating {}", d.display()))?;
                        note!("fuzz --images: reproducers in {}", d.display());
                        dir = Some(d.clone());
                        d
                    }
                };
                let (_, cmd) = write_repro(&dir, &spec, &v, &cfg.backend, &d.detail)?;
                writeln!(out, "{cmd}")?;
                note!("  {}: {}", spec.name, d.detail);
            }
            tally.variants += 1;
        }
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rdnaprobe_dataset::WaveOutputs;

    /// A drawn spec of `family` (the first of seed 1 that has it).
    fn spec_of(family: super::super::image::Family, samplers: bool) -> SpecFile {
        (0..)
            .map(|i| super::super::image::draw(1, i))
            .find(|s| {
                let img = s.image.as_ref().unwrap();
                s.body
                    .asm
                    .as_deref()
                    .unwrap()
                    .contains(&format!("{} ", family.mnemonic()))
                    && (!samplers || img.sampler.len() == 2)
                    && img.formats.len() > 1
            })
            .unwrap()
    }

    #[test]
    fn the_cpu_model_agrees_with_itself_on_stores() {
        let spec = spec_of(super::super::image::Family::Store, false);
        let (_, ds) = build(&spec).unwrap();
        let mut a = crate::backend::cpu::CpuBackend::new();
        let mut b = crate::backend::cpu::CpuBackend::new();
        let want = run_on(&mut a, &ds).unwrap();
        let got = run_on(&mut b, &ds).unwrap();
        let mut t = Tally::default();
        assert!(compare(&ds, &want, &got, "cpu", &mut t).is_empty());
        assert_eq!(t.rows, ds.rows.len());
        assert_eq!(t.ok + t.unsupported, t.rows, "{t:?}");
        assert_eq!(t.dwords, 16 * t.ok as u64, "{t:?}");
        assert!(t.mem_dwords > 0 || t.ok == 0, "mem_out counted: {t:?}");
    }

    #[test]
    fn a_differing_row_names_its_variant_and_its_reproducer_parses() {
        let spec = spec_of(super::super::image::Family::SampleLz, true);
        let (sweep, ds) = build(&spec).unwrap();
        let mut cpu = crate::backend::cpu::CpuBackend::new();
        let want = run_on(&mut cpu, &ds).unwrap();
        // the candidate: the same results, but one row's out1 flipped (the last variant's
        // first row), and one wave's region changed
        let mut got = want.clone();
        let row = ds.rows.len() - sweep.total_rows() as usize;
        got.rows[row].outputs[1] = Some(got.rows[row].outputs[1].unwrap_or(0) ^ 0x100);
        got.rows[row].status = Status::Ok;
        got.uniform[0] = Some(WaveOutputs {
            mem: vec![7],
            ..got.uniform[0].clone().unwrap_or_default()
        });
        let mut t = Tally::default();
        let d = compare(&ds, &want, &got, "planted", &mut t);
        assert_eq!(
            d.iter().map(|d| d.row).collect::<Vec<_>>(),
            vec![0, row],
            "{d:?}"
        );
        assert_eq!(t.mismatches, 2);
        assert_eq!(t.ok + t.unsupported + t.mismatches, ds.rows.len());
        assert!(d[0].detail.contains("mem_out"), "{}", d[0].detail);
        assert!(d[1].detail.contains("vs planted"), "{}", d[1].detail);
        let img = spec.image.as_ref().unwrap();
        let v = variant(&sweep, row).unwrap();
        assert_eq!(v.format, *img.formats.last().unwrap());
        assert_eq!(v.sampler, img.sampler.len() - 1);
        assert_eq!(v.dmask, img.dmask.last().copied());
        // the wave id of the row names the same variant
        let id = &ds.rows[row].extra[0];
        assert!(
            id.starts_with(&format!("f{}_b{}_s{}_", v.format, v.body, v.sampler)),
            "{id} vs {v:?}"
        );
        let dir = tempfile::tempdir().unwrap();
        let (path, cmd) = write_repro(dir.path(), &spec, &v, "planted", &d[1].detail).unwrap();
        assert_eq!(
            cmd,
            format!(
                "rdnaprobe sweep {} --backend planted -o {}",
                path.display(),
                path.with_extension("csv").display()
            )
        );
        let back = crate::cmd::sweep::load(&path).unwrap();
        let bimg = back.spec.image.as_ref().unwrap();
        assert_eq!(bimg.formats, vec![v.format]);
        assert_eq!(bimg.dmask, vec![v.dmask.unwrap()]);
        assert_eq!(bimg.sampler, vec![img.sampler[v.sampler].clone()]);
        assert_eq!(back.spec.inputs, spec.inputs);
        // the reduced spec makes the variant's rows, the differing one among them
        let (_, small) = build(&back.spec).unwrap();
        assert_eq!(small.rows.len() as u64, sweep.total_rows());
        let k = row % sweep.total_rows() as usize;
        assert_eq!(small.rows[k].encoding, ds.rows[row].encoding);
        assert_eq!(small.rows[k].inputs, ds.rows[row].inputs);
        assert_eq!(small.rows[k].extra[2..], ds.rows[row].extra[2..]);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("# rdnaprobe fuzz --seed 1 --images: spec "),
            "{text}"
        );
        assert!(text.contains(&format!("format {}", v.format)), "{text}");
    }
}
