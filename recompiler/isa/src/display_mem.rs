//! Printer for the scalar-control, scalar-memory, interpolation, memory and export families
//! (SOPP, SOPK, SMEM, VINTRP, DS, MUBUF, MTBUF, FLAT/GLOBAL/SCRATCH, MIMG, EXP), in llvm-mc's
//! syntax. Register widths that do not depend on the encoding's fields come from the row's
//! operand list (the llvm-mc probe of the row); widths that do (MUBUF/MIMG `tfe`, MIMG `dmask`,
//! `d16`, address count, FLAT address width) are computed from the fields here, with the row's
//! flags saying which operands the opcode has.

use crate::decode::{Encoding, Instruction};
use crate::display::{invalid_note, SlotClass};
use crate::layout::Field;
use crate::opcode::Opcode;
use crate::operand::{self, Operand, Reg, RegKind};
use crate::probe::{probe_operands, probe_widths, token_dwords};
use crate::symbolic;
use crate::table::{Family, Flags, OpInfo, ValueType};
use crate::Target;

fn v(index: u32, count: u32) -> String {
    operand::reg_name(&Reg {
        kind: RegKind::Vgpr,
        index: index as u16,
        count: count.clamp(1, 255) as u8,
    })
}

/// A scalar register list from a 7-bit SGPR-space field.
fn s(code: u32, count: u8) -> String {
    scalar_text(&operand::decode_sdst(code as u16, count))
}

/// llvm-mc's comment on a scalar register list of a 7-bit field outside its class.
fn scalar_note(code: u32, count: u8) -> String {
    invalid_note(
        &operand::decode_sdst(code as u16, count),
        SlotClass::ScalarSrc(count),
    )
}

fn scalar_text(op: &Operand) -> String {
    match op {
        Operand::Reg(r) => operand::reg_name(r),
        other => crate::display::operand_text(other, ValueType::B32),
    }
}

fn join(mnemonic: &str, ops: &[String]) -> String {
    if ops.is_empty() {
        mnemonic.to_string()
    } else {
        format!("{mnemonic} {}", ops.join(", "))
    }
}

fn cache_bits(out: &mut String, glc: u32, slc: u32, dlc: u32) {
    if glc != 0 {
        out.push_str(" glc");
    }
    if slc != 0 {
        out.push_str(" slc");
    }
    if dlc != 0 {
        out.push_str(" dlc");
    }
}

/// Sign-extend the low `bits` bits of `v`.
fn sext(v: u32, bits: u32) -> i64 {
    let shift = 64 - bits;
    ((i64::from(v)) << shift) >> shift
}

fn hex_signed(v: i64) -> String {
    if v < 0 {
        format!("-0x{:x}", -v)
    } else {
        format!("0x{v:x}")
    }
}

impl Instruction {
    /// Text of the families this module prints.
    pub(crate) fn other_text(&self, target: Target) -> String {
        let f = |x| self.fields.get(x);
        let info = self.info;
        let m = info.mnemonic_for(target);
        match self.encoding {
            Encoding::SOPP => self.sopp_text(m),
            Encoding::SOPK => self.sopk_text(m),
            Encoding::SMEM => self.smem_text(m),
            Encoding::VINTRP => {
                let attr = format!(
                    "attr{}.{}",
                    f(Field::Attr),
                    ["x", "y", "z", "w"][f(Field::AttrChan) as usize & 3]
                );
                let src = if info.op() == Opcode::v_interp_mov_f32_vintrp {
                    match f(Field::Vsrc) {
                        0 => "p10".to_string(),
                        1 => "p20".to_string(),
                        2 => "p0".to_string(),
                        n => format!("invalid_param_{n}"),
                    }
                } else {
                    v(f(Field::Vsrc), 1)
                };
                format!("{m}_e32 {}, {src}, {attr}", v(f(Field::Vdst), 1))
            }
            Encoding::DS => self.ds_text(m),
            Encoding::MUBUF | Encoding::MTBUF => self.buffer_text(m),
            Encoding::FLAT => self.flat_text(m),
            Encoding::MIMG => self.mimg_text(m),
            Encoding::EXP => self.exp_text(),
            _ => m.to_string(),
        }
    }

