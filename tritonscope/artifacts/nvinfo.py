"""Resource usage of the kernels in a CUBIN, read from its ELF with `struct` (no CUDA tool needed).

What `cuobjdump --dump-resource-usage` prints comes from three places in the ELF: the register count
is the top byte of `sh_info` of `.text.<kernel>`; the static shared memory and local memory are the
sizes of `.nv.shared.<kernel>` and `.nv.local.<kernel>`; the stack (frame) size is an attribute in
`.nv.info.<kernel>` (EIATTR_FRAME_SIZE / EIATTR_MAX_STACK_SIZE) or in the global `.nv.info`.
"""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass

from tritonscope.errors import ParseError

ELF_MAGIC = b"\x7fELF"
# .nv.info attribute formats and the attributes we read (names as in cuobjdump -elf).
EIFMT_NVAL, EIFMT_BVAL, EIFMT_HVAL, EIFMT_SVAL = 1, 2, 3, 4
EIATTR_FRAME_SIZE = 0x11
EIATTR_MIN_STACK_SIZE = 0x12
EIATTR_MAX_STACK_SIZE = 0x23
EIATTR_REGCOUNT = 0x2F
SHT_SYMTAB = 2
SYMBOL_SIZE = 24


@dataclass(frozen=True, slots=True)
class CubinResources:
    kernel: str
    registers: int
    stack_bytes: int
    static_shared_bytes: int
    local_bytes: int
    code_bytes: int  # size of the kernel's .text section

    def to_json(self) -> dict:
        return {"kernel": self.kernel, "registers": self.registers, "stack_bytes": self.stack_bytes,
                "static_shared_bytes": self.static_shared_bytes, "local_bytes": self.local_bytes,
                "code_bytes": self.code_bytes}


@dataclass(frozen=True, slots=True)
class _Section:
    name: str
    type: int
    offset: int
    size: int
    link: int
    info: int


EM_CUDA = 190


def cubin_arch(head: bytes) -> str | None:
    """The SM a CUBIN was built for, from its ELF header's flags ('80' for sm_80 and '90' for sm_90a, as
    Triton's metadata names them), None for what is not a CUBIN header this reads. Two ABIs are seen:
    OS ABI 0x33 version 7 keeps the SM in the flags' low byte (EF_CUDA_SM80 = 0x50; Triton 2.0 to 3.6), OS
    ABI 0x41 version 8 in their second byte (0x5a04 on sm_90a, 0x6402 on sm_100a; CUDA 13's ptxas)."""
    if len(head) < 0x34 or head[:4] != ELF_MAGIC or head[4] != 2 or head[5] not in (1, 2):
        return None
    endian = "<" if head[5] == 1 else ">"
    machine, = struct.unpack_from(endian + "H", head, 0x12)
    flags, = struct.unpack_from(endian + "I", head, 0x30)
    if machine != EM_CUDA:
        return None
    if (head[7], head[8]) == (0x33, 7):
        sm = flags & 0xFF
    elif (head[7], head[8]) == (0x41, 8):
        sm = (flags >> 8) & 0xFF
    else:
        return None
    return str(sm) if 10 <= sm < 200 else None  # (sm_10 to sm_121 exist: 255 is no architecture)


