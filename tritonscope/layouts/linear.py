"""Triton's linear layouts, in pure Python.

Triton's LinearLayout maps input indices (register, lane, warp, block for tensors in registers; offset,
block for shared memory) to tensor coordinates: each input bit has a basis vector and an index maps to the XOR of
the bases of its set bits (Triton's include/triton/Tools/LinearLayout.h). Out-dims keep Triton's order
(the first is the most minor) while building; `bases` is always reported with dim0 first, as Triton
prints it. This module is the algebra alone (LinearMap and its shape helpers); `layouts/tensor.py` holds
`to_linear(layout, shape)`, which follows lib/Dialect/TritonGPU/IR/LinearLayoutConversions.cpp through
`layouts/convert.py`.
"""

from __future__ import annotations

from collections.abc import Sequence

REGISTER_DIMS = ("register", "lane", "warp", "block")
SHARED_DIMS = ("offset", "block")
TMEM_DIMS = ("col", "row", "block")  # Blackwell tensor memory: Triton's order (its tile starts from the columns)

Basis = tuple[int, ...]


def _log2(n: int) -> int:
    return n.bit_length() - 1


def _next_pow2_above(v: int) -> int:
    """Smallest power of two strictly greater than v (llvm::NextPowerOf2); 1 for 0."""
    return 1 << v.bit_length()


def dim(i: int) -> str:
    return f"dim{i}"


class LinearMap:
    """The algebra (Triton's LinearLayout while it is being built: products, transposes, resizing).

    `LinearLayout` below is the finished result for one tensor shape, with ownership queries. Here:
    in-dims -> bases (one int per out-dim, in `out_dims` order), with explicit out-dim sizes.
    """

    def __init__(self, bases: dict[str, list[Basis]], out_dims: Sequence[tuple[str, int]] | Sequence[str]):
        self.in_bases: dict[str, list[Basis]] = {k: [tuple(b) for b in v] for k, v in bases.items()}
        if out_dims and isinstance(out_dims[0], str):  # sizes inferred, as LinearLayout(bases, outDimNames)
            names = list(out_dims)
            sizes = {n: 1 for n in names}
            for bs in self.in_bases.values():
                for b in bs:
                    for n, v in zip(names, b, strict=False):
                        sizes[n] = max(sizes[n], _next_pow2_above(v))
            self.out_dims: list[tuple[str, int]] = [(n, sizes[n]) for n in names]
        else:
            self.out_dims = [(n, s) for n, s in out_dims]
        self.natural_tile: tuple[int, ...] | None = None  # set by combine_cta_cga_with_shape

    # --- construction -------------------------------------------------------------------------------------
    @staticmethod
    def empty() -> LinearMap:
        return LinearMap({}, [])

    @staticmethod
    def identity1d(size: int, in_dim: str, out_dim: str) -> LinearMap:
        if size <= 0:
            return LinearMap.empty()
        return LinearMap({in_dim: [(1 << i,) for i in range(_log2(size))]}, [(out_dim, size)])

    @staticmethod
    def zeros1d(size: int, in_dim: str, out_dim: str) -> LinearMap:
        if size <= 0:
            return LinearMap.empty()
        return LinearMap({in_dim: [(0,) for _ in range(_log2(size))]}, [(out_dim, 1)])

    # --- queries ------------------------------------------------------------------------------------------
    @property
    def out_names(self) -> list[str]:
        return [n for n, _ in self.out_dims]

    def out_size(self, name: str) -> int:
        for n, s in self.out_dims:
            if n == name:
                return s
        return 1

    def in_size(self, name: str) -> int:
        return 1 << len(self.in_bases.get(name, []))

    def basis(self, in_dim: str, i: int, out_dim: str) -> int:
        names = self.out_names
        if out_dim not in names:
            return 0
        return self.in_bases[in_dim][i][names.index(out_dim)]

    # --- algebra ------------------------------------------------------------------------------------------
    def __mul__(self, outer: LinearMap) -> LinearMap:
        inner = self
        in_dims = _supremum(list(inner.in_bases), list(outer.in_bases))
        out_names = _supremum(inner.out_names, outer.out_names)
        bases: dict[str, list[Basis]] = {}
        for d in in_dims:
            bs: list[Basis] = []
            for i in range(len(inner.in_bases.get(d, []))):
                bs.append(tuple(inner.basis(d, i, o) for o in out_names))
            for i in range(len(outer.in_bases.get(d, []))):
                bs.append(tuple(outer.basis(d, i, o) * inner.out_size(o) for o in out_names))
            bases[d] = bs
        return LinearMap(bases, [(o, inner.out_size(o) * outer.out_size(o)) for o in out_names])

    def transpose_outs(self, names: Sequence[str]) -> LinearMap:
        current = self.out_names
        if sorted(names) != sorted(current):
            raise ValueError(f"transpose_outs: {list(names)} is not a permutation of {current}")
        perm = [current.index(n) for n in names]
        bases = {k: [tuple(b[p] for p in perm) for b in v] for k, v in self.in_bases.items()}
        return LinearMap(bases, [(n, self.out_size(n)) for n in names])

    def with_bases(self, bases: dict[str, list[Basis]]) -> LinearMap:
        """Same out-dims, new bases; out sizes inferred again (LinearLayout(bases, outDimNames))."""
        return LinearMap(bases, self.out_names)

    def apply(self, ins: dict[str, int]) -> tuple[int, ...]:
        out = [0] * len(self.out_dims)
        for d, idx in ins.items():
            for i, b in enumerate(self.in_bases.get(d, [])):
                if idx >> i & 1:
                    for j, v in enumerate(b):
                        out[j] ^= v
        return tuple(out)


