//! Image loads, stores and queries under the wave contract (MIMG without a sampler):
//! image_load, image_load_mip, image_store, image_store_mip, their raw `_pck` forms
//! (image_load_pck, image_load_pck_sgn, image_load_mip_pck, image_load_mip_pck_sgn,
//! image_store_pck, image_store_mip_pck) and image_get_resinfo. The texels live in the wave's
//! memory region: the T# (eight SGPRs at SRSRC, [`Tsharp`]) gives their byte address, an
//! absolute address as a buffer V#'s base is, so a body builds it from s[16:17]. The T# must
//! be known when lowering (the runner lowers an image body for each wave's `s_in`:
//! `super::specialises_on_sgprs`), since it decides the layout and the conversions.
//!
//! Addresses (RDNA2 ISA guide, "Image Instructions"): VADDR and, with NSA, one VGPR per byte
//! of the NSA words, hold the coordinates of the DIM (1D x; 2D x, y; 3D x, y, z; CUBE x, y,
//! face; 1D_ARRAY x, slice; 2D_ARRAY x, y, slice) and then the mip level of the `_mip` forms,
//! as unsigned integers; with A16 two 16-bit coordinates to a VGPR, the low half first. The
//! T#'s TYPE decides the addressing and the DIM only how many coordinates are read
//! (rule: image-type-decides): a 2D DIM through a 1D T# ignores y (loads without a mip and
//! stores, measured), a 3D DIM through a 2D T# reads (x, y) when z is 0 and nothing
//! otherwise, and through a 2D-array T# takes z as the layer (loads and image_get_resinfo,
//! measured); other DIMs that differ from the type are refused.
//!
//! A texel is in range when its level (BASE_LEVEL + mip) is at most LAST_LEVEL, x, y and z are
//! below the level's size and a layer is at most DEPTH - BASE_ARRAY; out of range a load
//! reads a texel of zero bits (converted, then DST_SEL, so a DST_SEL of 1 still gives 1) and
//! a store writes nothing (rule: image-out-of-range). A texel whose bytes are not all inside
//! the memory region reads 0 and is not written, as for every memory access. Active lanes
//! take part in ascending lane order; a texel wider than 4 bytes is one dword access after the
//! other.
//!
//! Data: DMASK selects the components, packed into consecutive VGPRs from VDATA (D16: two
//! 16-bit halves to a VGPR). A load returns slot `s` as DST_SEL[s] selects it (0, 1, or a
//! component of the format converted: `super::image_format`); a DST_SEL naming a component
//! the format lacks is refused. A store writes through an X,Y,Z,W DST_SEL only: component
//! `k` from data slot `k`, except that a two-component format's second component comes from
//! the W slot, as measured (rule: image-store-slots). TFE and LWE leave the status VGPR after
//! the data unwritten: it is written only for a fetch from an unmapped page of a partially
//! resident texture (or LWE's LOD warning of a sample), and the region is always resident
//! (rule: image-tfe-lwe). GLC, SLC, DLC and UNORM change nothing here; R128 (a 4-dword T#)
//! and gfx101x T#s are refused.

use super::error::{RuleError, RuleResult};
use super::image_desc::{ImgType, Tsharp, DST_SEL_XYZW};
use super::image_format::{self, one, ImgFormat};
use super::mem_format::{self, D16Form};
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Handle, IntBin, IntCmp, LdsOp};
use rdnaprobe_isa::layout::Field;
use rdnaprobe_isa::operand::code;

const NEEDS_WAVE: &str = "image: needs the wave contract (give the rows a wave_id and mem_in \
     or mem_bytes column, and the T# in s_in)";

/// The MIMG DIM field's names (`SQ_RSRC_IMG_*`) and coordinate counts.
pub(super) const DIMS: [(&str, usize); 8] = [
    ("1D", 1),
    ("2D", 2),
    ("3D", 3),
    ("CUBE", 3),
    ("1D_ARRAY", 2),
    ("2D_ARRAY", 3),
    ("2D_MSAA", 3),
    ("2D_MSAA_ARRAY", 4),
];

/// What an image instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Op {
    /// image_load(_mip): the texel converted by its format, DST_SEL applied.
    Load,
    /// image_store(_mip).
    Store,
    /// image_load(_mip)_pck(_sgn): the texel's raw dwords; `sgn` sign-extends a texel
    /// narrower than 32 bits.
    LoadPck { sgn: bool },
    /// image_store(_mip)_pck: raw dwords.
    StorePck,
}

