//! A line diff for golden-file failures: the lines a stale file has (`-`) and the new output
//! has (`+`), with a few unchanged lines around each change, so that a failure shows what
//! changed instead of only that something did.
#![allow(dead_code)] // not every test binary uses it

/// Unchanged lines shown on each side of a change.
const CONTEXT: usize = 3;

/// The changes from `old` to `new` as `-`/`+`/` ` lines with `@@ old line N` headers (1-based),
/// at most `max_lines` lines (then a count of the rest). Empty when the texts are equal.
pub fn line_diff(old: &str, new: &str, max_lines: usize) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let mut lcs = vec![vec![0u32; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    // The edit script: (tag, old line index, text).
    let mut ops: Vec<(char, usize, &str)> = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            ops.push((' ', i, a[i]));
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            ops.push(('-', i, a[i]));
            i += 1;
        } else {
            ops.push(('+', i, b[j]));
            j += 1;
        }
    }
    // Hunks: each change with CONTEXT lines either side, overlapping ones joined.
    let mut hunks: Vec<(usize, usize)> = Vec::new();
    for k in (0..ops.len()).filter(|&k| ops[k].0 != ' ') {
        let (start, end) = (k.saturating_sub(CONTEXT), (k + CONTEXT + 1).min(ops.len()));
        match hunks.last_mut() {
            Some(last) if start <= last.1 => last.1 = end,
            _ => hunks.push((start, end)),
        }
    }
    let mut out = Vec::new();
    for (start, end) in hunks {
        out.push(format!("@@ old line {}", ops[start].1 + 1));
        out.extend(ops[start..end].iter().map(|op| format!("{}{}", op.0, op.2)));
    }
    if out.len() > max_lines {
        let rest = out.len() - max_lines;
        out.truncate(max_lines);
        out.push(format!("... {rest} more diff lines"));
    }
    out.join("\n")
}
