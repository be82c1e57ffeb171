//! What the texture report reads from a body and a wave's SGPRs: the body's first MIMG
//! instruction (which VGPRs it writes, where its T# and S# are), and the fields of the T# and
//! S# that name a group (format, dimensionality, filter, addressing mode, compare function).
//! Field positions are gfx10.3's, as docs/dataset-format.md ("Images") lists them.

use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::{decode_stream, Decoded, DwordType, Family};

/// The body's image instruction, as the report needs it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mimg {
    pub mnemonic: &'static str,
    /// First VGPR of VDATA.
    pub vdata: u32,
    /// Components the instruction returns (0 for a store).
    pub components: u32,
    /// VGPRs the instruction writes from VDATA.
    pub vgprs: u32,
    /// Two 16-bit components per VGPR.
    pub d16: bool,
    /// First SGPR of the T# (SRSRC x 4) and of the S# (SSAMP x 4).
    pub srsrc: u32,
    pub ssamp: u32,
    /// The instruction reads the S# (samples, gathers, image_get_lod).
    pub samples: bool,
    /// A `_c` form (a depth-compare reference): DEPTH_COMPARE_FUNC names the group too.
    pub compare: bool,
    /// The instruction's `unorm` bit (coordinates in texels).
    pub unorm: bool,
    what: Kind,
}

/// How the written VGPRs hold the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Filtered or converted components: floats, or integers for an integer format.
    Converted,
    /// Compare results: 1.0 or 0.0.
    Compare,
    /// Raw texel bits, sizes, atomics' old values.
    Raw,
}

/// The first MIMG instruction of `body`, `None` when it has none (or does not decode).
pub fn find_mimg(body: &[u32]) -> Option<Mimg> {
    let items = decode_stream(body).ok()?;
    items.into_iter().find_map(|d| match d {
        Decoded::Inst(i) if i.info().family == Family::MIMG => {
            let mnemonic = i.info().mnemonic;
            let parts: Vec<&str> = mnemonic.split('_').collect();
            let samples = mnemonic.starts_with("image_sample")
                || mnemonic.starts_with("image_gather")
                || mnemonic == "image_get_lod";
            let compare = samples && parts.contains(&"c");
            let dmask = i.field(Field::Dmask);
            let d16 = i.field(Field::D16) != 0;
            let plain_gather = mnemonic.starts_with("image_gather4") && !mnemonic.ends_with("pck");
            let components = if mnemonic.contains("_store") {
                0
            } else if plain_gather {
                4
            } else if mnemonic == "image_get_lod" {
                2
            } else {
                dmask.count_ones().max(1)
            };
            let vgprs = if d16 {
                components.div_ceil(2)
            } else {
                components
            };
            let raw = mnemonic.contains("pck")
                || mnemonic.contains("_by")
                || mnemonic.contains("atomic")
                || mnemonic == "image_get_resinfo";
            let what = if compare {
                Kind::Compare
            } else if raw {
                Kind::Raw
            } else {
                Kind::Converted
            };
            Some(Mimg {
                mnemonic,
                vdata: i.field(Field::Vdata),
                components,
                vgprs,
                d16,
                srsrc: i.field(Field::Srsrc) * 4,
                ssamp: i.field(Field::Ssamp) * 4,
                samples,
                compare,
                unorm: i.field(Field::Unorm) != 0,
                what,
            })
        }
        _ => None,
    })
}

impl Mimg {
    /// The type of each output dword out0..out15 (v10..v25) the instruction writes on an image
    /// of `format`; `None` for the dwords it does not write.
    pub fn output_types(&self, format: u32) -> [Option<DwordType>; 16] {
        let integer = format_info(format).map(|(_, int)| int);
        let ty = match (self.what, integer) {
            (Kind::Compare, _) => DwordType::F32,
            (Kind::Raw, _) | (Kind::Converted, Some(true)) => DwordType::Int,
            (Kind::Converted, Some(false)) if self.d16 => DwordType::PackedF16,
            (Kind::Converted, Some(false)) => DwordType::F32,
            (Kind::Converted, None) => DwordType::Unknown,
        };
        let mut out = [None; 16];
        for k in 0..self.vgprs {
            let reg = self.vdata + k;
            if (10..26).contains(&reg) {
                // A d16 result's odd last component fills the low half only.
                let last_half =
                    ty == DwordType::PackedF16 && k + 1 == self.vgprs && self.components % 2 == 1;
                out[(reg - 10) as usize] = Some(if last_half { DwordType::F16Lo } else { ty });
            }
        }
        out
    }
}

