//! The image resource (T#) of a MIMG instruction: its eight dwords, read from the SGPRs at
//! SRSRC, decoded into the fields the lowering needs, and the texel layout they give.
//!
//! Field layout (gfx10.3, after the public register definitions of Mesa's `sid.h`/
//! `ac_descriptors.c` and ROCm's `resource_nv.h`):
//! - word0: BASE_ADDRESS, bits 39:8 of the byte address; word1 7:0 BASE_ADDRESS_HI (47:40),
//!   19:8 MIN_LOD, 28:20 FORMAT (the unified image format), 31:30 WIDTH_LO;
//! - word2: 11:0 WIDTH_HI (width - 1 = WIDTH_HI << 2 | WIDTH_LO), 27:14 HEIGHT (height - 1);
//! - word3: DST_SEL_X/Y/Z/W (3 bits each from bit 0: 0 zero, 1 one, 4..7 X..W), 15:12
//!   BASE_LEVEL, 19:16 LAST_LEVEL, 24:20 SW_MODE, 27:25 BC_SWIZZLE, 31:28 TYPE (8 1D, 9 2D,
//!   10 3D, 11 cube, 12 1D array, 13 2D array, 14 2D MSAA, 15 2D MSAA array);
//! - word4: 12:0 DEPTH (3D: depth - 1; arrays and cube: the last layer's index); for 1D and
//!   2D images on gfx10.3, 13:0 is PITCH - 1; 28:16 BASE_ARRAY;
//! - word5: 3:0 ARRAY_PITCH (3D: 0 the whole image, 1 a UAV view of some slices), 7:4
//!   MAX_MIP (the resource's levels - 1).
//!
//! Only the linear layout (SW_MODE 0) is modelled, as the gfx10 address library lays it out
//! in `Gfx10Lib::HwlComputeSurfaceInfoLinear` (rule: image-linear-layout): every slice (an array layer, a face or a 3D
//! depth slice) holds the whole mip chain, the smallest level first; level `l` is
//! `ceil(width / 2^l)` by `ceil(height / 2^l)` texels at a pitch of that width rounded up to
//! a multiple of 256 bytes. A single-level 1D or 2D image on gfx10.3 may give a larger pitch
//! in PITCH (a driver's custom pitch; the pitch is the larger of the two). Bounds, and what
//! image_get_resinfo reports, use the API's level size `max(1, size >> l)`. None of this is
//! measured on hardware yet.

use super::error::{RuleError, RuleResult};
use super::image_format::{image_format, ImgFormat};

/// A T# field no image can have: the row's input is at fault.
pub(super) fn bad<T>(why: impl Into<String>) -> RuleResult<T> {
    Err(RuleError::bad_input(why.into()))
}

/// A T# that asks for what the model leaves out.
pub(super) fn unsupported<T>(why: impl Into<String>) -> RuleResult<T> {
    Err(RuleError::not_modelled(why.into()))
}

/// The T#'s TYPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ImgType {
    D1,
    D2,
    D3,
    Cube,
    D1Array,
    D2Array,
}

impl ImgType {
    pub(super) fn name(self) -> &'static str {
        match self {
            ImgType::D1 => "1D",
            ImgType::D2 => "2D",
            ImgType::D3 => "3D",
            ImgType::Cube => "CUBE",
            ImgType::D1Array => "1D_ARRAY",
            ImgType::D2Array => "2D_ARRAY",
        }
    }

    /// Whether the type has layers (arrays; a cube's faces).
    pub(super) fn layered(self) -> bool {
        matches!(self, ImgType::Cube | ImgType::D1Array | ImgType::D2Array)
    }

    /// Whether the type has rows (a height).
    pub(super) fn has_rows(self) -> bool {
        !matches!(self, ImgType::D1 | ImgType::D1Array)
    }
}

/// The names of gfx10's swizzle modes (SW_MODE), `ADDR_SW_*` in the address library.
const SW_MODES: [&str; 32] = [
    "LINEAR",
    "256B_S",
    "256B_D",
    "reserved 3",
    "reserved 4",
    "4KB_S",
    "4KB_D",
    "reserved 7",
    "reserved 8",
    "64KB_S",
    "64KB_D",
    "reserved 11",
    "reserved 12",
    "reserved 13",
    "reserved 14",
    "reserved 15",
    "reserved 16",
    "64KB_S_T",
    "64KB_D_T",
    "reserved 19",
    "reserved 20",
    "4KB_S_X",
    "4KB_D_X",
    "reserved 23",
    "64KB_Z_X",
    "64KB_S_X",
    "64KB_D_X",
    "64KB_R_X",
    "VAR_Z_X",
    "reserved 29",
    "reserved 30",
    "VAR_R_X",
];

/// One mip level of a linear image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Level {
    /// Size by the API's rule, for bounds and image_get_resinfo.
    pub(super) width: u32,
    pub(super) height: u32,
    pub(super) depth: u32,
    /// Row pitch in texels.
    pub(super) pitch: u32,
    /// Byte offset of the level in a slice.
    pub(super) offset: u64,
}

