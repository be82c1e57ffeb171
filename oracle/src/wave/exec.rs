//! Running waves of one wave kernel: the per-wave inputs and results, the buffers and wave table
//! they are packed into, and the dispatch over any [`WaveDevice`] (HIP, or the fake device of
//! the tests, which interprets the table the way the template does).

use crate::error::{OracleError, Result};
use crate::template::{DONE_MARK, INPUT_DWORDS, OUTPUT_DWORDS};

use super::template::{
    WaveShape, ENTRY_BYTES, ENTRY_EXEC_IN, ENTRY_LANES_IN, ENTRY_LANES_OUT, ENTRY_LDS_IN,
    ENTRY_LDS_OUT, ENTRY_REGION, ENTRY_REGION_BYTES, ENTRY_S_IN, ENTRY_UNIFORM_OUT, UNIFORM_DONE,
    UNIFORM_EXEC, UNIFORM_OUT_DWORDS, UNIFORM_S, UNIFORM_SCC, UNIFORM_VCC, WAVE_KERNARG_SIZE,
};

/// Waves per dispatch: keeps each buffer far below 4 GiB (64 Ki waves x 64 KiB of LDS is the
/// largest, 4 GiB in and out, so LDS-heavy batches are split further by [`waves_per_dispatch`]).
pub const MAX_WAVES_PER_DISPATCH: usize = 1 << 16;
/// Regions start at multiples of this many bytes in the region arena.
pub const REGION_ALIGN: usize = 256;

/// One wave's inputs (the wave contract's uniform cells resolved, plus the lanes' rows).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WaveInput {
    /// in0..in5 of lanes 0.. (at most the wave size; lanes past the end get zeros).
    pub lanes: Vec<[u32; INPUT_DWORDS]>,
    pub s_in: [u32; 16],
    /// EXEC before the body (wave32 uses the low 32 bits).
    pub exec_in: u64,
    /// LDS dwords from byte 0 (at most the shape's LDS bytes; the rest of the allocation is 0).
    pub lds_in: Vec<u32>,
    /// The memory region's dwords from byte 0 (at most `mem_bytes`; the rest is 0).
    pub mem_in: Vec<u32>,
    /// The region's size in bytes (the V#'s num_records).
    pub mem_bytes: u32,
}

impl WaveInput {
    /// Sets lane `lane`'s in0..in5, growing `lanes` with zero lanes as needed (the rows of a wave
    /// need not cover every lane).
    pub fn set_lane(&mut self, lane: usize, inputs: [u32; INPUT_DWORDS]) {
        if self.lanes.len() <= lane {
            self.lanes.resize(lane + 1, [0; INPUT_DWORDS]);
        }
        self.lanes[lane] = inputs;
    }
}

/// What one wave produced.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct WaveResult {
    /// v10..v25 of every lane of the wave (the wave size of entries).
    pub lanes: Vec<[u32; OUTPUT_DWORDS]>,
    pub s_out: [u32; 16],
    pub exec_out: u64,
    pub vcc_out: u64,
    pub scc_out: bool,
    /// LDS after the body: the shape's `lds_bytes`, in dwords (rounded up).
    pub lds_out: Vec<u32>,
    /// The region after the body: `mem_bytes`, in dwords (rounded up).
    pub mem_out: Vec<u32>,
    /// The epilogue ran to its last store (see [`DONE_MARK`]); the other fields are meaningless
    /// otherwise.
    pub done: bool,
}

/// Device memory and a launcher for one loaded probe kernel (a wave kernel, or the lane kernel
/// through [`crate::exec::run_lanes_on`]).
pub trait WaveDevice {
    type Buffer;
    fn alloc(&self, bytes: usize) -> Result<Self::Buffer>;
    /// A buffer the kernel only reads (the wave table): [`Self::alloc`]'s unless a device
    /// makes use of it (the CPU model's dispatch folds the scalar loads from it).
    fn alloc_constant(&self, bytes: usize) -> Result<Self::Buffer> {
        self.alloc(bytes)
    }
    /// The buffer's device address (what the kernel dereferences).
    fn address(&self, buffer: &Self::Buffer) -> u64;
    fn upload(&self, buffer: &Self::Buffer, data: &[u8]) -> Result<()>;
    fn download(&self, buffer: &Self::Buffer, out: &mut [u8]) -> Result<()>;
    /// Launches `groups` workgroups of `block` lanes with `kernargs` and waits for them.
    fn launch(&self, kernargs: &mut [u8], groups: u32, block: u32) -> Result<()>;
}

fn dwords_to_bytes(words: &[u32]) -> impl Iterator<Item = u8> + '_ {
    words.iter().flat_map(|w| w.to_le_bytes())
}

