# Adapted from Triton's python/test/gluon/test_core.py `test_amd_mfma` (MIT), its layouts moved into the kernel
# (a QA pass of stop 56). Line numbers matter to tests/test_gluon.py.
from triton.experimental import gluon
from triton.experimental.gluon import language as ttgl


@gluon.jit
def mfma_kernel(a_ptr, b_ptr, c_ptr,  #
                stride_am, stride_ak,  #
                stride_bk, stride_bn,  #
                stride_cm, stride_cn,  #
                BLOCK_SIZE_M: ttgl.constexpr, BLOCK_SIZE_N: ttgl.constexpr, BLOCK_SIZE_K: ttgl.constexpr,
                NUM_WARPS: ttgl.constexpr, KDIM: ttgl.constexpr, K_WIDTH: ttgl.constexpr, VER: ttgl.constexpr):
    blocked: ttgl.constexpr = ttgl.BlockedLayout(size_per_thread=[4, 4], threads_per_warp=[4, 16],
                                                 warps_per_cta=[NUM_WARPS, 1], order=[1, 0])
    mfma_layout: ttgl.constexpr = ttgl.amd.AMDMFMALayout(version=VER, instr_shape=[32, 32, KDIM],
                                                         transposed=True, warps_per_cta=[NUM_WARPS, 1])
    dot_a_layout: ttgl.constexpr = ttgl.DotOperandLayout(operand_index=0, parent=mfma_layout, k_width=K_WIDTH)
    dot_b_layout: ttgl.constexpr = ttgl.DotOperandLayout(operand_index=1, parent=mfma_layout, k_width=K_WIDTH)

    offs_am = ttgl.arange(0, BLOCK_SIZE_M, layout=ttgl.SliceLayout(1, blocked))
    offs_bn = ttgl.arange(0, BLOCK_SIZE_N, layout=ttgl.SliceLayout(0, blocked))

    offs_ak = ttgl.arange(0, BLOCK_SIZE_K, layout=ttgl.SliceLayout(0, blocked))
    offs_bk = ttgl.arange(0, BLOCK_SIZE_K, layout=ttgl.SliceLayout(1, blocked))
    offs_a = offs_am[:, None] * stride_am + offs_ak[None, :] * stride_ak
    offs_b = offs_bk[:, None] * stride_bk + offs_bn[None, :] * stride_bn

    a = ttgl.amd.cdna3.buffer_load(ptr=a_ptr, offsets=offs_a)
    b = ttgl.amd.cdna3.buffer_load(ptr=b_ptr, offsets=offs_b)
    a1 = ttgl.convert_layout(a, layout=dot_a_layout)
    b1 = ttgl.convert_layout(b, layout=dot_b_layout)
    acc = ttgl.zeros([BLOCK_SIZE_M, BLOCK_SIZE_N], ttgl.float32, mfma_layout)
    c = ttgl.amd.cdna3.mfma(a1, b1, acc)
    c = ttgl.convert_layout(c, layout=blocked)
    c = c.to(a_ptr.dtype.element_ty)

    offs_cm = ttgl.arange(0, BLOCK_SIZE_M)
    offs_cn = ttgl.arange(0, BLOCK_SIZE_N)
    offs_c = offs_cm[:, None] * stride_cm + offs_cn[None, :] * stride_cn
    ttgl.amd.cdna3.buffer_store(stored_value=c, ptr=c_ptr, offsets=offs_c)
