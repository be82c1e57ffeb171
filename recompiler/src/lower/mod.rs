//! Lowering: decoded RDNA2 instructions -> one per-lane [`Kernel`] under the lane contract.
//!
//! Before the body v4..v9 are `Input(0..5)`, v10..v25 and every other register read before it
//! is written are 0, EXEC has every lane, and VCC, SCC and M0 are 0. After the body v10..v25
//! are the outputs.
//! Lane masks (VCC, SGPR masks) are tracked per lane: a VOPC or `v_div_scale_*` sets this lane's
//! bit ([`Expr::LaneId`](crate::ir::Expr::LaneId)) and a reader (`v_cndmask_b32`,
//! `v_div_fmas_*`, carries) reads this lane's bit, so the other lanes' bits of a mask written by
//! a VALU op read as 0 here.
//!
//! The float mode is constant at lowering time: the rules specialise on it, one kernel per
//! (body, mode, wave, target). Each instruction goes through `dispatch`: one exhaustive
//! `match` on the table's [`Opcode`] that names its lowering or the reason it has none. An
//! opcode that shares a family function passes it the family's own op (`IntOp`, `Sop2`,
//! `F64Op`, ...), which the function matches exhaustively, so an opcode filed under the wrong
//! family does not compile; the control-flow opcodes are a `Rule::Flow` that `control` reads.
//! A rule that gives up returns a typed [`RuleError`] (whose kind says whether the body or the
//! model lacks something), which [`LowerError::Unsupported`] carries with the word offset. The
//! register files live in `regs`, operand reading in `operands`, result modifiers in
//! `modifiers`; the family modules (`integer`, `arithmetic`, `minmax`, `compare`, `division`,
//! `transcendental`, `conversion`, `pack`, `float16`, `float16_of3`, `packed`, `float64`,
//! `float64_int`, `trig_preop`, `moves`, `dot`, `dot_f16`, `cube`, and the scalar ALU in `salu`,
//! `salu_unary` and `salu_mode`) hold the semantic rules,
//! each named in docs/semantics.md, with the format-independent primitives in `build`.

mod arithmetic;
mod buffer_addr;
mod calls;
mod compare;
mod control;
#[cfg(test)]
mod control_tests;
mod conversion;
mod crosslane;
mod cube;
mod dispatch;
mod division;
mod dot;
mod dot_f16;
mod dpp;
mod error;
mod float16;
mod float16_of3;
mod float64;
mod float64_int;
mod float64_recip;
#[cfg(test)]
mod float64_tests;
mod image;
#[cfg(test)]
mod image_a16_d16_tests;
mod image_atomic;
#[cfg(test)]
mod image_atomic_tests;
mod image_axis;
mod image_cube;
#[cfg(test)]
mod image_cube_tests;
mod image_desc;
mod image_format;
mod image_get_lod;
#[cfg(test)]
mod image_get_lod_tests;
mod image_group;
#[cfg(test)]
mod image_group_tests;
mod image_lod;
mod image_native;
mod image_sample;
#[cfg(test)]
mod image_sample_3d_tests;
#[cfg(test)]
mod image_sample_tests;
#[cfg(test)]
mod image_tests;
mod image_trilinear;
#[cfg(test)]
mod image_trilinear_tests;
mod int16;
mod integer;
pub mod interp16;
mod lds;
#[cfg(test)]
mod lds_tests;
mod lds_wide;
#[cfg(test)]
mod lds_wide_tests;
mod mem;
mod mem_format;
#[cfg(test)]
mod mem_format_tests;
#[cfg(test)]
mod mem_tests;
mod minmax;
mod modifiers;
mod moves;
mod movrel;
mod operands;
mod pack;
mod packed;
mod pk_int;
mod regs;
mod sad;
mod salu;
mod salu_mode;
#[cfg(test)]
mod salu_tests;
mod salu_unary;
mod saturate;
mod scratch;
mod smem;
mod transcendental;
#[cfg(test)]
mod transcendental_tests;
mod trig_preop;
mod unary;
mod vintrp;
#[cfg(test)]
mod vintrp_tests;
mod wave;
#[cfg(test)]
mod wave_tests;