/// An image access: its operation and whether it names the mip level (`_mip`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Img {
    pub(super) op: Op,
    pub(super) mip: bool,
}

impl Img {
    pub(super) const fn new(op: Op, mip: bool) -> Img {
        Img { op, mip }
    }
}

/// Half `k` (0: bits 15:0, 1: bits 31:16) of the U32 `v`, in the low bits.
fn half(l: &mut Lowerer, v: Handle, k: usize) -> Handle {
    let h = l.b.shrc(v, 16 * k as u32);
    l.b.andc(h, 0xffff)
}

/// The fields of a MIMG instruction this module reads.
pub(super) struct Mimg {
    pub(super) dim: usize,
    pub(super) dmask: u32,
    pub(super) a16: bool,
    pub(super) d16: bool,
    pub(super) vdata: u16,
    srsrc: u16,
    /// The S#'s first SGPR (SSAMP * 4).
    ssamp: u16,
    /// Address VGPRs in order (VADDR, then the NSA bytes).
    addr: Vec<u16>,
}

impl Mimg {
    pub(super) fn new(l: &Lowerer, c: &Ctx) -> RuleResult<Mimg> {
        if !l.wave_contract {
            return Err(RuleError::not_modelled(NEEDS_WAVE));
        }
        let f = |x| c.inst.field(x);
        if f(Field::R128) != 0 {
            return Err(RuleError::not_modelled(
                "image: R128 (a 4-dword T#) is not modelled",
            ));
        }
        let vaddr = f(Field::Vaddr) as u16;
        let addr = if f(Field::Nsa) == 0 {
            (0..13).map(|i| vaddr + i).collect()
        } else {
            let bytes = c.inst.nsa_words().iter().flat_map(|w| w.to_le_bytes());
            std::iter::once(vaddr).chain(bytes.map(u16::from)).collect()
        };
        Ok(Mimg {
            dim: f(Field::Dim) as usize,
            dmask: f(Field::Dmask),
            a16: f(Field::A16) != 0,
            d16: f(Field::D16) != 0,
            vdata: f(Field::Vdata) as u16,
            srsrc: (f(Field::Srsrc) * 4) as u16,
            ssamp: (f(Field::Ssamp) * 4) as u16,
            addr,
        })
    }

    /// Address component `i` (a U32): a VGPR, or with A16 a 16-bit half of one.
    pub(super) fn coord(&self, l: &mut Lowerer, i: usize) -> RuleResult<Handle> {
        if !self.a16 {
            return self.dword(l, i);
        }
        let v = self.dword(l, i / 2)?;
        Ok(half(l, v, i % 2))
    }

    /// Address dword `k` (a U32): the VGPR the address names `k`-th, whatever A16 says.
    pub(super) fn dword(&self, l: &mut Lowerer, k: usize) -> RuleResult<Handle> {
        let r = *self.addr.get(k).ok_or(RuleError::operand(
            "image: more address components than the NSA words name",
        ))?;
        Ok(l.vgpr_get(r))
    }

    /// A sample's float address component `i` of the packed area that starts at dword
    /// `first` (the coordinates, then the LOD or clamp), as f32 bits: dword `first + i`, or
    /// with A16 the f16 in half `i % 2` of dword `first + i / 2`, widened exactly
    /// (rule: image-sample-a16-d16).
    pub(super) fn float_coord(
        &self,
        l: &mut Lowerer,
        first: usize,
        i: usize,
    ) -> RuleResult<Handle> {
        if !self.a16 {
            return self.dword(l, first + i);
        }
        let v = self.dword(l, first + i / 2)?;
        let h = half(l, v, i % 2);
        Ok(l.b.f16_to_f32_bits(h))
    }

    /// The S# at SSAMP (four dwords), known when lowering.
    pub(super) fn ssharp(&self, l: &mut Lowerer) -> RuleResult<[u32; 4]> {
        let first = self.ssamp;
        if first + 4 > code::SGPRS {
            return Err(RuleError::operand(format!(
                "image: SSAMP s{first} leaves no room for a 4-dword S#"
            )));
        }
        let mut w = [0u32; 4];
        for (i, d) in w.iter_mut().enumerate() {
            let h = l.sgpr_get(first + i as u16);
            *d = l.b.known(h).ok_or_else(|| {
                RuleError::not_modelled(format!(
                    "image: the S# in s[{first}:{}] must be known when lowering (the wave's                      s_in, or scalar moves of constants in the body)",
                    first + 3
                ))
            })? as u32;
        }
        Ok(w)
    }