    fn sopp_text(&self, m: &str) -> String {
        let imm = self.fields.get(Field::Simm16);
        let probe = probe_operands(self.info.probe_text);
        match self.info.op() {
            Opcode::s_waitcnt => format!("{m} {}", symbolic::waitcnt(imm)),
            Opcode::s_sendmsg | Opcode::s_sendmsghalt => format!("{m} {}", symbolic::sendmsg(imm)),
            Opcode::s_waitcnt_depctr => format!("{m} {}", symbolic::depctr(imm)),
            // Opcodes whose probe printed `0x0` always print hexadecimal.
            _ if probe.first().is_some_and(|t| t.starts_with("0x")) => format!("{m} 0x{imm:x}"),
            _ if probe.is_empty() => {
                // Opcodes without an operand print their immediate only when it is set.
                if imm == 0 {
                    m.to_string()
                } else {
                    format!("{m} {imm}")
                }
            }
            _ if self.info.has(Flags::BRANCH) => format!("{m} {imm}"),
            // Others: decimal in the inline-integer range, hexadecimal above.
            _ if imm <= 64 => format!("{m} {imm}"),
            _ => format!("{m} 0x{imm:x}"),
        }
    }

    fn sopk_text(&self, m: &str) -> String {
        let imm = self.fields.get(Field::Simm16);
        let sdst = || {
            let w = self.info.dsts.first().map_or(1, |d| d.dwords);
            s(self.fields.get(Field::Sdst), w)
        };
        match self.info.op() {
            Opcode::s_getreg_b32 => format!("{m} {}, {}", sdst(), symbolic::hwreg(imm)),
            Opcode::s_setreg_b32 => format!(
                "{m} {}, {}",
                symbolic::hwreg(imm),
                s(self.fields.get(Field::Sdst), 1)
            ),
            Opcode::s_setreg_imm32_b32 => format!(
                "{m} {}, 0x{:x}",
                symbolic::hwreg(imm),
                self.literal.unwrap_or(0)
            ),
            Opcode::s_version => format!("{m} {}", symbolic::version(imm)),
            _ => {
                let toks = probe_operands(self.info.probe_text);
                let reg = toks.first().map_or(1, |t| token_dwords(t));
                let dst = s(self.fields.get(Field::Sdst), reg);
                let decimal = toks.last().is_some_and(|t| !t.starts_with("0x"));
                if decimal {
                    format!("{m} {dst}, {imm}")
                } else {
                    format!("{m} {dst}, 0x{imm:x}")
                }
            }
        }
    }

