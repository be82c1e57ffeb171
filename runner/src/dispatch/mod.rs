//! Real programs: a kernel of an HSA code object (v4/v5, as clang, comgr or hipcc write it)
//! dispatched over a grid, on the recompiler's CPU model or a Vulkan driver.
//!
//! - [`Program`] reads the code object: the kernel descriptor (user-SGPR enables, wave size,
//!   float mode, workitem-id VGPRs), the metadata (the kernarg layout, LDS and scratch sizes)
//!   and the code (`.text`, callees included).
//! - [`Dispatch`] is the grid, the workgroup size and the arguments; [`abi`] lays out the memory
//!   region (dispatch packet, queue, kernarg segment, buffers, scratch) and gives each wave the
//!   registers the hardware would (docs/dispatch.md).
//! - [`run_cpu`] runs the workgroups one after the other, each with all its waves sharing the
//!   LDS and meeting at `s_barrier` ([`rdnaprobe_recompiler::workgroup`]); [`run_vulkan`] runs
//!   one wave per submit (workgroups of one wave), the memory region carried from wave to wave.
//!
//! Every wave of a dispatch runs the same body: the code object's `.text` behind a prologue
//! that moves the workitem ids into v0..v2 (the wave contract gives each lane its inputs in
//! v4..v9) and branches to the kernel's entry.

pub mod abi;
pub mod args;
pub mod probe;

use anyhow::{bail, Context};
use rdnaprobe_isa::operand::code::{EXEC_HI, EXEC_LO};
use rdnaprobe_isa::{FloatMode, Target, Wave};
use rdnaprobe_oracle::elf::{CodeObject, KernelDescriptor};
use rdnaprobe_oracle::metadata::{KernelMeta, Metadata};
use rdnaprobe_recompiler::wave::WaveInput;

use crate::backend::wave::module_region;

pub use args::ArgValue;

/// SGPRs past s15 and their values, set by a wave's prologue.
type Extra = Vec<(u16, u32)>;

/// `s_code_end`: the padding LLVM puts after the last function of `.text`.
const S_CODE_END: u32 = 0xbf9f_0000;

/// A kernel of a code object, ready to dispatch.
#[derive(Clone, Debug)]
pub struct Program {
    pub meta: KernelMeta,
    pub kd: KernelDescriptor,
    pub target: Target,
    pub mode: FloatMode,
    pub wave: Wave,
    /// `.text` from its first word, without the trailing `s_code_end` padding.
    pub text: Vec<u32>,
    /// The kernel's first instruction, in words from the start of `.text`.
    pub entry_word: usize,
    /// Every callee's first instruction (the functions of `.text` that are not kernels), in
    /// words from the start of `.text`: where an indirect jump that is not a return may go.
    pub functions: Vec<usize>,
}