    /// The T# at SRSRC, known when lowering, decoded.
    pub(super) fn tsharp(&self, l: &mut Lowerer) -> RuleResult<Tsharp> {
        let first = self.srsrc;
        if first + 8 > code::SGPRS {
            return Err(RuleError::operand(format!(
                "image: SRSRC s{first} leaves no room for an 8-dword T#"
            )));
        }
        let mut w = [0u32; 8];
        for (i, d) in w.iter_mut().enumerate() {
            let h = l.sgpr_get(first + i as u16);
            *d = l.b.known(h).ok_or_else(|| {
                RuleError::not_modelled(format!(
                    "image: the T# in s[{first}:{}] must be known when lowering (the wave's \
                     s_in, or scalar moves of constants in the body; a T# loaded from memory or \
                     read from VGPRs is not modelled)",
                    first + 7
                ))
            })? as u32;
        }
        if l.gfx.is_rdna1() {
            return Err(RuleError::not_modelled(
                "image: gfx101x T#s (without gfx10.3's PITCH field) are not modelled",
            ));
        }
        Tsharp::decode(&w)
    }
}

/// What one address component of the DIM addresses on the T#'s type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Coord {
    X,
    Y,
    Z,
    Layer,
    /// In range only when 0 (a 3D DIM's z on a 2D T#).
    Zero,
    Ignored,
}

/// How the DIM's coordinates address a T# of type `ty` (rule: image-type-decides); `load`:
/// a load or image_get_resinfo, `mip`: the `_mip` form.
fn plan(ty: ImgType, dim: usize, load: bool, raw: bool, mip: bool) -> RuleResult<Vec<Coord>> {
    use Coord::*;
    let name = DIMS[dim].0;
    Ok(match (ty, name) {
        (ImgType::D1, "1D") => vec![X],
        (ImgType::D2, "2D") => vec![X, Y],
        (ImgType::D3, "3D") => vec![X, Y, Z],
        (ImgType::Cube, "CUBE") => vec![X, Y, Layer],
        (ImgType::D1Array, "1D_ARRAY") => vec![X, Layer],
        (ImgType::D2Array, "2D_ARRAY") => vec![X, Y, Layer],
        (ImgType::D1, "2D") if !mip && !raw => vec![X, Ignored],
        (ImgType::D2, "3D") if load && !raw => vec![X, Y, Zero],
        (ImgType::D2Array, "3D") if load && !raw => vec![X, Y, Layer],
        (_, "2D_MSAA" | "2D_MSAA_ARRAY") => {
            return Err(RuleError::not_modelled(format!(
                "image: DIM {name} (multisampled) is not modelled (gfx10 has no linear \
                 multisampled layout, and the swizzled ones are not modelled)"
            )))
        }
        _ => {
            return Err(RuleError::not_measured(format!(
                "image: DIM {name} through a {} T#: not measured (the T# type decides the \
                 addressing only where measured)",
                ty.name()
            )))
        }
    })
}

/// A texel's byte address (U64) and whether it is in range (Bool).
pub(super) struct Texel {
    pub(super) addr: Handle,
    pub(super) ok: Handle,
}

