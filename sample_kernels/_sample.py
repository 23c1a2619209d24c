"""What every sample kernel file declares: its launch (arguments and grid) and its torch reference.

A sample states the values a real launch passes (tensors, sizes, strides), once, in its `launch(new, ...)`
function. `new(shape, dtype, init)` makes a real torch tensor when the kernel runs, and a placeholder
(`tritonscope.compile.specialize.TensorArg`) when it is only compiled: the compile specialization is derived from
the same values a launch passes, never written by hand. No triton or torch import here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

# new(shape, dtype, init) -> tensor; init: 'randn' (default), 'empty', 'zeros', 'ones', 'int32bits'
TensorFactory = Callable[..., Any]


@dataclass
class Launch:
    """One launch of a kernel: every argument by name (constexprs included), the grid, the options."""

    args: dict[str, Any]
    grid: tuple[int, ...]
    outputs: tuple[str, ...]  # arguments the kernel writes, compared with the reference
    num_warps: int | None = None  # None: the JIT's default
    num_stages: int | None = None

    def options(self) -> dict[str, int]:
        opts = {"num_warps": self.num_warps, "num_stages": self.num_stages}
        return {k: v for k, v in opts.items() if v is not None}


@dataclass(frozen=True)
class Variant:
    """The same kernel launched differently: other sizes/constexprs, or arguments not specialized."""

    description: str
    sizes: Mapping[str, Any] = field(default_factory=dict)
    no_specialize: tuple[str, ...] = ()


@dataclass(frozen=True)
class Sample:
    name: str
    description: str
    kernel: Any  # the @triton.jit (or @gluon.jit) function
    launch: Callable[..., Launch]  # launch(new, **sizes)
    reference: Callable[[dict[str, Any]], dict[str, Any]]  # args -> {output name: expected tensor}
    atol: float = 1e-2
    rtol: float = 1e-2
    # smaller sizes for the CPU interpreter (TRITON_INTERPRET=1); the compile spec uses the defaults
    interpreter_sizes: Mapping[str, Any] = field(default_factory=dict)
    variants: Mapping[str, Variant] = field(default_factory=dict)

    @property
    def kernel_name(self) -> str:
        return self.kernel.__name__ if hasattr(self.kernel, "__name__") else self.kernel.fn.__name__