impl Program {
    /// Reads kernel `kernel` (or the only kernel) of the code object `bytes`.
    pub fn load(bytes: &[u8], kernel: Option<&str>) -> anyhow::Result<Program> {
        let code = CodeObject::parse(bytes)?;
        let meta = Metadata::of(&code)?;
        let k = meta.kernel(kernel)?.clone();
        let target = match meta.target.as_deref() {
            Some(t) => {
                let arch = t.rsplit("--").next().unwrap_or(t);
                let arch = arch.split(':').next().unwrap_or(arch);
                Target::from_arch_name(arch).with_context(|| format!("amdhsa.target `{t}`"))?
            }
            // Code object v4 metadata written by hand (the probe kernels) may leave it out;
            // the ELF header's EF_AMDGPU_MACH names the chip as well.
            None => Target::ALL
                .into_iter()
                .find(|t| t.elf_mach() == code.mach())
                .with_context(|| {
                    format!(
                        "the metadata names no amdhsa.target and EF_AMDGPU_MACH {:#x} is no \
                         gfx10 chip",
                        code.mach()
                    )
                })?,
        };
        let kd_sym = code.symbol(&k.symbol)?;
        let kd = code.kernel_descriptor(k.symbol.trim_end_matches(".kd"))?;
        let entry = kd_sym
            .value
            .checked_add_signed(kd.kernel_code_entry_byte_offset)
            .context("kernel_code_entry_byte_offset points outside the address space")?;
        let func = code.symbol(&k.name)?;
        if func.value != entry {
            bail!(
                "the descriptor's entry {entry:#x} is not the kernel symbol `{}` ({:#x})",
                k.name,
                func.value
            );
        }
        let (text_addr, text) = code.section_of(&func)?;
        if text.len() % 4 != 0 || (entry - text_addr) % 4 != 0 {
            bail!("`.text` is not whole instruction words");
        }
        let mut words: Vec<u32> = text
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        while words.last() == Some(&S_CODE_END) {
            words.pop();
        }
        let mode = kd.mode();
        if mode.wave.lanes() != k.wavefront_size {
            bail!(
                "the descriptor's wave size ({}) and the metadata's .wavefront_size ({}) differ",
                mode.wave.lanes(),
                k.wavefront_size
            );
        }
        // Kernels are not callable: an indirect jump never lands on one (their code would
        // join the body of every kernel that makes an indirect call).
        let kernels: Vec<u64> = meta
            .kernels
            .iter()
            .filter_map(|m| code.symbol(&m.name).ok().map(|s| s.value))
            .collect();
        let functions = code
            .function_addresses()?
            .into_iter()
            .filter(|&a| a >= text_addr && a < text_addr + text.len() as u64)
            .filter(|a| !kernels.contains(a))
            .map(|a| ((a - text_addr) / 4) as usize)
            .collect();
        Ok(Program {
            functions,
            entry_word: ((entry - text_addr) / 4) as usize,
            text: words,
            target,
            mode: mode.float,
            wave: mode.wave,
            meta: k,
            kd,
        })
    }

    /// The LDS a workgroup gets, in dwords: the fixed size plus `dynamic` bytes.
    pub fn lds_dwords(&self, dynamic: u32) -> u32 {
        (self.meta.group_segment_fixed_size + dynamic).div_ceil(4)
    }
}

/// A grid, its workgroups and the kernel's arguments.
#[derive(Clone, Debug)]
pub struct Dispatch {
    /// Work-items per dimension (as an HSA dispatch packet's grid size).
    pub grid: [u32; 3],
    /// Work-items per workgroup and dimension.
    pub block: [u32; 3],
    /// One value per explicit argument of the metadata, in its order.
    pub args: Vec<ArgValue>,
    /// Dynamic LDS bytes (`dynamic_shared_pointer` arguments).
    pub dynamic_lds: u32,
}

impl Dispatch {
    /// Workgroups per dimension.
    pub fn groups(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.grid[d].div_ceil(self.block[d]))
    }
}

/// A dispatch's result: the memory region after the last workgroup, and the errors of waves
/// that did not end normally (watchdog, faults, what the backend could not run).
#[derive(Clone, Debug)]
pub struct Outcome {
    /// Where the buffers are in `mem`.
    pub layout: abi::Layout,
    pub mem: Vec<u32>,
    pub errors: Vec<String>,
    /// Waves run.
    pub waves: usize,
    /// One entry per Vulkan pipeline the dispatch created (empty on cpu and hip).
    pub compiled: Vec<Compiled>,
}

/// What one lowered body cost a Vulkan driver: its size in RDNA2 and SPIR-V instructions and
/// the wall time of `vkCreateComputePipelines` (the driver's compilation; Mesa's shader cache
/// makes a repeated run fast, so figures are taken with `MESA_SHADER_CACHE_DISABLE=true`).
#[derive(Clone, Debug, serde::Serialize)]
pub struct Compiled {
    /// Instructions of the body (prologue and every function of `.text`).
    pub rdna2_instructions: usize,
    /// Instructions of the module (`OpFunction` .. `OpFunctionEnd`, declarations included).
    pub spirv_instructions: usize,
    pub spirv_words: usize,
    pub create_ms: f64,
}