/// The group of a wave: the T# and S# fields the report groups rows by.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GroupKey {
    pub op: &'static str,
    /// T# word3 TYPE.
    pub ty: u32,
    /// T# word1 FORMAT.
    pub format: u32,
    /// `None` for instructions that do not read an S#.
    pub sampler: Option<Sampler>,
    /// DEPTH_COMPARE_FUNC of a `_c` form.
    pub compare: Option<u32>,
}

/// The S# fields of a group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Sampler {
    pub mag: u32,
    pub mip: u32,
    pub min: u32,
    pub clamp_x: u32,
    pub clamp_y: u32,
    /// BORDER_COLOR_TYPE, for the addressing modes that use the border colour.
    pub border: Option<u32>,
    /// FORCE_UNNORMALIZED or the instruction's `unorm`.
    pub unnormalized: bool,
    /// DISABLE_CUBE_WRAP (word0 bit 28): a cube's faces filtered one by one.
    pub cube_faces: bool,
}

/// Bits `hi:lo` of `w`.
fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

impl GroupKey {
    /// The group of a wave whose SGPRs before the body are `sgprs` (s0.., missing ones 0).
    pub fn of(m: &Mimg, sgprs: &[u32]) -> GroupKey {
        let s = |k: u32| sgprs.get(k as usize).copied().unwrap_or(0);
        let t = |k: u32| s(m.srsrc + k);
        let sampler = m.samples.then(|| {
            let w = |k: u32| s(m.ssamp + k);
            let clamp_x = bits(w(0), 2, 0);
            Sampler {
                mag: bits(w(2), 21, 20),
                min: bits(w(2), 23, 22),
                mip: bits(w(2), 27, 26),
                clamp_x,
                clamp_y: bits(w(0), 5, 3),
                border: (clamp_x >= 4).then(|| bits(w(3), 31, 30)),
                unnormalized: m.unorm || bits(w(0), 15, 15) != 0,
                cube_faces: bits(w(0), 28, 28) != 0,
            }
        });
        GroupKey {
            op: m.mnemonic,
            ty: bits(t(3), 31, 28),
            format: bits(t(1), 28, 20),
            sampler,
            compare: m.compare.then(|| bits(s(m.ssamp), 14, 12)),
        }
    }

    /// The T# TYPE's name.
    pub fn dim_name(&self) -> String {
        match self.ty {
            8 => "1D".into(),
            9 => "2D".into(),
            10 => "3D".into(),
            11 => "cube".into(),
            12 => "1D array".into(),
            13 => "2D array".into(),
            14 => "2D MSAA".into(),
            15 => "2D MSAA array".into(),
            t => format!("type {t}"),
        }
    }

    pub fn format_name(&self) -> String {
        format_info(self.format).map_or_else(|| format!("format {}", self.format), |(n, _)| n)
    }

    /// `point`, `bilinear`, `bilinear+mip-point`, `trilinear`, ... (`-` without an S#).
    pub fn filter_name(&self) -> String {
        let Some(s) = self.sampler else {
            return "-".into();
        };
        let xy = |f: u32| match f {
            0 => "point",
            1 => "bilinear",
            2 => "aniso-point",
            _ => "aniso-bilinear",
        };
        let mut name = match (s.mag, s.mip) {
            (_, 0) => xy(s.mag).to_string(),
            (_, 1) => format!("{}+mip-point", xy(s.mag)),
            (1, 2) => "trilinear".into(),
            (_, 2) => format!("{}+mip-linear", xy(s.mag)),
            (_, m) => format!("{}+mip-{m}", xy(s.mag)),
        };
        if s.min != s.mag {
            name.push_str(&format!(" (min {})", xy(s.min)));
        }
        name
    }

    /// CLAMP_X's name (and CLAMP_Y's where it differs on an image of 2 or more dimensions), the
    /// border colour of a border mode, and `unnormalized` (`-` without an S#).
    pub fn addressing_name(&self) -> String {
        let Some(s) = self.sampler else {
            return "-".into();
        };
        let mut name = clamp_name(s.clamp_x).to_string();
        if s.clamp_y != s.clamp_x && !matches!(self.ty, 8 | 12) {
            name.push_str(&format!("/y:{}", clamp_name(s.clamp_y)));
        }
        if let Some(b) = s.border {
            name.push_str(match b {
                0 => " (transparent black)",
                1 => " (opaque black)",
                2 => " (opaque white)",
                _ => " (border colour register)",
            });
        }
        if s.unnormalized {
            name.push_str(", unnormalized");
        }
        if s.cube_faces && self.ty == 11 {
            name.push_str(", DISABLE_CUBE_WRAP");
        }
        name
    }

