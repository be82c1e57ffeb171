//! Image sweeps: a sweep spec with an `[image]` table (docs/sweeps.md, "Image sweeps") makes a
//! wave dataset. The spec's inputs and modes give the lanes' rows as for any sweep; they are
//! cut into waves, and each wave is repeated for every variant of the image table: each image
//! format, each DMASK and op the body's `{dmask}` and `{op}` name (`{vdata}`: the VGPRs from
//! v10 that the DMASK writes), and each sampler state.
//! Every wave gets the T# (linear, at the start of its memory region) in s[8:15], the S# in
//! s[0:3] and the texels in `mem_in` (seeded random bytes, or a gradient), and its body begins
//! with the relocation every image wave of the project uses: the region's address (s[16:17])
//! added to the T#'s base, so the rows hold for any region address (docs/dataset-format.md,
//! Images). The rows carry no outputs: `sweep` replays them on the backend it is given.

use anyhow::{bail, Context};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rdnaprobe_dataset::{Dataset, Row};
use serde::{Deserialize, Serialize};

use super::spec::Sweep;

/// The `[image]` table of a sweep spec.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageSpec {
    /// The T#'s TYPE: `1d`, `2d`, `3d`, `cube`, `1d_array` or `2d_array`.
    #[serde(rename = "type")]
    pub ty: String,
    /// Width, height (1 if left out), then depth (3D) or layers (arrays, cube faces).
    pub size: Vec<u32>,
    /// Image formats (T# word1 FORMAT), one variant each.
    pub formats: Vec<u32>,
    /// Levels in the T# (MAX_MIP + 1, LAST_LEVEL MAX_MIP); default 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub levels: Option<u32>,
    /// Values of `{dmask}` in the body, one variant each (default: the body has none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dmask: Vec<u32>,
    /// Mnemonics for `{op}` in the body, one variant each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<String>,
    /// The texels: `random` (bytes from ChaCha8 seeded with `seed`) or `gradient` (byte k of
    /// the image is k mod 251).
    #[serde(default = "random")]
    pub texels: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    /// Sampler states (S#), one variant each; default one: point filtering, clamp to the last
    /// texel.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sampler: Vec<SamplerSpec>,
}

fn random() -> String {
    "random".into()
}

/// One S#, by its fields (after Mesa's `sid.h` register definitions).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerSpec {
    /// `point` (default) or `bilinear` (XY_MAG_FILTER and XY_MIN_FILTER).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<String>,
    /// CLAMP_X/Y/Z: `wrap`, `mirror`, `clamp` (default: clamp to the last texel),
    /// `mirror_once`, `border`, `mirror_once_border`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clamp: Option<String>,
    /// BORDER_COLOR_TYPE: 0 transparent black, 1 opaque black, 2 opaque white.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub border: Option<u32>,
    /// DEPTH_COMPARE_FUNC 0..7 (never, <, ==, <=, >, !=, >=, always).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compare: Option<u32>,
    /// FORCE_UNNORMALIZED.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unnormalized: Option<bool>,
    /// MIP_FILTER `none` (default), `point` or `linear` (trilinear), with MAX_LOD (levels, 4.8
    /// fixed point).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mip: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lod: Option<f64>,
    /// DISABLE_CUBE_WRAP: a cube's faces filtered one by one (default false: across edges).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disable_cube_wrap: Option<bool>,
}