fn bytes_to_dwords(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(b)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mode::Wave;

    #[test]
    fn set_lane_fills_gaps_with_zero_lanes() {
        let mut w = WaveInput::default();
        w.set_lane(3, [7; INPUT_DWORDS]);
        w.set_lane(1, [5; INPUT_DWORDS]);
        assert_eq!(w.lanes, [[0; 6], [5; 6], [0; 6], [7; 6]]);
    }

    #[test]
    fn table_entries_point_into_the_buffers() {
        let shape = WaveShape {
            wave: Wave::W64,
            lds_bytes: 600,
        };
        let waves = vec![
            WaveInput {
                mem_bytes: 10,
                mem_in: vec![1, 2],
                ..WaveInput::default()
            },
            WaveInput {
                exec_in: 0xdead_beef_0000_0001,
                s_in: [3; 16],
                mem_bytes: 4,
                ..WaveInput::default()
            },
        ];
        let p = pack(&shape, &waves).unwrap();
        assert_eq!(p.region_spans, [(0, 10), (256, 4)]);
        assert_eq!(p.regions.len(), 260);
        assert_eq!(p.lds_in.len(), 2 * 1024, "whole granules per wave");
        let at = Addresses {
            lanes_in: 0x1000,
            lanes_out: 0x2000,
            uniform_out: 0x3000,
            lds_in: 0x4000,
            lds_out: 0x5000,
            regions: 0x6000,
        };
        let t = wave_table(&shape, &waves, &p, &at);
        let u64_at = |o: usize| u64::from_le_bytes(t[o..o + 8].try_into().unwrap());
        let e = ENTRY_BYTES;
        assert_eq!(u64_at(e + ENTRY_LANES_IN), 0x1000 + 64 * 24);
        assert_eq!(u64_at(e + ENTRY_LANES_OUT), 0x2000 + 64 * 64);
        assert_eq!(u64_at(e + ENTRY_UNIFORM_OUT), 0x3000 + 96);
        assert_eq!(u64_at(e + ENTRY_LDS_IN), 0x4000 + 1024);
        assert_eq!(u64_at(e + ENTRY_LDS_OUT), 0x5000 + 1024);
        assert_eq!(u64_at(e + ENTRY_REGION), 0x6000 + 256);
        assert_eq!(t[e + ENTRY_REGION_BYTES], 4);
        assert_eq!(u64_at(e + ENTRY_EXEC_IN), 0xdead_beef_0000_0001);
        assert_eq!(t[e + ENTRY_S_IN + 60], 3);
        assert_eq!(
            kernargs(0xabc, 2)[..12],
            [0xbc, 0xa, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0]
        );
    }
}

/// Checks that `wave` fits `shape`.
pub fn validate_wave(shape: &WaveShape, index: usize, wave: &WaveInput) -> Result<()> {
    let bad = |m: String| Err(OracleError::InvalidWave(format!("wave {index}: {m}")));
    if wave.lanes.len() > shape.lanes() {
        return bad(format!(
            "{} lanes in a wave{}",
            wave.lanes.len(),
            shape.lanes()
        ));
    }
    if wave.lds_in.len() * 4 > shape.lds_bytes as usize {
        return bad(format!(
            "{} LDS dwords exceed the {}-byte LDS",
            wave.lds_in.len(),
            shape.lds_bytes
        ));
    }
    if wave.mem_in.len() * 4 > wave.mem_bytes as usize {
        return bad(format!(
            "{} region dwords exceed mem_bytes {}",
            wave.mem_in.len(),
            wave.mem_bytes
        ));
    }
    Ok(())
}

/// The host images of a dispatch's input buffers and the sizes of its output buffers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Packed {
    pub lanes_in: Vec<u8>,
    pub lds_in: Vec<u8>,
    /// All regions, each at a [`REGION_ALIGN`]-aligned offset.
    pub regions: Vec<u8>,
    /// Per wave: (offset in `regions`, bytes).
    pub region_spans: Vec<(usize, usize)>,
    pub lanes_out_bytes: usize,
    pub uniform_out_bytes: usize,
    pub lds_out_bytes: usize,
}

