"""AMD scalar loads of the kernel-argument segment (stages/memops.py `kernel_argument_loads`): based on the
SGPR pair the ABI fills with its address, or a copy of it, until that pair is written over. Such a load
reads an argument, never data an access of the kernel moves. The lines are cut from vLLM's prefix
prefill cross-compiled for gfx942 (the pointer moves to s[34:35], s[0:1] then holds a data address)."""

from __future__ import annotations

from tritonscope.stages import amdgcn, memops

ASM = """\t.text
\t.globl\tk
\t.type\tk,@function
k:
\t.file\t1 "/src" "k.py"
\t.loc\t1 519 0 prologue_end
\ts_load_dwordx2 s[2:3], s[0:1], 0x0
\t.loc\t1 577 43
\ts_load_dwordx4 s[24:27], s[0:1], 0x48
\ts_mov_b64 s[34:35], s[0:1]
\ts_lshl_b64 s[0:1], s[18:19], 2
\ts_add_u32 s22, s26, s0
\t.loc\t1 578 43
\ts_load_dwordx2 s[24:25], s[0:1], 0x0
\t.loc\t1 577 32
\ts_load_dword s0, s[22:23], 0x0
\t.loc\t1 590 5
\ts_load_dwordx2 s[4:5], s[34:35], 0x74
\ts_mov_b64 s[34:35], 0
\ts_load_dwordx2 s[6:7], s[34:35], 0x10
\ts_endpgm
.Lfunc_end0:
\t.size\tk, .Lfunc_end0-k
\t.amdhsa_kernel k
\t\t.amdhsa_user_sgpr_count 15
\t\t.amdhsa_user_sgpr_dispatch_ptr 0
\t\t.amdhsa_user_sgpr_queue_ptr 0
\t\t.amdhsa_user_sgpr_kernarg_segment_ptr 1
\t.end_amdhsa_kernel
"""


def test_argument_loads_follow_the_pointer_and_stop_where_it_is_overwritten():
    module = amdgcn.parse(ASM, "/c/k.amdgcn")
    assert module.user_sgprs["kernarg_segment_ptr"] == 1 and module.user_sgprs["count"] == 15
    loads = {op.lineno: op.text for op in module.ops if op.op.startswith("s_load")}
    arguments = memops.kernel_argument_loads(module)
    assert sorted(loads[n] for n in arguments) == [
        "s_load_dwordx2 s[2:3], s[0:1], 0x0", "s_load_dwordx2 s[4:5], s[34:35], 0x74",
        "s_load_dwordx4 s[24:27], s[0:1], 0x48"]
    # s[0:1] after the shift holds a data address; s[34:35] after `s_mov_b64 s[34:35], 0` holds none


def test_a_dispatch_pointer_before_it_moves_the_pair():
    module = amdgcn.parse(ASM.replace("dispatch_ptr 0", "dispatch_ptr 1"), "/c/k.amdgcn")
    assert memops.kernel_argument_loads(module) == set()  # the pointer is s[2:3]: nothing here reads it
    module.user_sgprs.pop("kernarg_segment_ptr")
    assert memops.kernel_argument_loads(module) == set()  # no descriptor: nothing is claimed
