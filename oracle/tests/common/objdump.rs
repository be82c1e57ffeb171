//! `llvm-objdump -d` of a code object, parsed into instructions.

use std::process::Command;

use super::on_ci;

/// (mnemonic, operand text, encoded words) of one `.text` instruction.
pub type Inst = (String, String, Vec<u32>);

/// The objdump to use; `None` (the test is skipped with a message) when it is missing, unless
/// on CI.
pub fn objdump_or_skip(test: &str) -> Option<&'static str> {
    let objdump = "llvm-objdump-19";
    if Command::new(objdump).arg("--version").output().is_err() {
        assert!(!on_ci(), "{objdump} is required on CI");
        eprintln!("skipping {test}: {objdump} not found");
        return None;
    }
    Some(objdump)
}

/// Every instruction of the `.text` disassembly of `code_object` for `mcpu`; `tag` names the
/// temporary file.
pub fn disassemble(objdump: &str, mcpu: &str, code_object: &[u8], tag: &str) -> Vec<Inst> {
    let dir = std::env::temp_dir().join(format!("rdnaprobe-objdump-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{tag}.co"));
    std::fs::write(&path, code_object).unwrap();
    let out = Command::new(objdump)
        .arg("-d")
        .arg(format!("--mcpu={mcpu}"))
        .arg(&path)
        .output()
        .expect("objdump runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let mut insts = Vec::new();
    for line in text.lines() {
        // `\tv_mov_b32_e32 v10, v4      // 000000001300: 7E140304`
        let Some((asm, comment)) = line.split_once("//") else {
            continue;
        };
        let Some((_, words)) = comment.split_once(':') else {
            continue;
        };
        let words: Vec<u32> = words
            .split_whitespace()
            .filter_map(|w| u32::from_str_radix(w, 16).ok())
            .collect();
        let asm = asm.trim();
        let (mnemonic, operands) = asm.split_once(' ').unwrap_or((asm, ""));
        if !words.is_empty() && !mnemonic.is_empty() {
            insts.push((mnemonic.to_string(), operands.trim().to_string(), words));
        }
    }
    insts
}