impl Compiled {
    fn measure(
        body: &[u32],
        spirv: &[u32],
        create: impl FnOnce() -> anyhow::Result<crate::vulkan::PipelineId>,
    ) -> anyhow::Result<(crate::vulkan::PipelineId, Compiled)> {
        let rdna2_instructions = rdnaprobe_isa::decode_stream(body).map_or(0, |d| d.len());
        let spirv_instructions = spirv_instruction_count(spirv);
        let t = std::time::Instant::now();
        let id = create()?;
        let create_ms = t.elapsed().as_secs_f64() * 1e3;
        Ok((
            id,
            Compiled {
                rdna2_instructions,
                spirv_instructions,
                spirv_words: spirv.len(),
                create_ms,
            },
        ))
    }
}

/// Instructions in a SPIR-V module: the words after the five-word header, walked by each
/// instruction's word count (the high half of its first word).
pub fn spirv_instruction_count(module: &[u32]) -> usize {
    let mut at = 5;
    let mut n = 0;
    while at < module.len() {
        let count = (module[at] >> 16) as usize;
        if count == 0 {
            break;
        }
        at += count;
        n += 1;
    }
    n
}

/// The body every wave runs: the prologue (workitem ids from v4..v6 into v0..v2, SGPRs past
/// s15 from `extra`), then `.text`, entered through an `s_branch` when the kernel is not its
/// first word; and the word offsets of the functions in it.
pub fn body(program: &Program, extra: &[(u16, u32)]) -> anyhow::Result<(Vec<u32>, Vec<usize>)> {
    let ids = program.kd.vgpr_workitem_id().min(2) as usize + 1;
    let mut text = String::new();
    for d in 0..ids {
        text.push_str(&format!("v_mov_b32 v{d}, v{}\n", 4 + d));
    }
    for &(s, v) in extra {
        text.push_str(&format!("s_mov_b32 s{s}, {v:#x}\n"));
    }
    let mut words = rdnaprobe_isa::assemble(&text).context("the dispatch prologue")?;
    if program.entry_word != 0 {
        let jump = i64::try_from(program.entry_word)?;
        if jump > i64::from(i16::MAX) {
            bail!("the kernel starts {jump} words into .text: past an s_branch's reach");
        }
        words.extend(rdnaprobe_isa::assemble(&format!("s_branch {jump}"))?);
    }
    let at = words.len();
    words.extend(&program.text);
    let functions = program.functions.iter().map(|f| f + at).collect();
    Ok((words, functions))
}

/// The lowered body of `program` with the prologue of `extra`, and the body's words; `mem`
/// the region (its read-only parts fold), `group` SGPRs every wave the kernel runs starts
/// with besides the user SGPRs (a kernel lowered for one workgroup's waves).
fn lower(
    program: &Program,
    extra: &[(u16, u32)],
    layout: &abi::Layout,
    mem: &[u32],
    group: &[(u16, u32)],
) -> anyhow::Result<(rdnaprobe_recompiler::ir::Kernel, Vec<u32>)> {
    let (words, functions) = body(program, extra)?;
    // every wave starts with the same user SGPRs (and, where every wave is whole, EXEC): the
    // kernel holds them as constants, and the lowering follows their known bits through the
    // body (the private segment V#, the lanes' addresses under EXEC)
    let user = abi::user_sgprs(program, layout)?;
    let mut registers: Vec<(u16, u32)> = (0u16..).zip(user).take(16).collect();
    if let Some(exec) = layout.exec {
        registers.extend([(EXEC_LO, exec as u32), (EXEC_HI, (exec >> 32) as u32)]);
    }
    for &(c, v) in group {
        if !registers.iter().any(|&(r, _)| r == c) {
            registers.push((c, v));
        }
    }
    let read_only: Vec<(u64, &[u32])> = layout
        .read_only
        .iter()
        .filter_map(|&(at, bytes)| {
            let words = mem.get(at as usize / 4..(at as usize + bytes as usize).div_ceil(4))?;
            Some((rdnaprobe_recompiler::wave::MEM_BASE + u64::from(at), words))
        })
        .collect();
    let entry = rdnaprobe_recompiler::EntryState {
        registers: &registers,
        read_only: &read_only,
    };
    let kernel = rdnaprobe_recompiler::lower_program_words(
        &words,
        program.mode,
        program.wave,
        program.target,
        layout.total_bytes(),
        &functions,
        &entry,
    )
    .map_err(|e| anyhow::anyhow!("unsupported: {e}"))?;
    Ok((kernel, words))
}

