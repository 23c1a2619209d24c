import triton
import triton.language as tl


@triton.jit
def spin_lock(lock_ptr, cnt_ptr, x_ptr, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    v = tl.load(x_ptr + pid * BLOCK + tl.arange(0, BLOCK))
    tl.atomic_add(cnt_ptr + tl.arange(0, BLOCK), v, mask=v > 0)
    tl.atomic_xchg(lock_ptr, 0)