    fn smem_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let widths = probe_widths(self.info.probe_text);
        let toks = probe_operands(self.info.probe_text);
        let mut out;
        if toks.is_empty() {
            return m.to_string();
        }
        let probe = self.info.has(Flags::ATC_PROBE);
        let data = if probe {
            // The probe mode is an immediate: decimal in the inline-integer range, else hex.
            match f(Field::Sdata) {
                d @ 0..=64 => d.to_string(),
                d => format!("0x{d:x}"),
            }
        } else {
            let w = widths.first().copied().unwrap_or(1);
            let op = operand::decode_sdst(f(Field::Sdata) as u16, w);
            // Load destinations exclude M0 and EXEC.
            let note = match op {
                Operand::Reg(Reg {
                    kind: RegKind::M0 | RegKind::Exec,
                    count: 1,
                    ..
                }) => "/*Invalid register, operand has 'SReg_32_XM0_XEXEC' register class*/".into(),
                Operand::Reg(Reg {
                    kind: RegKind::Exec,
                    count: 2,
                    ..
                }) => "/*Invalid register, operand has 'SReg_64_XEXEC' register class*/".into(),
                _ => scalar_note(f(Field::Sdata), w),
            };
            s(f(Field::Sdata), w) + &note
        };
        if toks.len() == 1 {
            out = format!("{m} {data}");
        } else {
            let base_w = if probe {
                widths.first().copied().unwrap_or(2)
            } else {
                widths.get(1).copied().unwrap_or(2)
            };
            let base = s(f(Field::Sbase) << 1, base_w) + &scalar_note(f(Field::Sbase) << 1, base_w);
            let offset = sext(f(Field::Offset), 21);
            let soffset = f(Field::Soffset);
            out = if soffset == 125 {
                if offset == 0 {
                    format!("{m} {data}, {base}, null")
                } else {
                    format!("{m} {data}, {base}, {}", hex_signed(offset))
                }
            } else {
                let so = s(soffset, 1);
                if offset == 0 {
                    format!("{m} {data}, {base}, {so}")
                } else {
                    format!("{m} {data}, {base}, {so} offset:{}", hex_signed(offset))
                }
            };
        }
        if self.info.has(Flags::LOAD) {
            cache_bits(&mut out, f(Field::Glc), 0, f(Field::Dlc));
        }
        out
    }

    fn ds_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let widths = probe_widths(self.info.probe_text);
        let (has_vdst, no_addr) = (self.info.has(Flags::VDST), self.info.has(Flags::NO_ADDR));
        let gws = self.info.has(Flags::GWS);
        let mut ops = Vec::new();
        let mut w = widths.iter().copied();
        if has_vdst {
            ops.push(v(f(Field::Vdst), w.next().unwrap_or(1).into()));
        }
        let rest: Vec<u8> = w.collect();
        let mut data_fields = [Field::Data0, Field::Data1].into_iter();
        for (i, width) in rest.iter().enumerate() {
            if i == 0 && !no_addr {
                ops.push(v(f(Field::Addr), 1));
            } else if i == 0 && gws {
                // The gws forms' data0 sits in the address field (LLVM's has_gws_data0).
                ops.push(v(f(Field::Addr), (*width).into()));
            } else if let Some(df) = data_fields.next() {
                // In ds_append and the addtid forms the first register operand is data0.
                ops.push(v(f(df), (*width).into()));
            }
        }
        let mut out = join(m, &ops);
        if self.info.op() == Opcode::ds_swizzle_b32 {
            out.push_str(&symbolic::swizzle(
                f(Field::Offset0) | (f(Field::Offset1) << 8),
            ));
        } else if self.info.has(Flags::TWO_OFFSETS) {
            if f(Field::Offset0) != 0 {
                out.push_str(&format!(" offset0:{}", f(Field::Offset0)));
            }
            if f(Field::Offset1) != 0 {
                out.push_str(&format!(" offset1:{}", f(Field::Offset1)));
            }
        } else {
            let off = f(Field::Offset0) | (f(Field::Offset1) << 8);
            if off != 0 {
                out.push_str(&format!(" offset:{off}"));
            }
        }
        if f(Field::Gds) != 0 || gws {
            out.push_str(" gds");
        }
        out
    }

    fn buffer_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let widths = probe_widths(self.info.probe_text);
        if widths.is_empty() {
            return m.to_string();
        }
        let lds = self.encoding == Encoding::MUBUF && f(Field::Lds) != 0;
        let data_w = u32::from(widths[0]) + f(Field::Tfe);
        let vaddr = match (f(Field::Idxen), f(Field::Offen)) {
            (0, 0) => "off".to_string(),
            (1, 1) => v(f(Field::Vaddr), 2),
            _ => v(f(Field::Vaddr), 1),
        };
        let srsrc = s(f(Field::Srsrc) << 2, 4);
        let so = operand::decode_src(f(Field::Soffset) as u16, ValueType::B32, 1, None);
        let soffset = crate::display::operand_text(&so, ValueType::B32)
            + &invalid_note(&so, SlotClass::ScalarSrc(1));
        let mut ops = Vec::new();
        if !lds {
            ops.push(v(f(Field::Vdata), data_w));
        }
        ops.extend([vaddr, srsrc, soffset]);
        let mut out = join(m, &ops);
        if self.encoding == Encoding::MTBUF {
            out.push_str(&symbolic::buffer_format(f(Field::Format)));
        }
        match (f(Field::Idxen), f(Field::Offen)) {
            (1, 1) => out.push_str(" idxen offen"),
            (1, 0) => out.push_str(" idxen"),
            (0, 1) => out.push_str(" offen"),
            _ => {}
        }
        if f(Field::Offset) != 0 {
            out.push_str(&format!(" offset:{}", f(Field::Offset)));
        }
        cache_bits(&mut out, f(Field::Glc), f(Field::Slc), f(Field::Dlc));
        if lds {
            out.push_str(" lds");
        }
        if f(Field::Tfe) != 0 {
            out.push_str(" tfe");
        }
        out
    }

    fn flat_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let widths = probe_widths(self.info.probe_text);
        let fam = self.info.family;
        let saddr = f(Field::Saddr);
        let saddr_off = saddr == 0x7d || saddr == 0x7f;
        let atomic = self.info.has(Flags::ATOMIC);
        let load = self.info.has(Flags::LOAD);
        let lds = f(Field::Lds) != 0;
        let addtid = self.info.has(Flags::ADDTID);
        let vaddr = match fam {
            Family::FLAT => Some(v(f(Field::Addr), 2)),
            Family::GLOBAL if addtid => None,
            Family::GLOBAL if saddr_off => Some(v(f(Field::Addr), 2)),
            Family::GLOBAL => Some(v(f(Field::Addr), 1)),
            // SCRATCH with saddr 0x7f has no address at all.
            _ if saddr == 0x7f => Some("off".to_string()),
            _ if saddr_off => Some(v(f(Field::Addr), 1)),
            _ => Some("off".to_string()),
        };
        let saddr_text = match fam {
            Family::FLAT => None,
            _ if saddr_off => Some("off".to_string()),
            Family::GLOBAL => Some(s(saddr, 2)),
            _ => Some(s(saddr, 1)),
        };
        let mut ops = Vec::new();
        if load {
            // Loads: vdst (absent for loads to LDS), address, saddr.
            if !lds {
                ops.push(v(
                    f(Field::Vdst),
                    widths.first().copied().unwrap_or(1).into(),
                ));
            }
            ops.extend(vaddr);
        } else {
            // Stores and atomics: [vdst when the atomic returns], address, data.
            let data_w = widths.get(1).copied().unwrap_or(1);
            if atomic && f(Field::Glc) != 0 {
                let ret_w = if self.info.has(Flags::ATOMIC_X2) {
                    data_w / 2
                } else {
                    data_w
                };
                ops.push(v(f(Field::Vdst), ret_w.into()));
            }
            ops.extend(vaddr);
            let data_w = if addtid {
                widths.first().copied().unwrap_or(1)
            } else {
                data_w
            };
            ops.push(v(f(Field::Data), data_w.into()));
        }
        ops.extend(saddr_text);
        let mut out = join(m, &ops);
        // FLAT offsets are unsigned, GLOBAL/SCRATCH ones signed (12 bits).
        let offset = if fam == Family::FLAT {
            i64::from(f(Field::Offset))
        } else {
            sext(f(Field::Offset), 12)
        };
        if offset != 0 {
            out.push_str(&format!(" offset:{offset}"));
        }
        cache_bits(&mut out, f(Field::Glc), f(Field::Slc), f(Field::Dlc));
        if lds {
            out.push_str(" lds");
        }
        out
    }

    fn mimg_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let info = self.info;
        if info.has(Flags::BVH) {
            return self.bvh_text(m);
        }
        let dmask = f(Field::Dmask);
        let gather = info.has(Flags::GATHER4);
        let d16 = f(Field::D16) != 0;
        let a16 = f(Field::A16) != 0;
        let nsa = f(Field::Nsa);
        let dim = f(Field::Dim);
        // llvm-mc first decodes a default variant of the opcode (1 data dword, or 4 for
        // gather4; the smallest address register), then switches to the variant with the data
        // and address sizes the fields ask for: data = dmask channels (4 for gather4), halved
        // for packed d16, plus one for tfe; address = the opcode's address count. When no such
        // variant exists (a count outside the opcode's register classes, more addresses than
        // the NSA words hold), the default variant's sizes are printed.
        let mut data = if gather { 4 } else { dmask.count_ones().max(1) };
        if d16 {
            data = data.div_ceil(2);
        }
        data += f(Field::Tfe);
        let naddr = mimg_address_count(info, dim, a16);
        let sampler = info.has(Flags::SAMPLER);
        // Address counts the opcode has variants for. Sample and gather opcodes: a range by
        // kind (1..3 plain, 2..9 with gradients, 2..7 with 16-bit gradients; one more with
        // lod/clamp), shifted by the extra arguments; other image opcodes: 1..4. Non-NSA
        // variants exist for each count, with a 4-register variant for 3, an 8-register one for
        // 5..8 and a 16-register one for 13..16; NSA variants for each count from 2 to 12, the
        // default of each NSA size being the largest count it holds.
        let counts: Vec<u32> = if sampler {
            let (lo, hi) = mimg_sampler_range(info);
            (lo..=hi).collect()
        } else {
            (1..=4).collect()
        };
        let has = |lo: u32, hi: u32| counts.iter().any(|c| (lo..=hi).contains(c));
        let plain_variant = |n: u32| match n {
            4 => has(3, 4),
            8 => has(5, 8),
            16 => has(13, 16),
            _ => has(n, n),
        };
        let nsa_group = |n: u32| match n {
            2..=5 => 1,
            6..=9 => 2,
            10..=12 => 3,
            _ => 0,
        };
        let default_addr = if nsa == 0 {
            counts.iter().copied().min().unwrap_or(1)
        } else {
            counts
                .iter()
                .copied()
                .filter(|&n| nsa_group(n) == nsa)
                .max()
                .unwrap_or(1 + 4 * nsa)
        };
        let data_ok = if gather {
            matches!(data, 2 | 4 | 5)
        } else {
            (1..=5).contains(&data)
        } && f(Field::Vdata) + data <= 256;
        let n = if naddr > 12 { 16 } else { naddr };
        let addr_ok = if nsa == 0 {
            plain_variant(n) && f(Field::Vaddr) + n <= 256
        } else {
            has(n, n) && nsa_group(n) != 0 && n <= default_addr
        };
        let (data, addr) = if data_ok && addr_ok {
            (data, n)
        } else {
            let default_data = if gather {
                4
            } else if info.has(Flags::ATOMIC_X2) {
                2
            } else {
                1
            };
            (default_data, default_addr)
        };
        let vaddr = if nsa == 0 {
            v(f(Field::Vaddr), addr)
        } else {
            let mut regs = vec![f(Field::Vaddr)];
            for w in &self.nsa {
                regs.extend(w.to_le_bytes().iter().map(|b| u32::from(*b)));
            }
            regs.truncate(addr.max(1) as usize);
            let names: Vec<String> = regs.iter().map(|r| v(*r, 1)).collect();
            format!("[{}]", names.join(", "))
        };
        let mut ops = vec![v(f(Field::Vdata), data), vaddr, s(f(Field::Srsrc) << 2, 8)];
        if sampler {
            ops.push(s(f(Field::Ssamp) << 2, 4));
        }
        let mut out = join(m, &ops);
        if dmask != 0 {
            out.push_str(&format!(" dmask:0x{dmask:x}"));
        }
        out.push_str(&format!(" dim:SQ_RSRC_IMG_{}", DIMS[dim as usize & 7]));
        if f(Field::Unorm) != 0 {
            out.push_str(" unorm");
        }
        cache_bits(&mut out, f(Field::Glc), f(Field::Slc), f(Field::Dlc));
        for (fl, name) in [
            (Field::R128, " r128"),
            (Field::A16, " a16"),
            (Field::Tfe, " tfe"),
            (Field::Lwe, " lwe"),
            (Field::D16, " d16"),
        ] {
            if f(fl) != 0 {
                out.push_str(name);
            }
        }
        out
    }

    /// Ray intersection: four result dwords, the ray (11 dwords, 12 with a 64-bit node
    /// pointer; the direction and inverse direction pack to half with a16) and a 4-dword
    /// resource; dmask, dim, unorm and r128 are fixed and not printed.
    fn bvh_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let a16 = f(Field::A16) != 0;
        let naddr = match (self.info.has(Flags::BVH64), a16) {
            (false, false) => 11,
            (false, true) => 8,
            (true, false) => 12,
            (true, true) => 9,
        };
        let vaddr = if f(Field::Nsa) == 0 {
            v(f(Field::Vaddr), naddr)
        } else {
            let mut regs = vec![f(Field::Vaddr)];
            for w in &self.nsa {
                regs.extend(w.to_le_bytes().iter().map(|b| u32::from(*b)));
            }
            regs.truncate(naddr as usize);
            let names: Vec<String> = regs.iter().map(|r| v(*r, 1)).collect();
            format!("[{}]", names.join(", "))
        };
        let mut out = format!(
            "{m} {}, {vaddr}, {}",
            v(f(Field::Vdata), 4),
            s(f(Field::Srsrc) << 2, 4)
        );
        if a16 {
            out.push_str(" a16");
        }
        out
    }

    fn exp_text(&self) -> String {
        let f = |x| self.fields.get(x);
        let target = f(Field::Target);
        let t = match target {
            0..=7 => format!("mrt{target}"),
            8 => "mrtz".into(),
            9 => "null".into(),
            12..=16 => format!("pos{}", target - 12),
            20 => "prim".into(),
            32..=63 => format!("param{}", target - 32),
            _ => format!("invalid_target_{target}"),
        };
        let en = f(Field::En);
        let compr = f(Field::Compr) != 0;
        let srcs = [Field::Vsrc0, Field::Vsrc1, Field::Vsrc2, Field::Vsrc3];
        let ops: Vec<String> = (0..4)
            .map(|n| {
                let field = if compr { srcs[n / 2] } else { srcs[n] };
                if en & (1 << n) != 0 {
                    v(f(field), 1)
                } else {
                    "off".into()
                }
            })
            .collect();
        let mut out = format!("exp {t} {}", ops.join(", "));
        if f(Field::Done) != 0 {
            out.push_str(" done");
        }
        if compr {
            out.push_str(" compr");
        }
        if f(Field::Vm) != 0 {
            out.push_str(" vm");
        }
        out
    }
}

