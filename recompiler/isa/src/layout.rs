//! Bit layouts of every encoding format, each written once as a list of fields. Decoding
//! extracts all fields (reserved bits included, so re-encoding gives back the same words);
//! encoding packs them. A test checks that every layout covers each of its words' 32 bits
//! exactly once.

/// A named bit field of an encoding format.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Field {
    /// Format identification bits.
    Enc,
    Op,
    /// High opcode bit kept apart from `Op` (MIMG bit 0, MTBUF second-dword bit 21).
    OpHi,
    Vdst,
    Sdst,
    Src0,
    Src1,
    Src2,
    Vsrc1,
    Simm16,
    Clamp,
    OpSel,
    Abs,
    Neg,
    Omod,
    OpSelHi,
    OpSelHi2,
    NegHi,
    NegLo,
    Sbase,
    Sdata,
    Dlc,
    Glc,
    Slc,
    Offset,
    Soffset,
    Vsrc,
    AttrChan,
    Attr,
    Offset0,
    Offset1,
    Gds,
    Addr,
    Data0,
    Data1,
    Offen,
    Idxen,
    Lds,
    Vaddr,
    Vdata,
    Srsrc,
    Tfe,
    Format,
    Seg,
    Saddr,
    Nv,
    Data,
    Nsa,
    Dim,
    Dmask,
    Unorm,
    R128,
    Lwe,
    Ssamp,
    A16,
    D16,
    En,
    Target,
    Compr,
    Done,
    Vm,
    Vsrc0,
    Vsrc2,
    Vsrc3,
    // SDWA word
    SdwaSrc0,
    DstSel,
    DstUnused,
    SdwaClamp,
    SdwaOmod,
    Src0Sel,
    Src0Sext,
    Src0Neg,
    Src0Abs,
    S0,
    Src1Sel,
    Src1Sext,
    Src1Neg,
    Src1Abs,
    S1,
    SdwaSdst,
    Sd,
    // DPP words
    DppSrc0,
    DppCtrl,
    Fi,
    BoundCtrl,
    BankMask,
    RowMask,
    Dpp8Sel,
    Rsv0,
    Rsv1,
    Rsv2,
    Rsv3,
}

pub const NFIELDS: usize = Field::Rsv3 as usize + 1;

/// (field, word index, low bit, width)
pub type Slot = (Field, u8, u8, u8);

use Field::*;