/// Runs `dispatch` of `program` on the CPU model: workgroups in order (x fastest), each one's
/// waves together ([`rdnaprobe_recompiler::workgroup::run_workgroup`]).
pub fn run_cpu(program: &Program, dispatch: &Dispatch) -> anyhow::Result<Outcome> {
    let (layout, mem) = abi::memory(program, dispatch)?;
    run_cpu_in(program, dispatch, layout, mem)
}

/// Runs `dispatch` of `program` on the CPU model in a memory region the caller laid out:
/// `layout` and `mem` as [`abi::memory`] gives them, or grown past its end (the probe
/// kernels' buffers, [`probe`]); the region is `layout.total` bytes.
pub fn run_cpu_in(
    program: &Program,
    dispatch: &Dispatch,
    layout: abi::Layout,
    mut mem: Vec<u32>,
) -> anyhow::Result<Outcome> {
    let lds = vec![0u32; program.lds_dwords(dispatch.dynamic_lds) as usize];
    // an image instruction's lowering needs its T# (docs/dataset-format.md, Images): such a
    // program is lowered for each workgroup, with the SGPRs its waves share as constants, so
    // that a T# the program loads from read-only memory (the probe template's wave table)
    // is known
    let per_group = rdnaprobe_recompiler::specialises_on_sgprs(&program.text);
    type Key = (Extra, Option<[u32; 3]>);
    let mut kernels: std::collections::HashMap<Key, rdnaprobe_recompiler::ir::Kernel> =
        Default::default();
    let map = abi::memory_map(program, &layout);
    let mut errors = Vec::new();
    let mut waves = 0;
    for group in abi::workgroups(dispatch) {
        let setups = abi::waves(program, dispatch, &layout, group)?;
        let Some(extra) = setups.first().map(|s| s.extra.clone()) else {
            continue;
        };
        if setups.iter().any(|s| s.extra != extra) {
            bail!("the waves of one workgroup need different registers past s15");
        }
        let inputs: Vec<WaveInput> = setups.iter().map(|s| s.input(lds.clone())).collect();
        let key = (extra.clone(), per_group.then_some(group));
        if !kernels.contains_key(&key) {
            let shared: Vec<(u16, u32)> = if per_group {
                (0..16u16)
                    .filter(|&i| {
                        setups
                            .iter()
                            .all(|s| s.sgprs[i as usize] == setups[0].sgprs[i as usize])
                    })
                    .map(|i| (i, setups[0].sgprs[i as usize]))
                    .collect()
            } else {
                Vec::new()
            };
            kernels.insert(
                key.clone(),
                lower(program, &extra, &layout, &mem, &shared)?.0,
            );
        }
        let k = &kernels[&key];
        let (outs, after) = rdnaprobe_recompiler::workgroup::run_workgroup_mapped(
            k,
            &inputs,
            &lds,
            &mem,
            Some(&map),
        );
        mem = after;
        waves += outs.len();
        for (w, o) in outs.iter().enumerate() {
            if let Some(e) = &o.error {
                errors.push(format!("workgroup {group:?} wave {w}: {e}"));
            }
        }
    }
    Ok(Outcome {
        layout,
        mem,
        errors,
        waves,
        compiled: Vec::new(),
    })
}

