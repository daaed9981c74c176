"""A vmlinux stand-in for tests: the machine has no real one.

Built with the toolchain (as + ld) from /proc/kallsyms: the kernel text's
symbols at the running kernel's addresses, renamed "vml_NAME" so outputs
show which source named a sample.  To cover perf's rules the symbol kinds
vary: most are sized functions, some size-less functions (their end is the
next symbol), some labels (STT_NOTYPE, kept in text sections), and a few
data objects land in .data, a section of its own.  _text and _stext keep
their names: perf relocates the image by _text.
"""
import os
import subprocess


def kernel_text_symbols():
    """(address, name) of the kernel's text symbols in [_text, _etext),
    sorted and one per address; None when kallsyms hides addresses."""
    syms, text, etext = {}, None, None
    with open("/proc/kallsyms") as f:
        for line in f:
            parts = line.split()
            if len(parts) != 3:
                continue	# module symbols
            addr, kind, name = int(parts[0], 16), parts[1], parts[2]
            if name == "_text":
                text = addr
            elif name == "_etext":
                etext = addr
            if kind in "Tt" and "." not in name:
                syms.setdefault(addr, (name, kind == "T"))
    if not text or not etext:
        return None
    return text, etext, sorted((a, n, g) for a, (n, g) in syms.items() if text <= a < etext)


def running_build_id():
    """The running kernel's build id (hex) from /sys/kernel/notes."""
    data = open("/sys/kernel/notes", "rb").read()
    off = 0
    while off + 12 <= len(data):
        namesz, descsz, kind = (int.from_bytes(data[off + i:off + i + 4], "little")
                                for i in (0, 4, 8))
        name_end = off + 12 + ((namesz + 3) & ~3)
        desc = data[name_end:name_end + descsz]
        if kind == 3 and data[off + 12:off + 12 + namesz].rstrip(b"\0") == b"GNU":
            return desc.hex()
        off = name_end + ((descsz + 3) & ~3)
    return None


def build(directory, name="vmlinux", build_id=None, base=None, stripped=False):
    """Links a fake vmlinux into directory; its path, or None when kallsyms
    hides the kernel's addresses.  build_id: hex (default: the running
    kernel's), "none" for no note; base: the link address of _text
    (default: where the running kernel's _text is, another one makes perf
    relocate)."""
    found = kernel_text_symbols()
    if not found:
        return None
    text, etext, syms = found
    base = text if base is None else base
    build_id = build_id or running_build_id()
    lines = ['.section .text,"ax",@progbits', ".globl _text", ".globl _stext",
             "_text:", "_stext:"]
    seen = {}
    for i, (addr, sym, is_global) in enumerate(syms):
        nxt = syms[i + 1][0] if i + 1 < len(syms) else etext
        # static functions share names; the assembler wants each once
        seen[sym] = seen.get(sym, 0) + 1
        vname = "vml_" + sym + (f"_{seen[sym]}" if seen[sym] > 1 else "")
        lines.append(f".org {addr - text:#x}")
        if is_global:
            lines.append(f".globl {vname}")
        if i % 7 != 3:	# else a label: STT_NOTYPE, no size
            lines.append(f".type {vname},@function")
            if i % 5 != 2:
                lines.append(f".size {vname},{nxt - addr:#x}")
        lines.append(f"{vname}:")
    lines.append(f".org {etext - text:#x}")
    lines += [".globl _etext", "_etext:",
              '.section .data,"aw",@progbits', ".type vml_data_obj,@object",
              ".size vml_data_obj,64", "vml_data_obj:", ".zero 64"]
    src = os.path.join(directory, name + ".s")
    obj = os.path.join(directory, name + ".o")
    out = os.path.join(directory, name)
    with open(src, "w") as f:
        f.write("\n".join(lines) + "\n")
    subprocess.run(["as", "-o", obj, src], check=True)
    link = ["ld", "-o", out, f"-Ttext={base:#x}", "-e", "_text", "-z", "noexecstack",
            "--build-id=none" if build_id == "none" else f"--build-id=0x{build_id}", obj]
    subprocess.run(link, check=True)
    if stripped:
        subprocess.run(["strip", out], check=True)
    os.unlink(src)
    os.unlink(obj)
    return out
