//! The T#'s FORMAT (gfx10's unified image format, 9 bits) as a texel layout and number
//! format, and the conversion of one component as a load returns it or a store writes it.
//!
//! Formats 1..=77 number as the buffer formats do and are [`mem_format::format`]'s, with its
//! exact conversions (rule: buffer-format-conversion), the saturation of SINT stores measured
//! for images too (rule: image-format-conversion); besides them 128 8_SRGB, 129 8_8_SRGB,
//! 130 8_8_8_8_SRGB, 133 5_6_5_UNORM and 134 1_5_5_5_UNORM (ROCm's gfx10 `FORMAT` table;
//! the widths list the components from the most significant bits down, X in the lowest
//! bits, as for 2_10_10_10 and 10_11_11). The sRGB formats load X, Y and Z (8_8_8_8_SRGB's W
//! is UNORM) as the sRGB transfer function of `i / 255`, rounded to nearest even at bf16
//! precision (rule: image-srgb-bf16). Refused with the reason: the formats whose component
//! order is not documented (11_11_10, 10_10_10_2 and 5_5_5_1, as for buffers), 12-byte
//! texels (their linear pitch is not a whole number of texels), the depth-stencil formats
//! (8_24, 24_8) and the formats outside that table (compressed, shared-exponent and others).

use super::error::{RuleError, RuleResult};
use super::image_desc::{bad, unsupported};
use super::mem_format::{self, format, Format, Num};
use super::regs::Lowerer;
use crate::ir::Handle;

/// An image format: its texel layout and number format, and whether X, Y and Z are sRGB.
#[derive(Clone, Copy, Debug)]
pub(super) struct ImgFormat {
    pub(super) fmt: Format,
    pub(super) srgb: bool,
}

impl ImgFormat {
    /// Whether loads give floats (the value of DST_SEL 1 is 1.0).
    pub(super) fn float_valued(&self) -> bool {
        !matches!(self.fmt.num, Num::Uint | Num::Sint)
    }
}

const E8: &[(u8, u8)] = &[(0, 8)];
const E8_8: &[(u8, u8)] = &[(0, 8), (8, 8)];
const E8_8_8_8: &[(u8, u8)] = &[(0, 8), (8, 8), (16, 8), (24, 8)];
const E5_6_5: &[(u8, u8)] = &[(0, 5), (5, 6), (11, 5)];
const E1_5_5_5: &[(u8, u8)] = &[(0, 5), (5, 5), (10, 5), (15, 1)];

/// The image format `index` (T# word1 bits 28:20).
pub(super) fn image_format(index: u32) -> RuleResult<ImgFormat> {
    let of = |bytes, comps, num, srgb| {
        Ok(ImgFormat {
            fmt: Format { bytes, comps, num },
            srgb,
        })
    };
    match index {
        0 => bad("T# word1 FORMAT 0 is the invalid format"),
        37..=49 => unsupported(format!(
            "image: format {index} (11_11_10 or 10_10_10_2): the component order is not \
             documented for gfx10"
        )),
        72..=74 => unsupported(format!(
            "image: format {index} (32_32_32): a 12-byte texel's linear pitch (256 bytes) is \
             not a whole number of texels"
        )),
        1..=77 => {
            let fmt = format(index).map_err(|e| e.retitled("memory:", "image:"))?;
            Ok(ImgFormat { fmt, srgb: false })
        }
        128 => of(1, E8, Num::Unorm, true),
        129 => of(2, E8_8, Num::Unorm, true),
        130 => of(4, E8_8_8_8, Num::Unorm, true),
        133 => of(2, E5_6_5, Num::Unorm, false),
        134 => of(2, E1_5_5_5, Num::Unorm, false),
        135 => unsupported(
            "image: format 135 (5_5_5_1_UNORM): the component order is not documented for gfx10",
        ),
        141..=144 => unsupported(format!(
            "image: format {index} (8_24 or 24_8): depth-stencil formats are not modelled"
        )),
        _ => unsupported(format!(
            "image: format {index} is not in the modelled format table (compressed, \
             shared-exponent and other formats are not modelled)"
        )),
    }
}

