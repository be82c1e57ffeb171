"""Batch disassembly through llvm-mc: one stream of words per input line, results mapped back.

llvm-mc prints one line per decoded instruction with `; encoding: [...]` and one warning on
stderr (with line and column) per position it cannot decode, after which it skips four bytes.
The column of a warning tells which word of the line failed, so every output can be tied to
its input line and word.
"""

import re
import subprocess
import tempfile

LLVM_MC = "llvm-mc-19"
WARN = re.compile(r":(\d+):(\d+): warning: invalid instruction encoding")
ENC = re.compile(r"^\s*(.*?)\s*; encoding: \[([^\]]*)\]")


def _fmt_line(words):
    return " ".join(
        "0x%02x" % ((w >> (8 * b)) & 0xFF) for w in words for b in range(4)
    )


PAD = [0xBF800000] * 6  # s_nop 0: one word each, so the decoder is back in step after them


def disassemble(streams, mcpu="gfx1030", wave64=False):
    """For each stream (list of u32 words) return a list of (word_offset, n_words, text|None).

    Six `s_nop 0` words follow every stream: after a failed word llvm-mc decodes the rest of the
    stream from the next word, and those guesses may run past the stream's end; the padding stops
    them from swallowing the next stream. Outputs that start in the padding are dropped.
    """
    real = [len(s) for s in streams]
    streams = [list(s) + PAD for s in streams]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for s in streams:
            f.write(_fmt_line(s) + "\n")
        path = f.name
    cmd = [LLVM_MC, "-arch=amdgcn", "-mcpu=" + mcpu, "--disassemble", "-show-encoding"]
    if wave64:
        cmd.append("-mattr=+wavefrontsize64")
    p = subprocess.run(cmd + [path], capture_output=True, text=True)
    starts = []  # global byte offset of each stream
    total = 0
    for s in streams:
        starts.append(total)
        total += 4 * len(s)
    fails = set()
    for m in WARN.finditer(p.stderr):
        line, col = int(m.group(1)), int(m.group(2))
        fails.add(starts[line - 1] + (col - 1) // 5)
    outs = []
    for ln in p.stdout.splitlines():
        m = ENC.match(ln)
        if m:
            nbytes = len([x for x in m.group(2).split(",") if x.strip()])
            outs.append((m.group(1), nbytes))
    # llvm-mc reads all lines as one byte stream: an instruction that wants more words than its
    # line has eats the next line's words. Walk the global stream and give each output to the
    # stream it starts in; its length then exceeds what is left of that stream.
    result = [[] for _ in streams]
    oi = 0
    pos = 0
    si = 0
    while pos < total:
        while si + 1 < len(streams) and starts[si + 1] <= pos:
            si += 1
        if pos in fails:
            if (pos - starts[si]) // 4 < real[si]:
                result[si].append(((pos - starts[si]) // 4, 1, None))
            pos += 4
            continue
        if oi >= len(outs):
            raise RuntimeError("llvm-mc output out of sync at byte %d" % pos)
        text, n = outs[oi]
        oi += 1
        if (pos - starts[si]) // 4 < real[si]:
            result[si].append(((pos - starts[si]) // 4, n // 4, text))
        pos += n
    return result