def _sections(data: bytes, path: str | None) -> list[_Section]:
    if data[:4] != ELF_MAGIC or len(data) < 64:
        raise ParseError("not an ELF file", path)
    if data[4] != 2:
        raise ParseError("not a 64-bit ELF (CUBINs are ELF64)", path)
    endian = "<" if data[5] == 1 else ">"
    shoff, = struct.unpack_from(endian + "Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from(endian + "HHH", data, 0x3A)
    if shoff == 0 or shoff + shnum * shentsize > len(data):
        raise ParseError("truncated ELF section table", path)
    raw = []
    for i in range(shnum):
        name_off, sh_type, _flags, _addr, offset, size, link, info = struct.unpack_from(
            endian + "IIQQQQII", data, shoff + i * shentsize)
        raw.append((name_off, sh_type, offset, size, link, info))
    strtab_off, strtab_size = raw[shstrndx][2], raw[shstrndx][3]
    strtab = data[strtab_off:strtab_off + strtab_size]
    out = []
    for name_off, sh_type, offset, size, link, info in raw:
        out.append(_Section(_cstr(strtab, name_off), sh_type, offset, size, link, info))
    return out


def _cstr(table: bytes, offset: int) -> str:
    end = table.find(b"\x00", offset)
    return table[offset:end if end >= 0 else None].decode("utf-8", "replace")


def _symbol_names(data: bytes, sections: list[_Section]) -> dict[int, str]:
    """Symbol index -> name, from the ELF's .symtab (global .nv.info names functions by index)."""
    symtab = next((s for s in sections if s.type == SHT_SYMTAB), None)
    if symtab is None or symtab.link >= len(sections):
        return {}
    strtab = sections[symtab.link]
    names = data[strtab.offset:strtab.offset + strtab.size]
    out = {}
    for i in range(symtab.size // SYMBOL_SIZE):
        st_name, = struct.unpack_from("<I", data, symtab.offset + i * SYMBOL_SIZE)
        out[i] = _cstr(names, st_name)
    return out


def _info_attributes(blob: bytes) -> list[tuple[int, bytes | int]]:
    """(attribute, value) pairs of one .nv.info section."""
    out: list[tuple[int, bytes | int]] = []
    i = 0
    while i + 2 <= len(blob):
        fmt, attr = blob[i], blob[i + 1]
        i += 2
        if fmt == EIFMT_SVAL:
            size, = struct.unpack_from("<H", blob, i)
            out.append((attr, blob[i + 2:i + 2 + size]))
            i += 2 + size
        elif fmt in (EIFMT_HVAL, EIFMT_NVAL):
            val, = struct.unpack_from("<H", blob, i)
            out.append((attr, val))
            i += 2
        elif fmt == EIFMT_BVAL:
            out.append((attr, blob[i]))
            i += 2
        else:
            break  # an unknown format: the rest cannot be framed
    return out


def cubin_resources(data: bytes, path: str | None = None) -> dict[str, CubinResources]:
    """Per kernel in the CUBIN: registers, stack, static shared and local memory, in bytes. A CUBIN whose
    ELF tables point past its end (or name sections it lacks) is a ParseError naming it."""
    try:
        return _cubin_resources(data, path)
    except (IndexError, struct.error, ValueError) as exc:
        raise ParseError(f"a damaged CUBIN: its ELF tables do not read ({type(exc).__name__}: {exc})",
                               path) from None


def _cubin_resources(data: bytes, path: str | None) -> dict[str, CubinResources]:
    sections = _sections(data, path)
    kernels = [s.name[len(".text."):] for s in sections if s.name.startswith(".text.")]
    by_name = {s.name: s for s in sections}
    out: dict[str, CubinResources] = {}
    # The global .nv.info holds (function symbol, value) pairs: frame and stack sizes, register count.
    symbols = _symbol_names(data, sections)
    stack: dict[str, int] = {}
    regcount: dict[str, int] = {}
    for sec in sections:
        if sec.name != ".nv.info":
            continue
        for attr, val in _info_attributes(data[sec.offset:sec.offset + sec.size]):
            if not isinstance(val, bytes) or len(val) < 8:
                continue
            sym, value = struct.unpack_from("<II", val, 0)
            fn = symbols.get(sym)
            if fn is None:
                continue
            if attr in (EIATTR_FRAME_SIZE, EIATTR_MAX_STACK_SIZE):
                stack[fn] = max(stack.get(fn, 0), value)
            elif attr == EIATTR_REGCOUNT:
                regcount[fn] = value
    for k in kernels:
        text = by_name[f".text.{k}"]
        shared = by_name.get(f".nv.shared.{k}")
        local = by_name.get(f".nv.local.{k}")
        out[k] = CubinResources(
            kernel=k, registers=regcount.get(k, text.info >> 24), stack_bytes=stack.get(k, 0),
            static_shared_bytes=shared.size if shared else 0, local_bytes=local.size if local else 0,
            code_bytes=text.size)
    return out


_SECTION_HEADER = struct.Struct("<IIQQQQIIQQ")  # Elf64_Shdr, little-endian (every CUBIN is)


def kernel_local_bytes(data: bytes, kernel: str | None = None, path: str | None = None) -> int | None:
    """Per-thread local memory of one kernel (register spills and stack: the larger of its frame size and
    its `.nv.local` section), what `ls` shows for every entry; the same figure as `cubin_resources`,
    read without decoding every section and symbol name (a cubin has ~40 sections; `ls` reads hundreds).
    `kernel`: its name (else the CUBIN's first kernel). None when the CUBIN has no kernel."""
    return _local_bytes(lambda offset, size: data[offset:offset + size], len(data), kernel, path)


def file_local_bytes(path: str, kernel: str | None = None) -> int | None:
    """`kernel_local_bytes` of a CUBIN file, reading only the parts it needs (the ELF header, the section
    table, the section names, `.nv.info` and the symbols it names: ~3 KB of a 30-300 KB file)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        # sizes and offsets come from the file: a damaged one may name any (clamped, as a slice would be)
        return _local_bytes(lambda offset, n: os.pread(fd, max(0, min(n, size - offset)), offset) if offset < size
                            else b"", size, kernel, path)
    finally:
        os.close(fd)


def _local_bytes(read, size: int, kernel: str | None, path: str | None) -> int | None:
    head = read(0, 64)
    if head[:4] != ELF_MAGIC or len(head) < 64 or head[4] != 2:
        raise ParseError("not a 64-bit ELF file", path)
    if head[5] != 1:  # big-endian: never seen; the general reader handles it
        resources = cubin_resources(read(0, size), path)
        mine = resources.get(kernel) if kernel else None
        mine = mine or next(iter(resources.values()), None)
        return max(mine.stack_bytes, mine.local_bytes) if mine else None
    shoff, = struct.unpack_from("<Q", head, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", head, 0x3A)
    if shoff == 0 or shentsize != _SECTION_HEADER.size or shoff + shnum * shentsize > size or shstrndx >= shnum:
        raise ParseError("truncated ELF section table", path)
    rows = list(_SECTION_HEADER.iter_unpack(read(shoff, shnum * shentsize)))
    if len(rows) != shnum:
        raise ParseError("truncated ELF section table", path)
    names = read(rows[shstrndx][4], rows[shstrndx][5])
    # Sections by the offset of their name: the few names wanted are found with bytes.find, not by
    # decoding every section's name (names may share a tail: `.rel.text.k` holds `.text.k`).
    by_name_at = {row[0]: i for i, row in enumerate(rows)}
    texts: list[tuple[int, str]] = []  # (section index, kernel): the first kernel is the first .text
    local: dict[str, int] = {}
    for at in _all(names, b".text."):
        if at in by_name_at:
            texts.append((by_name_at[at], _cstr(names, at + 6)))
    for at in _all(names, b".nv.local."):
        if at in by_name_at:
            local[_cstr(names, at + 10)] = rows[by_name_at[at]][5]
    if not texts:
        return None
    kernels = [name for _, name in sorted(texts)]
    mine = kernel if kernel in kernels else kernels[0]
    info = next((rows[by_name_at[at]] for at in _all(names, b".nv.info\x00") if at in by_name_at), None)
    symtab = next((row for row in rows if row[1] == SHT_SYMTAB), None)
    stack = 0
    if info is not None and symtab is not None and symtab[6] < len(rows):
        sym_names_at, sym_names_size = rows[symtab[6]][4], rows[symtab[6]][5]
        want = mine.encode() + b"\x00"
        for attr, val in _info_attributes(read(info[4], info[5])):
            if attr not in (EIATTR_FRAME_SIZE, EIATTR_MAX_STACK_SIZE) or not isinstance(val, bytes) or len(val) < 8:
                continue
            sym, value = struct.unpack_from("<II", val, 0)
            if sym >= symtab[5] // SYMBOL_SIZE:
                continue
            st_name, = struct.unpack_from("<I", read(symtab[4] + sym * SYMBOL_SIZE, 4))
            if st_name < sym_names_size and read(sym_names_at + st_name, len(want)) == want:
                stack = max(stack, value)
    return max(stack, local.get(mine, 0))


def _all(table: bytes, needle: bytes):
    at = table.find(needle)
    while at >= 0:
        yield at
        at = table.find(needle, at + 1)
