//! llvm-mc's probe text of a row (the table's last column), read where the printer and the
//! assembler need the register widths llvm-mc printed for the row's default form.

/// Operand tokens of an llvm-mc text line: the first word of each comma-separated operand
/// after the mnemonic, with `/* ... */` comments removed. Commas inside parentheses and
/// brackets belong to one operand or modifier (`hwreg(52, 8, 3)`, `op_sel_hi:[0,0,0]`).
pub(crate) fn probe_operands(text: &str) -> Vec<String> {
    let mut clean = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("/*") {
        clean.push_str(&rest[..i]);
        match rest[i..].find("*/") {
            Some(j) => rest = &rest[i + j + 2..],
            None => rest = "",
        }
    }
    clean.push_str(rest);
    let Some((_, ops)) = clean.trim().split_once(char::is_whitespace) else {
        return Vec::new();
    };
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0i32, 0);
    for (i, c) in ops.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&ops[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&ops[start..]);
    parts
        .into_iter()
        .filter_map(|o| o.split_whitespace().next().map(str::to_string))
        .collect()
}

/// Register width in dwords of an llvm-mc operand token (`v[2:3]` -> 2, `s4` -> 1).
pub(crate) fn token_dwords(tok: &str) -> u8 {
    if let Some(i) = tok.find('[') {
        let inner = tok[i + 1..].trim_end_matches(']');
        if let Some((a, b)) = inner.split_once(':') {
            if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                return (b.saturating_sub(a) + 1).min(255) as u8;
            }
        }
    }
    1
}

/// Widths (dwords) of the register tokens of a row's probe text, in printed order.
pub(crate) fn probe_widths(probe_text: &str) -> Vec<u8> {
    probe_operands(probe_text)
        .iter()
        .filter(|t| t.starts_with('v') || t.starts_with('s') || t.starts_with('['))
        .map(|t| token_dwords(t))
        .collect()
}