/// A decoded T#.
#[derive(Clone, Debug)]
pub(super) struct Tsharp {
    /// Byte address of the image's first texel.
    pub(super) base: u64,
    pub(super) format: ImgFormat,
    pub(super) ty: ImgType,
    pub(super) dst_sel: [u32; 4],
    pub(super) base_level: u32,
    pub(super) last_level: u32,
    /// MIN_LOD (word1 19:8, unsigned 4.8 fixed point).
    pub(super) min_lod: u32,
    /// The first layer of the view (arrays, cube) and the last one (DEPTH).
    pub(super) base_array: u32,
    pub(super) last_array: u32,
    /// Levels 0..=MAX_MIP of the resource, as laid out.
    pub(super) levels: Vec<Level>,
    /// Bytes from one slice (layer, face, depth slice) to the next.
    pub(super) slice_bytes: u64,
}

/// DST_SEL of all four slots as X, Y, Z, W (0xfac in word3's low bits).
pub(super) const DST_SEL_XYZW: u32 = 0xfac;

impl Tsharp {
    /// Decodes the T# `w` (all eight dwords) for a gfx10.3 target.
    pub(super) fn decode(w: &[u32; 8]) -> RuleResult<Tsharp> {
        let ty = match w[3] >> 28 {
            8 => ImgType::D1,
            9 => ImgType::D2,
            10 => ImgType::D3,
            11 => ImgType::Cube,
            12 => ImgType::D1Array,
            13 => ImgType::D2Array,
            14 | 15 => {
                return unsupported(
                    "image: multisampled (2D_MSAA) T#s are not modelled (gfx10 has no linear \
                     multisampled layout: the address library refuses linear MSAA surfaces)",
                )
            }
            t => return bad(format!("T# word3 TYPE {t} is not an image type (8..15)")),
        };
        let sw = (w[3] >> 20) & 0x1f;
        if sw != 0 {
            return unsupported(format!(
                "image: T# SW_MODE {sw} (SW_{}): only the linear layout (SW_MODE 0) is modelled",
                SW_MODES[sw as usize]
            ));
        }
        let format = image_format((w[1] >> 20) & 0x1ff)?;
        let mut dst_sel = [0; 4];
        for (k, d) in dst_sel.iter_mut().enumerate() {
            *d = (w[3] >> (3 * k)) & 7;
            if matches!(*d, 2 | 3) {
                return bad(format!(
                    "T# word3 DST_SEL_{} {} is reserved (0, 1 or 4..7)",
                    ["X", "Y", "Z", "W"][k],
                    *d
                ));
            }
        }
        let base = (u64::from(w[0]) | u64::from(w[1] & 0xff) << 32) << 8;
        let width = ((w[1] >> 30) | (w[2] & 0xfff) << 2) + 1;
        let height = if ty.has_rows() {
            ((w[2] >> 14) & 0x3fff) + 1
        } else {
            1
        };
        let base_level = (w[3] >> 12) & 15;
        let last_level = (w[3] >> 16) & 15;
        let max_mip = (w[5] >> 4) & 15;
        if base_level > last_level {
            return bad(format!(
                "T# word3 BASE_LEVEL {base_level} is past LAST_LEVEL {last_level}"
            ));
        }
        if last_level > max_mip {
            return bad(format!(
                "T# word3 LAST_LEVEL {last_level} is past word5 MAX_MIP {max_mip} (the levels the \
                 resource has)"
            ));
        }
        let depth_field = w[4] & 0x1fff;
        let base_array = (w[4] >> 16) & 0x1fff;
        let depth = match ty {
            ImgType::D3 => {
                if w[5] & 15 != 0 {
                    return unsupported(
                        "image: a 3D T# with ARRAY_PITCH set (a view of some slices) is not \
                         modelled",
                    );
                }
                depth_field + 1
            }
            _ => 1,
        };
        if ty.layered() && base_array > depth_field {
            return bad(format!(
                "T# word4 BASE_ARRAY {base_array} is past the last layer (DEPTH {depth_field})"
            ));
        }
        let bpe = u32::from(format.fmt.bytes);
        let align = 256 / bpe;
        let mut levels = vec![
            Level {
                width: 0,
                height: 0,
                depth: 0,
                pitch: 0,
                offset: 0,
            };
            max_mip as usize + 1
        ];
        let mut slice_bytes = 0u64;
        for l in (0..=max_mip).rev() {
            let ceil = |n: u32| n.div_ceil(1 << l).max(1);
            let rows = ceil(height);
            let mut pitch = ceil(width).next_multiple_of(align);
            if max_mip == 0 && matches!(ty, ImgType::D1 | ImgType::D2) {
                // gfx10.3: word4 bits 13:0 are PITCH - 1 of a 1D or 2D image
                pitch = pitch.max((w[4] & 0x3fff) + 1);
            }
            levels[l as usize] = Level {
                width: (width >> l).max(1),
                height: (height >> l).max(1),
                depth: (depth >> l).max(1),
                pitch,
                offset: slice_bytes,
            };
            slice_bytes += u64::from(pitch) * u64::from(rows) * u64::from(bpe);
        }
        Ok(Tsharp {
            base,
            format,
            ty,
            dst_sel,
            base_level,
            last_level,
            min_lod: w[1] >> 8 & 0xfff,
            base_array,
            last_array: depth_field,
            levels,
            slice_bytes,
        })
    }

