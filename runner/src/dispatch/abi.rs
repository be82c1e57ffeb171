//! The dispatch ABI as the hardware and the HSA packet processor set it up for a gfx10 kernel
//! (LLVM's AMDGPUUsage: "Initial Kernel Execution State", "Kernel Descriptor", "Kernarg
//! segment", and the HSA dispatch packet).
//!
//! The memory region (at [`MEM_BASE`]) holds, in order: the dispatch packet (64 bytes), a
//! zeroed queue (192 bytes), the kernarg segment, each buffer argument (256-byte aligned) and
//! the scratch of one workgroup's waves. User SGPRs follow the descriptor's enables in their
//! fixed order (private segment buffer, dispatch ptr, queue ptr, kernarg segment ptr, dispatch
//! id, flat scratch init, private segment size), then the system SGPRs (workgroup id x, y, z,
//! workgroup info, scratch wave offset) as COMPUTE_PGM_RSRC2 enables them. v0..v2 are the
//! workitem ids (gfx10 does not pack them).
//!
//! The private segment buffer is the V# the packet processor gives: the wave's scratch,
//! swizzled with ADD_TID and an index stride of the wave size, so dword `k` of lane `l` sits at
//! `k * 4 * lanes + 4 * l` past the wave's offset (see the recompiler's `buffer_addr`).

use anyhow::bail;
use rdnaprobe_oracle::metadata::ArgMeta;
use rdnaprobe_recompiler::wave::{MemMap, MemWindow, WaveInput, MEM_BASE};

use super::{ArgValue, Dispatch, Program};

/// Word 3 of the private segment V#: DST_SEL XYZW, 32-bit format, raw range checks
/// (the wave contract's `RAW_BUFFER_WORD3`), with ADD_TID_ENABLE (bit 23).
const SCRATCH_WORD3: u32 = rdnaprobe_oracle::wave::template::RAW_BUFFER_WORD3 | 1 << 23;

const PACKET: u32 = 0;
const QUEUE: u32 = 0x40;
const KERNARG: u32 = 0x100;

/// Where each part of the region is, in bytes from [`MEM_BASE`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub kernarg: u32,
    /// `(offset, bytes)` of each buffer argument, in argument order (`None` for by-value
    /// arguments).
    pub buffers: Vec<Option<(u32, u32)>>,
    /// The scratch of one workgroup, and its bytes per wave.
    pub scratch: u32,
    pub scratch_per_wave: u32,
    pub total: u32,
    /// The EXEC every wave of the dispatch starts with, when it is the same for all (every
    /// workgroup whole and a whole number of waves: all lanes).
    pub exec: Option<u64>,
    /// `(offset, bytes)` of the region's parts no wave writes while the kernel runs: the
    /// kernarg segment (read-only under the HSA ABI) and the constant buffers a caller adds.
    /// The lowering folds the scalar loads from them.
    pub read_only: Vec<(u32, u32)>,
}

impl Layout {
    pub fn total_bytes(&self) -> u32 {
        self.total
    }
}

/// The windows of the region a dispatch's waves may touch: the dispatch packet and queue, the
/// kernarg segment, each buffer argument (its bytes exactly: the guard zones around buffers
/// are not mapped) and the scratch of the workgroup with what a caller placed after it (the
/// probe kernels' arena). Each buffer is named as its argument is.
pub fn memory_map(program: &Program, layout: &Layout) -> MemMap {
    let kernarg = layout.read_only.first().map_or(0, |&(_, n)| {
        // The segment and its padding to the next 256 bytes: a scalar load of a few dwords
        // may read past the segment's last argument.
        align(layout.kernarg + n, 256) - layout.kernarg
    });
    let mut windows = vec![
        MemWindow::in_region(
            u64::from(PACKET),
            u64::from(KERNARG - PACKET),
            "the dispatch packet and queue",
        ),
        MemWindow::in_region(
            u64::from(layout.kernarg),
            u64::from(kernarg),
            "the kernarg segment",
        ),
    ];
    let names = explicit_args(&program.meta.args).map(|m| m.name.clone());
    for (i, (place, name)) in layout.buffers.iter().zip(names).enumerate() {
        if let Some((at, n)) = *place {
            windows.push(MemWindow::in_region(
                u64::from(at),
                u64::from(n),
                name.unwrap_or_else(|| format!("arg{i}")),
            ));
        }
    }
    if layout.total > layout.scratch {
        windows.push(MemWindow::in_region(
            u64::from(layout.scratch),
            u64::from(layout.total - layout.scratch),
            "scratch",
        ));
    }
    MemMap { windows }
}

