//! Reference digest stores: the per-block digests ([`super::digest`]) of a trusted run (the CPU
//! model, or any backend one trusts), saved so that later runs check a candidate against them
//! instead of computing the reference again.
//!
//! A store is a directory. Each (body, mode, generator) has two files named by its key, the
//! SHA-256 of the key's JSON: `KEY.json` (the key: body words, the mode, wave, target, input
//! generators, the live output dwords and [`SEMANTICS_VERSION`]) and `KEY.digests` (one hex
//! block digest per line, blocks in row order). Anything that changes the rows or their
//! outputs changes the key, so a stale store is never consulted: it is simply not found.
//!
//! A third file, `KEY.dhash`, holds the blocks' device hashes ([`super::dhash`], 16 hex digits
//! a line). Stores written before it existed lack it and still serve, through the host path.
//!
//! `exhaustive --against-digests DIR` hashes the candidate's blocks and compares: a block whose
//! digest matches is all exact without the reference being computed; a block that differs is
//! computed by the reference and diffed row by row. A Vulkan candidate, where the store has
//! device hashes, hashes its blocks on the device and reads back only the differing blocks.

use std::path::{Path, PathBuf};

use anyhow::Context;
use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::digest::{to_hex, DIGEST_ROWS};
use super::Plan;

/// Version of the recompiler's semantics that stored reference digests belong to. Raise it
/// when the lowering or the CPU model changes any result bit, so that older stores are not
/// used as the reference.
pub const SEMANTICS_VERSION: u32 = 1;

/// Hex digits of one block digest.
const HEX_LEN: usize = 64;

/// A digest store directory.
#[derive(Clone, Debug)]
pub struct DigestStore {
    pub dir: PathBuf,
}

/// The block digests of one mode, concatenated hex (64 characters a block).
pub type ModeDigests = Vec<u8>;

/// Hex digits of one device block hash.
const DHASH_LEN: usize = 16;

impl DigestStore {
    pub fn new(dir: &Path) -> DigestStore {
        DigestStore {
            dir: dir.to_path_buf(),
        }
    }

    /// The key of `mode` of `plan` (digests of the `live` output dwords): its JSON and hex name.
    pub fn key(plan: &Plan, mode: usize, live: &[usize]) -> (serde_json::Value, String) {
        let json = serde_json::json!({
            "format": "rdnaprobe reference digests v1",
            "semantics_version": SEMANTICS_VERSION,
            "words": plan.words.iter().map(|w| format!("{w:#010x}")).collect::<Vec<_>>(),
            "mode": serde_json::to_value(plan.modes[mode]).unwrap_or_default(),
            "wave": plan.wave.lanes(),
            "gfx": plan.gfx.to_string(),
            "inputs": plan.inputs.describe(),
            "rows": plan.inputs.rows(),
            "block_rows": DIGEST_ROWS,
            "live_dwords": live,
        });
        let name = to_hex(&Sha256::digest(json.to_string().as_bytes()));
        (json, name)
    }

    /// Every mode's digests (the modes' files read in parallel); an error names the first
    /// mode the store lacks.
    pub fn load(&self, plan: &Plan, live: &[usize]) -> anyhow::Result<Vec<ModeDigests>> {
        let blocks = plan.inputs.rows().div_ceil(DIGEST_ROWS as u64) as usize;
        (0..plan.modes.len())
            .into_par_iter()
            .map(|mode| {
                let (_, name) = Self::key(plan, mode, live);
                let path = self.dir.join(format!("{name}.digests"));
                let bytes = std::fs::read(&path).with_context(|| {
                    format!(
                        "{}: no reference digests for mode {} of this body and generator \
                         (save them with --save-digests)",
                        path.display(),
                        super::spec::mode_text(&plan.modes[mode])
                    )
                })?;
                if let Some(out) = fixed_lines(&bytes, HEX_LEN, blocks, |line| {
                    line.iter().all(u8::is_ascii_hexdigit).then_some(line)
                }) {
                    return Ok(out.concat());
                }
                // Not in the form `save` writes: find the line to report.
                let text = String::from_utf8_lossy(&bytes);
                let mut out = Vec::with_capacity(blocks * HEX_LEN);
                for (n, line) in text.lines().enumerate() {
                    anyhow::ensure!(
                        line.len() == HEX_LEN && line.bytes().all(|b| b.is_ascii_hexdigit()),
                        "{}:{}: not a hex SHA-256 block digest",
                        path.display(),
                        n + 1
                    );
                    out.extend_from_slice(line.as_bytes());
                }
                anyhow::ensure!(
                    out.len() == blocks * HEX_LEN,
                    "{}: {} block digests, the run has {blocks}",
                    path.display(),
                    out.len() / HEX_LEN
                );
                Ok(out)
            })
            .collect()
    }