    /// The number of layers of the view (arrays, cube), counted from BASE_ARRAY.
    pub(super) fn layers(&self) -> u32 {
        self.last_array - self.base_array + 1
    }
}

/// The bytes a linear T# addresses from its base (every level of every slice: layers, cube
/// faces or 3D depth slices), or why it does not decode.
pub fn linear_image_bytes(w: &[u32; 8]) -> Result<u64, String> {
    let t = Tsharp::decode(w).map_err(|e| e.to_string())?;
    let slices = match t.ty {
        ImgType::D3 => t.levels[0].depth,
        ty if ty.layered() => t.last_array + 1,
        _ => 1,
    };
    Ok(t.slice_bytes * u64::from(slices))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A linear T#: `fmt` the image format, `ty` its TYPE, size `w` x `h` (`d`: DEPTH field),
    /// levels `max_mip + 1`.
    pub(in crate::lower) fn tsharp(
        fmt: u32,
        ty: u32,
        w: u32,
        h: u32,
        d: u32,
        max_mip: u32,
    ) -> [u32; 8] {
        [
            0x0010_0000,
            0x10 | fmt << 20 | ((w - 1) & 3) << 30,
            (w - 1) >> 2 | (h - 1) << 14,
            DST_SEL_XYZW | max_mip << 16 | ty << 28,
            d,
            max_mip << 4,
            0,
            0,
        ]
    }

    #[test]
    fn the_fields_decode_as_the_register_definitions_give_them() {
        // 8_8_8_8_UNORM 2D, 5 x 3, at 0x0000_1000_1000_0000
        let t = Tsharp::decode(&tsharp(56, 9, 5, 3, 0, 0)).unwrap();
        assert_eq!(t.base, 0x0000_1000_1000_0000);
        assert_eq!(t.ty, ImgType::D2);
        assert_eq!((t.levels[0].width, t.levels[0].height), (5, 3));
        // 256-byte rows: 64 texels of 4 bytes
        assert_eq!((t.levels[0].pitch, t.slice_bytes), (64, 3 * 256));
        assert_eq!(t.dst_sel, [4, 5, 6, 7]);
    }

    #[test]
    fn levels_are_stored_smallest_first_with_256_byte_rows() {
        // 32_FLOAT 2D 8 x 4 with 4 levels: 8x4, 4x2, 2x1, 1x1, 64-texel pitch
        let t = Tsharp::decode(&tsharp(22, 9, 8, 4, 0, 3)).unwrap();
        let offs: Vec<u64> = t.levels.iter().map(|l| l.offset).collect();
        assert_eq!(offs, [4 * 256, 2 * 256, 256, 0]);
        assert_eq!(t.slice_bytes, 8 * 256);
        // an odd size: the layout rounds up, the bounds round down
        let t = Tsharp::decode(&tsharp(22, 9, 5, 5, 0, 1)).unwrap();
        assert_eq!((t.levels[1].width, t.levels[1].height), (2, 2));
        assert_eq!(t.levels[0].offset, 3 * 256);
    }

    #[test]
    fn a_custom_pitch_widens_the_rows_of_a_single_level_image() {
        let mut w = tsharp(22, 9, 8, 4, 0, 0);
        w[4] = 127; // PITCH 128
        assert_eq!(Tsharp::decode(&w).unwrap().levels[0].pitch, 128);
    }

    #[test]
    fn bad_fields_are_named() {
        let mut w = tsharp(22, 9, 8, 4, 0, 0);
        w[3] &= !(0xf << 28);
        let e = Tsharp::decode(&w).unwrap_err();
        assert_eq!(
            e,
            RuleError::bad_input("T# word3 TYPE 0 is not an image type (8..15)")
        );
        let mut w = tsharp(22, 9, 8, 4, 0, 0);
        w[3] |= 9 << 20;
        let e = Tsharp::decode(&w).unwrap_err();
        assert!(matches!(e, RuleError::NotModelled(_)), "{e}");
        assert!(e.to_string().contains("SW_MODE 9 (SW_64KB_S)"), "{e}");
        let w = tsharp(22, 9, 8, 4, 0, 0);
        let mut l = w;
        l[3] |= 2 << 16; // LAST_LEVEL 2 of a one-level resource
        assert!(matches!(Tsharp::decode(&l), Err(RuleError::BadInput(e)) if e.contains("MAX_MIP")));
    }
}
