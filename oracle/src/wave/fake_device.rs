//! A fake [`WaveDevice`] for the tests: flat memory at made-up addresses and a launch that does
//! what the wave template does (read the table, set up the registers, run a Rust "body", store
//! the outputs), so the packing, the table and the unpacking are tested end to end without a GPU.

use std::cell::{Cell, RefCell};

use crate::error::{OracleError, Result};
use crate::template::DONE_MARK;

use super::exec::{run_waves_on, WaveDevice, WaveInput, WaveResult};
use super::template::*;
use crate::mode::Wave;

/// The registers and LDS of one wave, as the body sees them.
#[derive(Clone, Debug)]
pub struct FakeWave {
    pub lanes: usize,
    /// v[lane][reg].
    pub v: Vec<[u32; 256]>,
    pub s: [u32; 106],
    pub exec: u64,
    pub vcc: u64,
    pub scc: bool,
    pub m0: u32,
    pub lds: Vec<u32>,
    /// The region's address and bytes (`s[16:17]` and s22, kept here to model memory access).
    pub region: (u64, u32),
}

/// Flat memory: buffers at made-up addresses, with page gaps between them.
pub struct Memory {
    buffers: RefCell<Vec<(u64, Vec<u8>)>>,
    next: Cell<u64>,
}

pub struct FakeDevice<F: Fn(&mut FakeWave, &Memory)> {
    pub mem: Memory,
    pub body: F,
    /// The kernel's LDS allocation in bytes.
    pub lds_alloc: u32,
    /// Whether a wave's epilogue runs (false models a body that ends the program).
    pub finish: bool,
    pub launches: Cell<usize>,
}

impl Memory {
    fn alloc(&self, bytes: usize) -> u64 {
        let base = self.next.get();
        // Garbage, so that a buffer the executor forgets to initialise shows up.
        self.buffers
            .borrow_mut()
            .push((base, vec![0xa5; bytes.max(4)]));
        self.next
            .set(base + (bytes as u64).next_multiple_of(0x1000) + 0x1000);
        base
    }

    fn locate(&self, addr: u64, len: usize) -> Result<(usize, usize)> {
        let bufs = self.buffers.borrow();
        bufs.iter()
            .position(|(base, data)| addr >= *base && addr + len as u64 <= base + data.len() as u64)
            .map(|i| (i, (addr - bufs[i].0) as usize))
            .ok_or_else(|| OracleError::Protocol(format!("fault at {addr:#x} ({len} bytes)")))
    }
    pub fn read(&self, addr: u64, len: usize) -> Result<Vec<u8>> {
        let (i, off) = self.locate(addr, len)?;
        Ok(self.buffers.borrow()[i].1[off..off + len].to_vec())
    }
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<()> {
        let (i, off) = self.locate(addr, data.len())?;
        self.buffers.borrow_mut()[i].1[off..off + data.len()].copy_from_slice(data);
        Ok(())
    }
    pub fn read_u32(&self, addr: u64) -> Result<u32> {
        Ok(u32::from_le_bytes(
            self.read(addr, 4)?.try_into().expect("4"),
        ))
    }
}

impl<F: Fn(&mut FakeWave, &Memory)> FakeDevice<F> {
    pub fn new(lds_alloc: u32, body: F) -> FakeDevice<F> {
        FakeDevice {
            mem: Memory {
                buffers: RefCell::new(Vec::new()),
                next: Cell::new(0x7f00_0000_1000),
            },
            body,
            lds_alloc,
            finish: true,
            launches: Cell::new(0),
        }
    }

    fn read_u64(&self, addr: u64) -> Result<u64> {
        Ok(u64::from_le_bytes(
            self.mem.read(addr, 8)?.try_into().expect("8"),
        ))
    }
    fn read_u32(&self, addr: u64) -> Result<u32> {
        self.mem.read_u32(addr)
    }
    fn write_u32s(&self, addr: u64, words: &[u32]) -> Result<()> {
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        self.mem.write(addr, &bytes)
    }