impl SamplerSpec {
    /// The four S# words.
    fn words(&self, i: usize) -> anyhow::Result<[u32; 4]> {
        let what = |f: &str| format!("image.sampler[{i}].{f}");
        let clamp = match self.clamp.as_deref().unwrap_or("clamp") {
            "wrap" => 0,
            "mirror" => 1,
            "clamp" => 2,
            "mirror_once" => 3,
            "border" => 6,
            "mirror_once_border" => 7,
            other => bail!("{}: `{other}` is not an addressing mode", what("clamp")),
        };
        let filter = match self.filter.as_deref().unwrap_or("point") {
            "point" => 0,
            "bilinear" => 1,
            other => bail!("{}: `{other}`: point or bilinear", what("filter")),
        };
        let mip = match self.mip.as_deref().unwrap_or("none") {
            "none" => 0,
            "point" => 1,
            "linear" => 2,
            other => bail!("{}: `{other}`: none, point or linear", what("mip")),
        };
        let border = self.border.unwrap_or(0);
        if border > 2 {
            bail!("{}: {border}: 0, 1 or 2", what("border"));
        }
        let compare = self.compare.unwrap_or(0);
        if compare > 7 {
            bail!("{}: {compare}: 0..7", what("compare"));
        }
        let max_lod = self.max_lod.unwrap_or(0.0);
        if !(0.0..=15.0).contains(&max_lod) {
            bail!("{}: {max_lod}: 0 to 15 levels", what("max_lod"));
        }
        let max_lod = (max_lod * 256.0).round() as u32;
        let unnorm = u32::from(self.unnormalized.unwrap_or(false));
        let cube = u32::from(self.disable_cube_wrap.unwrap_or(false));
        Ok([
            clamp | clamp << 3 | clamp << 6 | compare << 12 | unnorm << 15 | cube << 28,
            max_lod << 12,
            filter << 20 | filter << 22 | mip << 26,
            border << 30,
        ])
    }
}

/// The relocation before every image body: s[40:41] = region >> 8, added to the T#'s
/// 256-byte base in s[8:9].
const RELOCATE: &str =
    "s_lshr_b64 s[40:41], s[16:17], 8\ns_add_u32 s8, s8, s40\ns_addc_u32 s9, s9, s41\n";

/// T# TYPE codes.
fn type_code(ty: &str) -> anyhow::Result<u32> {
    Ok(match ty {
        "1d" => 8,
        "2d" => 9,
        "3d" => 10,
        "cube" => 11,
        "1d_array" => 12,
        "2d_array" => 13,
        other => bail!("image.type `{other}`: 1d, 2d, 3d, cube, 1d_array or 2d_array"),
    })
}

/// A linear T# of `fmt` at region byte 0 (the body relocates it).
fn tsharp(image: &ImageSpec, fmt: u32) -> anyhow::Result<[u32; 8]> {
    let ty = type_code(&image.ty)?;
    let dim = |k: usize| image.size.get(k).copied().unwrap_or(1);
    let (w, h, d) = (dim(0), dim(1), dim(2));
    if image.size.is_empty() || image.size.len() > 3 || w == 0 || h == 0 || d == 0 {
        bail!(
            "image.size {:?}: width[, height[, depth or layers]], each >= 1",
            image.size
        );
    }
    if w > 16384 || h > 16384 || d > 8192 {
        bail!("image.size {:?}: past the T#'s fields", image.size);
    }
    let levels = image.levels.unwrap_or(1);
    if !(1..=15).contains(&levels) {
        bail!("image.levels {levels}: 1..15");
    }
    let max_mip = levels - 1;
    // DEPTH: depth - 1 of a 3D image, the last layer of an array or cube
    let depth = if ty == 9 || ty == 8 { 0 } else { d - 1 };
    Ok([
        0,
        fmt << 20 | ((w - 1) & 3) << 30,
        (w - 1) >> 2 | (h - 1) << 14,
        0xfac | max_mip << 16 | ty << 28,
        depth,
        max_mip << 4,
        0,
        0,
    ])
}

/// The texels: `bytes` bytes as `mem_in` dwords.
fn texels(image: &ImageSpec, bytes: u64, fmt: u32) -> anyhow::Result<Vec<u32>> {
    let n = usize::try_from(bytes.div_ceil(4))?;
    Ok(match image.texels.as_str() {
        "random" => {
            let seed = image
                .seed
                .context("image.texels = \"random\" needs image.seed (recorded in the manifest)")?;
            // one stream per format, so adding a format leaves the others' texels alone
            let mut rng = ChaCha8Rng::seed_from_u64(seed ^ u64::from(fmt) << 32);
            (0..n).map(|_| rng.next_u32()).collect()
        }
        "gradient" => (0..n)
            .map(|i| {
                let b = |k: usize| ((4 * i + k) % 251) as u32;
                b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24
            })
            .collect(),
        other => bail!("image.texels `{other}`: random or gradient"),
    })
}

