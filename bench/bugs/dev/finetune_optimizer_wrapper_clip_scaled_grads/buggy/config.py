import json
from dataclasses import asdict, dataclass


@dataclass
class TrainConfig:
    lr: float = 1e-3
    batch_size: int = 8
    max_epochs: int = 2
    clip_grad_norm: float = 1.0
    amp: bool = True
    grad_accum: int = 1

    def dump(self):
        return json.dumps(asdict(self))
