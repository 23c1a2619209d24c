"""`ls` reads each entry's spills through nvinfo.kernel_local_bytes, a lean reader of the CUBIN's ELF;
it must give exactly what the general reader (`cubin_resources`) gives, on every real CUBIN we hold."""

from __future__ import annotations

from pathlib import Path

import pytest

from tritonscope.artifacts.cache import load_entry
from tritonscope.artifacts.nvinfo import cubin_resources, file_local_bytes, kernel_local_bytes
from tritonscope.errors import ParseError

REPO = Path(__file__).resolve().parent.parent


def _cubins(corpus: Path) -> list[Path]:
    return sorted([*corpus.rglob("*.cubin"), *(REPO / "tests" / "data").rglob("*.cubin")])


def test_lean_reader_equals_the_general_one(corpus):
    cubins = _cubins(corpus)
    assert len(cubins) > 50
    with_local = 0
    for p in cubins:
        data = p.read_bytes()
        entry = load_entry(p.parent)
        name = entry.mangled_name or entry.name
        resources = cubin_resources(data, str(p))
        mine = resources.get(name) or next(iter(resources.values()), None)
        expected = max(mine.stack_bytes, mine.local_bytes) if mine else None
        assert kernel_local_bytes(data, name, str(p)) == expected, p
        assert file_local_bytes(str(p), name) == expected, p  # what ls reads: only the parts it needs
        with_local += bool(expected)
    assert with_local >= 2  # the thirdparty entries that spill (torchao int8 matmul)


def test_lean_reader_refuses_damage():
    with pytest.raises(ParseError):
        kernel_local_bytes(b"not an elf at all, not an elf at all, not an elf at all, not an elf")
    header = bytearray(64)
    header[:6] = b"\x7fELF\x02\x01"
    header[0x28:0x30] = (1 << 40).to_bytes(8, "little")  # section table past the end
    header[0x3A:0x3C] = (64).to_bytes(2, "little")
    header[0x3C:0x3E] = (3).to_bytes(2, "little")
    with pytest.raises(ParseError):
        kernel_local_bytes(bytes(header))


def test_file_reader_refuses_damage(tmp_path):
    """A CUBIN cut anywhere: a ParseError or a short read (struct.error), which `ls` shows as unknown."""
    import struct

    good = next(iter(_cubins(REPO / "tests" / "data")), None)
    assert good is not None
    data = good.read_bytes()
    cut = tmp_path / "cut.cubin"
    for n in (0, 10, 64, len(data) // 2, len(data) - 1):
        cut.write_bytes(data[:n])
        try:
            file_local_bytes(str(cut))
        except (ParseError, struct.error):
            pass
    cut.write_bytes(data[:10])
    with pytest.raises(ParseError):
        file_local_bytes(str(cut))


def test_damaged_sizes_and_offsets_read_as_a_slice_would(tmp_path):
    """Every section's offset and size set to absurd values (2**63, past the end): both readers give the
    same answer or the same kind of refusal, never another exception (ls would print a traceback)."""
    import struct

    good = next(iter(_cubins(REPO / "tests" / "data")))
    data = bytearray(good.read_bytes())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shnum, = struct.unpack_from("<H", data, 0x3C)
    for field_at, value in ((24, 1 << 63), (32, 1 << 63), (24, len(data) + 10), (32, len(data) * 4)):
        damaged = bytearray(data)
        for i in range(shnum):
            struct.pack_into("<Q", damaged, shoff + i * 64 + field_at, value)
        path = tmp_path / "damaged.cubin"
        path.write_bytes(bytes(damaged))
        outcomes = []
        for read in (lambda d=damaged, p=path: kernel_local_bytes(bytes(d), None, str(p)),
                     lambda p=path: file_local_bytes(str(p))):
            try:
                outcomes.append(read())
            except (ParseError, struct.error) as e:
                outcomes.append(type(e))
        assert outcomes[0] == outcomes[1], (field_at, value, outcomes)


def test_a_cubin_whose_tables_do_not_read_is_one_parse_error(cache39):
    """Section counts, string-table indexes and .nv.info records that point past the data (a damaged file):
    a ParseError naming the file, never IndexError/struct.error (report and snapshot ended in internal
    errors on eight such CUBINs)."""
    import struct as _struct

    from tritonscope.artifacts.nvinfo import cubin_resources
    from tritonscope.errors import ParseError

    cubin = next(cache39.glob("*/*.cubin")).read_bytes()
    shnum_at, shstrndx_at = 0x3C, 0x3E  # ELF64 e_shnum, e_shstrndx
    for damage in (lambda b: b[:shnum_at] + _struct.pack("<H", 0) + b[shnum_at + 2:],
                   lambda b: b[:shstrndx_at] + _struct.pack("<H", 0xFFF0) + b[shstrndx_at + 2:]):
        with pytest.raises(ParseError, match="x.cubin"):
            cubin_resources(damage(cubin), "x.cubin")