use crate::ir::Kernel;
use control::Flow;
use dispatch::Rule;
pub use error::RuleError;
pub use image_desc::linear_image_bytes;
use operands::Ctx;
use rdnaprobe_isa::{
    decode_stream, DecodeError, Decoded, Encoding, FloatMode, Instruction, Opcode, Target, Wave,
};
use regs::Lowerer;
pub use wave::SgprValues;

/// Why a body could not be lowered. Every variant names the instruction's word offset.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// The instruction (or one of its operands/modifiers) has no lowering: the rule's typed
    /// reason.
    #[error("word {offset}: {mnemonic}: {reason}")]
    Unsupported {
        offset: usize,
        mnemonic: String,
        reason: RuleError,
    },
    /// The decoder did not recognise the instruction (its words are kept).
    #[error("word {offset}: {unknown}")]
    Undecoded {
        offset: usize,
        unknown: rdnaprobe_isa::decode::Unsupported,
    },
    /// The words could not be decoded at all (truncated stream).
    #[error("decode: {0}")]
    Decode(#[source] DecodeError),
}

impl LowerError {
    /// Whether the row's input is at fault (a [`RuleError::BadInput`]): a replay reports such
    /// a row as an `error:`, the others as `unsupported:`.
    pub fn is_bad_input(&self) -> bool {
        matches!(
            self,
            LowerError::Unsupported {
                reason: RuleError::BadInput(_),
                ..
            }
        )
    }
}

/// Decodes `words` and lowers them ([`lower`]).
pub fn lower_words(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
) -> Result<Kernel, LowerError> {
    let body = decode_stream(words).map_err(LowerError::Decode)?;
    lower(&body, mode, wave, gfx)
}

/// Lowers a decoded body for one float mode, wave size and target.
pub fn lower(
    body: &[Decoded],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
) -> Result<Kernel, LowerError> {
    lower_body(Lowerer::new(mode, wave, gfx), control::reachable(body))
}

/// Decodes `words` and lowers them under the wave contract ([`lower_wave`]).
pub fn lower_wave_words(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
) -> Result<Kernel, LowerError> {
    lower_wave_words_mem(words, mode, wave, gfx, 0)
}

/// [`lower_wave_words`] for a wave whose memory region has `mem_bytes` bytes (the V# in
/// s[20:23] holds it as num_records).
pub fn lower_wave_words_mem(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
    mem_bytes: u32,
) -> Result<Kernel, LowerError> {
    lower_wave_words_sgprs(words, mode, wave, gfx, mem_bytes, None)
}

/// [`lower_wave_words_mem`] for one wave's SGPR inputs: with `sgprs`, the kernel holds those
/// values as constants instead of reading `s_in` at run time, so it runs only waves with the
/// same `s_in`. Bodies that [`specialises_on_sgprs`] names need it.
pub fn lower_wave_words_sgprs(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
    mem_bytes: u32,
    sgprs: SgprValues,
) -> Result<Kernel, LowerError> {
    lower_wave_words_images(
        words,
        mode,
        wave,
        gfx,
        mem_bytes,
        sgprs,
        ImagePath::Software,
    )
}

/// Who answers a body's image samples, gathers and loads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum ImagePath {
    /// The IR's own texel arithmetic (the model's rules): every backend alike.
    #[default]
    Software,
    /// The host's texture unit ([`crate::native`]): Vulkan only; the kernel's
    /// [`Kernel::images`] say what to create.
    Native,
}

/// [`lower_wave_words_sgprs`] with the image path `images`.
pub fn lower_wave_words_images(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
    mem_bytes: u32,
    sgprs: SgprValues,
    images: ImagePath,
) -> Result<Kernel, LowerError> {
    let body = decode_stream(words).map_err(LowerError::Decode)?;
    lower_wave_body(&body, mode, wave, gfx, mem_bytes, sgprs, images)
}

/// Whether the wave-contract kernel of `words` is lowered for each wave's SGPR inputs
/// ([`lower_wave_words_sgprs`]): a body with an image instruction is, as its T# decides the
/// texel layout and the conversions the lowering emits (`image`). The runner keys such a
/// body's kernels by the wave's `s_in` too.
pub fn specialises_on_sgprs(words: &[u32]) -> bool {
    decode_stream(words).is_ok_and(|body| {
        body.iter().any(|d| match d {
            Decoded::Inst(i) => i.encoding() == Encoding::MIMG,
            Decoded::Unsupported(_) => false,
        })
    })
}