impl Instruction {
    /// VOP3-encoded interpolation (`v_interp_*_e64`, `v_interp_*_f16`): src0 holds the
    /// attribute (bits 5:0), channel (7:6) and the `high` half select (8); src1 the
    /// barycentric VGPR (or the parameter of v_interp_mov_f32); src2 the f16 forms' third source.
    pub(crate) fn vop3_interp_text(&self, m: &str) -> String {
        let f = |x| self.fields.get(x);
        let mods = self.modifiers();
        let src0 = f(Field::Src0);
        let attr = format!(
            "attr{}.{}",
            src0 & 0x3f,
            ["x", "y", "z", "w"][(src0 >> 6) as usize & 3]
        );
        let with = |i: usize, t: String, constant: bool| {
            crate::display::with_mods(t, mods.neg[i], mods.abs[i], constant)
        };
        // The barycentric and f16 sources are VGPRs only.
        let src = |i: usize, code: u32| {
            let op = operand::decode_src(code as u16, ValueType::F32, 1, self.literal);
            let t = crate::display::operand_text(&op, ValueType::F32)
                + &invalid_note(&op, SlotClass::Vgpr(1));
            let constant = matches!(
                op,
                Operand::InlineInt(_) | Operand::InlineFloat { .. } | Operand::Literal(_)
            );
            with(i, t, constant)
        };
        let suffix = if crate::table::lookup_name(m)
            .iter()
            .any(|r| r.family == Family::VINTRP)
        {
            "_e64"
        } else {
            ""
        };
        let src1 = if self.info.op() == Opcode::v_interp_mov_f32_vop3 {
            match f(Field::Src1) {
                0 => "p10".to_string(),
                1 => "p20".to_string(),
                2 => "p0".to_string(),
                n => format!("invalid_param_{n}"),
            }
        } else {
            src(1, f(Field::Src1))
        };
        let mut ops = vec![v(f(Field::Vdst), 1), src1, attr];
        if self.info.srcs.len() >= 3 {
            ops.push(src(2, f(Field::Src2)));
        }
        let mut out = format!("{m}{suffix} {}", ops.join(", "));
        if src0 & 0x100 != 0 {
            out.push_str(" high");
        }
        if mods.clamp {
            out.push_str(" clamp");
        }
        match mods.omod {
            1 => out.push_str(" mul:2"),
            2 => out.push_str(" mul:4"),
            3 => out.push_str(" div:2"),
            _ => {}
        }
        out
    }
}

