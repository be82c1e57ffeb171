//! The worker's JSON-lines protocol: request and response lines, with byte payloads as hex
//! (little-endian dwords) for the lane kernel and as JSON for the wave kernel's structured
//! inputs and results.

use crate::error::{OracleError, Result};
use crate::exec::{Batch, LaneOutput};
use crate::template::{INPUT_DWORDS, OUTPUT_DWORDS};
use crate::wave::{WaveBatch, WaveInput, WaveResult, WaveShape};

/// A request line.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    Run {
        id: u64,
        device: i32,
        code_object: String,
        inputs: String,
    },
    /// A batch of waves for a wave-contract kernel (`crate::wave`).
    RunWaves {
        id: u64,
        device: i32,
        code_object: String,
        shape: WaveShape,
        waves: Vec<WaveInput>,
    },
    Shutdown,
}

/// A response line.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Response {
    /// Sent once at start-up.
    Ready {
        pid: u32,
    },
    /// `outputs`: OUTPUT_DWORDS dwords per row; `done`: one byte (0/1) per row.
    Done {
        id: u64,
        outputs: String,
        done: String,
    },
    /// One result per wave of a `run_waves` request.
    WavesDone {
        id: u64,
        waves: Vec<WaveResult>,
    },
    Failed {
        id: u64,
        error: String,
    },
}

fn dwords_to_hex(words: impl IntoIterator<Item = u32>) -> String {
    let bytes: Vec<u8> = words.into_iter().flat_map(u32::to_le_bytes).collect();
    hex::encode(bytes)
}

fn hex_to_dwords(what: &str, s: &str) -> Result<Vec<u32>> {
    let bytes = hex::decode(s).map_err(|e| OracleError::Protocol(format!("{what}: {e}")))?;
    if bytes.len() % 4 != 0 {
        return Err(OracleError::Protocol(format!(
            "{what}: {} bytes is not whole dwords",
            bytes.len()
        )));
    }
    Ok(bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().expect("4 bytes")))
        .collect())
}

impl Request {
    pub fn run(batch: &Batch) -> Request {
        Request::Run {
            id: batch.id,
            device: batch.device,
            code_object: hex::encode(&batch.code_object),
            inputs: dwords_to_hex(batch.inputs.iter().flatten().copied()),
        }
    }

    pub fn run_waves(batch: &WaveBatch) -> Request {
        Request::RunWaves {
            id: batch.id,
            device: batch.device,
            code_object: hex::encode(&batch.code_object),
            shape: batch.shape,
            waves: batch.waves.clone(),
        }
    }
}

pub(crate) fn decode_code_object(code_object: &str) -> Result<Vec<u8>> {
    hex::decode(code_object).map_err(|e| OracleError::Protocol(format!("code_object: {e}")))
}

/// Checks a `waves_done` answer against its request: one result per wave, every lane there.
pub(crate) fn check_waves_done(batch: &WaveBatch, waves: &[WaveResult]) -> Result<()> {
    if waves.len() != batch.waves.len() {
        return Err(OracleError::Protocol(format!(
            "expected {} waves, worker sent {}",
            batch.waves.len(),
            waves.len()
        )));
    }
    if let Some(w) = waves.iter().find(|w| w.lanes.len() != batch.shape.lanes()) {
        return Err(OracleError::Protocol(format!(
            "a wave{} result has {} lanes",
            batch.shape.lanes(),
            w.lanes.len()
        )));
    }
    Ok(())
}

pub(crate) fn decode_batch(id: u64, device: i32, code_object: &str, inputs: &str) -> Result<Batch> {
    let code_object = decode_code_object(code_object)?;
    let words = hex_to_dwords("inputs", inputs)?;
    if words.len() % INPUT_DWORDS != 0 {
        return Err(OracleError::Protocol(format!(
            "inputs: {} dwords is not whole rows",
            words.len()
        )));
    }
    let inputs = words
        .chunks_exact(INPUT_DWORDS)
        .map(|c| c.try_into().expect("INPUT_DWORDS"))
        .collect();
    Ok(Batch {
        id,
        device,
        code_object,
        inputs,
    })
}

pub(crate) fn encode_done(id: u64, lanes: &[LaneOutput]) -> Response {
    Response::Done {
        id,
        outputs: dwords_to_hex(lanes.iter().flat_map(|l| l.outputs)),
        done: hex::encode(lanes.iter().map(|l| u8::from(l.done)).collect::<Vec<u8>>()),
    }
}

pub(crate) fn decode_done(rows: usize, outputs: &str, done: &str) -> Result<Vec<LaneOutput>> {
    let words = hex_to_dwords("outputs", outputs)?;
    let done = hex::decode(done).map_err(|e| OracleError::Protocol(format!("done: {e}")))?;
    if words.len() != rows * OUTPUT_DWORDS || done.len() != rows {
        return Err(OracleError::Protocol(format!(
            "expected {rows} rows, worker sent {} output dwords and {} done flags",
            words.len(),
            done.len()
        )));
    }
    Ok(words
        .chunks_exact(OUTPUT_DWORDS)
        .zip(done)
        .map(|(o, d)| LaneOutput {
            outputs: o.try_into().expect("OUTPUT_DWORDS"),
            done: d == 1,
        })
        .collect())
}