/// The smallest guard zone around a buffer.
const MIN_GUARD: u32 = 4096;

/// The guard zone after a buffer of `n` bytes: as large as the buffer, at least
/// [`MIN_GUARD`], so that an overrun of up to the buffer's own size lands in no other buffer.
fn guard(n: u32) -> u32 {
    align(n.max(MIN_GUARD), 256)
}

fn align(v: u32, to: u32) -> u32 {
    v.next_multiple_of(to)
}

/// The explicit arguments: those with a name, or any not hidden.
pub fn explicit_args(meta: &[ArgMeta]) -> impl Iterator<Item = &ArgMeta> {
    meta.iter().filter(|a| !a.value_kind.starts_with("hidden_"))
}

/// Lays out the region and fills it: packet, kernarg segment (explicit and hidden arguments),
/// buffers.
pub fn memory(program: &Program, d: &Dispatch) -> anyhow::Result<(Layout, Vec<u32>)> {
    let meta = &program.meta;
    let explicit = explicit_args(&meta.args).count();
    if explicit != d.args.len() {
        bail!(
            "the kernel takes {explicit} arguments, {} given",
            d.args.len()
        );
    }
    let kernarg_bytes = meta.kernarg_segment_size.max(program.kd.kernarg_size);
    // Each buffer has an unmapped guard zone before it and after it (`memory_map`), so that an
    // access past its end faults on `cpu` instead of reaching the next buffer.
    let mut at = align(KERNARG + kernarg_bytes, 256) + MIN_GUARD;
    let mut buffers = Vec::new();
    for v in &d.args {
        match v {
            ArgValue::Buffer(b) => {
                let n = align(b.len() as u32, 4);
                buffers.push(Some((at, n)));
                at = align(at + n.max(4), 256) + guard(n);
            }
            ArgValue::Value(_) => buffers.push(None),
        }
    }
    let lanes = program.wave.lanes();
    let private = meta
        .private_segment_fixed_size
        .max(program.kd.private_segment_fixed_size);
    let scratch_per_wave = align(private * lanes, 1024);
    let per_group: u32 = d.block.iter().product();
    let waves = per_group.div_ceil(lanes);
    let scratch = at;
    let total = align(scratch + scratch_per_wave * waves, 256).max(256);
    let whole =
        (0..3).all(|i| d.block[i] != 0 && d.grid[i] % d.block[i] == 0) && per_group % lanes == 0;
    let layout = Layout {
        kernarg: KERNARG,
        buffers,
        scratch,
        scratch_per_wave,
        total,
        exec: whole.then_some(u64::MAX >> (64 - lanes)),
        read_only: vec![(KERNARG, kernarg_bytes)],
    };
    let mut bytes = vec![0u8; total as usize];
    let put = |bytes: &mut Vec<u8>, off: u32, v: &[u8]| {
        bytes[off as usize..off as usize + v.len()].copy_from_slice(v);
    };
    // hsa_kernel_dispatch_packet_t
    put(&mut bytes, PACKET + 2, &grid_dims(d).to_le_bytes());
    for i in 0..3 {
        put(
            &mut bytes,
            PACKET + 4 + 2 * i,
            &(d.block[i as usize] as u16).to_le_bytes(),
        );
        put(
            &mut bytes,
            PACKET + 12 + 4 * i,
            &d.grid[i as usize].to_le_bytes(),
        );
    }
    put(&mut bytes, PACKET + 24, &private.to_le_bytes());
    let group_bytes = meta.group_segment_fixed_size + d.dynamic_lds;
    put(&mut bytes, PACKET + 28, &group_bytes.to_le_bytes());
    put(
        &mut bytes,
        PACKET + 40,
        &(MEM_BASE + u64::from(KERNARG)).to_le_bytes(),
    );
    let pointers: Vec<Option<u64>> = layout
        .buffers
        .iter()
        .map(|b| b.map(|(at, _)| MEM_BASE + u64::from(at)))
        .collect();
    let seg = kernarg(program, d, &pointers)?;
    put(&mut bytes, KERNARG, &seg);
    for (v, place) in d.args.iter().zip(&layout.buffers) {
        if let (ArgValue::Buffer(b), Some((at, _))) = (v, place) {
            put(&mut bytes, *at, b);
        }
    }
    let mem = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    Ok((layout, mem))
}