/// Lowers a decoded body under the wave contract: SGPR and EXEC inputs, whole-wave lane
/// masks, cross-lane instructions and uniform outputs (see `wave`). Run the kernel with
/// [`crate::wave::run_wave`] or [`crate::spirv::emit_wave`].
pub fn lower_wave(
    body: &[Decoded],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
) -> Result<Kernel, LowerError> {
    lower_wave_mem(body, mode, wave, gfx, 0)
}

/// [`lower_wave`] for a wave whose memory region has `mem_bytes` bytes: s[16:17] and
/// s[20:23] hold the region's address and V# before the body (see `mem`).
pub fn lower_wave_mem(
    body: &[Decoded],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
    mem_bytes: u32,
) -> Result<Kernel, LowerError> {
    lower_wave_body(body, mode, wave, gfx, mem_bytes, None, ImagePath::Software)
}

fn lower_wave_body(
    body: &[Decoded],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
    mem_bytes: u32,
    sgprs: SgprValues,
    images: ImagePath,
) -> Result<Kernel, LowerError> {
    let mut l = Lowerer::new_wave(mode, wave, gfx, body, sgprs);
    l.native_images = images == ImagePath::Native;
    mem::init_region(&mut l, mem_bytes);
    l.named_vgprs = movrel::named_vgprs(body, wave);
    if control::has_control_flow(body) {
        return control::lower_cfg(l, body);
    }
    lower_body(l, body)
}

/// What every wave of a dispatched program starts with ([`lower_program_words`]).
#[derive(Clone, Copy, Debug, Default)]
pub struct EntryState<'a> {
    /// Scalar registers by code and their values (a dispatch's user SGPRs, EXEC).
    pub registers: &'a [(u16, u32)],
    /// Memory no wave writes while the kernel runs (the kernarg segment, constant buffers):
    /// each part's region address (a multiple of 4) and its dwords.
    pub read_only: &'a [(u64, &'a [u32])],
}

/// [`lower_wave_words_mem`] for a program whose indirect jumps (s_setpc_b64, s_swappc_b64) go
/// only to a function entry (`entries`, word offsets in `words`) or to the instruction after a
/// call (a return): only those instructions start blocks for the jumps and join the dispatch
/// chain, which keeps a real program's body small. A jump anywhere else never ends (the
/// watchdog), as a jump outside the body does.
///
/// `entry` is what every wave the kernel runs starts with ([`EntryState`]): the registers'
/// values are constants at the kernel's start, and the scalar loads from its read-only memory
/// fold to the words it holds. A body with blocks is lowered twice: the second time with the
/// bits of the scalar registers known whenever each block begins ([`Kernel::entry_bits`] of
/// the first), so that a register whose value is known reads as a constant and what depends
/// on known bits folds (a swizzled private V#'s addressing,
/// [`crate::ir::Space::RegionSwizzled`]).
pub fn lower_program_words(
    words: &[u32],
    mode: FloatMode,
    wave: Wave,
    gfx: Target,
    mem_bytes: u32,
    entries: &[usize],
    entry: &EntryState,
) -> Result<Kernel, LowerError> {
    let body = decode_stream(words).map_err(LowerError::Decode)?;
    // copied once for both lowerings
    let read_only: std::rc::Rc<[(u64, Vec<u32>)]> = entry
        .read_only
        .iter()
        .map(|&(at, words)| (at, words.to_vec()))
        .collect();
    let lowerer = |entry_bits| {
        // a dispatched program's SGPR inputs are s0..s15 (its user SGPRs): no body names are
        // read
        let mut l = Lowerer::new_wave(mode, wave, gfx, &[], None);
        mem::init_region(&mut l, mem_bytes);
        for &(code, v) in entry.registers {
            let h = l.b.c32(v);
            l.sgpr_init(code, h);
        }
        l.read_only = read_only.clone();
        l.named_vgprs = movrel::named_vgprs(&body, wave);
        l.jump_targets = Some(entries.to_vec());
        l.entry_bits = entry_bits;
        l
    };
    let l = lowerer(Vec::new());
    if !control::has_control_flow(&body) {
        return lower_body(l, &body);
    }
    let first = control::lower_cfg(l, &body)?;
    let scalars = control::SCALAR_VARS..scratch::SCRATCH_REG;
    let bits = first
        .entry_bits()
        .into_iter()
        .map(|m| {
            m.into_iter()
                .filter(|(id, _)| scalars.contains(id))
                .collect()
        })
        .collect();
    control::lower_cfg(lowerer(bits), &body)
}

