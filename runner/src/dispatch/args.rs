//! Kernel arguments from the command line: `NAME=VALUE`, one per explicit argument of the
//! metadata (`argN` names the N-th when the metadata has no names). A `global_buffer` argument takes
//! - `zeros:BYTES`,
//! - `iota:COUNT` (u32 0, 1, ... COUNT-1),
//! - `random:SEED:BYTES` (ChaCha8 bytes of the seed),
//! - `u32:V,V,...` (dwords, decimal or 0x hex),
//! - `file:PATH` (the file's bytes);
//!
//! a `by_value` argument an integer (decimal, 0x hex, negative), `f32:VALUE` or `f64:VALUE`,
//! stored little-endian in the argument's size.

use anyhow::{bail, Context};
use rand::RngCore;
use rand::SeedableRng;
use rdnaprobe_oracle::metadata::ArgMeta;

/// A kernel argument's value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgValue {
    /// A buffer's initial bytes: the kernarg segment holds its address.
    Buffer(Vec<u8>),
    /// The argument's own bytes.
    Value(Vec<u8>),
}

fn int(s: &str) -> anyhow::Result<i128> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => i128::from_str_radix(h, 16),
        None => t.parse::<i128>(),
    }
    .with_context(|| format!("`{s}` is not an integer"))?;
    Ok(if neg { -v } else { v })
}

/// The bytes of a buffer value.
pub fn buffer(spec: &str) -> anyhow::Result<Vec<u8>> {
    let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
    Ok(match kind {
        "zeros" => vec![0; usize::try_from(int(rest)?)?],
        "iota" => (0..u32::try_from(int(rest)?)?)
            .flat_map(u32::to_le_bytes)
            .collect(),
        "random" => {
            let (seed, bytes) = rest
                .split_once(':')
                .context("random:SEED:BYTES")?;
            let mut b = vec![0; usize::try_from(int(bytes)?)?];
            rand_chacha::ChaCha8Rng::seed_from_u64(u64::try_from(int(seed)?)?).fill_bytes(&mut b);
            b
        }
        "u32" => rest
            .split(',')
            .map(|v| Ok((int(v.trim())? as u32).to_le_bytes()))
            .collect::<anyhow::Result<Vec<_>>>()?
            .concat(),
        "file" => std::fs::read(rest).with_context(|| format!("reading {rest}"))?,
        _ => bail!("`{spec}`: a buffer is zeros:BYTES, iota:COUNT, random:SEED:BYTES, u32:V,... or file:PATH"),
    })
}

/// The bytes of a by-value argument of `size` bytes.
pub fn value(spec: &str, size: u32) -> anyhow::Result<Vec<u8>> {
    let size = size as usize;
    let bytes: Vec<u8> = if let Some(f) = spec.strip_prefix("f32:") {
        let v: f32 = f.parse().with_context(|| format!("`{f}` is not an f32"))?;
        v.to_le_bytes().to_vec()
    } else if let Some(f) = spec.strip_prefix("f64:") {
        let v: f64 = f.parse().with_context(|| format!("`{f}` is not an f64"))?;
        v.to_le_bytes().to_vec()
    } else {
        let v = int(spec)?;
        let fits = size >= 16 || (-(1i128 << (8 * size - 1))..(1i128 << (8 * size))).contains(&v);
        if !fits {
            bail!("{v} does not fit in {size} bytes");
        }
        v.to_le_bytes()[..size.min(16)].to_vec()
    };
    if bytes.len() != size {
        bail!("`{spec}` has {} bytes, the argument {size}", bytes.len());
    }
    Ok(bytes)
}

