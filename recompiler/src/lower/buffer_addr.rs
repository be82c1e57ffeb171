//! The addressing and range check of MUBUF and MTBUF instructions (see [`super::mem`]'s
//! module docs): `base + index * stride + offset` from the V# at SRSRC, IDXEN/OFFEN VGPRs,
//! SOFFSET and the instruction's offset, checked per dword by the V#'s OOB_SELECT.

use super::mem::word;
use super::operands::Ctx;
use super::regs::Lowerer;
use crate::ir::{Handle, IntBin, IntCmp};

/// A MUBUF/MTBUF instruction's V#, address and range check (see the module docs).
pub(super) struct BufferAddr {
    pub(super) vdata: u16,
    pub(super) glc: bool,
    /// Word3 of the V#.
    pub(super) word3: Handle,
    offset: Handle,
    stride: Handle,
    records: Handle,
    scaled: Handle,
    at: Handle,
    index_out: Handle,
    no_records: Handle,
    oob: [Handle; 3],
}

impl BufferAddr {
    pub(super) fn new(l: &mut Lowerer, c: &Ctx) -> Result<BufferAddr, String> {
        let (w0, w1) = (word(c, 0)?, word(c, 1)?);
        if w1 & (1 << 23) != 0 {
            return Err("memory: TFE (partially resident textures) is not modelled".into());
        }
        let (offen, idxen, glc) = (
            w0 & (1 << 12) != 0,
            w0 & (1 << 13) != 0,
            w0 & (1 << 14) != 0,
        );
        let (vaddr, vdata, srsrc, soffset) = (
            (w1 & 0xff) as u16,
            ((w1 >> 8) & 0xff) as u16,
            (((w1 >> 16) & 0x1f) * 4) as u16,
            ((w1 >> 24) & 0xff) as u16,
        );
        if srsrc > 100 {
            return Err(format!("memory: SRSRC s{srsrc} is not an SGPR quad"));
        }
        let v: Vec<Handle> = (0..4).map(|i| l.sgpr_get(srsrc + i)).collect();
        let b = &mut l.b;
        let hi16 = b.andc(v[1], 0xffff);
        let base = b.pack64(v[0], hi16);
        let stride = b.shrc(v[1], 16);
        let stride = b.andc(stride, 0x3fff);
        let records = v[2];
        let oob = b.shrc(v[3], 28);
        let oob = b.andc(oob, 3);
        let index = if idxen { l.vgpr_get(vaddr) } else { l.b.c32(0) };
        let voffset = if offen {
            l.vgpr_get(vaddr + u16::from(idxen))
        } else {
            l.b.c32(0)
        };
        let s = l.scalar_src(soffset)?;
        let b = &mut l.b;
        let offset = b.addc(voffset, u64::from(w0 & 0xfff));
        let offset = b.add(offset, s);
        let (i64_, s64) = (b.zext(index), b.zext(stride));
        let scaled = b.ib(IntBin::Mul, i64_, s64);
        let at = b.add(base, scaled);
        let index_out = b.icmp(IntCmp::GeU, index, records);
        let no_records = b.eqc(records, 0);
        let oob = [b.eqc(oob, 0), b.eqc(oob, 1), b.eqc(oob, 2)];
        Ok(BufferAddr {
            vdata,
            glc,
            word3: v[3],
            offset,
            stride,
            records,
            scaled,
            at,
            index_out,
            no_records,
            oob,
        })
    }

    /// The address of the access at byte `k` of the data and its range check.
    pub(super) fn at(&self, l: &mut Lowerer, k: u32) -> (Handle, Option<Handle>) {
        let b = &mut l.b;
        let off = b.addc(self.offset, u64::from(k));
        let off64 = b.zext(off);
        let end = b.add(self.scaled, off64);
        let rec64 = b.zext(self.records);
        let raw_out = b.icmp(IntCmp::GeU, end, rec64);
        let past_stride = b.icmp(IntCmp::GeU, off, self.stride);
        let structured_out = b.bor(self.index_out, past_stride);
        let [oob0, oob1, oob2] = self.oob;
        let o = b.sel(oob2, self.no_records, raw_out);
        let o = b.sel(oob1, self.index_out, o);
        let o = b.sel(oob0, structured_out, o);
        let ok = b.bnot(o);
        let a = b.add(self.at, off64);
        (a, Some(ok))
    }
}