/// The value of DST_SEL 1 as a load returns it (`d16`: 16 bits).
pub(super) fn one(l: &mut Lowerer, f: &ImgFormat, d16: bool) -> Handle {
    match (f.float_valued(), d16) {
        (true, false) => l.b.c32(0x3f80_0000),
        (true, true) => l.b.c32(0x3c00),
        (false, _) => l.b.c32(1),
    }
}

/// Component `k` of format `f`, its raw bits `raw` (low bits of a U32), as a load returns it
/// (`d16`: 16 bits).
pub(super) fn load_component(
    l: &mut Lowerer,
    f: &ImgFormat,
    k: usize,
    raw: Handle,
    d16: bool,
) -> RuleResult<Handle> {
    let w = f.fmt.comps[k].1;
    if f.srgb && k < 3 {
        if d16 {
            return Err(RuleError::not_measured(
                "image: a d16 load of an sRGB format is not measured",
            ));
        }
        return Ok(srgb(l, raw));
    }
    mem_format::load_conv(l, raw, w, f.fmt.num, d16).map_err(|e| e.retitled("memory:", "image:"))
}

/// Component `k` of format `f` as the raw bits a store writes (low bits of a U32), from the
/// store's 32-bit value `x` (a d16 half already widened by [`mem_format::store_value`], or the
/// f16 bits themselves for a 16-bit float component, which a `d16` store writes as given).
pub(super) fn store_component(
    l: &mut Lowerer,
    f: &ImgFormat,
    k: usize,
    x: Handle,
    d16: bool,
) -> RuleResult<Handle> {
    if f.srgb && k < 3 {
        return Err(RuleError::not_measured(
            "image: a store to an sRGB format (its encoding rounding) is not measured",
        ));
    }
    let w = f.fmt.comps[k].1;
    if d16 && w == 16 && f.fmt.num == Num::Float {
        return Ok(x);
    }
    let raw =
        mem_format::store_conv(l, x, w, f.fmt.num).map_err(|e| e.retitled("memory:", "image:"))?;
    Ok(l.b.andc(raw, mem_format::mask(w)))
}

/// The sRGB transfer function of `i / 255` rounded to nearest even at bf16 precision, as f32
/// bits (rule: image-srgb-bf16).
pub(super) fn srgb_bf16(i: u8) -> u32 {
    let c = f64::from(i) / 255.0;
    let v = if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    };
    if v == 0.0 {
        return 0;
    }
    let bits = v.to_bits();
    let mut e = (bits >> 52) as i64 - 1023;
    let m = bits & ((1 << 52) - 1);
    let (mut keep, rest, half) = (m >> 45, m & ((1 << 45) - 1), 1u64 << 44);
    if rest > half || (rest == half && keep & 1 == 1) {
        keep += 1;
        if keep == 128 {
            keep = 0;
            e += 1;
        }
    }
    (((e + 127) as u32) << 23) | (keep as u32) << 16
}

/// [`srgb_bf16`] of the 8-bit `raw` in the IR: a tree of selects on its bits.
fn srgb(l: &mut Lowerer, raw: Handle) -> Handle {
    let b = &mut l.b;
    let mut level: Vec<Handle> = (0..=255u8).map(|i| b.c32(srgb_bf16(i))).collect();
    for bit in 0..8 {
        let set = b.bit(raw, 1 << bit);
        level = level.chunks(2).map(|p| b.sel(set, p[1], p[0])).collect();
    }
    level[0]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_srgb_table_is_far_from_every_bf16_rounding_boundary() {
        // f64's powf is not correctly rounded: each value must be farther from a bf16
        // midpoint than its error could move it
        for i in 1..=255u8 {
            let c = f64::from(i) / 255.0;
            let v = if c <= 0.04045 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            };
            let m = v.to_bits() & ((1 << 45) - 1);
            let d = m.abs_diff(1 << 44);
            assert!(
                d > 1 << 12,
                "code {i}: {v} is {d} units from a bf16 midpoint"
            );
        }
        assert_eq!(srgb_bf16(0), 0);
        assert_eq!(srgb_bf16(255), 0x3f80_0000);
        // 128 / 255 -> 0.2158605..., bf16 1.7265625 * 2^-3
        assert_eq!(srgb_bf16(128), 0x3e5d_0000);
        // a code on the linear segment: 10 / 255 / 12.92 = 0.0030353..., bf16 0x3b47
        assert_eq!(srgb_bf16(10), 0x3b47_0000);
    }
}