/// Packs `waves` for one dispatch of a `shape` kernel.
pub fn pack(shape: &WaveShape, waves: &[WaveInput]) -> Result<Packed> {
    let lanes = shape.lanes();
    let alloc = shape.lds_alloc() as usize;
    let mut lanes_in = vec![0u8; waves.len() * lanes * INPUT_DWORDS * 4];
    let mut lds_in = vec![0u8; waves.len() * alloc];
    let mut region_spans = Vec::with_capacity(waves.len());
    let mut region_end = 0usize;
    for (i, w) in waves.iter().enumerate() {
        validate_wave(shape, i, w)?;
        let at = i * lanes * INPUT_DWORDS * 4;
        for (dst, src) in lanes_in[at..]
            .iter_mut()
            .zip(dwords_to_bytes(w.lanes.as_flattened()))
        {
            *dst = src;
        }
        for (dst, src) in lds_in[i * alloc..]
            .iter_mut()
            .zip(dwords_to_bytes(&w.lds_in))
        {
            *dst = src;
        }
        let offset = region_end.next_multiple_of(REGION_ALIGN);
        let bytes = w.mem_bytes as usize;
        region_spans.push((offset, bytes));
        region_end = offset + bytes;
    }
    let mut regions = vec![0u8; region_end.next_multiple_of(4)];
    for (w, (offset, _)) in waves.iter().zip(&region_spans) {
        for (dst, src) in regions[*offset..]
            .iter_mut()
            .zip(dwords_to_bytes(&w.mem_in))
        {
            *dst = src;
        }
    }
    Ok(Packed {
        lanes_in,
        lds_in,
        regions,
        region_spans,
        lanes_out_bytes: waves.len() * lanes * OUTPUT_DWORDS * 4,
        uniform_out_bytes: waves.len() * UNIFORM_OUT_DWORDS * 4,
        lds_out_bytes: waves.len() * alloc,
    })
}

/// Device addresses of a dispatch's buffers (0 for a buffer the dispatch does not use).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Addresses {
    pub lanes_in: u64,
    pub lanes_out: u64,
    pub uniform_out: u64,
    pub lds_in: u64,
    pub lds_out: u64,
    pub regions: u64,
}

/// The wave table: one [`ENTRY_BYTES`] entry per wave, pointing into the buffers at `at`.
pub fn wave_table(
    shape: &WaveShape,
    waves: &[WaveInput],
    packed: &Packed,
    at: &Addresses,
) -> Vec<u8> {
    let lanes = shape.lanes() as u64;
    let alloc = u64::from(shape.lds_alloc());
    let lds = |base: u64, i: u64| if alloc == 0 { 0 } else { base + i * alloc };
    let mut table = vec![0u8; waves.len() * ENTRY_BYTES];
    for (i, (w, e)) in waves
        .iter()
        .zip(table.chunks_exact_mut(ENTRY_BYTES))
        .enumerate()
    {
        let i64_ = i as u64;
        let mut put = |off: usize, bytes: &[u8]| e[off..off + bytes.len()].copy_from_slice(bytes);
        let in_stride = lanes * (INPUT_DWORDS as u64) * 4;
        let out_stride = lanes * (OUTPUT_DWORDS as u64) * 4;
        put(
            ENTRY_LANES_IN,
            &(at.lanes_in + i64_ * in_stride).to_le_bytes(),
        );
        put(
            ENTRY_LANES_OUT,
            &(at.lanes_out + i64_ * out_stride).to_le_bytes(),
        );
        let uniform = at.uniform_out + i64_ * (UNIFORM_OUT_DWORDS as u64) * 4;
        put(ENTRY_UNIFORM_OUT, &uniform.to_le_bytes());
        put(ENTRY_LDS_IN, &lds(at.lds_in, i64_).to_le_bytes());
        put(ENTRY_LDS_OUT, &lds(at.lds_out, i64_).to_le_bytes());
        let (offset, bytes) = packed.region_spans[i];
        put(ENTRY_REGION, &(at.regions + offset as u64).to_le_bytes());
        put(ENTRY_REGION_BYTES, &(bytes as u32).to_le_bytes());
        put(ENTRY_EXEC_IN, &w.exec_in.to_le_bytes());
        let s_in: Vec<u8> = dwords_to_bytes(&w.s_in).collect();
        put(ENTRY_S_IN, &s_in);
    }
    table
}

/// The kernel-argument block: the table's address and the wave count.
pub fn kernargs(table: u64, waves: usize) -> [u8; WAVE_KERNARG_SIZE] {
    let mut k = [0u8; WAVE_KERNARG_SIZE];
    k[0..8].copy_from_slice(&table.to_le_bytes());
    k[8..12].copy_from_slice(&(waves as u32).to_le_bytes());
    k
}

/// What came back from the device for one dispatch.
pub struct Downloaded<'a> {
    pub lanes_out: &'a [u8],
    pub uniform_out: &'a [u8],
    pub lds_out: &'a [u8],
    pub regions: &'a [u8],
}

