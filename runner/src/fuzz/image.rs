//! Random image sweep specs for `rdnaprobe fuzz --images N` (docs/cli.md, `fuzz`): each spec
//! is an image sweep (docs/sweeps.md, "Image sweeps") of one image op family the software
//! model lowers, on a random T# (type, size, levels, formats), DMASKs, S#s, texels and lanes
//! of coordinates biased to texel centres, edges, past the image and the float specials.
//! [`draw`] is a pure function of the seed and the spec's index (ChaCha8), so the same seed
//! gives the same specs, and the first k specs of a run are those of any longer run.
//!
//! The layout is the image sweeps': the T# in s[8:15], the S# in s[0:3], the address VGPRs
//! from v4 (the inputs in0..), the data from v10 (`{vdata}`; a store's and an atomic's data
//! are moved there from the inputs after the address).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::sweep::image::{ImageSpec, SamplerSpec};
use crate::sweep::spec::{BodySpec, Combine, InputSpec, ModeLists, SpecFile};

/// The image formats drawn (T# FORMAT): 8, 16, 32 bits of one component in every number
/// format the model converts, two- and four-component formats, the sRGB ones.
pub const FORMATS: [u32; 20] = [
    1, 2, 4, 5, 6, 7, 8, 13, 14, 20, 21, 22, 29, 56, 60, 62, 64, 71, 128, 130,
];

/// The formats an image atomic works on (32_UINT/SINT/FLOAT, 32_32_UINT/SINT/FLOAT).
const ATOMIC_FORMATS: [u32; 6] = [20, 21, 22, 62, 63, 64];

/// The formats a sample filters (not UINT or SINT).
const FILTERED_FORMATS: [u32; 14] = [1, 2, 4, 7, 8, 13, 14, 22, 29, 56, 64, 71, 128, 130];

/// The formats the model stores to (not 16-bit float, scaled or sRGB).
const STORE_FORMATS: [u32; 14] = [1, 2, 5, 6, 7, 8, 14, 20, 21, 22, 56, 60, 62, 64];

/// The one-component formats a compare sample reads.
const COMPARE_FORMATS: [u32; 8] = [1, 2, 7, 8, 13, 20, 22, 128];

/// The most lanes one spec's inputs make (before the image variants).
const MAX_LANES: usize = 96;

/// The image op families drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    SampleLz,
    SampleL,
    Sample,
    SampleCLz,
    Gather4Lz,
    Load,
    LoadMip,
    Store,
    Resinfo,
    AtomicAdd,
}

impl Family {
    pub const ALL: [Family; 10] = [
        Family::SampleLz,
        Family::SampleL,
        Family::Sample,
        Family::SampleCLz,
        Family::Gather4Lz,
        Family::Load,
        Family::LoadMip,
        Family::Store,
        Family::Resinfo,
        Family::AtomicAdd,
    ];

    pub fn mnemonic(self) -> &'static str {
        match self {
            Family::SampleLz => "image_sample_lz",
            Family::SampleL => "image_sample_l",
            Family::Sample => "image_sample",
            Family::SampleCLz => "image_sample_c_lz",
            Family::Gather4Lz => "image_gather4_lz",
            Family::Load => "image_load",
            Family::LoadMip => "image_load_mip",
            Family::Store => "image_store",
            Family::Resinfo => "image_get_resinfo",
            Family::AtomicAdd => "image_atomic_add",
        }
    }

    /// Whether the op reads an S# (s[0:3]).
    pub fn samples(self) -> bool {
        matches!(
            self,
            Family::SampleLz
                | Family::SampleL
                | Family::Sample
                | Family::SampleCLz
                | Family::Gather4Lz
        )
    }

    /// The T# types drawn for the op (a cube for the samples whose LOD no derivative sets).
    fn types(self) -> &'static [&'static str] {
        match self {
            Family::Gather4Lz => &["2d", "cube"],
            Family::Sample => &["1d", "2d", "2d_array"],
            f if f.samples() => &["1d", "2d", "2d_array", "cube"],
            _ => &["1d", "2d", "2d_array", "3d"],
        }
    }

    /// Whether the op may carry A16 (f16 addresses) and D16 (f16 results): the float samples
    /// and gathers (rule image-sample-a16-d16).
    fn half_forms(self) -> bool {
        matches!(
            self,
            Family::SampleLz | Family::SampleL | Family::Sample | Family::Gather4Lz
        )
    }

    /// Whether the op reads more than level 0 (the spec then gets 1..=3 levels).
    fn uses_levels(self) -> bool {
        matches!(
            self,
            Family::SampleL | Family::Sample | Family::LoadMip | Family::Resinfo
        )
    }
}