    /// Every mode's device block hashes, or `None` when the store has none for some mode (a
    /// store written before they existed); a malformed file is an error.
    pub fn load_dhash(&self, plan: &Plan, live: &[usize]) -> anyhow::Result<Option<Vec<Vec<u64>>>> {
        let blocks = plan.inputs.rows().div_ceil(DIGEST_ROWS as u64) as usize;
        let all: Vec<Option<Vec<u64>>> = (0..plan.modes.len())
            .into_par_iter()
            .map(|mode| {
                let (_, name) = Self::key(plan, mode, live);
                let path = self.dir.join(format!("{name}.dhash"));
                let Ok(bytes) = std::fs::read(&path) else {
                    return Ok(None);
                };
                if let Some(out) = fixed_lines(&bytes, DHASH_LEN, blocks, parse_hex_u64) {
                    return Ok(Some(out));
                }
                let text = String::from_utf8_lossy(&bytes);
                let mut out = Vec::with_capacity(blocks);
                for (n, line) in text.lines().enumerate() {
                    let h = (line.len() == DHASH_LEN)
                        .then(|| u64::from_str_radix(line, 16).ok())
                        .flatten();
                    let Some(h) = h else {
                        anyhow::bail!(
                            "{}:{}:1: not a 16-digit hex device hash",
                            path.display(),
                            n + 1
                        );
                    };
                    out.push(h);
                }
                anyhow::ensure!(
                    out.len() == blocks,
                    "{}: {} device hashes, the run has {blocks} blocks",
                    path.display(),
                    out.len()
                );
                Ok(Some(out))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(all.into_iter().collect())
    }

    /// Writes every mode's digests (atomically per file), and their device hashes when given.
    pub fn save(
        &self,
        plan: &Plan,
        live: &[usize],
        digests: &[ModeDigests],
        dhash: Option<&[Vec<u64>]>,
    ) -> anyhow::Result<()> {
        std::fs::create_dir_all(&self.dir)
            .with_context(|| format!("creating {}", self.dir.display()))?;
        for (mode, d) in digests.iter().enumerate() {
            let (json, name) = Self::key(plan, mode, live);
            let mut text = String::with_capacity(d.len() + d.len() / HEX_LEN);
            for block in d.chunks(HEX_LEN) {
                text.push_str(std::str::from_utf8(block).context("digest text")?);
                text.push('\n');
            }
            let mut files = vec![
                (
                    format!("{name}.json"),
                    serde_json::to_string_pretty(&json)? + "\n",
                ),
                (format!("{name}.digests"), text),
            ];
            if let Some(h) = dhash.and_then(|h| h.get(mode)) {
                let text: String = h.iter().map(|h| format!("{h:016x}\n")).collect();
                files.push((format!("{name}.dhash"), text));
            }
            for (file, body) in files {
                let path = self.dir.join(&file);
                let mut f = rdnaprobe_dataset::AtomicFile::create(&path)?;
                std::io::Write::write_all(&mut f, body.as_bytes())
                    .with_context(|| format!("writing {}", path.display()))?;
                f.commit()?;
            }
        }
        Ok(())
    }
}

/// `count` lines of `width` bytes, each followed by `\n` (the form [`DigestStore::save`]
/// writes), each mapped by `parse`; `None` when the bytes are not exactly that.
fn fixed_lines<'a, T>(
    bytes: &'a [u8],
    width: usize,
    count: usize,
    parse: impl Fn(&'a [u8]) -> Option<T>,
) -> Option<Vec<T>> {
    if bytes.len() != count * (width + 1) {
        return None;
    }
    bytes
        .chunks_exact(width + 1)
        .map(|line| match line.split_last() {
            Some((b'\n', text)) => parse(text),
            _ => None,
        })
        .collect()
}

/// Sixteen hex digits (either case) as a u64.
fn parse_hex_u64(text: &[u8]) -> Option<u64> {
    text.iter().try_fold(0u64, |acc, &c| {
        let d = (c as char).to_digit(16)?;
        Some(acc << 4 | u64::from(d))
    })
}

/// The stored digest of block `block` (counted from the mode's first row), if the store has it.
pub fn stored(d: &ModeDigests, block: usize) -> Option<&[u8]> {
    stored_blocks(d, block, 1)
}

/// The stored digests of `count` blocks from `first`, one run of hex text, if the store has
/// them all.
pub fn stored_blocks(d: &ModeDigests, first: usize, count: usize) -> Option<&[u8]> {
    d.get(first * HEX_LEN..(first + count) * HEX_LEN)
}