pub const SOP2: &[Slot] = &[
    (Src0, 0, 0, 8),
    (Src1, 0, 8, 8),
    (Sdst, 0, 16, 7),
    (Op, 0, 23, 7),
    (Enc, 0, 30, 2),
];
pub const SOPK: &[Slot] = &[
    (Simm16, 0, 0, 16),
    (Sdst, 0, 16, 7),
    (Op, 0, 23, 5),
    (Enc, 0, 28, 4),
];
pub const SOP1: &[Slot] = &[
    (Src0, 0, 0, 8),
    (Op, 0, 8, 8),
    (Sdst, 0, 16, 7),
    (Enc, 0, 23, 9),
];
pub const SOPC: &[Slot] = &[
    (Src0, 0, 0, 8),
    (Src1, 0, 8, 8),
    (Op, 0, 16, 7),
    (Enc, 0, 23, 9),
];
pub const SOPP: &[Slot] = &[(Simm16, 0, 0, 16), (Op, 0, 16, 7), (Enc, 0, 23, 9)];
pub const SMEM: &[Slot] = &[
    (Sbase, 0, 0, 6),
    (Sdata, 0, 6, 7),
    (Rsv0, 0, 13, 1),
    (Dlc, 0, 14, 1),
    (Rsv1, 0, 15, 1),
    (Glc, 0, 16, 1),
    (Rsv2, 0, 17, 1),
    (Op, 0, 18, 8),
    (Enc, 0, 26, 6),
    (Offset, 1, 0, 21),
    (Rsv3, 1, 21, 4),
    (Soffset, 1, 25, 7),
];
pub const VOP1: &[Slot] = &[
    (Src0, 0, 0, 9),
    (Op, 0, 9, 8),
    (Vdst, 0, 17, 8),
    (Enc, 0, 25, 7),
];
pub const VOP2: &[Slot] = &[
    (Src0, 0, 0, 9),
    (Vsrc1, 0, 9, 8),
    (Vdst, 0, 17, 8),
    (Op, 0, 25, 6),
    (Enc, 0, 31, 1),
];
pub const VOPC: &[Slot] = &[
    (Src0, 0, 0, 9),
    (Vsrc1, 0, 9, 8),
    (Op, 0, 17, 8),
    (Enc, 0, 25, 7),
];
/// The SDWA word of VOP1/VOP2 (word 1).
pub const SDWA: &[Slot] = &[
    (SdwaSrc0, 1, 0, 8),
    (DstSel, 1, 8, 3),
    (DstUnused, 1, 11, 2),
    (SdwaClamp, 1, 13, 1),
    (SdwaOmod, 1, 14, 2),
    (Src0Sel, 1, 16, 3),
    (Src0Sext, 1, 19, 1),
    (Src0Neg, 1, 20, 1),
    (Src0Abs, 1, 21, 1),
    (Rsv0, 1, 22, 1),
    (S0, 1, 23, 1),
    (Src1Sel, 1, 24, 3),
    (Src1Sext, 1, 27, 1),
    (Src1Neg, 1, 28, 1),
    (Src1Abs, 1, 29, 1),
    (Rsv1, 1, 30, 1),
    (S1, 1, 31, 1),
];
/// The SDWA word of VOPC: bits 15:8 hold the scalar destination instead of dst_sel/clamp/omod.
pub const SDWA_VOPC: &[Slot] = &[
    (SdwaSrc0, 1, 0, 8),
    (SdwaSdst, 1, 8, 7),
    (Sd, 1, 15, 1),
    (Src0Sel, 1, 16, 3),
    (Src0Sext, 1, 19, 1),
    (Src0Neg, 1, 20, 1),
    (Src0Abs, 1, 21, 1),
    (Rsv0, 1, 22, 1),
    (S0, 1, 23, 1),
    (Src1Sel, 1, 24, 3),
    (Src1Sext, 1, 27, 1),
    (Src1Neg, 1, 28, 1),
    (Src1Abs, 1, 29, 1),
    (Rsv1, 1, 30, 1),
    (S1, 1, 31, 1),
];
pub const DPP16: &[Slot] = &[
    (DppSrc0, 1, 0, 8),
    (DppCtrl, 1, 8, 9),
    (Rsv0, 1, 17, 1),
    (Fi, 1, 18, 1),
    (BoundCtrl, 1, 19, 1),
    (Src0Neg, 1, 20, 1),
    (Src0Abs, 1, 21, 1),
    (Src1Neg, 1, 22, 1),
    (Src1Abs, 1, 23, 1),
    (BankMask, 1, 24, 4),
    (RowMask, 1, 28, 4),
];
pub const DPP8: &[Slot] = &[(DppSrc0, 1, 0, 8), (Dpp8Sel, 1, 8, 24)];
pub const VOP3: &[Slot] = &[
    (Vdst, 0, 0, 8),
    (Abs, 0, 8, 3),
    (OpSel, 0, 11, 4),
    (Clamp, 0, 15, 1),
    (Op, 0, 16, 10),
    (Enc, 0, 26, 6),
    (Src0, 1, 0, 9),
    (Src1, 1, 9, 9),
    (Src2, 1, 18, 9),
    (Omod, 1, 27, 2),
    (Neg, 1, 29, 3),
];
pub const VOP3B: &[Slot] = &[
    (Vdst, 0, 0, 8),
    (Sdst, 0, 8, 7),
    (Clamp, 0, 15, 1),
    (Op, 0, 16, 10),
    (Enc, 0, 26, 6),
    (Src0, 1, 0, 9),
    (Src1, 1, 9, 9),
    (Src2, 1, 18, 9),
    (Omod, 1, 27, 2),
    (Neg, 1, 29, 3),
];
pub const VOP3P: &[Slot] = &[
    (Vdst, 0, 0, 8),
    (NegHi, 0, 8, 3),
    (OpSel, 0, 11, 3),
    (OpSelHi2, 0, 14, 1),
    (Clamp, 0, 15, 1),
    (Op, 0, 16, 7),
    (Rsv0, 0, 23, 3),
    (Enc, 0, 26, 6),
    (Src0, 1, 0, 9),
    (Src1, 1, 9, 9),
    (Src2, 1, 18, 9),
    (OpSelHi, 1, 27, 2),
    (NegLo, 1, 29, 3),
];
pub const VINTRP: &[Slot] = &[
    (Vsrc, 0, 0, 8),
    (AttrChan, 0, 8, 2),
    (Attr, 0, 10, 6),
    (Op, 0, 16, 2),
    (Vdst, 0, 18, 8),
    (Enc, 0, 26, 6),
];
pub const DS: &[Slot] = &[
    (Offset0, 0, 0, 8),
    (Offset1, 0, 8, 8),
    (Rsv0, 0, 16, 1),
    (Gds, 0, 17, 1),
    (Op, 0, 18, 8),
    (Enc, 0, 26, 6),
    (Addr, 1, 0, 8),
    (Data0, 1, 8, 8),
    (Data1, 1, 16, 8),
    (Vdst, 1, 24, 8),
];
pub const MUBUF: &[Slot] = &[
    (Offset, 0, 0, 12),
    (Offen, 0, 12, 1),
    (Idxen, 0, 13, 1),
    (Glc, 0, 14, 1),
    (Dlc, 0, 15, 1),
    (Lds, 0, 16, 1),
    (Rsv0, 0, 17, 1),
    (Op, 0, 18, 7),
    // The opcode's bit 7 (buffer_load_format_d16_x is 128).
    (OpHi, 0, 25, 1),
    (Enc, 0, 26, 6),
    (Vaddr, 1, 0, 8),
    (Vdata, 1, 8, 8),
    (Srsrc, 1, 16, 5),
    (Rsv2, 1, 21, 1),
    (Slc, 1, 22, 1),
    (Tfe, 1, 23, 1),
    (Soffset, 1, 24, 8),
];
pub const MTBUF: &[Slot] = &[
    (Offset, 0, 0, 12),
    (Offen, 0, 12, 1),
    (Idxen, 0, 13, 1),
    (Glc, 0, 14, 1),
    (Dlc, 0, 15, 1),
    (Op, 0, 16, 3),
    (Format, 0, 19, 7),
    (Enc, 0, 26, 6),
    (Vaddr, 1, 0, 8),
    (Vdata, 1, 8, 8),
    (Srsrc, 1, 16, 5),
    (OpHi, 1, 21, 1),
    (Slc, 1, 22, 1),
    (Tfe, 1, 23, 1),
    (Soffset, 1, 24, 8),
];
pub const FLAT: &[Slot] = &[
    (Offset, 0, 0, 12),
    (Dlc, 0, 12, 1),
    (Lds, 0, 13, 1),
    (Seg, 0, 14, 2),
    (Glc, 0, 16, 1),
    (Slc, 0, 17, 1),
    (Op, 0, 18, 7),
    (Rsv0, 0, 25, 1),
    (Enc, 0, 26, 6),
    (Addr, 1, 0, 8),
    (Data, 1, 8, 8),
    (Saddr, 1, 16, 7),
    (Nv, 1, 23, 1),
    (Vdst, 1, 24, 8),
];
pub const MIMG: &[Slot] = &[
    (OpHi, 0, 0, 1),
    (Nsa, 0, 1, 2),
    (Dim, 0, 3, 3),
    (Rsv0, 0, 6, 1),
    (Dlc, 0, 7, 1),
    (Dmask, 0, 8, 4),
    (Unorm, 0, 12, 1),
    (Glc, 0, 13, 1),
    (Rsv1, 0, 14, 1),
    (R128, 0, 15, 1),
    (Tfe, 0, 16, 1),
    (Lwe, 0, 17, 1),
    (Op, 0, 18, 7),
    (Slc, 0, 25, 1),
    (Enc, 0, 26, 6),
    (Vaddr, 1, 0, 8),
    (Vdata, 1, 8, 8),
    (Srsrc, 1, 16, 5),
    (Ssamp, 1, 21, 5),
    (Rsv2, 1, 26, 4),
    (A16, 1, 30, 1),
    (D16, 1, 31, 1),
];
pub const EXP: &[Slot] = &[
    (En, 0, 0, 4),
    (Target, 0, 4, 6),
    (Compr, 0, 10, 1),
    (Done, 0, 11, 1),
    (Vm, 0, 12, 1),
    (Rsv0, 0, 13, 13),
    (Enc, 0, 26, 6),
    (Vsrc0, 1, 0, 8),
    (Vsrc1, 1, 8, 8),
    (Vsrc2, 1, 16, 8),
    (Vsrc3, 1, 24, 8),
];