/// Splits a dispatch's output buffers into one [`WaveResult`] per wave.
pub fn unpack(shape: &WaveShape, packed: &Packed, d: &Downloaded<'_>) -> Vec<WaveResult> {
    let lanes = shape.lanes();
    let alloc = shape.lds_alloc() as usize;
    let lds_keep = (shape.lds_bytes as usize).div_ceil(4);
    let lane_bytes = lanes * OUTPUT_DWORDS * 4;
    packed
        .region_spans
        .iter()
        .enumerate()
        .map(|(i, &(offset, bytes))| {
            let u = bytes_to_dwords(
                &d.uniform_out[i * UNIFORM_OUT_DWORDS * 4..][..UNIFORM_OUT_DWORDS * 4],
            );
            let pair = |k: usize| u64::from(u[k]) | (u64::from(u[k + 1]) << 32);
            let out = bytes_to_dwords(&d.lanes_out[i * lane_bytes..][..lane_bytes]);
            let mut lds_out = if alloc == 0 {
                Vec::new()
            } else {
                bytes_to_dwords(&d.lds_out[i * alloc..][..alloc])
            };
            lds_out.truncate(lds_keep);
            WaveResult {
                lanes: out
                    .chunks_exact(OUTPUT_DWORDS)
                    .map(|c| c.try_into().expect("OUTPUT_DWORDS"))
                    .collect(),
                s_out: u[UNIFORM_S..UNIFORM_S + 16].try_into().expect("16 dwords"),
                exec_out: pair(UNIFORM_EXEC),
                vcc_out: pair(UNIFORM_VCC),
                scc_out: u[UNIFORM_SCC] != 0,
                lds_out,
                mem_out: bytes_to_dwords(&d.regions[offset..offset + bytes]),
                done: u[UNIFORM_DONE] == DONE_MARK,
            }
        })
        .collect()
}

/// Waves per dispatch for `shape`: [`MAX_WAVES_PER_DISPATCH`], fewer when LDS copies would pass
/// 1 GiB per buffer.
pub fn waves_per_dispatch(shape: &WaveShape) -> usize {
    let alloc = shape.lds_alloc().max(1) as usize;
    MAX_WAVES_PER_DISPATCH.min((1 << 30) / alloc).max(1)
}

/// Runs `waves` on `dev` (a loaded kernel of `shape`): packs, uploads, launches, reads back.
pub fn run_waves_on<D: WaveDevice>(
    dev: &D,
    shape: &WaveShape,
    waves: &[WaveInput],
) -> Result<Vec<WaveResult>> {
    shape.validate()?;
    let mut results = Vec::with_capacity(waves.len());
    for chunk in waves.chunks(waves_per_dispatch(shape)) {
        results.extend(dispatch(dev, shape, chunk)?);
    }
    Ok(results)
}

fn dispatch<D: WaveDevice>(
    dev: &D,
    shape: &WaveShape,
    waves: &[WaveInput],
) -> Result<Vec<WaveResult>> {
    let packed = pack(shape, waves)?;
    let input = |data: &[u8]| -> Result<D::Buffer> {
        let b = dev.alloc(data.len())?;
        if !data.is_empty() {
            dev.upload(&b, data)?;
        }
        Ok(b)
    };
    // Outputs start zeroed so that a wave that never stores leaves no stale done mark.
    let output = |n: usize| input(&vec![0u8; n]);
    let lanes_in = input(&packed.lanes_in)?;
    let lds_in = input(&packed.lds_in)?;
    let regions = input(&packed.regions)?;
    let lanes_out = output(packed.lanes_out_bytes)?;
    let uniform_out = output(packed.uniform_out_bytes)?;
    let lds_out = output(packed.lds_out_bytes)?;
    let at = Addresses {
        lanes_in: dev.address(&lanes_in),
        lanes_out: dev.address(&lanes_out),
        uniform_out: dev.address(&uniform_out),
        lds_in: dev.address(&lds_in),
        lds_out: dev.address(&lds_out),
        regions: dev.address(&regions),
    };
    let table_bytes = wave_table(shape, waves, &packed, &at);
    let table = dev.alloc_constant(table_bytes.len())?;
    dev.upload(&table, &table_bytes)?;
    let mut args = kernargs(dev.address(&table), waves.len());
    dev.launch(&mut args, waves.len() as u32, shape.lanes() as u32)?;
    let read = |b: &D::Buffer, n: usize| -> Result<Vec<u8>> {
        let mut v = vec![0u8; n];
        if n > 0 {
            dev.download(b, &mut v)?;
        }
        Ok(v)
    };
    let lanes_out = read(&lanes_out, packed.lanes_out_bytes)?;
    let uniform_out = read(&uniform_out, packed.uniform_out_bytes)?;
    let lds_out = read(&lds_out, packed.lds_out_bytes)?;
    let regions = read(&regions, packed.regions.len())?;
    Ok(unpack(
        shape,
        &packed,
        &Downloaded {
            lanes_out: &lanes_out,
            uniform_out: &uniform_out,
            lds_out: &lds_out,
            regions: &regions,
        },
    ))
}