    fn run_wave(&self, entry: u64, lanes: usize, lds_bytes: usize) -> Result<()> {
        let p = |off: usize| self.read_u64(entry + off as u64);
        let mut w = FakeWave {
            lanes,
            v: vec![[0u32; 256]; lanes],
            s: [0; 106],
            exec: 0,
            vcc: 0,
            scc: false,
            m0: 0,
            lds: vec![0; lds_bytes / 4],
            region: (0, 0),
        };
        let lanes_in = p(ENTRY_LANES_IN)?;
        for (lane, v) in w.v.iter_mut().enumerate() {
            for k in 0..6 {
                v[4 + k] = self.read_u32(lanes_in + (lane * 24 + k * 4) as u64)?;
            }
            v[255] = lane as u32;
        }
        if lds_bytes > 0 {
            let lds_in = p(ENTRY_LDS_IN)?;
            for (k, d) in w.lds.iter_mut().enumerate() {
                *d = self.read_u32(lds_in + 4 * k as u64)?;
            }
        }
        for k in 0..16 {
            w.s[k] = self.read_u32(entry + (ENTRY_S_IN + 4 * k) as u64)?;
        }
        let region = p(ENTRY_REGION)?;
        let region_bytes = self.read_u32(entry + ENTRY_REGION_BYTES as u64)?;
        w.region = (region, region_bytes);
        w.s[16] = region as u32;
        w.s[17] = (region >> 32) as u32;
        w.s[20] = region as u32;
        w.s[21] = (region >> 32) as u32 & 0xffff;
        w.s[22] = region_bytes;
        w.s[23] = RAW_BUFFER_WORD3;
        let lane_mask = if lanes == 64 { u64::MAX } else { 0xffff_ffff };
        w.exec = p(ENTRY_EXEC_IN)? & lane_mask;
        (self.body)(&mut w, &self.mem);
        if !self.finish {
            return Ok(());
        }
        let lanes_out = p(ENTRY_LANES_OUT)?;
        for (lane, v) in w.v.iter().enumerate() {
            self.write_u32s(lanes_out + (lane * 64) as u64, &v[10..26])?;
        }
        let mut u = [0u32; UNIFORM_OUT_DWORDS];
        u[UNIFORM_S..UNIFORM_S + 16].copy_from_slice(&w.s[..16]);
        let exec = w.exec & lane_mask;
        let vcc = w.vcc & lane_mask;
        u[UNIFORM_EXEC] = exec as u32;
        u[UNIFORM_EXEC + 1] = (exec >> 32) as u32;
        u[UNIFORM_VCC] = vcc as u32;
        u[UNIFORM_VCC + 1] = (vcc >> 32) as u32;
        u[UNIFORM_SCC] = u32::from(w.scc);
        let uniform = p(ENTRY_UNIFORM_OUT)?;
        self.write_u32s(uniform, &u[..=UNIFORM_SCC])?;
        if lds_bytes > 0 {
            self.write_u32s(p(ENTRY_LDS_OUT)?, &w.lds)?;
        }
        self.write_u32s(uniform + 4 * UNIFORM_DONE as u64, &[DONE_MARK])
    }
}

impl<F: Fn(&mut FakeWave, &Memory)> WaveDevice for FakeDevice<F> {
    type Buffer = u64;