/// The texel the coordinates address on level BASE_LEVEL (+ `mip`, a U32).
pub(super) fn texel(
    l: &mut Lowerer,
    t: &Tsharp,
    coords: &[(Coord, Handle)],
    mip: Option<Handle>,
) -> Texel {
    let bpe = u64::from(t.format.fmt.bytes);
    // The level's values: a constant, or selected by the run-time mip among the view's levels.
    let levels = t.base_level..=t.last_level;
    let pick = |l: &mut Lowerer, f: &dyn Fn(usize) -> u64, ty64: bool| -> Handle {
        let c = |l: &mut Lowerer, v: u64| if ty64 { l.b.c64(v) } else { l.b.c32(v as u32) };
        let base = t.base_level as usize;
        let mut v = c(l, f(base));
        if let Some(m) = mip {
            for k in levels.clone().skip(1) {
                let is = l.b.eqc(m, u64::from(k - t.base_level));
                let vk = c(l, f(k as usize));
                v = l.b.sel(is, vk, v);
            }
        }
        v
    };
    let lv = &t.levels;
    let mut ok = l.b.cb(true);
    if let Some(m) = mip {
        let span = u64::from(t.last_level - t.base_level);
        let in_levels = l.b.icmpc(IntCmp::LeU, m, span);
        ok = l.b.band(ok, in_levels);
    }
    let (mut x, mut y, mut slice) = (l.b.c32(0), l.b.c32(0), l.b.c32(0));
    for &(what, v) in coords {
        let limit = match what {
            Coord::X => {
                x = v;
                Some(pick(l, &|k| u64::from(lv[k].width), false))
            }
            Coord::Y => {
                y = v;
                Some(pick(l, &|k| u64::from(lv[k].height), false))
            }
            Coord::Z => {
                slice = v;
                Some(pick(l, &|k| u64::from(lv[k].depth), false))
            }
            Coord::Layer => {
                let n = l.b.c32(t.layers());
                let inside = l.b.icmp(IntCmp::LtU, v, n);
                ok = l.b.band(ok, inside);
                slice = l.b.addc(v, u64::from(t.base_array));
                None
            }
            Coord::Zero => {
                let z = l.b.eqc(v, 0);
                ok = l.b.band(ok, z);
                None
            }
            Coord::Ignored => None,
        };
        if let Some(n) = limit {
            let inside = l.b.icmp(IntCmp::LtU, v, n);
            ok = l.b.band(ok, inside);
        }
    }
    let pitch = pick(l, &|k| u64::from(lv[k].pitch), true);
    let offset = pick(l, &|k| lv[k].offset, true);
    let b = &mut l.b;
    let (x, y, slice) = (b.zext(x), b.zext(y), b.zext(slice));
    let row = b.ib(IntBin::Mul, y, pitch);
    let at = b.add(row, x);
    let bpe = b.c64(bpe);
    let at = b.ib(IntBin::Mul, at, bpe);
    let sb = b.c64(t.slice_bytes);
    let s = b.ib(IntBin::Mul, slice, sb);
    let at = b.add(at, s);
    let at = b.add(at, offset);
    let addr = b.addc(at, t.base);
    Texel { addr, ok }
}

/// The texel's addressing inputs: the T#, the plan's coordinates and the mip.
fn address(l: &mut Lowerer, c: &Ctx, img: Img) -> RuleResult<(Mimg, Tsharp, Texel)> {
    let load = matches!(img.op, Op::Load | Op::LoadPck { .. });
    let raw = matches!(img.op, Op::LoadPck { .. } | Op::StorePck);
    locate(l, c, load, raw, img.mip)
}

/// [`address`] for an access that is a load or not (`load`), moves raw dwords or not (`raw`)
/// and names the mip (`mip`): the plan's coordinates on the T#'s type.
pub(super) fn locate(
    l: &mut Lowerer,
    c: &Ctx,
    load: bool,
    raw: bool,
    mip: bool,
) -> RuleResult<(Mimg, Tsharp, Texel)> {
    let m = Mimg::new(l, c)?;
    let t = m.tsharp(l)?;
    let uses = plan(t.ty, m.dim, load, raw, mip)?;
    let mut coords = Vec::with_capacity(uses.len());
    for (i, &u) in uses.iter().enumerate() {
        coords.push((u, m.coord(l, i)?));
    }
    let mip = if mip {
        Some(m.coord(l, DIMS[m.dim].1)?)
    } else {
        None
    };
    let tx = texel(l, &t, &coords, mip);
    Ok((m, t, tx))
}

/// The texel's dwords (its 1, 2 or 4 bytes zero-extended, or 2 or 4 dwords), read where it is
/// in range.
pub(super) fn read_texel(l: &mut Lowerer, f: &ImgFormat, tx: &Texel) -> Vec<Handle> {
    let bytes = f.fmt.bytes;
    let zero = l.b.c32(0);
    (0..u64::from(bytes).div_ceil(4))
        .map(|i| {
            let a = l.b.addc(tx.addr, 4 * i);
            l.mem(LdsOp::Read, bytes.min(4), a, zero, Some(tx.ok), None)
        })
        .collect()
}

