//! `rdnaprobe publish --store DIR -o SITE`: the static conformance site of a results store
//! (index matrix, a page per instruction and per semantic rule, history). Needs the `report`
//! feature (polars).

use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// The results store (`rdnaprobe store add`).
    #[arg(long, value_name = "DIR")]
    pub store: PathBuf,
    /// The site directory (replaced as a whole).
    #[arg(short = 'o', long = "output", value_name = "SITE")]
    pub output: PathBuf,
    /// Title of the site.
    #[arg(long)]
    pub title: Option<String>,
}

#[cfg(feature = "report")]
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    use std::io::Write;

    use rdnaprobe_reports::publish::{publish, OpcodeInfo, PublishOptions, RuleInfo};
    use rdnaprobe_reports::store::Store;

    let rules = rdnaprobe_recompiler::rules::registry()
        .iter()
        .map(|r| RuleInfo {
            id: r.id.clone(),
            summary: r.summary.clone(),
            modes: r.modes.clone(),
            instructions: r.instructions.clone(),
            statement: r.statement.clone(),
            evidence: r.evidence.clone(),
        })
        .collect();
    let store = Store::open(&args.store)?;
    let started = std::time::Instant::now();
    let opcodes = rdnaprobe_isa::table()
        .rows
        .iter()
        .map(|r| OpcodeInfo {
            mnemonic: r.mnemonic.to_string(),
            family: r.family.name().to_string(),
            opcode: r.opcode,
            source: match r.source {
                rdnaprobe_isa::Source::Llvm => "llvm",
                rdnaprobe_isa::Source::HardwareOnly => "hardware",
            }
            .to_string(),
            unlowered: rdnaprobe_recompiler::unlowered_reason(
                r.op(),
                rdnaprobe_isa::Target::Gfx1030,
            )
            .map(|s| s.to_string()),
        })
        .collect();
    let options = PublishOptions {
        rules,
        opcodes,
        title: args
            .title
            .unwrap_or_else(|| "rdnaprobe conformance".to_string()),
    };
    let p = publish(&store, &args.output, &options)?;
    writeln!(
        std::io::stdout().lock(),
        "{}: {} pages ({} instructions, {} rules), {} files, {} bytes, {} runs, {} result rows, {:.2} s",
        args.output.join("index.html").display(),
        p.pages,
        p.instructions,
        p.rules,
        p.files,
        p.bytes,
        p.runs,
        p.rows,
        started.elapsed().as_secs_f64()
    )?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(not(feature = "report"))]
pub fn run(_args: Args) -> anyhow::Result<ExitCode> {
    anyhow::bail!("this rdnaprobe was built without the `report` feature (polars); rebuild with default features")
}
