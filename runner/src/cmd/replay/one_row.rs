//! `rdnaprobe replay` of one row, printed: from the command line (`--asm`/`--encoding`, the
//! inputs, mode, wave and target as flags) or one row of a dataset (`DATASET --row ID`). The
//! output names the experiment, then one line per output the body writes (by its decoded
//! output types; for a dataset row also every output the dataset states, with the dataset's
//! value and whether it differs), then the status.

use std::io::Write;
use std::process::ExitCode;

use anyhow::{bail, Context};
use rdnaprobe_dataset::{parse_hex, ModeCells, ModeField, Reader, Row, Status, Wave};
use rdnaprobe_reports::format;

use super::Args;
use crate::batch;

/// `--asm`/`--encoding` with the flags of one experiment.
pub fn from_args(args: &Args) -> anyhow::Result<ExitCode> {
    let row = row_from_args(args)?;
    print(args, &row, None)
}

/// `DATASET --row ID`.
pub fn from_dataset(args: &Args, id: &str) -> anyhow::Result<ExitCode> {
    let [input] = &args.inputs[..] else {
        bail!(
            "--row takes one dataset, not {}: `rdnaprobe replay DATASET --row ID`",
            args.inputs.len()
        );
    };
    let reader = Reader::open(input)?;
    if reader.wave_layout().is_some() {
        bail!(
            "{}: a wave dataset replays whole waves, not one row: `rdnaprobe replay {} -o OUT.csv`",
            input.display(),
            input.display()
        );
    }
    let row_id = reader.extra_columns().iter().position(|c| c == "row_id");
    let number: Option<u64> = id.parse().ok();
    let mut by_number = None;
    let mut n = 0u64;
    for row in reader {
        let row = row?;
        n += 1;
        if row_id.is_some_and(|c| row.extra.get(c).is_some_and(|v| v.trim() == id)) {
            return print(args, &row, Some(n));
        }
        if by_number.is_none() && number == Some(n) {
            by_number = Some(row);
        }
    }
    match by_number {
        Some(row) => print(args, &row, Some(number.unwrap_or_default())),
        None => bail!(
            "{}: no row {id} (no row_id {id}{}; {n} data rows)",
            input.display(),
            if row_id.is_none() {
                ", the dataset has no row_id column"
            } else {
                ""
            }
        ),
    }
}

fn row_from_args(args: &Args) -> anyhow::Result<Row> {
    let wave = args.wave.map(Wave::lanes);
    let (instruction, encoding) = match (&args.asm, &args.encoding) {
        (Some(text), _) => {
            let words = match wave {
                Some(64) => rdnaprobe_isa::assemble_for(text, rdnaprobe_isa::Wave::W64),
                _ => rdnaprobe_isa::assemble(text),
            }
            .with_context(|| format!("--asm `{text}`"))?;
            (text.clone(), words)
        }
        (None, Some(words)) => {
            let words = super::super::assemble::parse_words(words)?;
            (format::encoding(&words), words)
        }
        (None, None) => bail!("give the body with --asm TEXT or --encoding WORDS"),
    };
    let mut inputs = [0u32; 6];
    let given = [
        &args.in0, &args.in1, &args.in2, &args.in3, &args.in4, &args.in5,
    ];
    for (k, (slot, cell)) in inputs.iter_mut().zip(given).enumerate() {
        if let Some(cell) = cell {
            *slot = parse_hex(cell.trim()).map_err(|e| anyhow::anyhow!("--in{k} `{cell}`: {e}"))?;
        }
    }
    let gfx = args.gfx.map(|g| g.to_string()).unwrap_or_default();
    Ok(Row {
        instruction,
        encoding,
        wave,
        mode: parse_mode(args.mode.as_deref().unwrap_or("default"))?,
        inputs,
        gfx,
        ..Row::default()
    })
}

/// `default`, or `FIELD=V,...`: the named fields stated, the others left empty (so they
/// resolve to FloatMode::DEFAULT, as an empty dataset cell does).
pub fn parse_mode(text: &str) -> anyhow::Result<ModeCells> {
    let mut cells = ModeCells::default();
    let text = text.trim();
    if text == "default" || text.is_empty() {
        return Ok(cells);
    }
    for part in text.split(',') {
        let (name, value) = part.split_once('=').with_context(|| {
            format!("--mode `{part}`: expected FIELD=VALUE (for example ieee=0), or `default`")
        })?;
        let field = ModeField::from_name(name.trim()).with_context(|| {
            let names: Vec<&str> = ModeField::ALL.iter().map(|f| f.name()).collect();
            format!(
                "--mode: no field `{}` (fields: {})",
                name.trim(),
                names.join(", ")
            )
        })?;
        let v = field
            .parse_cell(value)
            .map_err(|e| anyhow::anyhow!("--mode {}={}: {e}", field.name(), value.trim()))?
            .with_context(|| format!("--mode {}: no value", field.name()))?;
        *cells.get_mut(field) = Some(v);
    }
    Ok(cells)
}

/// Runs `row` on the backend and prints it; `data_row`: the row's number in its dataset
/// (whose outputs are shown next to the backend's).
fn print(args: &Args, row: &Row, data_row: Option<u64>) -> anyhow::Result<ExitCode> {
    let mut backend = crate::backend::open(&args.backend)?;
    let result = batch::run(backend.as_mut(), std::slice::from_ref(row))
        .pop()
        .context("the backend returned no result")?;
    let mut out = std::io::stdout().lock();
    let what = match data_row {
        Some(n) => format!("data row {n}: "),
        None => String::new(),
    };
    let words = format::encoding(&row.encoding);
    let text = if row.instruction == words {
        String::new()
    } else {
        format!("{} ", row.instruction)
    };
    // The mode it ran under: empty cells resolved as replay resolves them.
    let wave = row.wave_size().map_or(Wave::DEFAULT, |w| w).lanes();
    writeln!(
        out,
        "{what}{text}[{words}] {} on {}",
        format::mode(&ModeCells::stated(&row.mode.resolve()), Some(wave)),
        args.backend
    )?;
    let inputs: Vec<String> = row
        .inputs
        .iter()
        .enumerate()
        .filter(|&(k, &v)| v != 0 || k == 0)
        .map(|(k, &v)| format!("in{k}={}", format::hex(v)))
        .collect();
    writeln!(out, "  {}", inputs.join(" "))?;
    // The outputs the body writes (by its decoded types), those the dataset states, and out0.
    let types = rdnaprobe_reports::dtype::output_types(&row.instruction, &row.encoding);
    for (k, ty) in types.iter().enumerate() {
        let got = result.outputs[k];
        let want = data_row.and(row.outputs[k]);
        let written = *ty != rdnaprobe_reports::dtype::DwordType::Unknown;
        if (got.is_none() || !(written || k == 0)) && want.is_none() {
            continue;
        }
        let cell = |v: Option<u32>| v.map_or_else(|| "-".to_string(), format::hex);
        match data_row {
            None => writeln!(out, "  out{k}={}", cell(got))?,
            Some(_) => writeln!(
                out,
                "  out{k}={}  dataset {}{}",
                cell(got),
                cell(want),
                if got == want { "" } else { "  (differs)" }
            )?,
        }
    }
    match &result.status {
        Status::Ok => writeln!(out, "  status ok")?,
        other => writeln!(out, "  status {other}")?,
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