/// The kernarg segment: the explicit arguments (a buffer as its address in `pointers`) and
/// the hidden ones the metadata lists (code object v5's block counts, group sizes,
/// remainders, grid dims; the runtime-service pointers 0).
pub fn kernarg(
    program: &Program,
    d: &Dispatch,
    pointers: &[Option<u64>],
) -> anyhow::Result<Vec<u8>> {
    let meta = &program.meta;
    let kernarg_bytes = meta.kernarg_segment_size.max(program.kd.kernarg_size);
    let mut seg = vec![0u8; kernarg_bytes as usize];
    let put = |seg: &mut Vec<u8>, off: u32, v: &[u8]| {
        seg[off as usize..off as usize + v.len()].copy_from_slice(v);
    };
    for ((a, v), ptr) in explicit_args(&meta.args).zip(&d.args).zip(pointers) {
        let off = a.offset;
        if off + a.size > kernarg_bytes {
            bail!(
                "argument `{}` at offset {} runs past the kernarg segment",
                name(a),
                a.offset
            );
        }
        match (v, ptr) {
            (ArgValue::Buffer(_), Some(p)) => {
                if a.size != 8 {
                    bail!("argument `{}` is a buffer of {} bytes", name(a), a.size);
                }
                put(&mut seg, off, &p.to_le_bytes());
            }
            (ArgValue::Value(v), _) => {
                if v.len() != a.size as usize {
                    bail!(
                        "argument `{}` takes {} bytes, the value has {}",
                        name(a),
                        a.size,
                        v.len()
                    );
                }
                put(&mut seg, off, v);
            }
            (ArgValue::Buffer(_), None) => bail!("argument `{}` has no address", name(a)),
        }
    }
    let groups = d.groups();
    let dims = grid_dims(d);
    for a in meta
        .args
        .iter()
        .filter(|a| a.value_kind.starts_with("hidden_"))
    {
        let dim = |k: &str| match k.chars().last() {
            Some('x') => 0usize,
            Some('y') => 1,
            _ => 2,
        };
        let k = a.value_kind.as_str();
        let v: u64 = if k.starts_with("hidden_block_count_") {
            u64::from(groups[dim(k)])
        } else if k.starts_with("hidden_group_size_") {
            u64::from(d.block[dim(k)])
        } else if k.starts_with("hidden_remainder_") {
            u64::from(d.grid[dim(k)] % d.block[dim(k)])
        } else if k == "hidden_grid_dims" {
            u64::from(dims)
        } else {
            // global offsets, and pointers to runtime services (printf, hostcall, heap,
            // queue): none here
            0
        };
        let n = (a.size as usize).min(8);
        if a.offset + a.size <= kernarg_bytes {
            put(&mut seg, a.offset, &v.to_le_bytes()[..n]);
        }
    }
    Ok(seg)
}

/// The dispatch packet's dimensions: 3 when the grid has depth, 2 with height, else 1.
fn grid_dims(d: &Dispatch) -> u16 {
    if d.grid[2] > 1 {
        3
    } else if d.grid[1] > 1 {
        2
    } else {
        1
    }
}

fn name(a: &ArgMeta) -> &str {
    a.name.as_deref().unwrap_or("(unnamed)")
}

/// Every workgroup id, x fastest.
pub fn workgroups(d: &Dispatch) -> impl Iterator<Item = [u32; 3]> {
    let g = d.groups();
    (0..g[2]).flat_map(move |z| (0..g[1]).flat_map(move |y| (0..g[0]).map(move |x| [x, y, z])))
}

/// One wave's state before the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveSetup {
    /// in0..in2 of each lane: its workitem id x, y, z (the prologue moves them to v0..v2).
    pub lanes: Vec<[u32; 6]>,
    pub sgprs: [u32; 16],
    /// SGPRs past s15 and their values (set by the prologue).
    pub extra: Vec<(u16, u32)>,
    pub exec: u64,
}

