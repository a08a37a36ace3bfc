"""The three torch.nn models of the strata.torch tests and of
scripts/bench/torch_compile.py: a small MLP, a convnet and a transformer
block."""

from __future__ import annotations

from typing import Any

import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(16, 32)
        self.norm = nn.BatchNorm1d(32)
        self.fc2 = nn.Linear(32, 8)

    def forward(self, x: Any) -> Any:
        return torch.log_softmax(self.fc2(nn.functional.gelu(self.norm(self.fc1(x)))), dim=-1)


class ConvNet(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 8, 3, padding=1),
            nn.BatchNorm2d(8),
            nn.ReLU(),
            nn.MaxPool2d(2),
            nn.Conv2d(8, 8, 3, padding=1, groups=8),  # depthwise
            nn.Hardswish(),
            nn.Conv2d(8, 16, 1),
            nn.SiLU(),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Linear(16, 10),
        )

    def forward(self, x: Any) -> Any:
        return self.features(x)


def transformer_block(norm_first: bool = False) -> nn.Module:
    return nn.TransformerEncoderLayer(
        32, 4, 64, dropout=0.0, batch_first=True, activation="gelu", norm_first=norm_first
    )