    fn alloc(&self, bytes: usize) -> Result<u64> {
        Ok(self.mem.alloc(bytes))
    }
    fn address(&self, buffer: &u64) -> u64 {
        *buffer
    }
    fn upload(&self, buffer: &u64, data: &[u8]) -> Result<()> {
        self.mem.write(*buffer, data)
    }
    fn download(&self, buffer: &u64, out: &mut [u8]) -> Result<()> {
        out.copy_from_slice(&self.mem.read(*buffer, out.len())?);
        Ok(())
    }
    fn launch(&self, kernargs: &mut [u8], groups: u32, block: u32) -> Result<()> {
        self.launches.set(self.launches.get() + 1);
        assert_eq!(kernargs.len(), WAVE_KERNARG_SIZE);
        let table = u64::from_le_bytes(kernargs[..8].try_into().expect("8"));
        let waves = u32::from_le_bytes(kernargs[8..12].try_into().expect("4"));
        assert_eq!(waves, groups, "one workgroup per wave");
        assert!(block == 32 || block == 64, "workgroup = one wave");
        // The LDS allocation is a property of the kernel, as the descriptor's is.
        let lds_bytes = self.lds_alloc as usize;
        for g in 0..u64::from(groups) {
            self.run_wave(table + g * ENTRY_BYTES as u64, block as usize, lds_bytes)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(shape: WaveShape, waves: &[WaveInput]) -> Vec<WaveResult> {
        let dev = FakeDevice::new(shape.lds_alloc(), body);
        let r = run_waves_on(&dev, &shape, waves).unwrap();
        assert_eq!(dev.launches.get(), 1);
        r
    }

    /// A body that touches every output: lanes in EXEC mix their inputs with the lane id (like a
    /// VALU op), v12..v15 show `s[20:23]`, v16 shows M0, v25 shows v255; s0..s15 are rewritten,
    /// EXEC/VCC/SCC change, every LDS dword is incremented, and region dword i gets i + 1 added
    /// through the address in `s[16:17]`.
    fn body(w: &mut FakeWave, d: &Memory) {
        for lane in 0..w.lanes {
            let s = w.s;
            let v = &mut w.v[lane];
            if w.exec >> lane & 1 == 1 {
                v[10] = v[4].wrapping_add(lane as u32);
                v[11] = v[9] ^ 0xffff_ffff;
            }
            v[12..16].copy_from_slice(&s[20..24]);
            v[16] = w.m0;
            v[25] = v[255];
        }
        let (base, bytes) = w.region;
        assert_eq!((u64::from(w.s[17]) << 32) | u64::from(w.s[16]), base);
        for i in 0..u64::from(bytes) / 4 {
            let x = d.read_u32(base + 4 * i).unwrap();
            d.write(base + 4 * i, &(x.wrapping_add(i as u32 + 1)).to_le_bytes())
                .unwrap();
        }
        for k in 0..16 {
            w.s[k] = w.s[k].rotate_left(k as u32) ^ 0x100;
        }
        w.vcc = !w.exec;
        w.exec &= 0x5555_5555_5555_5555;
        w.scc = true;
        for d in &mut w.lds {
            *d = d.wrapping_add(1);
        }
    }

    fn input(seed: u32, lanes: usize, lds: usize, mem: usize) -> WaveInput {
        let x = |k: u32| {
            seed.wrapping_mul(0x9e37_79b9)
                .wrapping_add(k)
                .rotate_left(seed % 31)
        };
        WaveInput {
            lanes: (0..lanes as u32)
                .map(|l| [x(l), 1, 2, 3, 4, x(l) ^ 7])
                .collect(),
            s_in: std::array::from_fn(|k| x(100 + k as u32)),
            exec_in: u64::from(x(200)) | (u64::from(x(201)) << 32),
            lds_in: (0..lds as u32).map(|k| x(300 + k)).collect(),
            mem_in: (0..mem as u32).map(|k| x(400 + k)).collect(),
            mem_bytes: (mem * 4 + 8) as u32,
        }
    }

    fn check(shape: &WaveShape, input: &WaveInput, out: &WaveResult) {
        let lanes = shape.lanes();
        let mask = if lanes == 64 { u64::MAX } else { 0xffff_ffff };
        let exec = input.exec_in & mask;
        assert!(out.done);
        assert_eq!(out.lanes.len(), lanes);
        for (lane, o) in out.lanes.iter().enumerate() {
            let i = input.lanes.get(lane).copied().unwrap_or([0; 6]);
            let active = exec >> lane & 1 == 1;
            assert_eq!(
                o[0],
                if active {
                    i[0].wrapping_add(lane as u32)
                } else {
                    0
                },
                "lane {lane}"
            );
            assert_eq!(o[1], if active { !i[5] } else { 0 }, "lane {lane}");
            assert_eq!(o[5], RAW_BUFFER_WORD3);
            assert_eq!(o[4], input.mem_bytes, "V# num_records");
            assert_eq!(o[6], 0, "M0 = 0");
            assert_eq!(o[15], lane as u32, "v255 is the lane id");
        }
        for k in 0..16 {
            assert_eq!(out.s_out[k], input.s_in[k].rotate_left(k as u32) ^ 0x100);
        }
        assert_eq!(out.exec_out, exec & 0x5555_5555_5555_5555);
        assert_eq!(out.vcc_out, !exec & mask);
        assert!(out.scc_out);
        let lds_dwords = (shape.lds_bytes as usize).div_ceil(4);
        assert_eq!(out.lds_out.len(), lds_dwords);
        for (k, d) in out.lds_out.iter().enumerate() {
            assert_eq!(
                *d,
                input.lds_in.get(k).copied().unwrap_or(0).wrapping_add(1)
            );
        }
        assert_eq!(out.mem_out.len(), (input.mem_bytes as usize).div_ceil(4));
        for (k, d) in out.mem_out.iter().enumerate() {
            let before = input.mem_in.get(k).copied().unwrap_or(0);
            assert_eq!(*d, before.wrapping_add(k as u32 + 1), "region dword {k}");
        }
    }

    #[test]
    fn waves_round_trip_through_the_table() {
        for (wave, lds_bytes) in [(Wave::W32, 0), (Wave::W32, 600), (Wave::W64, 2048)] {
            let shape = WaveShape { wave, lds_bytes };
            let lanes = shape.lanes();
            let lds = lds_bytes as usize / 4;
            let waves = vec![
                input(1, lanes, lds, 3),
                input(2, lanes - 5, lds / 2, 0),
                input(3, 1, 0, 17),
            ];
            let out = run(shape, &waves);
            assert_eq!(out.len(), waves.len());
            for (i, o) in waves.iter().zip(&out) {
                check(&shape, i, o);
            }
        }
    }

    #[test]
    fn a_wave_that_stops_early_is_not_done() {
        let shape = WaveShape {
            wave: Wave::W32,
            lds_bytes: 0,
        };
        let mut dev = FakeDevice::new(0, |_: &mut FakeWave, _: &Memory| {});
        dev.finish = false;
        let out = run_waves_on(&dev, &shape, &[input(1, 32, 0, 1)]).unwrap();
        assert!(!out[0].done, "zeroed outputs carry no done mark");
        assert_eq!(out[0].lanes[0], [0; 16], "no stale memory");
    }

    #[test]
    fn oversized_waves_are_rejected_before_launch() {
        let shape = WaveShape {
            wave: Wave::W32,
            lds_bytes: 16,
        };
        let dev = FakeDevice::new(512, |_: &mut FakeWave, _: &Memory| {});
        for bad in [input(1, 33, 0, 0), input(1, 1, 5, 0), {
            let mut w = input(1, 1, 0, 4);
            w.mem_bytes = 12;
            w
        }] {
            let e = run_waves_on(&dev, &shape, &[bad]).unwrap_err();
            assert!(matches!(e, OracleError::InvalidWave(_)), "{e}");
        }
        assert_eq!(dev.launches.get(), 0);
    }
}