/// Writes the texel's dwords where it is in range.
fn write_texel(l: &mut Lowerer, f: &ImgFormat, tx: &Texel, dwords: &[Handle]) {
    let bytes = f.fmt.bytes;
    for (i, &d) in dwords.iter().enumerate() {
        let a = l.b.addc(tx.addr, 4 * i as u64);
        l.mem(LdsOp::Write, bytes.min(4), a, d, Some(tx.ok), None);
    }
}

/// The DMASK slots in order.
pub(super) fn slots(dmask: u32) -> impl Iterator<Item = usize> {
    (0..4).filter(move |s| dmask >> s & 1 != 0)
}

pub(super) fn dmask_needed(m: &Mimg) -> RuleResult {
    if m.dmask == 0 {
        return Err(RuleError::not_measured(
            "image: DMASK 0 (what the hardware writes is not documented)",
        ));
    }
    Ok(())
}

const SLOT: [&str; 4] = ["X", "Y", "Z", "W"];

/// image_load, image_store and their `_mip` and `_pck` forms.
pub(super) fn image(l: &mut Lowerer, c: &Ctx, img: Img) -> RuleResult {
    let (m, t, tx) = address(l, c, img)?;
    dmask_needed(&m)?;
    match img.op {
        Op::Load => load(l, &m, &t, &tx),
        Op::Store => store(l, &m, &t, &tx),
        Op::LoadPck { sgn } => load_pck(l, &m, &t, &tx, sgn),
        Op::StorePck => store_pck(l, &m, &t, &tx),
    }
}

/// DST_SEL of each DMASK slot, the format's components converted (rule: image-dst-sel).
fn load(l: &mut Lowerer, m: &Mimg, t: &Tsharp, tx: &Texel) -> RuleResult {
    let f = t.format;
    let comps = f.fmt.comps;
    let elem = read_texel(l, &f, tx);
    let mut vals = Vec::new();
    for s in slots(m.dmask) {
        let v = match t.dst_sel[s] {
            0 => l.b.c32(0),
            1 => one(l, &f, m.d16),
            sel => {
                let k = (sel - 4) as usize;
                let Some(&(o, w)) = comps.get(k) else {
                    return Err(RuleError::not_measured(format!(
                        "image: DST_SEL_{} selects {} of a {}-component format (what the \
                         hardware returns is not documented)",
                        SLOT[s],
                        SLOT[k],
                        comps.len()
                    )));
                };
                let raw = l.b.shrc(elem[usize::from(o / 32)], u32::from(o % 32));
                let raw = l.b.andc(raw, mem_format::mask(w));
                image_format::load_component(l, &f, k, raw, m.d16)?
            }
        };
        vals.push(v);
    }
    let form = if m.d16 { D16Form::Packed } else { D16Form::No };
    mem_format::write_loaded(l, m.vdata, &vals, form);
    Ok(())
}

/// Component `k` from data slot `k`, a two-component format's second from W, through an
/// X,Y,Z,W DST_SEL (rule: image-store-slots).
fn store(l: &mut Lowerer, m: &Mimg, t: &Tsharp, tx: &Texel) -> RuleResult {
    let f = t.format;
    let comps = f.fmt.comps;
    let sel = t
        .dst_sel
        .iter()
        .enumerate()
        .fold(0, |a, (k, &d)| a | d << (3 * k));
    if sel != DST_SEL_XYZW {
        return Err(RuleError::not_measured(format!(
            "image: a store through DST_SEL 0x{sel:03x}: which data slot feeds which component \
             is measured for X,Y,Z,W (0xfac) only"
        )));
    }
    let form = if m.d16 { D16Form::Packed } else { D16Form::No };
    let zero = l.b.c32(0);
    let mut dwords = vec![zero; usize::from(f.fmt.bytes).div_ceil(4)];
    for (k, &(o, w)) in comps.iter().enumerate() {
        let slot = if comps.len() == 2 && k == 1 { 3 } else { k };
        if m.dmask >> slot & 1 == 0 {
            return Err(RuleError::not_measured(format!(
                "image: a store of a {}-component format without data slot {} in DMASK (what \
                 the component gets is not measured)",
                comps.len(),
                SLOT[slot]
            )));
        }
        let rank = (m.dmask & ((1 << slot) - 1)).count_ones() as u16;
        let x = mem_format::store_value(l, m.vdata, rank, form, f.fmt.num, w)
            .map_err(|e| e.retitled("memory:", "image:"))?;
        let raw = image_format::store_component(l, &f, k, x, m.d16)?;
        let raw = l.b.shlc(raw, u32::from(o % 32));
        let d = &mut dwords[usize::from(o / 32)];
        *d = l.b.or(*d, raw);
    }
    write_texel(l, &f, tx, &dwords);
    Ok(())
}