/// The values of `args` (`NAME=VALUE`) for the explicit arguments `meta`, in their order.
pub fn parse<'a>(
    meta: impl IntoIterator<Item = &'a ArgMeta>,
    args: &[String],
) -> anyhow::Result<Vec<ArgValue>> {
    let mut given: Vec<(String, String, bool)> = Vec::new();
    for a in args {
        let (n, v) = a
            .split_once('=')
            .with_context(|| format!("--arg `{a}`: NAME=VALUE"))?;
        if let Some(first) = given.iter().find(|g| g.0 == n) {
            bail!(
                "--arg `{a}`: `{n}` is given twice (first as `{n}={}`)",
                first.1
            );
        }
        given.push((n.to_string(), v.to_string(), false));
    }
    let meta: Vec<&ArgMeta> = meta.into_iter().collect();
    let unnamed = meta.iter().all(|m| m.name.is_none());
    let mut out = Vec::new();
    let mut names = Vec::new();
    for (i, m) in meta.into_iter().enumerate() {
        // unnamed (no -cl-kernel-arg-info): argN, by position among the explicit arguments
        let name = m.name.clone().unwrap_or_else(|| format!("arg{i}"));
        names.push(format!("{name} ({})", m.value_kind));
        let Some(g) = given.iter_mut().find(|g| g.0 == name) else {
            let hint = if m.name.is_none() && given.iter().any(|g| !g.0.starts_with("arg")) {
                " (the code object names no arguments: it was built without \
                 -cl-kernel-arg-info, so they are arg0, arg1, ... in order)"
            } else {
                ""
            };
            bail!(
                "no --arg for `{name}` ({}, {} bytes){hint}",
                m.value_kind,
                m.size
            );
        };
        g.2 = true;
        let v = match m.value_kind.as_str() {
            "global_buffer" => {
                ArgValue::Buffer(buffer(&g.1).with_context(|| format!("--arg {name}"))?)
            }
            "by_value" => {
                ArgValue::Value(value(&g.1, m.size).with_context(|| format!("--arg {name}"))?)
            }
            k => bail!("argument `{name}`: value kind {k} is not supported"),
        };
        out.push(v);
    }
    if let Some(g) = given.iter().find(|g| !g.2) {
        let hint = if unnamed {
            " (the code object names no arguments: it was built without -cl-kernel-arg-info)"
        } else {
            ""
        };
        bail!(
            "--arg `{}`: the kernel has no such argument (it takes: {}){hint}",
            g.0,
            names.join(", ")
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_and_buffers() {
        assert_eq!(value("7", 4).unwrap(), [7, 0, 0, 0]);
        assert_eq!(value("-1", 4).unwrap(), [0xff; 4]);
        assert_eq!(value("0x100", 2).unwrap(), [0, 1]);
        assert!(value("0x10000", 2).is_err());
        assert_eq!(value("f32:1.5", 4).unwrap(), 1.5f32.to_le_bytes());
        assert_eq!(buffer("iota:2").unwrap(), [0, 0, 0, 0, 1, 0, 0, 0]);
        assert_eq!(buffer("u32:3,0x10").unwrap(), [3, 0, 0, 0, 16, 0, 0, 0]);
        assert_eq!(
            buffer("random:1:16").unwrap(),
            buffer("random:1:16").unwrap()
        );
        assert_ne!(
            buffer("random:1:16").unwrap(),
            buffer("random:2:16").unwrap()
        );
        assert!(buffer("nope:1").is_err());
    }

    fn arg(name: Option<&str>, kind: &str) -> ArgMeta {
        let mut v = serde_json::json!({".offset": 0, ".size": 8, ".value_kind": kind});
        if let Some(n) = name {
            v[".name"] = serde_json::json!(n);
        }
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn duplicated_and_unnamed_arguments_say_why() {
        let named = [
            arg(Some("out"), "global_buffer"),
            arg(Some("n"), "by_value"),
        ];
        let given = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let e = parse(&named, &given(&["out=zeros:16", "out=zeros:32", "n=1"])).unwrap_err();
        assert!(e.to_string().contains("`out` is given twice"), "{e}");
        assert!(parse(&named, &given(&["out=zeros:16", "n=1"])).is_ok());
        let unnamed = [arg(None, "global_buffer"), arg(None, "by_value")];
        let e = parse(&unnamed, &given(&["out=zeros:16", "n=1"])).unwrap_err();
        assert!(
            e.to_string().contains("built without -cl-kernel-arg-info"),
            "{e}"
        );
        assert!(parse(&unnamed, &given(&["arg0=zeros:16", "arg1=1"])).is_ok());
    }
}