/// Components of a format of [`FORMATS`] (or an atomic's).
pub fn components(fmt: u32) -> u32 {
    match fmt {
        14..=19 | 23..=29 | 62..=64 => 2,
        56..=61 | 65..=71 | 75..=77 | 130 => 4,
        _ => 1,
    }
}

/// The DIM's name after `SQ_RSRC_IMG_` and its coordinate count.
fn dim(ty: &str) -> (&'static str, usize) {
    match ty {
        "1d" => ("1D", 1),
        "2d" => ("2D", 2),
        "3d" => ("3D", 3),
        "cube" => ("CUBE", 3),
        _ => ("2D_ARRAY", 3),
    }
}

/// `vF`, or `v[F:N]` for `n` VGPRs from `first`.
fn vgprs_from(first: usize, n: usize) -> String {
    if n == 1 {
        format!("v{first}")
    } else {
        format!("v[{first}:{}]", first + n - 1)
    }
}

/// What the address VGPRs hold, in order.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Slot {
    /// A sample's coordinate on an axis of `size` texels (`unnorm`: in texels).
    Coord { size: u32, unnorm: bool },
    /// A sample's array layer (of `layers`).
    Layer { layers: u32 },
    /// A cube sample's face coordinate on a face of `size` texels (in [1, 2] on the face).
    FaceCoord { size: u32 },
    /// A cube sample's face, `8 * cube + face` (of `cubes`).
    Face { cubes: u32 },
    /// A sample's explicit LOD.
    Lod,
    /// A compare sample's reference.
    Reference,
    /// A load's or store's integer coordinate on an axis of `size` texels.
    Texel { size: u32 },
    /// A mip level of `levels`.
    Mip { levels: u32 },
    /// Data moved to v10.. (stores, atomics).
    Data,
}

