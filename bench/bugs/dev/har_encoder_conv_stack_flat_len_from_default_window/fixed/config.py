from dataclasses import dataclass, field
from typing import List


@dataclass
class EncoderConfig:
    in_channels: int = 9
    channels: List[int] = field(default_factory=lambda: [32, 64, 128])
    kernel_size: int = 8
    dropout: float = 0.35
    window: int = 128          # samples per window the encoder is built for
    dim: int = 64

    def flat_len(self) -> int:
        """Time steps left after the conv stack: each block is conv(k, pad k//2) then maxpool(2, 2, pad 1)."""
        length = self.window
        for _ in self.channels:
            length = length + 2 * (self.kernel_size // 2) - self.kernel_size + 1
            length = (length + 2 - 2) // 2 + 1
        return length
