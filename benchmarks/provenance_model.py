"""A small model for recording torch.compile provenance (issue 20): the lines of this file are what
Inductor's FX nodes name (`# File: .../provenance_model.py:NN in forward, code: ...`)."""

from __future__ import annotations

import torch
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