/// Runs `dispatch` of `program` on a Vulkan device: one submit per wave, the memory region of
/// one wave the next one's input. The waves of a workgroup of several run as the CPU model
/// runs them ([`rdnaprobe_recompiler::workgroup`]): in turn, each until it waits at a barrier
/// or ends, through the resumable module (`spirv::emit_wave_resumable`), one submit per wave
/// and barrier, the LDS and the region passed from each to the next.
pub fn run_vulkan(
    exec: &mut crate::vulkan::Executor,
    program: &Program,
    dispatch: &Dispatch,
) -> anyhow::Result<Outcome> {
    let (layout, mut mem) = abi::memory(program, dispatch)?;
    let map = abi::memory_map(program, &layout);
    let guards = guard_words(&map, mem.len());
    for g in &guards {
        mem[g.clone()].fill(GUARD_CANARY);
    }
    let per_group: u32 = dispatch.block.iter().product();
    let mut run = VulkanRun {
        map,
        guards,
        exec,
        program,
        layout: &layout,
        lds_dwords: program.lds_dwords(dispatch.dynamic_lds),
        mem,
        resumable: per_group > program.wave.lanes(),
        pipelines: Default::default(),
        compiled: Vec::new(),
        errors: Vec::new(),
        waves: 0,
    };
    for group in abi::workgroups(dispatch) {
        let setups = abi::waves(program, dispatch, &layout, group)?;
        if run.resumable {
            run.workgroup(&setups, group)?;
        } else {
            for s in &setups {
                run.wave(s, group)?;
            }
        }
    }
    let VulkanRun {
        mem,
        errors,
        waves,
        compiled,
        ..
    } = run;
    Ok(Outcome {
        layout,
        mem,
        errors,
        waves,
        compiled,
    })
}

/// What the guard zones of a Vulkan dispatch hold: a store into one is found by the change
/// (a store of this very word is not), and a read past a buffer reads this, not a neighbour's
/// bytes. The CPU model faults on both (`wave::MemMap`).
pub const GUARD_CANARY: u32 = 0xdead_beef;