fn lower_body(mut l: Lowerer, body: &[Decoded]) -> Result<Kernel, LowerError> {
    let mut offset = 0usize;
    for d in body {
        match d {
            Decoded::Inst(inst) => l.inst(inst, offset)?,
            Decoded::Unsupported(u) => {
                return Err(control::undecoded(offset, u));
            }
        }
        offset += d.len();
    }
    Ok(l.finish())
}

/// Whether the lowering has a rule for `op` on `gfx` (derived from the dispatch, so the
/// coverage test and `rdnaprobe coverage` cannot disagree with what lowers).
pub fn is_lowered(op: Opcode, gfx: Target) -> bool {
    unlowered_reason(op, gfx).is_none()
}

/// Why `op` has no lowering on `gfx` (`None` when it has one).
pub fn unlowered_reason(op: Opcode, gfx: Target) -> Option<&'static str> {
    match dispatch::rule(op, gfx) {
        Rule::Lower(_) | Rule::Flow(_) => None,
        Rule::Unlowered(reason) => Some(reason),
    }
}

impl Lowerer {
    pub(super) fn unsupported(inst: &Instruction, offset: usize, reason: RuleError) -> LowerError {
        LowerError::Unsupported {
            offset,
            mnemonic: inst.info().mnemonic.to_string(),
            reason,
        }
    }