def _supremum(x: list[str], y: list[str]) -> list[str]:
    """Merge two orders keeping each one's relative order (Triton's supremum)."""
    result: list[str] = []
    xs, ys = set(x), set(y)
    i = j = 0
    while i < len(x) or j < len(y):
        if i == len(x):
            result.append(y[j])
            j += 1
        elif j == len(y):
            result.append(x[i])
            i += 1
        elif x[i] == y[j]:
            result.append(x[i])
            i += 1
            j += 1
        elif x[i] in ys:
            if y[j] not in xs:
                result.append(y[j])
            j += 1
        else:
            result.append(x[i])
            i += 1
    # drop duplicates that the fallback above may produce, keeping the first position
    seen: set[str] = set()
    return [n for n in result if not (n in seen or seen.add(n))]


def identity_standard_nd(in_dim: str, shape: Sequence[int], order: Sequence[int]) -> LinearMap:
    ret = LinearMap.empty()
    for d in order:
        ret = ret * LinearMap.identity1d(shape[d], in_dim, dim(d))
    return ret


def ensure_not_smaller(layout: LinearMap, shape: dict[str, int], names: Sequence[str] | None = None) -> LinearMap:
    """Grow each out-dim to shape[d] with more bases of the first in-dim (register/offset): wrap-around."""
    in_dim = next(iter(layout.in_bases), "register")
    ret = layout
    for name in names or layout.out_names:
        actual, desired = layout.out_size(name), shape[name]
        if actual < desired:
            ret = ret * LinearMap.identity1d(desired // actual, in_dim, name)
    return ret


def ensure_not_larger(layout: LinearMap, shape: dict[str, int], broadcast_registers: bool = True) -> LinearMap:
    """Shrink each out-dim to shape[d] by zeroing the bases that reach past it: broadcast (replication).

    (Triton zeroes the largest bases first until the out-dim's size fits; where every power of two is one
    basis's, as in a one-to-one layout, those are the bases past the size. A generic linear layout (3.8 on)
    may hold a power twice: both copies go, as Triton 3.8 and 3.9 answer.)"""
    bases = {k: [list(b) for b in v] for k, v in layout.in_bases.items()}
    drop: set[int] = set()
    for j, (name, actual) in enumerate(layout.out_dims):
        desired = shape[name]
        if actual <= desired:
            continue
        for d, bs in bases.items():
            for i, b in enumerate(bs):
                if b[j] >= desired:
                    if not broadcast_registers and d == "register":
                        drop.add(i)
                    else:
                        b[j] = 0
    if drop:
        bases["register"] = [b for i, b in enumerate(bases["register"]) if i not in drop]
    return LinearMap({k: [tuple(b) for b in v] for k, v in bases.items()}, layout.out_names)