fn hex_list(words: &[u32]) -> String {
    words
        .iter()
        .map(|w| format!("0x{w:08x}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `words` with the DMASK of every MIMG instruction set to `dmask`.
fn set_dmask(words: &[u32], dmask: u32) -> anyhow::Result<Vec<u32>> {
    let mut out = words.to_vec();
    let mut at = 0;
    for d in rdnaprobe_isa::decode_stream(words).map_err(|e| anyhow::anyhow!("{e}"))? {
        if let rdnaprobe_isa::Decoded::Inst(i) = &d {
            if i.encoding() == rdnaprobe_isa::Encoding::MIMG {
                out[at] = out[at] & !0xf00 | dmask << 8;
            }
        }
        at += d.len();
    }
    Ok(out)
}

/// The wave columns an image sweep's rows carry after the v1 columns.
pub const COLUMNS: [&str; 5] = ["wave_id", "lane", "s_in", "mem_in", "mem_bytes"];

/// The variants of `image`: (op, dmask) pairs of the body's placeholders.
fn body_variants(
    image: &ImageSpec,
    asm: &str,
) -> anyhow::Result<Vec<(Option<String>, Option<u32>)>> {
    let has_op = asm.contains("{op}");
    let has_dmask = asm.contains("{dmask}");
    if has_op == image.ops.is_empty() {
        bail!("image.ops and the body's `{{op}}` go together");
    }
    if has_dmask == image.dmask.is_empty() {
        bail!("image.dmask and the body's `{{dmask}}` go together");
    }
    if let Some(m) = image.dmask.iter().find(|&&m| m == 0 || m > 0xf) {
        bail!("image.dmask {m:#x}: 0x1..0xf");
    }
    let ops: Vec<Option<String>> = if has_op {
        image.ops.iter().cloned().map(Some).collect()
    } else {
        vec![None]
    };
    let masks: Vec<Option<u32>> = if has_dmask {
        image.dmask.iter().copied().map(Some).collect()
    } else {
        vec![None]
    };
    Ok(ops
        .iter()
        .flat_map(|o| masks.iter().map(move |m| (o.clone(), *m)))
        .collect())
}

/// The rows of an image sweep: every wave of the lanes (in the order of `sweep`'s rows, cut
/// at each mode change and every `wave` lanes) for each format, body variant and sampler,
/// formats outermost. `assemble` turns the body's text into words.
pub fn dataset(
    sweep: &Sweep,
    assemble: &dyn Fn(&str) -> anyhow::Result<Vec<u32>>,
) -> anyhow::Result<Dataset> {
    let image = sweep
        .spec
        .image
        .as_ref()
        .context("the spec has no [image] table")?;
    let asm = sweep
        .spec
        .body
        .asm
        .as_deref()
        .context("an image sweep's body is `asm` (its `{op}` and `{dmask}` are filled in)")?;
    if image.formats.is_empty() {
        bail!("image.formats is empty");
    }
    let total = total_rows(sweep);
    if total > MAX_ROWS {
        bail!(
            "the image sweep makes {total} rows, more than the {MAX_ROWS} rows one dataset holds \
             (every wave carries its texels): split the spec"
        );
    }
    let samplers = if image.sampler.is_empty() {
        vec![SamplerSpec::default()]
    } else {
        image.sampler.clone()
    };
    let samplers: Vec<[u32; 4]> = samplers
        .iter()
        .enumerate()
        .map(|(i, s)| s.words(i))
        .collect::<anyhow::Result<_>>()?;
    let variants = body_variants(image, asm)?;
    let mut bodies = Vec::new();
    for (op, dmask) in &variants {
        let mut text = asm.to_string();
        if let Some(op) = op {
            text = text.replace("{op}", op);
        }
        // assembled with DMASK 0x1 and `{vdata}` v10 (LLVM's syntax takes one bit for a
        // gather and a data size to match), then the DMASK field (word 0 bits 11:8) of every
        // image instruction set, as the hardware reads it; the text names the VGPRs it uses
        let one = text.replace("{dmask}", "0x1").replace("{vdata}", "v10");
        let words =
            assemble(&format!("{RELOCATE}{one}")).with_context(|| format!("body.asm `{one}`"))?;
        let mut n = dmask.map_or(1, u32::count_ones);
        if text.split_whitespace().any(|w| w == "d16") {
            // D16: two results to a VGPR
            n = n.div_ceil(2);
        }
        let vdata = if n == 1 {
            "v10".to_string()
        } else {
            format!("v[10:{}]", 9 + n)
        };
        text = text.replace("{vdata}", &vdata);
        let words = match dmask {
            Some(m) => {
                text = text.replace("{dmask}", &format!("{m:#x}"));
                set_dmask(&words, *m)?
            }
            None => words,
        };
        bodies.push((text, words));
    }
    // the lanes: the sweep's rows, cut into waves at each mode change and every `wave` lanes
    let mut waves: Vec<Vec<Row>> = Vec::new();
    for i in 0..sweep.total_rows() {
        let row = sweep.row(i);
        let lanes = row.wave.unwrap_or(32) as usize;
        let same = waves.last().is_some_and(|w: &Vec<Row>| {
            w.len() < lanes && w[0].mode == row.mode && w[0].wave == row.wave
        });
        if same {
            waves.last_mut().expect("a wave").push(row);
        } else {
            waves.push(vec![row]);
        }
    }
    let mut rows = Vec::new();
    for &fmt in &image.formats {
        let t = tsharp(image, fmt)?;
        let bytes = rdnaprobe_recompiler::linear_image_bytes(&t)
            .map_err(|e| anyhow::anyhow!("image.formats {fmt}: {e}"))?;
        if bytes > 1 << 20 {
            bail!("image.formats {fmt}: the image takes {bytes} bytes, past a wave's 1 MiB region");
        }
        let mem = texels(image, bytes, fmt)?;
        let mem_in = hex_list(&mem);
        for (b, (text, words)) in bodies.iter().enumerate() {
            for (si, s) in samplers.iter().enumerate() {
                let mut s_in = [0u32; 16];
                s_in[..4].copy_from_slice(s);
                s_in[8..].copy_from_slice(&t);
                let s_in = hex_list(&s_in);
                for (wi, wave) in waves.iter().enumerate() {
                    let id = format!("f{fmt}_b{b}_s{si}_w{wi}");
                    for (lane, lr) in wave.iter().enumerate() {
                        let first = lane == 0;
                        rows.push(Row {
                            instruction: text.clone(),
                            encoding: words.clone(),
                            extra: vec![
                                id.clone(),
                                lane.to_string(),
                                if first { s_in.clone() } else { String::new() },
                                if first { mem_in.clone() } else { String::new() },
                                if first {
                                    (4 * mem.len()).to_string()
                                } else {
                                    String::new()
                                },
                            ],
                            note: format!(
                                "image sweep {}: format {fmt}, sampler {si}",
                                sweep.spec.name
                            ),
                            ..lr.clone()
                        });
                    }
                }
            }
        }
    }
    Ok(Dataset {
        extra_columns: COLUMNS.iter().map(|c| c.to_string()).collect(),
        rows,
    })
}

/// The most rows an image sweep makes: its dataset is built in memory, and every wave carries
/// its texels.
pub const MAX_ROWS: u64 = 1 << 22;

/// The rows [`dataset`] makes, without making them.
pub fn total_rows(sweep: &Sweep) -> u64 {
    let Some(image) = &sweep.spec.image else {
        return sweep.total_rows();
    };
    let bodies = image.ops.len().max(1) * image.dmask.len().max(1);
    let samplers = image.sampler.len().max(1);
    sweep
        .total_rows()
        .saturating_mul((image.formats.len() * bodies * samplers) as u64)
}