    pub(super) fn inst(&mut self, inst: &Instruction, offset: usize) -> Result<(), LowerError> {
        let r = match dispatch::rule(inst.info().op(), self.gfx) {
            Rule::Lower(f) => {
                let c = Ctx::new(inst, self.wave);
                let native = (self.native_images && inst.encoding() == Encoding::MIMG)
                    .then(|| image_native::lower(self, &c))
                    .flatten();
                if let Some(r) = native {
                    r
                } else if matches!(inst.encoding(), Encoding::DPP16 | Encoding::DPP8) {
                    self.dpp(&c, f)
                } else {
                    f(self, &c)
                }
            }
            // Straight-line code has no blocks to end: a barrier and the end of the wave have
            // nothing to do there (`control::reachable` stops the body at the end), the
            // branches and program-counter ops need the wave contract's blocks.
            Rule::Flow(Flow::Barrier | Flow::EndWave) => Ok(()),
            Rule::Flow(Flow::Branch(_) | Flow::Pc(_)) => {
                Err(RuleError::not_modelled(control::NEEDS_WAVE))
            }
            Rule::Unlowered(reason) => Err(RuleError::Unlowered(reason)),
        };
        r.map_err(|reason| Self::unsupported(inst, offset, reason))
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::interp;
    use rdnaprobe_isa::assemble;

    /// Assembles `text`, lowers it in the default mode on gfx1036 wave32 and runs lane `lane`.
    pub(in crate::lower) fn run(text: &str, inputs: [u32; 6], lane: u32) -> [u32; 16] {
        run_in(text, FloatMode::DEFAULT, Target::Gfx1036, inputs, lane)
    }

    /// v10 after `text` with v4..v6 = `a`, `b`, `c` (lane 0, default mode).
    pub(in crate::lower) fn out0(text: &str, a: u32, b: u32, c: u32) -> u32 {
        run(text, [a, b, c, 0, 0, 0], 0)[0]
    }

    /// [`run`] in `mode` on `gfx`.
    pub(in crate::lower) fn run_in(
        text: &str,
        mode: FloatMode,
        gfx: Target,
        inputs: [u32; 6],
        lane: u32,
    ) -> [u32; 16] {
        let words = assemble(text).expect("assembles");
        let k = lower_words(&words, mode, Wave::W32, gfx).expect("lowers");
        k.validate().expect("valid kernel");
        interp::run(&k, inputs, lane)
    }

    #[test]
    fn integer_helpers() {
        let i = [0x1234_5678, 0x9abc_def0, 8, 0, 0, 0];
        assert_eq!(run("v_alignbit_b32 v10, v4, v5, v6", i, 0)[0], 0x789a_bcde);
        assert_eq!(run("v_bfm_b32 v10, 4, 8", i, 0)[0], 0xf00);
        assert_eq!(run("v_bfe_u32 v10, v4, 8, 8", i, 0)[0], 0x56);
        assert_eq!(run("v_bfe_i32 v10, v5, 4, 8", i, 0)[0], 0xffff_ffef);
        assert_eq!(run("v_mul_hi_u32 v10, v4, v5", i, 0)[0], 0x0b00_ea4e);
        assert_eq!(run("v_ffbh_u32 v10, v4", i, 0)[0], 3);
    }

    #[test]
    fn lane_masks_are_per_lane() {
        // mbcnt counts the mask bits of the lanes below this one
        assert_eq!(run("v_mbcnt_lo_u32_b32 v10, -1, 0", [0; 6], 5)[0], 5);
        // a compare sets this lane's VCC bit; v_cndmask reads it back
        let t = "v_cmp_lt_u32 vcc_lo, v4, v5\nv_cndmask_b32 v10, 0, 1, vcc_lo";
        assert_eq!(run(t, [1, 2, 0, 0, 0, 0], 7)[0], 1);
        assert_eq!(run(t, [3, 2, 0, 0, 0, 0], 7)[0], 0);
        // v_cmpx turns this lane off: the later write does not happen
        let x = "v_cmpx_eq_u32 v4, v5\nv_mov_b32 v10, 9";
        assert_eq!(run(x, [1, 2, 0, 0, 0, 0], 3)[0], 0);
        assert_eq!(run(x, [2, 2, 0, 0, 0, 0], 3)[0], 9);
    }

    #[test]
    fn carry_chain() {
        let t = "v_add_co_u32 v10, vcc_lo, v4, v5\nv_add_co_ci_u32 v11, vcc_lo, v6, v7, vcc_lo";
        let o = run(t, [0xffff_ffff, 2, 5, 6, 0, 0], 0);
        assert_eq!((o[0], o[1]), (1, 12));
    }

    #[test]
    fn errors_are_typed_and_keep_the_decoders_error() {
        let lower = |words: &[u32]| {
            lower_words(words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1030).unwrap_err()
        };
        let lower_text = |t: &str| lower(&assemble(t).expect("assembles"));
        // an opcode without a lowering carries the dispatch's reason
        match lower_text(
            "image_msaa_load v[1:4], v[0:2], s[16:23] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA",
        ) {
            LowerError::Unsupported {
                reason: RuleError::Unlowered(why),
                offset: 0,
                ..
            } => assert_eq!(
                Some(why),
                unlowered_reason(Opcode::image_msaa_load, Target::Gfx1030)
            ),
            e => panic!("{e:?}"),
        }
        // a modifier without a rule, and a branch outside the wave contract
        // (op_sel bit 0 of a VOP3 word, which llvm-mc-19 does not write for this opcode)
        let mut words = assemble("v_lshlrev_b16_e64 v10, v4, v5").expect("assembles");
        words[0] |= 1 << 11;
        let e = lower(&words);
        assert!(
            matches!(
                &e,
                LowerError::Unsupported {
                    reason: RuleError::Modifier(_),
                    ..
                }
            ),
            "{e:?}"
        );
        let e = lower_text("s_branch 0\nv_mov_b32 v10, 1");
        assert!(
            matches!(
                &e,
                LowerError::Unsupported {
                    reason: RuleError::NotModelled(_),
                    ..
                }
            ),
            "{e:?}"
        );
        // a truncated stream keeps the decoder's error as the source
        let e = lower(&[0xd503_0000]);
        let source = std::error::Error::source(&e).expect("a source");
        assert!(source.downcast_ref::<DecodeError>().is_some(), "{e:?}");
        assert!(e.to_string().starts_with("decode: truncated"), "{e}");
    }

    #[test]
    fn unsupported_instruction_names_itself() {
        let words = assemble("v_readlane_b32 s0, v4, 1").expect("assembles");
        let e = lower_words(&words, FloatMode::DEFAULT, Wave::W32, Target::Gfx1036).unwrap_err();
        assert!(e.to_string().contains("v_readlane_b32"), "{e}");
    }
}
