//! `rdnaprobe dispatch CODE_OBJECT`: runs a kernel of a real code object over a grid on `cpu`,
//! a `vulkan:*` driver or `hip`, and writes every buffer argument after the run as
//! `OUT/NAME.bin`, with `OUT/dispatch.json` (kernel, grid, backend, per-buffer SHA-256, wave
//! errors) and `OUT/buffers.csv`, the buffers as the rows of a replay output that `diff`,
//! `report` and `store` take (see [`write_rows`]). Exit 1 when a wave did not end normally.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use sha2::{Digest, Sha256};

use crate::dispatch::{self, ArgValue, Dispatch, Program};

#[derive(clap::Args)]
pub struct Args {
    /// The code object (an HSA ELF of code object v4 or v5).
    pub code_object: PathBuf,
    /// The kernel to run (needed when the code object has several).
    #[arg(long)]
    pub kernel: Option<String>,
    /// Work-items per dimension: X[,Y[,Z]].
    #[arg(long, value_parser = dims)]
    pub grid: [u32; 3],
    /// Work-items per workgroup: X[,Y[,Z]]; by default the kernel's required workgroup size
    /// (`reqd_work_group_size`), which a given value must equal.
    #[arg(long, value_parser = dims)]
    pub block: Option<[u32; 3]>,
    /// An argument, NAME=VALUE (see docs/dispatch.md): buffers zeros:BYTES, iota:COUNT,
    /// random:SEED:BYTES, u32:V,..., file:PATH; values integers, f32:V, f64:V.
    #[arg(long = "arg")]
    pub args: Vec<String>,
    /// Dynamic LDS bytes.
    #[arg(long, default_value_t = 0)]
    pub dynamic_lds: u32,
    /// With an offload bundle of several gfx103x entries: the one to run (gfx1030 ...).
    #[arg(long)]
    pub gfx: Option<String>,
    /// cpu, vulkan[:lavapipe|nvidia|radv|N] or hip.
    #[arg(long, default_value = "cpu")]
    pub backend: String,
    /// Output directory.
    #[arg(short, long)]
    pub output: PathBuf,
}

fn dims(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(',').collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: X[,Y[,Z]]"));
    }
    let mut d = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        d[i] = p
            .trim()
            .parse()
            .map_err(|_| format!("`{p}` is not a count"))?;
        if d[i] == 0 {
            return Err(format!("`{s}`: a dimension of 0"));
        }
    }
    Ok(d)
}

/// The most work-items of one gfx10 workgroup.
pub const MAX_WORKGROUP: u32 = 1024;

