from dataclasses import dataclass, field
from typing import List

PAD = "<pad>"
UNK = "<unk>"


@dataclass
class TaggerConfig:
    tags: List[str] = field(default_factory=lambda: ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG"])
    emb_dim: int = 50
    hidden: int = 64
    max_len: int = 40
    batch_size: int = 8
    lr: float = 2e-3
    epochs: int = 2
