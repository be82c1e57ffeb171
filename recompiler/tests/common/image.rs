//! Image descriptors for the integration tests: a linear T# at the wave region's start and
//! the SGPR inputs that hold it with an S# where the image sweeps put them.
#![allow(dead_code)] // not every test binary uses every helper

use rdnaprobe_recompiler::wave::{MEM_BASE, SGPR_INPUTS};

/// A linear T# at the region's start: image format `fmt`, TYPE `ty` (8 1D, 9 2D, 10 3D,
/// 11 cube, 12 1D array, 13 2D array), `w` x `h`, DEPTH field `d`, MAX_MIP = LAST_LEVEL
/// `mips`, DST_SEL word `dst` (0xfac: X, Y, Z, W).
pub fn tsharp(fmt: u32, ty: u32, w: u32, h: u32, d: u32, mips: u32, dst: u32) -> [u32; 8] {
    let base = MEM_BASE >> 8;
    [
        base as u32,
        (base >> 32) as u32 & 0xff | fmt << 20 | ((w - 1) & 3) << 30,
        (w - 1) >> 2 | (h - 1) << 14,
        dst | mips << 16 | ty << 28,
        d,
        mips << 4,
        0,
        0,
    ]
}

/// s_in: the S# `s` in s[0:3] and the T# `t` in s[8:15] (the image sweeps' places).
pub fn s_in(t: [u32; 8], s: [u32; 4]) -> [u32; SGPR_INPUTS] {
    let mut v = [0; SGPR_INPUTS];
    v[0..4].copy_from_slice(&s);
    v[8..16].copy_from_slice(&t);
    v
}