/// The workgroup size a dispatch runs with: `--block`, or the kernel's required size. A block
/// that differs from the required size, or exceeds the kernel's or the hardware's limit, is an
/// error; so is a grid that does not divide into whole workgroups of a kernel that requires its
/// size. A grid smaller than one workgroup (HSA counts the grid in work-items) runs one partial
/// workgroup, with a warning.
pub fn resolve_block(
    meta: &rdnaprobe_oracle::metadata::KernelMeta,
    grid: [u32; 3],
    block: Option<[u32; 3]>,
) -> anyhow::Result<[u32; 3]> {
    let k = &meta.name;
    let block = match (block, meta.reqd_workgroup_size) {
        (Some(b), Some(r)) if b != r => anyhow::bail!(
            "--block {}: kernel `{k}` was built for workgroups of {} (reqd_work_group_size); \
             leave --block out or give that size",
            join(b),
            join(r)
        ),
        (Some(b), _) => b,
        (None, Some(r)) => r,
        (None, None) => anyhow::bail!(
            "--block is needed: kernel `{k}` has no required workgroup size \
             (reqd_work_group_size) to default to"
        ),
    };
    let items = block.iter().map(|&d| u64::from(d)).product::<u64>();
    let limit = meta
        .max_flat_workgroup_size
        .unwrap_or(MAX_WORKGROUP)
        .min(MAX_WORKGROUP);
    if items > u64::from(limit) {
        anyhow::bail!(
            "--block {}: {items} work-items per workgroup, over the {} of kernel `{k}` \
             (gfx10 allows {MAX_WORKGROUP}; the kernel's max_flat_workgroup_size {})",
            join(block),
            limit,
            meta.max_flat_workgroup_size
                .map_or("is not set".to_string(), |m| format!("is {m}"))
        );
    }
    if meta.reqd_workgroup_size.is_some() {
        if let Some(i) = (0..3).find(|&i| grid[i] % block[i] != 0) {
            anyhow::bail!(
                "--grid {}: kernel `{k}` requires whole workgroups of {}, and dimension {} \
                 ({}) is not a multiple of {} (--grid counts work-items, as HSA does)",
                join(grid),
                join(block),
                ["X", "Y", "Z"][i],
                grid[i],
                block[i]
            );
        }
    }
    if let Some(i) = (0..3).find(|&i| grid[i] < block[i]) {
        eprintln!(
            "dispatch: warning: --grid {} is smaller than one workgroup ({}) in {}: --grid counts \
             work-items (HSA), not workgroups; this runs one partial workgroup of {} work-items",
            join(grid),
            join(block),
            ["X", "Y", "Z"][i],
            (0..3)
                .map(|j| u64::from(grid[j].min(block[j])))
                .product::<u64>()
        );
    }
    Ok(block)
}

