//! Text forms shared by every output: hex cells, encodings, mode cells, repro lines.

use rdnaprobe_dataset::{ModeCells, Row};

/// `0x%08x`.
pub fn hex(v: u32) -> String {
    format!("0x{v:08x}")
}

/// The body's words separated by spaces (`n/a` for none), as in the `encoding` column.
pub fn encoding(words: &[u32]) -> String {
    if words.is_empty() {
        return "n/a".into();
    }
    words.iter().map(|w| hex(*w)).collect::<Vec<_>>().join(" ")
}

/// The six inputs, space separated.
pub fn inputs(inputs: &[u32; 6]) -> String {
    inputs.iter().map(|w| hex(*w)).collect::<Vec<_>>().join(" ")
}

/// A compact mode label: `ieee=1 clamp=1 d32=3 d16=3 r32=0 r16=0 ovf=0 w32`, `?` marking a cell
/// the dataset does not state.
pub fn mode(mode: &ModeCells, wave: Option<u32>) -> String {
    let c = |v: Option<u8>| v.map_or_else(|| "?".to_string(), |v| v.to_string());
    format!(
        "ieee={} clamp={} d32={} d16={} r32={} r16={} ovf={} w{}",
        c(mode.ieee),
        c(mode.dx10_clamp),
        c(mode.denorm32),
        c(mode.denorm16),
        c(mode.round32),
        c(mode.round16),
        c(mode.fp16_overflow),
        wave.map_or_else(|| "?".to_string(), |w| w.to_string())
    )
}

/// The mode and wave cells of a row as schema v1 writes them (empty = not stated).
pub fn mode_cells(mode: &ModeCells, wave: Option<u32>) -> [String; 8] {
    let c = |v: Option<u8>| v.map_or_else(String::new, |v| v.to_string());
    let mut cells: [String; 8] = Default::default();
    cells[0] = wave.map_or_else(String::new, |w| w.to_string());
    for (cell, field) in cells[1..].iter_mut().zip(rdnaprobe_dataset::ModeField::ALL) {
        *cell = c(mode.get(field));
    }
    cells
}

/// A one-line `rdnaprobe replay` command that runs the row's experiment on `backend` and
/// prints its outputs: the body as `--asm` when its text assembles to exactly the row's words,
/// otherwise as `--encoding`; the inputs that are not 0, the mode fields whose value is not
/// FloatMode::DEFAULT's, the wave when 64 and the target when not the default one.
pub fn repro_command(row: &Row, backend: &str) -> String {
    let mut cmd = String::from("rdnaprobe replay");
    let wave64 = row.wave == Some(64);
    let assembled = if wave64 {
        rdnaprobe_isa::assemble_for(&row.instruction, rdnaprobe_isa::Wave::W64)
    } else {
        rdnaprobe_isa::assemble(&row.instruction)
    };
    match assembled {
        Ok(words) if !row.encoding.is_empty() && words == row.encoding => {
            cmd.push_str(&format!(" --asm {}", shell_word(&row.instruction)));
        }
        _ => cmd.push_str(&format!(
            " --encoding {}",
            shell_word(&encoding(&row.encoding))
        )),
    }
    for (k, v) in row.inputs.iter().enumerate() {
        if *v != 0 {
            cmd.push_str(&format!(" --in{k} {}", hex(*v)));
        }
    }
    let resolved = row.mode.resolve();
    let default = rdnaprobe_dataset::FloatMode::DEFAULT;
    let fields: Vec<String> = rdnaprobe_dataset::ModeField::ALL
        .into_iter()
        .filter(|f| resolved.get(*f) != default.get(*f))
        .map(|f| format!("{}={}", f.name(), resolved.get(f)))
        .collect();
    if !fields.is_empty() {
        cmd.push_str(&format!(" --mode {}", fields.join(",")));
    }
    if wave64 {
        cmd.push_str(" --wave 64");
    }
    let gfx = row.gfx.trim();
    if !gfx.is_empty() && gfx != rdnaprobe_dataset::Target::DEFAULT.name() {
        cmd.push_str(&format!(" --gfx {}", shell_word(gfx)));
    }
    cmd.push_str(&format!(" --backend {}", shell_word(backend)));
    cmd
}

