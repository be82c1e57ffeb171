//! Random well-formed RDNA2 wave programs: a tree of items (instructions, forward skips on
//! SCC/VCC/EXEC, loops bounded by a counter SGPR, EXEC narrowing that is always restored)
//! rendered to assembly text whose branch offsets come from the encoded sizes.
//!
//! Registers: the body reads v4..v25 and s0..s15 and writes v10..v25 (VALU), s0..s15 (SALU);
//! the DS, global and image accesses take their address from v3 and v2 (set just before
//! them), the global ones the region's address from s[16:17], the image ones a T# in s[40:47]
//! built from it by the scalar moves before them (s[48:49] a temporary);
//! relative moves with a run-time M0 read and write anywhere from v4 up (M0 from s0..s15);
//! loop counters live in s30..s31 and saved EXEC masks in s24..s29, which no other
//! instruction touches, so every loop ends and every narrowed EXEC comes back.

use rdnaprobe_isa::{table, Family, Flags, FloatMode, Target, Wave};
use rdnaprobe_recompiler::lower_wave_words;

pub use super::render::encode_line;
use rdnaprobe_recompiler::spirv::arbitrary::Rng;

/// One element of a program body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Item {
    /// One instruction (assembly text).
    Inst(String),
    /// `s_cbranch_<cond>` over the body.
    Skip { cond: &'static str, body: Vec<Item> },
    /// The body `count` times: a counter SGPR decremented each pass, an SCC branch back.
    Loop {
        counter: u32,
        count: u32,
        body: Vec<Item>,
    },
    /// EXEC saved in `save` (and `save + 1` in wave64), narrowed by `narrow`, restored after
    /// the body.
    Exec {
        save: u32,
        narrow: String,
        body: Vec<Item>,
    },
}

/// A program for one wave size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    pub wave: u32,
    pub items: Vec<Item>,
}

/// An instruction template from the opcode table (its llvm-mc text) and how many of its
/// leading operands are destinations.
#[derive(Clone, Debug)]
pub struct Template {
    pub text: &'static str,
    pub dsts: usize,
    pub family: Family,
    /// Float operands: source modifiers and output modifiers are legal.
    pub float: bool,
    /// The table's probe words (DS instructions are encoded from them, field by field).
    pub words: &'static [u32],
    /// The row's flags (DS: a VDST, two offsets).
    pub flags: Flags,
}

/// The instruction pools the generator draws from.
#[derive(Clone, Debug, Default)]
pub struct Pools {
    pub valu: Vec<Template>,
    pub salu: Vec<Template>,
    pub ds: Vec<Template>,
}

/// Left out of the SALU pool besides the branches (the table's BRANCH flag): program-counter,
/// EXEC and M0-relative writers, waits and mode registers, and forms the generator does not
/// build. A generator policy, by mnemonic word.
const SALU_SKIP: [&str; 15] = [
    "s_getpc",
    "s_setpc",
    "s_swappc",
    "s_call",
    "saveexec",
    "wrexec",
    "s_movrel",
    "s_waitcnt",
    "s_sleep",
    "s_setreg",
    "s_getreg",
    "s_version",
    "s_setprio",
    "s_cmpk",
    "s_bitreplicate",
];
/// Left out of the VALU pool besides the EXEC-writing compares and interpolation (CMPX and
/// INTERP flags): cross-lane and EXEC writers (generated on their own) and forms
/// the generator does not build. (The transcendentals are in: their IR is exact operations.)
const VALU_SKIP: [&str; 9] = [
    "trig_preop",
    "readlane",
    "readfirstlane",
    "writelane",
    "permlane",
    "movrel",
    "swaprel",
    "_sdwa",
    "_dpp",
];
const DS_SKIP: [&str; 6] = [
    "append", "consume", "ordered", "swizzle", "_addtid", "_src2",
];
const TEXT_SKIP: [&str; 7] = [
    "Invalid",
    "exec",
    "m0",
    "lds_direct",
    "ttmp",
    "null",
    "src_",
];

