"""A small model for recording torch.compile provenance (issue 20): the lines of this file are what
Inductor's FX nodes name (`# File: .../provenance_model.py:NN in forward, code: ...`)."""

from __future__ import annotations

import torch
import torch.utils.checkpoint
from torch import nn


class MLPBlock(nn.Module):
    def __init__(self, d: int = 256, h: int = 512):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.up = nn.Linear(d, h)
        self.down = nn.Linear(h, d)
        self.scale = nn.Parameter(torch.ones(d))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.norm(x)
        y = torch.nn.functional.gelu(self.up(y))
        y = torch.softmax(y, dim=-1) * 2.0
        y = self.down(y)
        return x + y * self.scale


class TinyModel(nn.Module):
    def __init__(self, d: int = 256, layers: int = 2):
        super().__init__()
        self.blocks = nn.ModuleList(MLPBlock(d) for _ in range(layers))
        self.head = nn.Linear(d, 16)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        logits = self.head(x).float()
        return torch.logsumexp(logits, dim=-1).mean()


class CheckpointedModel(TinyModel):
    """TinyModel with each block under activation checkpointing (`torch.utils.checkpoint`, non-reentrant):
    the backward graph recomputes the blocks' forward nodes, which torch.fx prints under
    `# ac_graph_id: N - PREFER_RECOMPUTE File: ...` comments."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = torch.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
        logits = self.head(x).float()
        return torch.logsumexp(logits, dim=-1).mean()


class BrokenModel(TinyModel):
    """TinyModel with a graph break between its blocks: torch.compile makes one graph per side of the break
    (frames 0 and 1, each with its forward and backward), and again for a second input shape."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.blocks[0](x)
        torch._dynamo.graph_break()
        x = self.blocks[1](x)
        logits = self.head(x).float()
        return torch.logsumexp(logits, dim=-1).mean()


class UserKernelModel(nn.Module):
    """A linear layer and a hand-written Triton kernel from another module (`provenance_kernels`), called
    inside the compiled forward (run without autograd: the kernel has no backward)."""

    def __init__(self, d: int = 256):
        super().__init__()
        self.lin = nn.Linear(d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        from provenance_kernels import scaled_residual

        y = torch.nn.functional.gelu(self.lin(x))
        y = scaled_residual(y, x, 0.5)
        return torch.relu(y).sum()


class SelectiveCheckpointModel(TinyModel):
    """TinyModel's blocks under selective activation checkpointing: a policy saves the matmuls' outputs and
    recomputes the rest (torch.utils.checkpoint.create_selective_checkpoint_contexts)."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        import functools

        from torch.utils.checkpoint import CheckpointPolicy, checkpoint, create_selective_checkpoint_contexts

        def policy(ctx, op, *args, **kwargs):
            if op in (torch.ops.aten.mm.default, torch.ops.aten.addmm.default):
                return CheckpointPolicy.MUST_SAVE
            return CheckpointPolicy.PREFER_RECOMPUTE

        context = functools.partial(create_selective_checkpoint_contexts, policy)
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False, context_fn=context)
        logits = self.head(x).float()
        return torch.logsumexp(logits, dim=-1).mean()


def gelu_mlp(x: torch.Tensor, w_up: torch.Tensor, w_down: torch.Tensor) -> torch.Tensor:
    h = torch.nn.functional.gelu(x @ w_up)
    return h @ w_down


class SubgraphModel(nn.Module):
    """Two layers through one nested compile region (`torch.compiler.nested_compile_region`: compiled once,
    called twice, an `invoke_subgraph`), then a `torch.cond`: graphs with subgraphs inside, whose nodes
    torch.fx prints as classes nested in the graph's."""

    def __init__(self, d: int = 256, h: int = 512):
        super().__init__()
        self.up = nn.ParameterList([nn.Parameter(torch.randn(d, h) / d ** 0.5) for _ in range(2)])
        self.down = nn.ParameterList([nn.Parameter(torch.randn(h, d) / h ** 0.5) for _ in range(2)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        mlp = torch.compiler.nested_compile_region(gelu_mlp)
        x = x + mlp(x, self.up[0], self.down[0])
        x = x + mlp(x, self.up[1], self.down[1])
        y = torch.cond(x.sum() > 0, lambda t: torch.relu(t) * 2.0, lambda t: torch.sigmoid(t) - 1.0, (x,))
        return y.float().pow(2).mean()


class DecoderBlock(nn.Module):
    """One pre-norm decoder layer: RMSNorm, causal attention (SDPA), a SwiGLU MLP."""

    def __init__(self, d: int = 512, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.RMSNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.proj = nn.Linear(d, d, bias=False)
        self.norm2 = nn.RMSNorm(d)
        self.gate = nn.Linear(d, 4 * d, bias=False)
        self.up = nn.Linear(d, 4 * d, bias=False)
        self.down = nn.Linear(4 * d, d, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, t, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        a = nn.functional.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2),
                                                       is_causal=True)
        x = x + self.proj(a.transpose(1, 2).reshape(b, t, d))
        y = self.norm2(x)
        return x + self.down(nn.functional.silu(self.gate(y)) * self.up(y))


class TinyDecoder(nn.Module):
    """Two decoder layers and a loss: what `record_inductor_provenance.py OUT plain --model decoder` compiles
    (with Inductor's persistent TMA matmul templates on Hopper)."""

    def __init__(self, d: int = 512, layers: int = 2, vocab: int = 1024):
        super().__init__()
        self.blocks = nn.ModuleList(DecoderBlock(d) for _ in range(layers))
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = block(x)
        return torch.logsumexp(self.head(x).float(), dim=-1).mean()


def alibi(score, b, h, q_idx, kv_idx):
    """A score_mod: ALiBi's linear distance penalty, one slope per head."""
    return score - (q_idx - kv_idx).abs() * torch.exp2(-(h + 1).to(score.dtype))


def sliding_causal(b, h, q_idx, kv_idx):
    """A mask_mod: causal, within a window of 256 tokens."""
    return (q_idx >= kv_idx) & (q_idx - kv_idx < 256)


class FlexBlock(nn.Module):
    """A decoder layer whose attention is FlexAttention: Inductor writes its own attention kernels (forward
    and backward templates) with the score_mod and the block mask compiled into them."""

    def __init__(self, d: int = 512, heads: int = 8):
        super().__init__()
        self.heads = heads
        self.norm = nn.RMSNorm(d)
        self.qkv = nn.Linear(d, 3 * d, bias=False)
        self.proj = nn.Linear(d, d, bias=False)

    def forward(self, x: torch.Tensor, block_mask) -> torch.Tensor:
        from torch.nn.attention.flex_attention import flex_attention

        b, t, d = x.shape
        q, k, v = self.qkv(self.norm(x)).view(b, t, 3, self.heads, d // self.heads).unbind(2)
        a = flex_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), score_mod=alibi,
                           block_mask=block_mask)
        return x + self.proj(a.transpose(1, 2).reshape(b, t, d))


class FlexDecoder(nn.Module):
    """Two FlexAttention layers and a loss: what `record_inductor_provenance.py OUT plain --model flex`
    compiles."""

    def __init__(self, d: int = 512, layers: int = 2, vocab: int = 1024):
        super().__init__()
        self.blocks = nn.ModuleList(FlexBlock(d) for _ in range(layers))
        self.head = nn.Linear(d, vocab, bias=False)

    def forward(self, x: torch.Tensor, block_mask) -> torch.Tensor:
        for block in self.blocks:
            x = block(x, block_mask)
        return torch.logsumexp(self.head(x).float(), dim=-1).mean()