/// The range of address counts of a sample or gather opcode's variants.
pub(crate) fn mimg_sampler_range(info: &OpInfo) -> (u32, u32) {
    let extra = mimg_extra_args(info);
    let lod = u32::from(info.has(Flags::LOD));
    let (lo, hi) = if info.has(Flags::GRADIENTS) {
        (2, if info.has(Flags::G16) { 7 } else { 9 })
    } else {
        (1, 3)
    };
    (lo + extra, hi + lod + extra)
}

/// The address arguments before the gradients and coordinates: offset, bias, z-compare.
fn mimg_extra_args(info: &OpInfo) -> u32 {
    [Flags::OFFSET, Flags::BIAS, Flags::COMPARE]
        .into_iter()
        .map(|f| u32::from(info.has(f)))
        .sum()
}

/// The MIMG `dim` field's names, after `SQ_RSRC_IMG_` (the assembler reads them too).
pub(crate) const DIMS: [&str; 8] = [
    "1D",
    "2D",
    "3D",
    "CUBE",
    "1D_ARRAY",
    "2D_ARRAY",
    "2D_MSAA",
    "2D_MSAA_ARRAY",
];

/// Number of address dwords an image opcode reads: extra arguments (offset, bias, z-compare),
/// gradients, coordinates of the dimension, and lod/clamp/mip; with `a16` the coordinates (and
/// the gradients of non-g16 opcodes) are packed two to a dword.
pub(crate) fn mimg_address_count(info: &OpInfo, dim: u32, a16: bool) -> u32 {
    // (coordinates, gradients) per dimension: 1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY, 2D_MSAA,
    // 2D_MSAA_ARRAY.
    const DIM: [(u32, u32); 8] = [
        (1, 2),
        (2, 4),
        (3, 6),
        (3, 4),
        (2, 2),
        (3, 4),
        (3, 4),
        (4, 4),
    ];
    let (coords, grads) = DIM[dim as usize & 7];
    let extra = mimg_extra_args(info);
    let lod = info.has(Flags::LOD);
    let gradients = info.has(Flags::GRADIENTS);
    let g16 = info.has(Flags::G16);
    let with_coords = !info.has(Flags::NO_COORDINATES);
    let comps = if with_coords { coords } else { 0 } + u32::from(lod);
    let mut n = extra + if a16 { comps.div_ceil(2) } else { comps };
    if gradients {
        // gfx1030 has 16-bit gradients (g16 opcodes), so a16 alone leaves them 32-bit.
        n += if g16 {
            (grads / 2).next_multiple_of(2)
        } else {
            grads
        };
    }
    n
}
