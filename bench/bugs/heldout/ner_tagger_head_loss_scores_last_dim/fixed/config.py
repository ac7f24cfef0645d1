from dataclasses import dataclass, field


@dataclass
class TaggerConfig:
    vocab_size: int = 200
    embed_dim: int = 32
    hidden: int = 24
    labels: list = field(default_factory=lambda: ["O", "B-PER", "I-PER", "B-ORG", "I-ORG"])
    dropout: float = 0.2
    seq_len: int = 14
    batch_size: int = 6
    lr: float = 2e-3