/// The region's dwords (of `words`) that no window of `map` covers.
fn guard_words(
    map: &rdnaprobe_recompiler::wave::MemMap,
    words: usize,
) -> Vec<std::ops::Range<usize>> {
    let base = rdnaprobe_recompiler::wave::MEM_BASE;
    let mut covered = vec![false; words];
    for w in &map.windows {
        let start = (w.at / 4) as usize;
        let end = (w.at + w.bytes).div_ceil(4) as usize;
        if w.addr == base + w.at {
            covered[start.min(words)..end.min(words)].fill(true);
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < words {
        if covered[i] {
            i += 1;
            continue;
        }
        let start = i;
        while i < words && !covered[i] {
            i += 1;
        }
        out.push(start..i);
    }
    out
}

/// A pipeline of [`run_vulkan`]: its id and the resume words of its module (0 unless
/// resumable).
#[derive(Clone, Copy)]
struct Pipeline {
    id: crate::vulkan::PipelineId,
    resume: u32,
}

/// The state of a [`run_vulkan`] dispatch between workgroups.
struct VulkanRun<'a> {
    exec: &'a mut crate::vulkan::Executor,
    program: &'a Program,
    layout: &'a abi::Layout,
    lds_dwords: u32,
    /// The memory region after the waves run so far.
    mem: Vec<u32>,
    /// Workgroups hold several waves: every module with a barrier is resumable.
    resumable: bool,
    /// The memory map, and the region's words outside it (the guard zones) that hold
    /// [`GUARD_CANARY`]: a store there is found after the wave that made it.
    map: rdnaprobe_recompiler::wave::MemMap,
    guards: Vec<std::ops::Range<usize>>,
    pipelines: std::collections::HashMap<Extra, Pipeline>,
    compiled: Vec<Compiled>,
    errors: Vec<String>,
    waves: usize,
}

impl VulkanRun<'_> {
    /// After a wave: a guard word that changed is a store outside the buffers, reported as the
    /// CPU model reports a fault (the first word, and the nearest buffer); the canary is put
    /// back for the next wave.
    fn check_guards(&mut self, what: &str) {
        let mut first = None;
        for g in &self.guards {
            for i in g.clone() {
                if self.mem[i] != GUARD_CANARY {
                    first.get_or_insert(i);
                    self.mem[i] = GUARD_CANARY;
                }
            }
        }
        if let Some(i) = first {
            let addr = rdnaprobe_recompiler::wave::MEM_BASE + 4 * i as u64;
            self.errors.push(format!(
                "{what}: fault: a store changed the guard zone at {addr:#x}, outside every \
                 buffer: {}",
                self.map.nearest(addr)
            ));
        }
    }

    /// The pipeline of the body for the registers `extra`, created on first use.
    fn pipeline(&mut self, extra: &Extra) -> anyhow::Result<Pipeline> {
        use rdnaprobe_recompiler::spirv;
        if let Some(p) = self.pipelines.get(extra) {
            return Ok(*p);
        }
        let (k, body) = lower(self.program, extra, self.layout, &self.mem, &[])?;
        let (wave, mem_dwords) = (self.program.wave, self.mem.len() as u32);
        let opts = self.exec.spirv_options();
        // A body without a barrier runs each wave of a workgroup to its end in one submit: the
        // plain module serves, in the workgroup's order (the resumable one cannot keep a body
        // without blocks, whose memory accesses are all in its exit code).
        let barrier = k.blocks.iter().any(|b| b.barrier);
        let (spv, resume) = if self.resumable && barrier {
            let spv = spirv::emit_wave_resumable(&k, wave, self.lds_dwords, mem_dwords, &opts);
            (spv, spirv::resume_dwords(&k, wave))
        } else {
            let spv = spirv::emit_wave_mem(&k, wave, self.lds_dwords, mem_dwords, &opts);
            (spv, 0)
        };
        let spv = spv.map_err(|e| anyhow::anyhow!("SPIR-V backend: {e}"))?;
        let exec = &mut *self.exec;
        let (id, c) = Compiled::measure(&body, &spv, || exec.wave_pipeline(&spv))?;
        self.compiled.push(c);
        let p = Pipeline { id, resume };
        self.pipelines.insert(extra.clone(), p);
        Ok(p)
    }

    /// One submit of the wave `s`: its LDS before is `lds`, its resume words `state`. Gives
    /// the output words split as (lanes' outputs, uniform words, LDS, region, resume words).
    fn submit(
        &mut self,
        s: &abi::WaveSetup,
        lds: &[u32],
        state: &[u32],
    ) -> anyhow::Result<Vec<u32>> {
        let p = self.pipeline(&s.extra)?;
        let input = s.input(lds.to_vec());
        let mut words = crate::backend::wave::module_inputs_mem(&input, &self.mem);
        words.extend(state);
        let job = crate::vulkan::WaveJob {
            pipeline: p.id,
            wave: self.program.wave,
            lds_dwords: self.lds_dwords
                + rdnaprobe_recompiler::spirv::region_words(self.mem.len() as u32)
                + p.resume,
            waves: &[words],
        };
        let mut out = self.exec.run_waves(&[job])?;
        Ok(std::mem::take(&mut out[0][0]))
    }

    /// A workgroup of one wave: the wave runs to its end (its LDS starts zeroed).
    fn wave(&mut self, s: &abi::WaveSetup, group: [u32; 3]) -> anyhow::Result<()> {
        let lanes = self.program.wave.lanes() as usize;
        let out = self.submit(s, &vec![0; self.lds_dwords as usize], &[])?;
        self.waves += 1;
        match crate::backend::wave::module_outputs(&out, lanes) {
            Ok((_, _, rest)) => {
                let after_lds = &rest[self.lds_dwords as usize..];
                self.mem = module_region(after_lds, self.mem.len()).0.to_vec();
                self.check_guards(&format!("workgroup {group:?} wave 0"));
            }
            Err(e) => self.errors.push(format!("workgroup {group:?}: {e}")),
        }
        Ok(())
    }

    /// A workgroup of several waves (see [`run_vulkan`]).
    fn workgroup(&mut self, setups: &[abi::WaveSetup], group: [u32; 3]) -> anyhow::Result<()> {
        use rdnaprobe_recompiler::spirv::{SUSPENDED_STATUS, WAVE_OUT_DWORDS, WAVE_STATUS_WORD};
        let lanes = self.program.wave.lanes() as usize;
        let mut lds = vec![0u32; self.lds_dwords as usize];
        // Per wave its resume words; None once it ended.
        let mut states: Vec<Option<Vec<u32>>> = Vec::with_capacity(setups.len());
        for s in setups {
            states.push(Some(vec![0; self.pipeline(&s.extra)?.resume as usize]));
        }
        self.waves += setups.len();
        loop {
            let mut waiting = 0;
            for (w, s) in setups.iter().enumerate() {
                let Some(state) = states[w].take() else {
                    continue;
                };
                let out = self.submit(s, &lds, &state)?;
                let uni = lanes * 16;
                let status = out[uni + WAVE_STATUS_WORD as usize];
                let rest = &out[uni + WAVE_OUT_DWORDS as usize..];
                let (l, rest) = rest.split_at(lds.len());
                let (m, resume) = module_region(rest, self.mem.len());
                // The LDS and the region as the wave left them, as the CPU model keeps them
                // after a watchdog stop or a fault too; not after the driver cut a loop short.
                if status != rdnaprobe_recompiler::spirv::LOOP_CUT_STATUS {
                    lds.copy_from_slice(l);
                    self.mem.copy_from_slice(m);
                    self.check_guards(&format!("workgroup {group:?} wave {w}"));
                }
                if status == SUSPENDED_STATUS {
                    states[w] = Some(resume.to_vec());
                    waiting += 1;
                } else if let Err(e) = crate::backend::wave::module_outputs(&out, lanes) {
                    self.errors
                        .push(format!("workgroup {group:?} wave {w}: {e}"));
                }
            }
            if waiting == 0 {
                return Ok(());
            }
        }
    }
}