fn join(d: [u32; 3]) -> String {
    d.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[derive(serde::Serialize)]
struct BufferOut {
    name: String,
    bytes: u32,
    sha256: String,
}

#[derive(serde::Serialize)]
struct Manifest {
    code_object: String,
    code_object_sha256: String,
    kernel: String,
    target: String,
    wave: u32,
    grid: [u32; 3],
    block: [u32; 3],
    backend: String,
    waves: usize,
    buffers: Vec<BufferOut>,
    errors: Vec<String>,
    /// Vulkan only: each pipeline's size and driver compile time.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pipelines: Vec<dispatch::Compiled>,
}

pub fn run(a: Args) -> anyhow::Result<ExitCode> {
    let file = std::fs::read(&a.code_object)
        .with_context(|| format!("reading {}", a.code_object.display()))?;
    // A HIP offload bundle or fat binary: its gfx103x code object.
    let (image, entry) = rdnaprobe_oracle::bundle::code_object(&file, a.gfx.as_deref())
        .with_context(|| a.code_object.display().to_string())?;
    if let Some(id) = &entry {
        note!(
            "dispatch: {}: offload bundle entry {id}",
            a.code_object.display()
        );
    }
    let program = Program::load(&image, a.kernel.as_deref())
        .with_context(|| a.code_object.display().to_string())?;
    let explicit: Vec<_> = dispatch::abi::explicit_args(&program.meta.args).collect();
    let args = dispatch::args::parse(explicit.iter().copied(), &a.args)?;
    let block = resolve_block(&program.meta, a.grid, a.block)?;
    let d = Dispatch {
        grid: a.grid,
        block,
        args,
        dynamic_lds: a.dynamic_lds,
    };
    let outcome = match a.backend.as_str() {
        "cpu" => dispatch::run_cpu(&program, &d)?,
        "hip" => dispatch::run_hip(&image, &program, &d)?,
        b if b == "vulkan" || b.starts_with("vulkan:") => {
            let which = b.strip_prefix("vulkan:");
            let selector = crate::vulkan::DeviceSelector::parse(which)?;
            let mut exec = crate::vulkan::Executor::open(&selector)?;
            dispatch::run_vulkan(&mut exec, &program, &d)?
        }
        b => anyhow::bail!("unknown backend `{b}` (cpu, vulkan[:driver], hip)"),
    };
    std::fs::create_dir_all(&a.output)
        .with_context(|| format!("creating {}", a.output.display()))?;
    let mut buffers = Vec::new();
    let mut contents: Vec<(u32, String, &[u32])> = Vec::new();
    for (i, ((m, v), place)) in explicit
        .iter()
        .zip(&d.args)
        .zip(&outcome.layout.buffers)
        .enumerate()
    {
        let (ArgValue::Buffer(_), Some((at, n))) = (v, place) else {
            continue;
        };
        let name = m.name.clone().unwrap_or_else(|| format!("arg{i}"));
        let words = &outcome.mem[*at as usize / 4..(*at + *n) as usize / 4];
        contents.push((i as u32, name.clone(), words));
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        super::assemble::write_atomically(&a.output.join(format!("{name}.bin")), &bytes)?;
        buffers.push(BufferOut {
            name,
            bytes: *n,
            sha256: hex(&Sha256::digest(&bytes)),
        });
    }
    let manifest = Manifest {
        code_object: a.code_object.display().to_string(),
        code_object_sha256: hex(&Sha256::digest(&image)),
        kernel: program.meta.name.clone(),
        target: program.target.name().to_string(),
        wave: program.wave.lanes(),
        grid: d.grid,
        block: d.block,
        backend: a.backend.clone(),
        waves: outcome.waves,
        buffers,
        errors: outcome.errors.clone(),
        pipelines: outcome.compiled.clone(),
    };
    write_rows(
        &a.output.join("buffers.csv"),
        &manifest,
        &program,
        &contents,
    )?;
    let json = serde_json::to_vec_pretty(&manifest)?;
    super::assemble::write_atomically(&a.output.join("dispatch.json"), &json)?;
    for e in &outcome.errors {
        note!("rdnaprobe: kernel {}: {e}", manifest.kernel);
    }
    for c in &outcome.compiled {
        note!(
            "pipeline: {} RDNA2 instructions, {} SPIR-V instructions ({:.1} per RDNA2 \
             instruction), created in {:.0} ms (a driver may compile at the first dispatch \
             instead, as lavapipe does: that time is in the dispatch, not here)",
            c.rdna2_instructions,
            c.spirv_instructions,
            c.spirv_instructions as f64 / c.rdna2_instructions.max(1) as f64,
            c.create_ms
        );
    }
    note!(
        "dispatch: {} on {}: {} waves, {} buffers in {}",
        manifest.kernel,
        a.backend,
        outcome.waves,
        manifest.buffers.len(),
        a.output.display()
    );
    Ok(if outcome.errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Writes the buffers after the dispatch as a replay output at `path` (schema v1 with
/// `backend` and `status`, and its manifest), so that two backends' dispatches diff, report
/// and store as rows do. One row per 16 dwords of a buffer: `instruction` `dispatch KERNEL
/// NAME[FIRST..END]` (dwords), `encoding` `n/a`, the kernel's wave size and float mode, `in0`
/// the argument's index and `in1` the row's first byte in the buffer (together the row's key),
/// `out0..out15` the dwords (a short last row leaves the rest empty), `gfx` the code object's
/// target, `source` the code object and its SHA-256, `note` the grid and block. Every row's
/// status is `ok`, or `error:` with the first wave error when a wave did not end normally.
fn write_rows(
    path: &std::path::Path,
    m: &Manifest,
    program: &Program,
    buffers: &[(u32, String, &[u32])],
) -> anyhow::Result<()> {
    use rdnaprobe_dataset::{AtomicFile, ReplayWriter, Row};
    let status = match m.errors.first() {
        None => rdnaprobe_dataset::Status::Ok,
        Some(e) => {
            rdnaprobe_dataset::Status::Error(format!("{} waves did not end: {e}", m.errors.len()))
        }
    };
    let mut file = AtomicFile::create(path)?;
    let mut w = ReplayWriter::new(&mut file, path.display().to_string(), &[])?;
    let [gx, gy, gz] = m.grid;
    let [bx, by, bz] = m.block;
    for (arg, name, words) in buffers {
        for (k, chunk) in words.chunks(16).enumerate() {
            let first = 16 * k;
            let mut outputs = [None; 16];
            for (o, &v) in outputs.iter_mut().zip(chunk) {
                *o = Some(v);
            }
            let row = Row {
                instruction: format!(
                    "dispatch {} {name}[{first}..{}]",
                    m.kernel,
                    first + chunk.len()
                ),
                encoding: Vec::new(),
                wave: Some(m.wave),
                mode: rdnaprobe_dataset::ModeCells::stated(&program.mode),
                inputs: [*arg, 4 * first as u32, 0, 0, 0, 0],
                outputs,
                gfx: m.target.clone(),
                source: format!("{} sha256:{}", m.code_object, m.code_object_sha256),
                note: format!("grid {gx},{gy},{gz} block {bx},{by},{bz}"),
                extra: Vec::new(),
            };
            w.write(&row, outputs, &m.backend, &status)?;
        }
    }
    let rows = w.rows();
    w.finish()?;
    file.commit()?;
    let producer = rdnaprobe_dataset::ManifestProducer {
        backend: m.backend.clone(),
        gfx: Some(m.target.clone()),
        rdnaprobe_version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: rdnaprobe_dataset::git_commit(),
        ..Default::default()
    };
    let sha = rdnaprobe_dataset::sha256_file(path)?;
    let mut manifest = rdnaprobe_dataset::Manifest::new_v1(path, producer, rows, sha);
    manifest.generator = format!(
        "rdnaprobe dispatch: the buffers of {} after the run",
        m.kernel
    );
    manifest.write(&rdnaprobe_dataset::manifest_path(path))?;
    Ok(())
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(
        reqd: Option<[u32; 3]>,
        max_flat: Option<u32>,
    ) -> rdnaprobe_oracle::metadata::KernelMeta {
        let mut v = serde_json::json!({
            ".name": "k", ".symbol": "k.kd", ".kernarg_segment_size": 0, ".wavefront_size": 32,
        });
        if let Some(r) = reqd {
            v[".reqd_workgroup_size"] = serde_json::json!(r);
        }
        if let Some(m) = max_flat {
            v[".max_flat_workgroup_size"] = serde_json::json!(m);
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn block_defaults_to_and_must_equal_the_required_size() {
        let m = meta(Some([128, 1, 1]), Some(128));
        assert_eq!(resolve_block(&m, [256, 1, 1], None).unwrap(), [128, 1, 1]);
        assert_eq!(
            resolve_block(&m, [256, 1, 1], Some([128, 1, 1])).unwrap(),
            [128, 1, 1]
        );
        let e = resolve_block(&m, [256, 1, 1], Some([64, 1, 1])).unwrap_err();
        assert!(
            e.to_string().contains("built for workgroups of 128,1,1"),
            "{e}"
        );
        let e = resolve_block(&m, [192, 1, 1], None).unwrap_err();
        assert!(e.to_string().contains("not a multiple of 128"), "{e}");
    }

    #[test]
    fn block_limits_and_missing_block() {
        let e = resolve_block(&meta(None, None), [64, 1, 1], None).unwrap_err();
        assert!(e.to_string().contains("--block is needed"), "{e}");
        let e = resolve_block(&meta(None, None), [4096, 1, 1], Some([2048, 1, 1])).unwrap_err();
        assert!(e.to_string().contains("gfx10 allows 1024"), "{e}");
        let e = resolve_block(&meta(None, Some(256)), [512, 1, 1], Some([512, 1, 1])).unwrap_err();
        assert!(
            e.to_string().contains("max_flat_workgroup_size is 256"),
            "{e}"
        );
        // A grid smaller than a block runs one partial workgroup (HSA), with a warning only.
        assert_eq!(
            resolve_block(&meta(None, None), [4, 1, 1], Some([64, 1, 1])).unwrap(),
            [64, 1, 1]
        );
    }
}