/// Field values of one instruction, indexed by [`Field`].
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Fields(pub [u32; NFIELDS]);

impl Default for Fields {
    fn default() -> Self {
        Fields([0; NFIELDS])
    }
}

impl std::fmt::Debug for Fields {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut m = f.debug_map();
        for (i, v) in self.0.iter().enumerate() {
            if *v != 0 {
                m.entry(&i, v);
            }
        }
        m.finish()
    }
}

impl Fields {
    pub fn get(&self, f: Field) -> u32 {
        self.0[f as usize]
    }
    pub fn set(&mut self, f: Field, v: u32) {
        self.0[f as usize] = v;
    }
    /// Extract the fields of `layout` from `words` (missing words read as zero).
    pub fn extract(&mut self, layout: &[Slot], words: &[u32]) {
        for &(f, w, lo, width) in layout {
            let word = words.get(w as usize).copied().unwrap_or(0);
            self.0[f as usize] = (word >> lo) & mask(width);
        }
    }
    /// Pack the fields of `layout` into `words`.
    pub fn pack(&self, layout: &[Slot], words: &mut [u32]) {
        for &(f, w, lo, width) in layout {
            if let Some(word) = words.get_mut(w as usize) {
                *word |= (self.0[f as usize] & mask(width)) << lo;
            }
        }
    }
}