impl Pools {
    /// Every table row of the families the generator covers that the recompiler lowers for
    /// gfx1030 and whose text the generator can rewrite.
    pub fn from_table() -> Pools {
        let mut p = Pools::default();
        for row in &table().rows {
            if rdnaprobe_recompiler::unlowered_reason(row.op(), Target::Gfx1030).is_some()
                || row.probe_text.is_empty()
                || TEXT_SKIP.iter().any(|s| row.probe_text.contains(s))
            {
                continue;
            }
            let t = Template {
                text: row.probe_text,
                dsts: row.dsts.len(),
                family: row.family,
                float: row.result.is_float() || row.srcs.iter().any(|s| s.ty.is_float()),
                words: &row.probe_words,
                flags: row.flags,
            };
            let m = row.mnemonic;
            match row.family {
                Family::SOP1 | Family::SOP2 | Family::SOPK | Family::SOPC
                    if !row.has(Flags::BRANCH) && !SALU_SKIP.iter().any(|s| m.contains(s)) =>
                {
                    p.salu.push(t)
                }
                Family::VOP1 | Family::VOP2 | Family::VOP3 | Family::VOP3P | Family::VOPC
                    if !row.flags.intersects(Flags::CMPX | Flags::INTERP)
                        && !VALU_SKIP.iter().any(|s| m.contains(s)) =>
                {
                    p.valu.push(t)
                }
                Family::DS if !row.has(Flags::GWS) && !DS_SKIP.iter().any(|s| m.contains(s)) => {
                    p.ds.push(t)
                }
                _ => {}
            }
        }
        p
    }
}

/// A dword: three times in eight a special value ([`crate::specials`]), else a
/// small integer or any dword.
pub fn value(rng: &mut Rng) -> u32 {
    match rng.below(8) {
        0..=2 => crate::specials::dword(&mut crate::specials::Draw(rng)),
        3 => rng.below(16) as u32,
        _ => rng.next_u64() as u32,
    }
}

/// The generator: pools plus the wave size of the program being built.
pub struct Gen<'a> {
    pub pools: &'a Pools,
    pub wave: u32,
}

fn is_reg_start(prev: Option<char>, c: char, next: Option<char>) -> bool {
    (c == 'v' || c == 's')
        && !prev.is_some_and(|p| p.is_ascii_alphanumeric() || p == '_')
        && next.is_some_and(|n| n.is_ascii_digit() || n == '[')
}

