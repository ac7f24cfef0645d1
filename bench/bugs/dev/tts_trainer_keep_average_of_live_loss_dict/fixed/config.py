from dataclasses import dataclass, field


@dataclass
class TrainerConfig:
    run_name: str = "mel_postnet"
    epochs: int = 2
    batch_size: int = 4
    lr: float = 1e-3
    grad_clip: float = 5.0
    print_step: int = 3
    seed: int = 54321


@dataclass
class PostnetConfig:
    n_mels: int = 20
    channels: int = 32
    kernel_size: int = 5
    n_layers: int = 3
    dropout: float = 0.1
    loss_weights: dict = field(default_factory=lambda: {"l1": 1.0, "mse": 0.5})