/// Runs `dispatch` of the code object `image` (kernel `program`) on a gfx103x GPU through HIP:
/// hipModuleLoadData of the same bytes and hipModuleLaunchKernel, the buffers in device memory.
/// The result's region holds the buffers at the places [`abi::memory`] gives them, so it reads
/// like the other backends'.
pub fn run_hip(image: &[u8], program: &Program, dispatch: &Dispatch) -> anyhow::Result<Outcome> {
    use rdnaprobe_oracle::Hip;
    if dispatch.grid[1] > 1
        || dispatch.grid[2] > 1
        || dispatch.block[1] > 1
        || dispatch.block[2] > 1
    {
        bail!("hip: dispatches of one dimension only");
    }
    if dispatch.dynamic_lds != 0 {
        bail!("hip: dynamic LDS is not passed to the launch yet");
    }
    let (layout, mut mem) = abi::memory(program, dispatch)?;
    let hip = Hip::load()?;
    hip.init()?;
    if hip.device_count()? == 0 {
        bail!("hip: no GPU (hipErrorNoDevice); dispatch on cpu or vulkan instead");
    }
    hip.set_device(0)?;
    let module = hip.module_load_data(image)?;
    let function = hip.module_get_function(&module, &program.meta.name)?;
    let mut buffers = Vec::new();
    for v in &dispatch.args {
        buffers.push(match v {
            ArgValue::Buffer(b) => {
                let d = hip.alloc(b.len().next_multiple_of(4).max(4))?;
                d.upload(b)?;
                Some(d)
            }
            ArgValue::Value(_) => None,
        });
    }
    let pointers: Vec<Option<u64>> = buffers
        .iter()
        .map(|b| b.as_ref().map(|b| b.ptr() as usize as u64))
        .collect();
    let mut seg = abi::kernarg(program, dispatch, &pointers)?;
    hip.launch(function, dispatch.groups()[0], dispatch.block[0], &mut seg)?;
    hip.synchronize()?;
    for (b, place) in buffers.iter().zip(&layout.buffers) {
        if let (Some(b), Some((at, n))) = (b, place) {
            let mut bytes = vec![0u8; *n as usize];
            b.download(&mut bytes)?;
            for (i, c) in bytes.chunks_exact(4).enumerate() {
                mem[*at as usize / 4 + i] = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
            }
        }
    }
    Ok(Outcome {
        layout,
        mem,
        errors: Vec::new(),
        waves: 0,
        compiled: Vec::new(),
    })
}