/// Register operand tokens of `text`: (byte range, is VGPR, width in dwords, operand index).
fn reg_tokens(text: &str) -> Vec<(usize, usize, bool, u32, usize)> {
    let b: Vec<char> = text.chars().collect();
    let start = text.find(' ').unwrap_or(text.len());
    let mut out = Vec::new();
    let (mut i, mut operand) = (start, 0);
    while i < b.len() {
        let c = b[i];
        if c == ',' {
            operand += 1;
        }
        if is_reg_start(b.get(i.wrapping_sub(1)).copied(), c, b.get(i + 1).copied()) {
            let mut j = i + 1;
            let width = if b[j] == '[' {
                let close = (j..b.len()).find(|&k| b[k] == ']').unwrap_or(b.len() - 1);
                let inner: String = b[j + 1..close].iter().collect();
                let mut parts = inner.split(':').map(|x| x.parse::<u32>().unwrap_or(0));
                let (lo, hi) = (parts.next().unwrap_or(0), parts.next().unwrap_or(0));
                j = close + 1;
                hi.saturating_sub(lo) + 1
            } else {
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                1
            };
            out.push((i, j, c == 'v', width, operand));
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn vreg(base: u32, width: u32) -> String {
    if width == 1 {
        format!("v{base}")
    } else {
        format!("v[{base}:{}]", base + width - 1)
    }
}

pub(super) fn sreg(base: u32, width: u32) -> String {
    if width == 1 {
        format!("s{base}")
    } else {
        format!("s[{base}:{}]", base + width - 1)
    }
}

const INLINE: [&str; 12] = [
    "0", "1", "-1", "-16", "64", "0.5", "-0.5", "1.0", "-1.0", "2.0", "4.0", "-4.0",
];

impl Gen<'_> {
    /// Whether one line encodes and lowers on its own under the wave contract (default float
    /// mode): forms the lowering does not model are not drawn.
    fn lowers(&self, line: &str) -> bool {
        let wave = if self.wave == 64 {
            Wave::W64
        } else {
            Wave::W32
        };
        encode_line(line)
            .is_ok_and(|w| lower_wave_words(&w, FloatMode::DEFAULT, wave, Target::Gfx1030).is_ok())
    }

    fn mask(&self) -> u32 {
        self.wave / 32
    }

    fn vcc(&self) -> &'static str {
        if self.wave == 64 {
            "vcc"
        } else {
            "vcc_lo"
        }
    }

    /// Rewrites a template's registers at random (see the module doc for the ranges).
    fn rewrite(&self, rng: &mut Rng, t: &Template) -> String {
        let chars: Vec<char> = t.text.chars().collect();
        let valu = t.family.is_valu();
        let mut out = String::new();
        let mut last = 0;
        for (i, j, is_v, width, operand) in reg_tokens(t.text) {
            out.extend(&chars[last..i]);
            last = j;
            let dst = operand < t.dsts;
            let text = if is_v {
                if dst {
                    vreg(10 + rng.below((17 - width) as usize) as u32, width)
                } else if width == 1
                    && rng.below(5) == 0
                    && operand == t.dsts
                    && !t.text.contains("swap")
                {
                    match rng.below(3) {
                        0 => sreg(rng.below(16) as u32, 1),
                        1 => rng.pick(&INLINE).to_string(),
                        _ => format!("0x{:x}", value(rng)),
                    }
                } else {
                    vreg(4 + rng.below((23 - width) as usize) as u32, width)
                }
            } else if valu {
                // In a VALU instruction an SGPR operand is a lane mask.
                sreg(2 * rng.below(8) as u32, self.mask())
            } else if dst || width > 1 || rng.below(4) != 0 {
                let w = width.max(1);
                sreg(w * rng.below((16 / w) as usize) as u32, w)
            } else if rng.below(2) == 0 {
                rng.pick(&INLINE).to_string()
            } else {
                format!("0x{:x}", value(rng))
            };
            out.push_str(&text);
        }
        out.extend(&chars[last..]);
        if self.wave == 64 {
            out = out.replace("vcc_lo", "vcc");
        }
        out
    }

    /// A random VALU instruction, sometimes with modifiers (kept only where they assemble).
    /// A DPP form names src0's register again half of the time, as the destination or as
    /// src1 (clang's cross-lane code: `v_mov_b32_dpp v7, v7 ...`, `v_add_nc_u32_dpp v4, v4,
    /// v4 ...`), where only src0 is read from the other lane.
    fn valu(&self, rng: &mut Rng) -> String {
        let t = &self.pools.valu[rng.below(self.pools.valu.len())];
        let base = self.rewrite(rng, t);
        let mut tries: Vec<String> = Vec::new();
        if t.float && rng.below(3) == 0 {
            let mut m = base.clone();
            if let Some(p) = m.find(", v").map(|p| p + 2) {
                if rng.below(2) == 0 {
                    m.insert(p, '-');
                } else if let Some(e) = m[p..].find([',', ' ']).map(|e| e + p) {
                    m.insert(e, '|');
                    m.insert(p, '|');
                }
            }
            match rng.below(4) {
                0 => m.push_str(" clamp"),
                1 => m.push_str(" mul:2"),
                2 => m.push_str(" div:2"),
                _ => {}
            }
            tries.push(m);
        }
        if rng.below(5) == 0 && base.contains("_e32 v") {
            let d = alias_src0(base.replacen("_e32", "_dpp", 1), rng);
            tries.push(match rng.below(3) {
                0 => format!(
                    "{d} dpp8:[{}]",
                    (0..8)
                        .map(|_| rng.below(8).to_string())
                        .collect::<Vec<_>>()
                        .join(",")
                ),
                1 => format!(
                    "{d} quad_perm:[{},{},{},{}] row_mask:0x{:x} bank_mask:0x{:x}{}",
                    rng.below(4),
                    rng.below(4),
                    rng.below(4),
                    rng.below(4),
                    rng.below(16),
                    rng.below(16),
                    if rng.below(2) == 0 {
                        " bound_ctrl:1"
                    } else {
                        ""
                    }
                ),
                _ => format!(
                    "{d} {}:{}{}",
                    rng.pick(&["row_shl", "row_shr", "row_ror", "row_share", "row_xmask"]),
                    1 + rng.below(15),
                    if rng.below(2) == 0 { " fi:1" } else { "" }
                ),
            });
        }
        tries.into_iter().find(|t| self.lowers(t)).unwrap_or(base)
    }

    fn salu(&self, rng: &mut Rng) -> String {
        let t = &self.pools.salu[rng.below(self.pools.salu.len())];
        self.rewrite(rng, t)
    }

    /// An LDS instruction on the address v3, which is first masked into the LDS: encoded
    /// from the table's probe words with random registers and offsets (see [`encode_line`]).
    fn ds(&self, rng: &mut Rng) -> Vec<String> {
        let t = &self.pools.ds[rng.below(self.pools.ds.len())];
        let toks = reg_tokens(t.text);
        let dsts = usize::from(t.flags.contains(Flags::VDST));
        let mnemonic = t.text.split(' ').next().unwrap_or("");
        let (mut vdst, mut fields, mut shown) = (0u32, Vec::new(), Vec::new());
        for &(_, _, _, width, operand) in &toks {
            if operand < dsts {
                vdst = 10 + rng.below((17 - width) as usize) as u32;
                shown.push(vreg(vdst, width));
            } else if operand == dsts {
                shown.push("v3".to_string());
            } else {
                let r = 4 + rng.below((23 - width) as usize) as u32;
                fields.push(r);
                shown.push(vreg(r, width));
            }
        }
        let two = t.flags.contains(Flags::TWO_OFFSETS);
        let (off0, off1) = if two {
            (rng.below(8) as u32, rng.below(8) as u32)
        } else {
            let o = 8 * rng.below(32) as u32;
            (o & 0xff, o >> 8)
        };
        let mut w = t.words.to_vec();
        if w.len() != 2 {
            return vec![];
        }
        w[0] = (w[0] & 0xffff_0000) | off1 << 8 | off0;
        let d0 = fields.first().copied().unwrap_or(0);
        let d1 = fields.get(1).copied().unwrap_or(0);
        w[1] = vdst << 24 | d1 << 16 | d0 << 8 | 3;
        // Printed as the disassembler prints them: zero offsets left out.
        let field = |name: &str, v: u32| {
            if v == 0 {
                String::new()
            } else {
                format!(" {name}:{v}")
            }
        };
        let offs = if two {
            field("offset0", off0) + &field("offset1", off1)
        } else {
            field("offset", off1 << 8 | off0)
        };
        // an instruction without operands (ds_nop) has no space before its offset's
        let operands = match shown.join(", ") {
            o if o.is_empty() => offs.trim_start().to_string(),
            o => o + &offs,
        };
        vec![
            format!("v_and_b32 v3, 0xf8, v{}", 4 + rng.below(22)),
            format!(
                "{mnemonic} {operands} ; words: 0x{:08x} 0x{:08x}",
                w[0], w[1]
            ),
        ]
    }

    /// A global access to the memory region (SADDR s[16:17], the wave contract's region
    /// address) at the byte offset in v2, masked into the region's 256 bytes (aligned for the
    /// wider accesses): stores of every width (lanes with equal offsets write the same bytes),
    /// loads, and atomics with and without a returned value.
    fn global(&self, rng: &mut Rng) -> Vec<String> {
        const OPS: [(&str, u32, bool, bool); 12] = [
            // (mnemonic, alignment mask, has a VGPR destination, has data)
            ("global_store_dword", 0xfc, false, true),
            ("global_store_short", 0xfe, false, true),
            ("global_store_byte", 0xff, false, true),
            ("global_store_short_d16_hi", 0xfe, false, true),
            ("global_store_byte_d16_hi", 0xff, false, true),
            ("global_load_dword", 0xfc, true, false),
            ("global_load_ubyte", 0xff, true, false),
            ("global_load_sshort", 0xfe, true, false),
            ("global_atomic_add", 0xfc, false, true),
            ("global_atomic_swap", 0xfc, false, true),
            ("global_atomic_add", 0xfc, true, true),
            ("global_atomic_umax", 0xfc, true, true),
        ];
        let (op, align, dst, data) = OPS[rng.below(OPS.len())];
        // a narrow source gives many lanes the same offset
        let mask = if rng.below(2) == 0 {
            align & 0x1f
        } else {
            align
        };
        let mut line = format!("{op} ");
        if dst {
            line += &format!("v{}, ", 10 + rng.below(16));
        }
        line += "v2, ";
        if data {
            line += &format!("v{}, ", 4 + rng.below(22));
        }
        line += "s[16:17]";
        let offset = 4 * rng.below(4);
        if offset > 0 {
            line += &format!(" offset:{offset}");
        }
        if dst && op.contains("atomic") {
            line += " glc";
        }
        vec![
            format!("v_and_b32 v2, 0x{mask:x}, v{}", 4 + rng.below(22)),
            line,
        ]
    }

    fn crosslane(&self, rng: &mut Rng) -> Vec<String> {
        let (d, a) = (10 + rng.below(16), 4 + rng.below(22));
        let s = rng.below(16);
        match rng.below(5) {
            0 => vec![format!("v_readlane_b32 s{s}, v{a}, {}", rng.below(70))],
            1 => vec![format!("v_readfirstlane_b32 s{s}, v{a}")],
            2 => vec![format!(
                "v_writelane_b32 v{d}, {}, {}",
                sreg(rng.below(16) as u32, 1),
                rng.below(70)
            )],
            3 => vec![format!("v_readlane_b32 s{s}, v{a}, s{}", rng.below(16))],
            _ => vec![format!(
                "{} v{d}, v{a}, s{}, s{}{}",
                rng.pick(&["v_permlane16_b32", "v_permlanex16_b32"]),
                rng.below(16),
                rng.below(16),
                rng.pick(&["", " op_sel:[1,0]", " op_sel:[0,1]", " op_sel:[1,1]"])
            )],
        }
    }

    /// An M0 built at run time from an SGPR, then a relative VGPR move or an interpolation
    /// (words encoded here: the assembler has no attribute operands).
    fn m0_ops(&self, rng: &mut Rng) -> Vec<String> {
        let (s, d, a) = (
            rng.below(16),
            10 + rng.below(16) as u32,
            4 + rng.below(22) as u32,
        );
        if rng.below(2) == 0 {
            let m0 = match rng.below(4) {
                0 => format!("s_mov_b32 m0, s{s}"),
                _ => format!(
                    "s_and_b32 m0, s{s}, 0x{:x}",
                    rng.pick(&[0xfu32, 0x1f, 0x000f_000f])
                ),
            };
            let op = rng.pick(&[
                "v_movrels_b32",
                "v_movreld_b32",
                "v_movrelsd_b32",
                "v_movrelsd_2_b32",
                "v_swaprel_b32",
            ]);
            return vec![m0, format!("{op} v{d}, v{a}")];
        }
        // M0: a new-primitive mask from the SGPR, the parameters from LDS byte 0
        let (attr, chan, op) = (rng.below(2) as u32, rng.below(4), rng.below(3) as u32);
        let (vsrc, src) = if op == 2 {
            let p = rng.below(3);
            (p as u32, ["p10", "p20", "p0"][p].to_string())
        } else {
            (a, format!("v{a}"))
        };
        let word = 0xc800_0000 | d << 18 | op << 16 | attr << 10 | (chan as u32) << 8 | vsrc;
        let name = [
            "v_interp_p1_f32_e32",
            "v_interp_p2_f32_e32",
            "v_interp_mov_f32_e32",
        ];
        vec![
            format!("s_and_b32 m0, s{s}, 0x7fff0000"),
            format!(
                "{} v{d}, {src}, attr{attr}.{} ; words: 0x{word:08x}",
                name[op as usize],
                ["x", "y", "z", "w"][chan]
            ),
        ]
    }

    fn cmp(&self, rng: &mut Rng, x: bool) -> String {
        let op = rng.pick(&["lt", "le", "gt", "ne", "eq", "ge"]);
        let ty = rng.pick(&["u32", "i32", "f32", "f16", "u16"]);
        let op = if op == "ne" && ty.starts_with('f') {
            "neq"
        } else {
            op
        };
        let (a, b) = (4 + rng.below(22), 4 + rng.below(22));
        if x {
            format!("v_cmpx_{op}_{ty}_e32 v{a}, v{b}")
        } else {
            let dst = if rng.below(2) == 0 {
                self.vcc().to_string()
            } else {
                sreg(2 * rng.below(8) as u32, self.mask())
            };
            format!("v_cmp_{op}_{ty}_e64 {dst}, v{a}, v{b}")
        }
    }

    /// A body of about `size` items at nesting depth `depth`.
    pub fn body(&self, rng: &mut Rng, size: usize, depth: u32) -> Vec<Item> {
        let mut items = Vec::new();
        while items.len() < size {
            let roll = rng.below(20);
            let inner = 1 + rng.below(4);
            match roll {
                0..=6 if !self.pools.valu.is_empty() => items.push(Item::Inst(self.valu(rng))),
                7..=9 if !self.pools.salu.is_empty() => items.push(Item::Inst(self.salu(rng))),
                10 if !self.pools.ds.is_empty() => {
                    items.extend(self.ds(rng).into_iter().map(Item::Inst))
                }
                11 | 12 => items.extend(self.crosslane(rng).into_iter().map(Item::Inst)),
                13 => items.push(Item::Inst(self.cmp(rng, false))),
                18 => items.extend(self.m0_ops(rng).into_iter().map(Item::Inst)),
                19 => items.extend(self.global(rng).into_iter().map(Item::Inst)),
                14 if depth < 2 => items.push(Item::Skip {
                    cond: rng.pick(&["scc0", "scc1", "vccz", "vccnz", "execz", "execnz"]),
                    body: self.body(rng, inner, depth + 1),
                }),
                15 if depth < 2 => items.push(Item::Loop {
                    counter: 30 + depth,
                    count: 1 + rng.below(4) as u32,
                    body: self.body(rng, inner, depth + 1),
                }),
                16 | 17 if depth < 2 => {
                    let save = 24 + 2 * depth;
                    let narrow = match rng.below(3) {
                        0 => self.cmp(rng, true),
                        _ => {
                            let op = rng.pick(&[
                                "and", "or", "xor", "andn1", "andn2", "orn1", "orn2", "nand",
                                "nor", "xnor",
                            ]);
                            let src = if rng.below(2) == 0 {
                                self.vcc().to_string()
                            } else {
                                sreg(2 * rng.below(8) as u32, self.mask())
                            };
                            format!(
                                "s_{op}_saveexec_b{} {}, {src}",
                                self.wave,
                                sreg(save, self.mask())
                            )
                        }
                    };
                    let mut body = self.body(rng, inner, depth + 1);
                    if rng.below(2) == 0 {
                        body = vec![Item::Skip {
                            cond: "execz",
                            body,
                        }];
                    }
                    items.push(Item::Exec { save, narrow, body });
                }
                _ => items.push(Item::Inst(format!(
                    "v_add_nc_u32 v{}, v{}, v{}",
                    10 + rng.below(16),
                    4 + rng.below(22),
                    4 + rng.below(22)
                ))),
            }
        }
        // (an image access lowers only after the scalar moves of its T#, which come with it)
        items
            .retain(|i| !matches!(i, Item::Inst(t) if !t.starts_with("image_") && !self.lowers(t)));
        items
    }

    pub fn program(&self, rng: &mut Rng, size: usize) -> Program {
        // Image accesses open a third of the programs: in the first block, where the region's
        // address in s[16:17] (and so the T# built from it) is known when lowering.
        let mut items: Vec<Item> = Vec::new();
        if rng.below(3) == 0 {
            for _ in 0..1 + rng.below(2) {
                items.extend(self.image(rng).into_iter().map(Item::Inst));
            }
        }
        items.extend(self.body(rng, size, 0));
        Program {
            wave: self.wave,
            items,
        }
    }
}

/// `text` (`OP vD, vS0, vS1, ...`) with, half of the time, the destination or src1 renamed to
/// src0's VGPR.
fn alias_src0(text: String, rng: &mut Rng) -> String {
    let Some((op, rest)) = text.split_once(' ') else {
        return text;
    };
    let mut ops: Vec<String> = rest.split(", ").map(str::to_string).collect();
    let is_vgpr =
        |o: &str| o.len() > 1 && o.starts_with('v') && o[1..].bytes().all(|b| b.is_ascii_digit());
    if ops.len() < 2 || !is_vgpr(&ops[1]) || rng.below(2) == 0 {
        return text;
    }
    let target = if ops.len() > 2 && rng.below(2) == 0 {
        2
    } else {
        0
    };
    if !is_vgpr(&ops[target]) {
        return text;
    }
    ops[target] = ops[1].clone();
    format!("{op} {}", ops.join(", "))
}