/// `word` as one POSIX shell word: bare when it is made of safe characters, otherwise in
/// single quotes.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_.,:/=+@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// One schema v1 CSV line holding the row's experiment (outputs empty), quoted as CSV needs:
/// paste it under a v1 header and `rdnaprobe replay` runs the same lane.
pub fn repro_csv_line(row: &Row) -> String {
    let mut cells: Vec<String> = vec![row.instruction.clone(), encoding(&row.encoding)];
    cells.extend(mode_cells(&row.mode, row.wave));
    cells.extend(row.inputs.iter().map(|w| hex(*w)));
    cells.extend(std::iter::repeat_n(String::new(), 16));
    cells.extend([row.gfx.clone(), String::new(), String::new()]);
    cells
        .iter()
        .map(|c| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn repro_command_is_short_and_names_what_differs_from_the_defaults() {
        let mut row = Row {
            instruction: "v_cos_f32 v10, v4".into(),
            encoding: rdnaprobe_isa::assemble("v_cos_f32 v10, v4").expect("assembles"),
            wave: Some(32),
            mode: ModeCells {
                ieee: Some(0),
                dx10_clamp: Some(1),
                ..ModeCells::default()
            },
            inputs: [0x3e72_0bea, 0, 0, 0, 0, 0],
            gfx: "gfx1030".into(),
            ..Row::default()
        };
        assert_eq!(
            repro_command(&row, "cpu"),
            "rdnaprobe replay --asm 'v_cos_f32 v10, v4' --in0 0x3e720bea --mode ieee=0 --backend cpu"
        );
        // Text that does not assemble to the words: the words; wave 64 and the target named.
        row.instruction = "v_cvt_f16_f32 v10, v4 (v10=0xabcdabcd before)".into();
        row.encoding = vec![0x7e14_02ff, 0xabcd_abcd, 0x7e14_1504];
        row.wave = Some(64);
        row.gfx = "gfx1036".into();
        row.inputs[2] = 7;
        assert_eq!(
            repro_command(&row, "vulkan:lavapipe"),
            "rdnaprobe replay --encoding '0x7e1402ff 0xabcdabcd 0x7e141504' --in0 0x3e720bea \
             --in2 0x00000007 --mode ieee=0 --wave 64 --gfx gfx1036 --backend vulkan:lavapipe"
        );
        assert_eq!(shell_word("it's"), "'it'\\''s'");
    }

    #[test]
    fn repro_line_is_a_v1_row() {
        let row = Row {
            instruction: "v_add_f32 v10, v4, v5".into(),
            encoding: vec![0x0614_0904],
            wave: Some(32),
            mode: ModeCells {
                ieee: Some(1),
                ..ModeCells::default()
            },
            inputs: [0x3f80_0000, 1, 2, 3, 4, 5],
            ..Row::default()
        };
        let line = repro_csv_line(&row);
        let header = rdnaprobe_dataset::V1_COLUMNS.join(",");
        let text = format!("{header}\n{line}\n");
        let ds = rdnaprobe_dataset::parse_dataset(text.as_bytes(), "repro").expect("parses");
        assert_eq!(ds.rows.len(), 1);
        assert_eq!(ds.rows[0].encoding, row.encoding);
        assert_eq!(ds.rows[0].mode, row.mode);
        assert_eq!(ds.rows[0].inputs, row.inputs);
        assert_eq!(ds.rows[0].instruction, row.instruction);
        assert_eq!(
            mode(&row.mode, row.wave),
            "ieee=1 clamp=? d32=? d16=? r32=? r16=? ovf=? w32"
        );
    }
}
