//! `rdnaprobe decode` and `rdnaprobe encode` end to end: words as arguments and on stdin, text
//! and JSON output, unsupported opcodes, the target flag and its old spelling, a closed pipe
//! (exit 0, nothing said), and the exit code 2 with its message for input that is not hex, a
//! truncated stream, a bad option or bad assembly.

mod common;

use common::{rdnaprobe, rdnaprobe_into_closed_pipe, rdnaprobe_stdin, text};

#[test]
fn decodes_words_given_as_arguments() {
    // v_mov_b32 v10, v4 then s_endpgm.
    let out = rdnaprobe(["decode", "0x7e140304", "0xbf810000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stdout),
        "v_mov_b32_e32 v10, v4\ns_endpgm\n",
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn stdin_lines_are_streams() {
    let input = "0x7e140304\n\n0xd5080011 0x00020501  0xbf810000\n";
    let out = rdnaprobe_stdin(["decode"], input);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0], "v_mov_b32_e32 v10, v4");
    assert!(lines[1].starts_with("v_"), "{lines:?}");
    assert_eq!(lines[2], "s_endpgm");
}

#[test]
fn wave64_prints_lane_masks_as_pairs() {
    // v_cmp_eq_f32_e32 vcc, v0, v1
    let w32 = rdnaprobe(["decode", "0x7c040300"]);
    let w64 = rdnaprobe(["decode", "--wave", "64", "0x7c040300"]);
    assert_eq!(text(&w32.stdout).trim(), "v_cmp_eq_f32_e32 vcc_lo, v0, v1");
    assert_eq!(text(&w64.stdout).trim(), "v_cmp_eq_f32_e32 vcc, v0, v1");
}

#[test]
fn json_lines_carry_words_family_and_text() {
    let out = rdnaprobe(["decode", "--format", "json", "0x7e140304 0xbf810000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["text"], "v_mov_b32_e32 v10, v4");
    assert_eq!(lines[0]["family"], "VOP1");
    assert_eq!(lines[0]["words"][0], "0x7e140304");
    assert_eq!(lines[1]["offset"], 1);
    assert_eq!(lines[1]["family"], "SOPP");
}

#[test]
fn unknown_opcode_prints_unsupported_and_keeps_the_stream_in_step() {
    // VOP1 opcode 0x7f is not defined on GFX10.3; s_endpgm follows.
    let out = rdnaprobe(["decode", "0x7e00fe00", "0xbf810000"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(
        lines[0].starts_with("unsupported VOP1 opcode 127: "),
        "{stdout}"
    );
    assert_eq!(lines[1], "s_endpgm");
}

#[test]
fn non_hex_input_exits_2_with_line_and_column() {
    let out = rdnaprobe_stdin(["decode"], "0x7e140304\n0x7e140304 zz12\n");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("line 2, column 12") && err.contains("`zz12` is not a 32-bit hex word"),
        "{err}"
    );
}

#[test]
fn truncated_stream_exits_2_with_word_offset() {
    // A VOP3 instruction needs two words; the stream ends after the first word of the second.
    let out = rdnaprobe(["decode", "0x7e140304", "0xd5080011"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("truncated instruction at word 1") && err.contains("VOP3 needs 2 words"),
        "{err}"
    );
}

#[test]
fn bad_options_exit_2() {
    // One wave-size flag, checked once, in every command that takes it.
    for args in [
        &["decode", "--wave", "16", "0x7e140304"][..],
        &[
            "assemble",
            "--wave",
            "16",
            "--encoding",
            "0x7e140304",
            "-o",
            "x.co",
        ],
        &["replay", "--asm", "v_mov_b32 v1, v2", "--wave", "16"],
        &["exhaustive", "--wave", "16", "--asm", "v_mov_b32 v1, v2"],
    ] {
        let out = rdnaprobe(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("'--wave <LANES>': `16` is not a wave size: give 32 or 64"),
            "{args:?}: {err}"
        );
    }
    for flag in ["--gfx", "--mcpu"] {
        let out = rdnaprobe(["decode", flag, "gfx900", "0x7e140304"]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains("gfx900") && err.contains("gfx1030..gfx1036"),
            "{flag}: {err}"
        );
    }
    let out = rdnaprobe(["decode", "--format", "xml", "0x7e140304"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("xml") && err.contains("text, json"), "{err}");
}

/// VOP2 opcode 6 with v10, v4, v5: `v_mac_legacy_f32` on RDNA1, `v_fmac_legacy_f32` on RDNA2.
const FMAC_LEGACY: &str = "0x0c140b04";

#[test]
fn the_target_is_gfx_and_mcpu_is_its_hidden_alias() {
    let rdna2 = rdnaprobe(["decode", FMAC_LEGACY]);
    let gfx = rdnaprobe(["decode", "--gfx", "gfx1010", FMAC_LEGACY]);
    let mcpu = rdnaprobe(["decode", "--mcpu", "gfx1010", FMAC_LEGACY]);
    assert_eq!(text(&rdna2.stdout), "v_fmac_legacy_f32_e32 v10, v4, v5\n");
    assert_eq!(text(&gfx.stdout), "v_mac_legacy_f32_e32 v10, v4, v5\n");
    assert_eq!(gfx.stdout, mcpu.stdout);
    let help = text(&rdnaprobe(["decode", "--help"]).stdout);
    assert!(help.contains("--gfx <TARGET>"), "{help}");
    assert!(!help.contains("mcpu"), "{help}");
}

#[test]
fn a_closed_pipe_ends_decode_quietly() {
    // 20,000 lines of text, far more than a pipe holds.
    let mut args = vec!["decode".to_string()];
    args.extend(std::iter::repeat_n("0x7e140304".to_string(), 20_000));
    let out = rdnaprobe_into_closed_pipe(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

#[test]
fn encode_prints_words_that_decode_back() {
    let out = rdnaprobe(["encode", "v_mov_b32 v10, v4; v_add_f32 v1, -v2, 0x40490fdb"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let words = text(&out.stdout);
    assert!(words.starts_with("0x7e140304 "), "{words}");
    let back = rdnaprobe(["decode", words.trim()]);
    assert_eq!(
        text(&back.stdout),
        "v_mov_b32_e32 v10, v4\nv_add_f32_e64 v1, -v2, 0x40490fdb\n",
        "{}",
        text(&back.stderr)
    );
}

#[test]
fn bad_assembly_exits_2_with_column() {
    let out = rdnaprobe(["encode", "v_mov_b32 v10, q4"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("column"), "{err}");
}