pub fn mask(width: u8) -> u32 {
    if width >= 32 {
        u32::MAX
    } else {
        (1u32 << width) - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_layout_covers_its_words_exactly_once() {
        let layouts: &[(&str, &[Slot], usize)] = &[
            ("SOP2", SOP2, 1),
            ("SOPK", SOPK, 1),
            ("SOP1", SOP1, 1),
            ("SOPC", SOPC, 1),
            ("SOPP", SOPP, 1),
            ("SMEM", SMEM, 2),
            ("VOP1", VOP1, 1),
            ("VOP2", VOP2, 1),
            ("VOPC", VOPC, 1),
            ("VOP3", VOP3, 2),
            ("VOP3B", VOP3B, 2),
            ("VOP3P", VOP3P, 2),
            ("VINTRP", VINTRP, 1),
            ("DS", DS, 2),
            ("MUBUF", MUBUF, 2),
            ("MTBUF", MTBUF, 2),
            ("FLAT", FLAT, 2),
            ("MIMG", MIMG, 2),
            ("EXP", EXP, 2),
        ];
        for (name, layout, n) in layouts {
            let mut cover = vec![0u32; *n];
            for &(f, w, lo, width) in *layout {
                let m = mask(width) << lo;
                assert_eq!(cover[w as usize] & m, 0, "{name}: {f:?} overlaps");
                cover[w as usize] |= m;
            }
            assert!(
                cover.iter().all(|c| *c == u32::MAX),
                "{name}: bits uncovered {cover:x?}"
            );
        }
        for (name, layout) in [
            ("SDWA", SDWA),
            ("SDWA_VOPC", SDWA_VOPC),
            ("DPP16", DPP16),
            ("DPP8", DPP8),
        ] {
            let mut cover = 0u32;
            for &(f, _, lo, width) in layout {
                let m = mask(width) << lo;
                assert_eq!(cover & m, 0, "{name}: {f:?} overlaps");
                cover |= m;
            }
            assert_eq!(cover, u32::MAX, "{name}");
        }
    }
}