    /// DEPTH_COMPARE_FUNC's name for a `_c` form, `-` otherwise.
    pub fn compare_name(&self) -> String {
        self.compare.map_or_else(
            || "-".into(),
            |c| {
                [
                    "never", "less", "equal", "lequal", "greater", "notequal", "gequal", "always",
                ][(c & 7) as usize]
                    .into()
            },
        )
    }

    /// One line: `image_sample_l 2D 8_UNORM point wrap`.
    pub fn label(&self) -> String {
        let mut s = format!(
            "{} {} {} {} {}",
            self.op,
            self.dim_name(),
            self.format_name(),
            self.filter_name(),
            self.addressing_name()
        );
        if self.compare.is_some() {
            s.push_str(&format!(" compare {}", self.compare_name()));
        }
        s
    }
}

/// CLAMP_X/Y/Z names.
pub fn clamp_name(c: u32) -> &'static str {
    match c {
        0 => "wrap",
        1 => "mirror",
        2 => "clamp",
        3 => "mirror_once",
        4 => "half_border",
        5 => "mirror_once_half_border",
        6 => "border",
        _ => "mirror_once_border",
    }
}

/// The name of image format `code` (T# word1 FORMAT, gfx10's unified formats) and whether
/// its components are integers (UINT, SINT); `None` outside the table.
pub fn format_info(code: u32) -> Option<(String, bool)> {
    const ALL6: &[&str] = &["UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT"];
    const ALL7: &[&str] = &[
        "UNORM", "SNORM", "USCALED", "SSCALED", "UINT", "SINT", "FLOAT",
    ];
    const WIDE: &[&str] = &["UINT", "SINT", "FLOAT"];
    let (first, layout, nums): (u32, &str, &[&str]) = match code {
        1..=6 => (1, "8", ALL6),
        7..=13 => (7, "16", ALL7),
        14..=19 => (14, "8_8", ALL6),
        20..=22 => (20, "32", WIDE),
        23..=29 => (23, "16_16", ALL7),
        30..=36 => (30, "10_11_11", ALL7),
        37..=43 => (37, "11_11_10", ALL7),
        44..=49 => (44, "10_10_10_2", ALL6),
        50..=55 => (50, "2_10_10_10", ALL6),
        56..=61 => (56, "8_8_8_8", ALL6),
        62..=64 => (62, "32_32", WIDE),
        65..=71 => (65, "16_16_16_16", ALL7),
        72..=74 => (72, "32_32_32", WIDE),
        75..=77 => (75, "32_32_32_32", WIDE),
        128 => return Some(("8_SRGB".into(), false)),
        129 => return Some(("8_8_SRGB".into(), false)),
        130 => return Some(("8_8_8_8_SRGB".into(), false)),
        133 => return Some(("5_6_5_UNORM".into(), false)),
        134 => return Some(("1_5_5_5_UNORM".into(), false)),
        135 => return Some(("5_5_5_1_UNORM".into(), false)),
        _ => return None,
    };
    let num = nums[(code - first) as usize];
    Some((format!("{layout}_{num}"), matches!(num, "UINT" | "SINT")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mimg(text: &str) -> Mimg {
        let words = rdnaprobe_isa::assemble(text).expect("assembles");
        find_mimg(&words).expect("a MIMG instruction")
    }

    #[test]
    fn the_first_mimg_instruction_after_the_relocation() {
        let mut words = rdnaprobe_isa::assemble(
            "s_lshr_b64 s[40:41], s[16:17], 8\ns_add_u32 s8, s8, s40\ns_addc_u32 s9, s9, s41",
        )
        .expect("assembles");
        words.extend(
            rdnaprobe_isa::assemble(
                "image_sample_c_lz v12, v[4:6], s[16:23], s[4:7] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            )
            .expect("assembles"),
        );
        let m = find_mimg(&words).expect("found");
        assert_eq!(m.mnemonic, "image_sample_c_lz");
        assert_eq!((m.vdata, m.vgprs, m.srsrc, m.ssamp), (12, 1, 16, 4));
        assert!(m.samples && m.compare);
        let t = m.output_types(1);
        assert_eq!(t[2], Some(DwordType::F32));
        assert_eq!(t.iter().filter(|t| t.is_some()).count(), 1);
        assert!(find_mimg(&rdnaprobe_isa::assemble("v_add_f32 v10, v4, v5").unwrap()).is_none());
    }

    #[test]
    fn written_vgprs_and_their_types() {
        let m =
            mimg("image_sample_l v[10:12], v[4:6], s[8:15], s[0:3] dmask:0xb dim:SQ_RSRC_IMG_2D");
        assert_eq!((m.components, m.vgprs), (3, 3));
        assert!(!m.compare);
        let t = m.output_types(22);
        assert_eq!(
            t[..4],
            [Some(DwordType::F32); 3]
                .into_iter()
                .chain([None])
                .collect::<Vec<_>>()
        );
        // An integer format: compared as integers.
        assert_eq!(m.output_types(20)[0], Some(DwordType::Int));
        // A format outside the table: bits.
        assert_eq!(m.output_types(300)[0], Some(DwordType::Unknown));
        // A gather returns four texels whatever its DMASK; d16 packs two per VGPR.
        let g = mimg(
            "image_gather4_lz v[10:11], v[4:5], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D d16",
        );
        assert_eq!((g.components, g.vgprs), (4, 2));
        assert_eq!(
            g.output_types(1)[..3],
            [Some(DwordType::PackedF16), Some(DwordType::PackedF16), None]
        );
        let odd = mimg(
            "image_sample_lz v[10:11], v[4:5], s[8:15], s[0:3] dmask:0x7 dim:SQ_RSRC_IMG_2D d16",
        );
        assert_eq!(
            odd.output_types(56)[..2],
            [Some(DwordType::PackedF16), Some(DwordType::F16Lo)]
        );
        // Raw texel dwords are integers.
        let raw = mimg("image_load_pck v10, v[4:5], s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_2D");
        assert!(!raw.samples);
        assert_eq!(raw.output_types(22)[0], Some(DwordType::Int));
    }

    #[test]
    fn group_names() {
        let m = mimg("image_sample_l v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D");
        let mut s = [0u32; 16];
        s[9] = 130 << 20;
        s[11] = 13 << 28;
        let key = |s: &[u32; 16]| GroupKey::of(&m, s);
        let k = key(&s);
        assert_eq!(
            (k.dim_name(), k.format_name()),
            ("2D array".into(), "8_8_8_8_SRGB".into())
        );
        assert_eq!(
            (k.filter_name(), k.addressing_name()),
            ("point".into(), "wrap".into())
        );
        assert_eq!(k.compare_name(), "-");
        s[2] = 1 << 20 | 1 << 22 | 2 << 26;
        assert_eq!(key(&s).filter_name(), "trilinear");
        s[2] = 1 << 20 | 1 << 22 | 1 << 26;
        assert_eq!(key(&s).filter_name(), "bilinear+mip-point");
        s[2] = 1 << 26;
        assert_eq!(key(&s).filter_name(), "point+mip-point");
        s[2] = 1 << 20;
        assert_eq!(key(&s).filter_name(), "bilinear (min point)");
        s[0] = 7 | 2 << 3 | 1 << 15;
        s[3] = 1 << 30;
        assert_eq!(
            key(&s).addressing_name(),
            "mirror_once_border/y:clamp (opaque black), unnormalized"
        );
        for (code, name) in [
            (1, "8_UNORM"),
            (2, "8_SNORM"),
            (7, "16_UNORM"),
            (8, "16_SNORM"),
            (13, "16_FLOAT"),
            (20, "32_UINT"),
            (22, "32_FLOAT"),
            (56, "8_8_8_8_UNORM"),
            (128, "8_SRGB"),
            (130, "8_8_8_8_SRGB"),
        ] {
            assert_eq!(format_info(code).map(|f| f.0), Some(name.to_string()));
        }
        assert_eq!(format_info(5), Some(("8_UINT".into(), true)));
        s[9] = 200 << 20;
        assert_eq!(key(&s).format_name(), "format 200");
        let c = mimg("image_sample_c_lz v10, v[4:6], s[8:15], s[0:3] dmask:0x1 dim:SQ_RSRC_IMG_2D");
        s[0] = 3 << 12;
        let k = GroupKey::of(&c, &s);
        assert_eq!(k.compare_name(), "lequal");
        assert!(k.label().ends_with(" compare lequal"), "{}", k.label());
    }
}