impl WaveSetup {
    pub fn input(&self, lds: Vec<u32>) -> WaveInput {
        WaveInput {
            lanes: self.lanes.clone(),
            sgprs: rdnaprobe_recompiler::wave::sgprs_in(&self.sgprs),
            exec: self.exec,
            lds,
        }
    }
}

/// The user SGPRs every wave of a dispatch of `program` starts with, from s0, in the
/// descriptor's order (private segment buffer, dispatch ptr, queue ptr, kernarg segment ptr,
/// dispatch id, flat scratch init, private segment size): the same for every wave.
pub fn user_sgprs(program: &Program, layout: &Layout) -> anyhow::Result<Vec<u32>> {
    let kd = &program.kd;
    let lanes = program.wave.lanes();
    let enables = kd.user_sgpr_enables();
    let mut regs: Vec<u32> = Vec::new();
    let scratch = MEM_BASE + u64::from(layout.scratch);
    if enables & 1 != 0 {
        let index_stride = if lanes == 64 { 3 } else { 2 };
        regs.extend([
            scratch as u32,
            (scratch >> 32) as u32 & 0xffff | 1 << 31,
            u32::MAX,
            SCRATCH_WORD3 | index_stride << 21,
        ]);
    }
    let ptr = |off: u32| {
        let a = MEM_BASE + u64::from(off);
        [a as u32, (a >> 32) as u32]
    };
    if enables & 2 != 0 {
        regs.extend(ptr(PACKET));
    }
    if enables & 4 != 0 {
        regs.extend(ptr(QUEUE));
    }
    if enables & 8 != 0 {
        regs.extend(ptr(layout.kernarg));
    }
    if enables & 16 != 0 {
        regs.extend([0, 0]);
    }
    if enables & 32 != 0 {
        // flat scratch init: the scratch base (the kernel adds its wave offset)
        regs.extend([scratch as u32, (scratch >> 32) as u32]);
    }
    if enables & 64 != 0 {
        regs.push(program.meta.private_segment_fixed_size);
    }
    if regs.len() as u32 != kd.user_sgpr_count() {
        bail!(
            "the descriptor's USER_SGPR_COUNT is {}, its enables give {} (preloaded \
             kernel arguments are not supported)",
            kd.user_sgpr_count(),
            regs.len()
        );
    }
    Ok(regs)
}

/// The waves of workgroup `group`.
pub fn waves(
    program: &Program,
    d: &Dispatch,
    layout: &Layout,
    group: [u32; 3],
) -> anyhow::Result<Vec<WaveSetup>> {
    let kd = &program.kd;
    let lanes = program.wave.lanes();
    // this workgroup's size: the last one in a dimension may be partial
    let size: [u32; 3] = [0, 1, 2].map(|i| (d.grid[i] - group[i] * d.block[i]).min(d.block[i]));
    let items = size.iter().product::<u32>();
    let nwaves = items.div_ceil(lanes);
    let user = user_sgprs(program, layout)?;
    let mut out = Vec::new();
    for w in 0..nwaves {
        let mut regs = user.clone();
        for (i, on) in kd.workgroup_id_enabled().into_iter().enumerate() {
            if on {
                regs.push(group[i]);
            }
        }
        if kd.compute_pgm_rsrc2 & 1 << 10 != 0 {
            // workgroup info: first wave (bit 31), waves in the workgroup (bits 5:0)
            regs.push(u32::from(w == 0) << 31 | nwaves);
        }
        if kd.private_segment() {
            regs.push(w * layout.scratch_per_wave);
        }
        let mut sgprs = [0u32; 16];
        let mut extra = Vec::new();
        for (i, v) in regs.into_iter().enumerate() {
            match sgprs.get_mut(i) {
                Some(s) => *s = v,
                None => extra.push((i as u16, v)),
            }
        }
        let mut exec = 0u64;
        let mut lane_ins = vec![[0u32; 6]; lanes as usize];
        for l in 0..lanes {
            let id = w * lanes + l;
            if id >= items {
                continue;
            }
            exec |= 1 << l;
            let x = id % size[0];
            let y = id / size[0] % size[1];
            let z = id / (size[0] * size[1]);
            lane_ins[l as usize][..3].copy_from_slice(&[x, y, z]);
        }
        out.push(WaveSetup {
            lanes: lane_ins,
            sgprs,
            extra,
            exec,
        });
    }
    Ok(out)
}