/// Spec `index` of the run seeded `seed`.
pub fn draw(seed: u64, index: u64) -> SpecFile {
    let mut rng =
        ChaCha8Rng::seed_from_u64(seed ^ index.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let rng = &mut rng;
    let family = Family::ALL[rng.gen_range(0..Family::ALL.len())];
    let ty = pick(rng, family.types());
    let (dim_name, coords) = dim(ty);
    let mut size = vec![rng.gen_range(1..=17u32)];
    if ty == "cube" {
        // square faces, whole cubes
        size.push(size[0]);
        size.push(6 * rng.gen_range(1..=2));
    } else {
        if ty != "1d" {
            size.push(rng.gen_range(1..=17));
        }
        if coords == 3 {
            size.push(rng.gen_range(1..=17));
        }
    }
    let levels = if family.uses_levels() {
        rng.gen_range(1..=3u32)
    } else {
        1
    };
    let formats = draw_formats(rng, family);
    let dmask = draw_dmasks(rng, family, &formats);
    let cube = ty == "cube";
    let unnorm = family.samples() && !cube && rng.gen_bool(0.1);
    // A16 and D16 (a quarter of the float samples and gathers each), not with unnormalized
    // coordinates' large texel values
    let a16 = family.half_forms() && !unnorm && rng.gen_bool(0.25);
    let d16 = family.half_forms() && rng.gen_bool(0.25);
    let sampler: Vec<SamplerSpec> = if family.samples() {
        (0..rng.gen_range(1..=2))
            .map(|_| draw_sampler(rng, family, levels, unnorm, cube))
            .collect()
    } else {
        Vec::new()
    };
    // the address VGPRs
    let mut slots = Vec::new();
    if family == Family::SampleCLz {
        slots.push(Slot::Reference);
    }
    for (axis, &n) in size.iter().enumerate() {
        if family.samples() && cube {
            slots.push(if axis == 2 {
                Slot::Face { cubes: n / 6 }
            } else {
                Slot::FaceCoord { size: n }
            });
        } else if family.samples() {
            if ty == "2d_array" && axis == 2 {
                slots.push(Slot::Layer { layers: n });
            } else {
                slots.push(Slot::Coord { size: n, unnorm });
            }
        } else if family != Family::Resinfo {
            slots.push(Slot::Texel { size: n });
        }
    }
    match family {
        Family::SampleL => slots.push(Slot::Lod),
        Family::LoadMip | Family::Resinfo => slots.push(Slot::Mip { levels }),
        _ => {}
    }
    let address = slots.len();
    let mut moves = String::new();
    let data = match family {
        Family::Store => 4,
        Family::AtomicAdd => 2,
        _ => 0,
    };
    let spare = 6 - address;
    for k in 0..data {
        let from = address + k % spare;
        if k < spare {
            slots.push(Slot::Data);
        }
        moves.push_str(&format!("v_mov_b32 v{}, v{}\n", 10 + k, 4 + from));
    }
    // A16: the f32 inputs converted to f16 and packed two to a VGPR from v20 (LLVM's layout
    // for these ops: every address slot is a coordinate, layer, face or LOD), packed by
    // integer ops, which no float mode changes
    let addr_vgprs = if a16 {
        for k in 0..address {
            moves.push_str(&format!(
                "v_cvt_f16_f32 v{0}, v{0}\nv_and_b32 v{0}, 0xffff, v{0}\n",
                4 + k
            ));
        }
        for p in 0..address.div_ceil(2) {
            let lo = 4 + 2 * p;
            if 2 * p + 1 < address {
                moves.push_str(&format!(
                    "v_lshl_or_b32 v{}, v{}, 16, v{lo}\n",
                    20 + p,
                    lo + 1
                ));
            } else {
                moves.push_str(&format!("v_mov_b32 v{}, v{lo}\n", 20 + p));
            }
        }
        vgprs_from(20, address.div_ceil(2))
    } else {
        vgprs_from(4, address)
    };
    let vdata = match family {
        Family::Gather4Lz if d16 => "v[10:11]",
        Family::Gather4Lz => "v[10:13]",
        _ => "{vdata}",
    };
    let half = format!(
        "{}{}",
        if a16 { " a16" } else { "" },
        if d16 { " d16" } else { "" }
    );
    let ssamp = if family.samples() { ", s[0:3]" } else { "" };
    let glc = if family == Family::AtomicAdd && rng.gen_bool(0.6) {
        " glc"
    } else {
        ""
    };
    let asm = format!(
        "{moves}{} {vdata}, {addr_vgprs}, s[8:15]{ssamp} dmask:{{dmask}} dim:SQ_RSRC_IMG_{dim_name}{glc}{half}",
        family.mnemonic(),
    );
    // lanes: a few values per input, at most MAX_LANES in all
    let mut counts: Vec<usize> = slots
        .iter()
        .map(|s| match s {
            Slot::Data => rng.gen_range(1..=2),
            _ => rng.gen_range(2..=5),
        })
        .collect();
    while counts.iter().product::<usize>() > MAX_LANES {
        let (i, _) = counts
            .iter()
            .enumerate()
            .max_by_key(|&(i, c)| (*c, std::cmp::Reverse(i)))
            .expect("an input");
        counts[i] -= 1;
    }
    let mut inputs = std::collections::BTreeMap::new();
    for (k, (slot, &n)) in slots.iter().zip(&counts).enumerate() {
        let mut values: Vec<u32> = Vec::new();
        // distinct values, as far as the slot has them
        for _ in 0..4 * n {
            if values.len() == n {
                break;
            }
            let v = value(rng, *slot);
            if !values.contains(&v) {
                values.push(v);
            }
        }
        let float = matches!(
            slot,
            Slot::Coord { .. }
                | Slot::Layer { .. }
                | Slot::FaceCoord { .. }
                | Slot::Face { .. }
                | Slot::Lod
                | Slot::Reference
        );
        inputs.insert(
            format!("in{k}"),
            InputSpec {
                special: None,
                level: None,
                range: None,
                random: None,
                seed: None,
                values: Some(values.iter().map(|v| format!("0x{v:08x}")).collect()),
                ty: float.then_some(crate::plan::gen::OpType::F32),
            },
        );
    }
    let texels = if rng.gen_bool(0.9) {
        "random"
    } else {
        "gradient"
    };
    let image = ImageSpec {
        ty: ty.into(),
        size: size.clone(),
        formats,
        levels: (levels > 1).then_some(levels),
        dmask,
        ops: Vec::new(),
        texels: texels.into(),
        seed: (texels == "random").then(|| rng.gen_range(0..1u64 << 32)),
        sampler,
    };
    let wave = if rng.gen_bool(0.25) { 64 } else { 32 };
    SpecFile {
        name: format!("fuzz_image_{seed}_{index}"),
        gfx: "gfx1030".into(),
        description: format!(
            "rdnaprobe fuzz --seed {seed} --images: spec {index}, {} on a {ty} image {size:?}",
            family.mnemonic()
        ),
        body: BodySpec {
            words: None,
            asm: Some(asm),
            instruction: None,
        },
        combine: Combine::Cartesian,
        inputs,
        modes: ModeLists {
            wave: Some(vec![wave]),
            ..Default::default()
        },
        image: Some(image),
    }
}

fn pick<T: Copy>(rng: &mut impl Rng, v: &[T]) -> T {
    v[rng.gen_range(0..v.len())]
}

/// 1..=3 distinct formats (most of the time from the op's own list for compares, and for
/// atomics of one width; often those the model filters for samples and stores to for stores).
fn draw_formats(rng: &mut impl Rng, family: Family) -> Vec<u32> {
    let list: &[u32] = match family {
        Family::AtomicAdd if rng.gen_bool(0.85) => {
            if rng.gen_bool(0.5) {
                &ATOMIC_FORMATS[..3]
            } else {
                &ATOMIC_FORMATS[3..]
            }
        }
        Family::SampleCLz if rng.gen_bool(0.8) => &COMPARE_FORMATS,
        Family::Store if rng.gen_bool(0.75) => &STORE_FORMATS,
        f if f.samples() && rng.gen_bool(0.6) => &FILTERED_FORMATS,
        _ => &FORMATS,
    };
    let n = rng.gen_range(1..=3.min(list.len()));
    let mut out: Vec<u32> = Vec::new();
    while out.len() < n {
        let f = pick(rng, list);
        if !out.contains(&f) {
            out.push(f);
        }
    }
    out
}

/// 1..=2 DMASKs the op takes, most of the time ones the model runs on the first format: one
/// bit for a gather, 0x1 (32-bit) or 0x3 (64-bit) for an atomic, 0x1 for a compare, the
/// format's components for a load or a sample, and for a store the data slots the format
/// needs (X; X and W of two components; all four).
fn draw_dmasks(rng: &mut impl Rng, family: Family, formats: &[u32]) -> Vec<u32> {
    if family == Family::AtomicAdd {
        let mut m: Vec<u32> = formats
            .iter()
            .map(|&f| if components(f) == 2 { 3 } else { 1 })
            .collect();
        if rng.gen_bool(0.1) {
            m.push(if m[0] == 1 { 3 } else { 1 });
        }
        m.sort_unstable();
        m.dedup();
        return m;
    }
    if family == Family::SampleCLz && rng.gen_bool(0.9) {
        return vec![1];
    }
    let n = rng.gen_range(1..=2);
    let comps = components(formats[0]);
    let mut out: Vec<u32> = Vec::new();
    for _ in 0..4 * n {
        if out.len() == n {
            break;
        }
        let valid = rng.gen_bool(0.85);
        let m = match family {
            Family::Gather4Lz if valid => 1 << rng.gen_range(0..comps),
            Family::Gather4Lz => 1 << rng.gen_range(0..4),
            Family::Store if valid => {
                let need = match comps {
                    1 => 0x1,
                    2 => 0x9,
                    _ => 0xf,
                };
                need | rng.gen_range(0..16)
            }
            Family::Resinfo => rng.gen_range(1..=15),
            _ if valid => rng.gen_range(1..=(1u32 << comps) - 1),
            _ => rng.gen_range(1..=15),
        };
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

fn draw_sampler(
    rng: &mut impl Rng,
    family: Family,
    levels: u32,
    unnorm: bool,
    cube: bool,
) -> SamplerSpec {
    let clamp = pick(rng, &["wrap", "mirror", "clamp", "mirror_once", "border"]);
    let mip = rng.gen_bool(if levels > 1 { 0.7 } else { 0.2 });
    SamplerSpec {
        filter: Some(pick(rng, &["point", "bilinear"]).into()),
        clamp: Some(clamp.into()),
        border: (clamp == "border").then(|| rng.gen_range(0..=2)),
        compare: (family == Family::SampleCLz).then(|| rng.gen_range(0..=7)),
        unnormalized: unnorm.then_some(true),
        mip: mip.then(|| "point".into()),
        max_lod: mip.then(|| f64::from(rng.gen_range(0..=4 * levels)) / 2.0),
        disable_cube_wrap: (cube && rng.gen_bool(0.5)).then_some(true),
    }
}

/// f32 bits of `x`.
fn f(x: f32) -> u32 {
    x.to_bits()
}

/// The float specials every float address slot draws from.
const FLOAT_SPECIALS: [u32; 10] = [
    0x7fc0_0000, // NaN
    0x7f80_0001, // a signalling NaN
    0xffc0_0000, // -NaN
    0x8000_0000, // -0
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x0000_0001, // the smallest denormal
    0x807f_ffff, // the largest negative denormal
    0x7f7f_ffff, // the largest float
    0x4f80_0000, // 2^32
];

/// One value of an address or data VGPR.
fn value(rng: &mut impl Rng, slot: Slot) -> u32 {
    match slot {
        Slot::Coord { size, unnorm } => {
            let n = size as f32;
            let scale = if unnorm { 1.0 } else { 1.0 / n };
            let i = rng.gen_range(0..=size) as f32;
            match rng.gen_range(0..20) {
                0..=5 => f(((i.min(n - 1.0)) + 0.5) * scale),
                6..=10 => f(i * scale),
                11..=12 => {
                    let v = f(i * scale);
                    if rng.gen_bool(0.5) {
                        v.wrapping_add(1)
                    } else {
                        v.wrapping_sub(1)
                    }
                }
                13..=15 => {
                    let out = pick(rng, &[-0.25f32, -1.0, 1.25, 2.5, -0.5 / n, 1.0 + 0.5 / n]);
                    f(if unnorm { out * n } else { out })
                }
                16..=18 => pick(rng, &FLOAT_SPECIALS),
                _ => f(rng.gen_range(-2.0f32..3.0) * if unnorm { n } else { 1.0 }),
            }
        }
        Slot::Layer { layers } => {
            let k = rng.gen_range(0..=layers) as f32;
            match rng.gen_range(0..10) {
                0..=3 => f(k),
                4..=5 => f(k + 0.5),
                6 => f(k - 0.5),
                7 => f(-1.0),
                _ => pick(rng, &FLOAT_SPECIALS),
            }
        }
        Slot::FaceCoord { size } => {
            // a normalized coordinate moved onto the face's [1, 2]
            let v = value(
                rng,
                Slot::Coord {
                    size,
                    unnorm: false,
                },
            );
            let x = f32::from_bits(v);
            if x.is_finite() && x.abs() < 16.0 {
                f(x + 1.0)
            } else {
                v
            }
        }
        Slot::Face { cubes } => {
            let face = rng.gen_range(0..6) + 8 * rng.gen_range(0..cubes);
            match rng.gen_range(0..10) {
                0..=5 => f(face as f32),
                6 => f(face as f32 + 0.5),
                7 => f(pick(rng, &[6.0f32, 7.0, -1.0, (8 * cubes) as f32])),
                _ => pick(rng, &FLOAT_SPECIALS),
            }
        }
        Slot::Lod => match rng.gen_range(0..10) {
            0..=6 => f(pick(
                rng,
                &[
                    0.0f32, 0.25, 0.4999, 0.5, 0.5001, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, -1.0,
                ],
            )),
            7 => f(rng.gen_range(-1.0f32..4.0)),
            _ => pick(rng, &FLOAT_SPECIALS),
        },
        Slot::Reference => match rng.gen_range(0..10) {
            0..=4 => f(pick(rng, &[0.0f32, 0.25, 0.5, 0.75, 1.0, -0.5, 1.5])),
            5..=7 => f(rng.gen_range(0.0f32..1.0)),
            _ => pick(rng, &FLOAT_SPECIALS),
        },
        Slot::Texel { size } => match rng.gen_range(0..20) {
            0..=11 => rng.gen_range(0..size),
            12..=14 => size + rng.gen_range(0..2),
            15 => size.saturating_sub(1),
            16 => 0xffff_ffff,
            17 => 0x8000_0000,
            18 => rng.gen_range(0..0x1_0000),
            _ => size.wrapping_mul(2),
        },
        Slot::Mip { levels } => match rng.gen_range(0..10) {
            0..=7 => rng.gen_range(0..=levels),
            8 => 15,
            _ => 0xffff_ffff,
        },
        Slot::Data => crate::specials::dword(rng),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assemble(asm: &str) -> anyhow::Result<Vec<u32>> {
        rdnaprobe_isa::assemble(asm).map_err(|e| anyhow::anyhow!("{e}"))
    }

    #[test]
    fn specs_are_seeded_and_every_family_makes_a_dataset() {
        assert_eq!(draw(5, 3), draw(5, 3));
        assert_ne!(draw(5, 3), draw(5, 4));
        assert_ne!(draw(5, 3), draw(6, 3));
        let mut seen = std::collections::BTreeSet::new();
        for i in 0..200 {
            let spec = draw(9, i);
            let op = spec.body.asm.as_deref().unwrap();
            let fam = Family::ALL
                .iter()
                .rev()
                .find(|f| op.contains(&format!("{} ", f.mnemonic())))
                .unwrap();
            seen.insert(*fam);
            let sweep = crate::sweep::spec::Sweep::from_spec(spec.clone(), &assemble)
                .unwrap_or_else(|e| panic!("{spec:?}: {e:#}"));
            assert!(sweep.total_rows() <= MAX_LANES as u64 && sweep.total_rows() > 0);
            let ds = crate::sweep::image::dataset(&sweep, &assemble)
                .unwrap_or_else(|e| panic!("{spec:?}: {e:#}"));
            assert_eq!(
                ds.rows.len() as u64,
                crate::sweep::image::total_rows(&sweep)
            );
            // the spec is written as TOML and read back as it was
            let text = toml::to_string(&spec).unwrap();
            let back: SpecFile = toml::from_str(&text).unwrap();
            assert_eq!(back, spec, "{text}");
        }
        assert_eq!(seen.len(), Family::ALL.len(), "{seen:?}");
        // cubes, A16 and D16 are drawn
        for what in ["IMG_CUBE", " a16", " d16"] {
            let n = (0..200)
                .filter(|&i| draw(9, i).body.asm.unwrap().contains(what))
                .count();
            assert!(n >= 5, "{what}: {n} of 200 specs");
        }
    }
}