/// DMASK bit `i` gives texel dword `i`, 0 past the texel; a narrower texel zero- or
/// (`sgn`) sign-extended (rule: image-pck).
fn load_pck(l: &mut Lowerer, m: &Mimg, t: &Tsharp, tx: &Texel, sgn: bool) -> RuleResult {
    if m.d16 {
        return Err(RuleError::not_measured(
            "image: a d16 raw (_pck) load is not measured",
        ));
    }
    let f = t.format;
    let elem = read_texel(l, &f, tx);
    let bits = 8 * u32::from(f.fmt.bytes);
    for (r, i) in slots(m.dmask).enumerate() {
        let v = match elem.get(i) {
            Some(&d) if sgn && bits < 32 => {
                let up = l.b.shlc(d, 32 - bits);
                l.b.sarc(up, 32 - bits)
            }
            Some(&d) => d,
            None => l.b.c32(0),
        };
        l.vgpr_set(m.vdata + r as u16, v);
    }
    Ok(())
}

/// Texel dword `i` from the next data VGPR where DMASK bit `i` is set, else 0
/// (rule: image-pck).
fn store_pck(l: &mut Lowerer, m: &Mimg, t: &Tsharp, tx: &Texel) -> RuleResult {
    if m.d16 {
        return Err(RuleError::not_measured(
            "image: a d16 raw (_pck) store is not measured",
        ));
    }
    let f = t.format;
    let n = usize::from(f.fmt.bytes).div_ceil(4);
    let mut next = m.vdata;
    let mut dwords = Vec::with_capacity(n);
    for i in 0..n {
        if m.dmask >> i & 1 != 0 {
            dwords.push(l.vgpr_get(next));
            next += 1;
        } else {
            dwords.push(l.b.c32(0));
        }
    }
    write_texel(l, &f, tx, &dwords);
    Ok(())
}

/// image_get_resinfo: for level BASE_LEVEL + the address's mip, (width, height, depth or
/// layers, levels) of the T#'s type (rule: image-resinfo), DMASK-selected.
pub(super) fn resinfo(l: &mut Lowerer, c: &Ctx) -> RuleResult {
    let m = Mimg::new(l, c)?;
    let t = m.tsharp(l)?;
    dmask_needed(&m)?;
    plan(t.ty, m.dim, true, false, true)?;
    if m.d16 {
        return Err(RuleError::not_measured(
            "image: a d16 image_get_resinfo is not measured",
        ));
    }
    let mip = m.coord(l, 0)?;
    let l0 = t.levels[0];
    let b = &mut l.b;
    let lvl = b.addc(mip, u64::from(t.base_level));
    let big = b.icmpc(IntCmp::GtU, lvl, 31);
    let c31 = b.c32(31);
    let lvl = b.sel(big, c31, lvl);
    let size = |b: &mut crate::builder::Builder, n: u32| {
        let n = b.c32(n);
        let s = b.ib(IntBin::ShrU, n, lvl);
        let zero = b.eqc(s, 0);
        let one = b.c32(1);
        b.sel(zero, one, s)
    };
    let width = size(b, l0.width);
    let one_c = b.c32(1);
    let layers = b.c32(t.layers());
    let (height, depth) = match t.ty {
        ImgType::D1 => (one_c, one_c),
        ImgType::D1Array => (layers, one_c),
        ImgType::D2 => (size(b, l0.height), one_c),
        ImgType::D3 => {
            let h = size(b, l0.height);
            (h, size(b, l0.depth))
        }
        ImgType::Cube | ImgType::D2Array => (size(b, l0.height), layers),
    };
    let levels = b.c32(t.last_level - t.base_level + 1);
    let all = [width, height, depth, levels];
    for (r, s) in slots(m.dmask).enumerate() {
        l.vgpr_set(m.vdata + r as u16, all[s]);
    }
    Ok(())
}
