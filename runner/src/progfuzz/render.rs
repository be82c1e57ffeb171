//! Rendering a [`Program`] to assembly text and words: branch offsets come from the encoded
//! sizes of the lines they jump over.

use rdnaprobe_isa::assemble;

use super::gen::{sreg, Item, Program};

/// The words of one line: the words after `; words:` where the line gives them, else what
/// the project's assembler makes of it.
pub fn encode_line(line: &str) -> Result<Vec<u32>, String> {
    match line.split_once("; words:") {
        Some((_, words)) => crate::cmd::args::parse_words(words).map_err(|e| e.to_string()),
        None => assemble(line).map_err(|e| e.to_string()),
    }
}

/// Encoded size in dwords of one line (0 when it does not encode).
fn size(line: &str) -> usize {
    encode_line(line).map(|w| w.len()).unwrap_or(0)
}

fn render_items(wave: u32, items: &[Item], out: &mut Vec<String>) -> usize {
    let mut n = 0;
    for item in items {
        n += render_item(wave, item, out);
    }
    n
}

fn render_item(wave: u32, item: &Item, out: &mut Vec<String>) -> usize {
    let (mov, exec, w) = if wave == 64 {
        ("s_mov_b64", "exec", 2)
    } else {
        ("s_mov_b32", "exec_lo", 1)
    };
    match item {
        Item::Inst(t) => {
            out.push(t.clone());
            size(t)
        }
        Item::Skip { cond, body } => {
            let mut inner = Vec::new();
            let n = render_items(wave, body, &mut inner);
            out.push(format!("s_cbranch_{cond} {n}"));
            out.extend(inner);
            n + 1
        }
        Item::Loop {
            counter,
            count,
            body,
        } => {
            let mut inner = Vec::new();
            let n = render_items(wave, body, &mut inner);
            out.push(format!("s_mov_b32 s{counter}, {count}"));
            out.extend(inner);
            out.push(format!("s_sub_u32 s{counter}, s{counter}, 1"));
            out.push(format!("s_cmp_lg_u32 s{counter}, 0"));
            out.push(format!("s_cbranch_scc1 {}", -(n as i64 + 3)));
            n + 4
        }
        Item::Exec { save, narrow, body } => {
            let mut n = 0;
            if narrow.starts_with("v_cmpx") {
                out.push(format!("{mov} {}, {exec}", sreg(*save, w)));
                n += 1;
            }
            out.push(narrow.clone());
            n += size(narrow);
            n += render_items(wave, body, out);
            out.push(format!("{mov} {exec}, {}", sreg(*save, w)));
            n + 1
        }
    }
}

impl Program {
    /// The body's words.
    pub fn words(&self) -> Result<Vec<u32>, String> {
        let mut out = Vec::new();
        for line in self.text().lines() {
            out.extend(encode_line(line)?);
        }
        Ok(out)
    }

    /// The assembly text, one instruction a line.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        render_items(self.wave, &self.items, &mut out);
        out.join("\n")
    }
}
