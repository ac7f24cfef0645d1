import torch

from model import EventSequenceModel

DEATH_TOKEN = 7


@torch.inference_mode()
def estimate_risk(model: EventSequenceModel, timelines: torch.Tensor, rep_num: int = 4) -> torch.Tensor:
    """Probability that the next event is death, averaged over repeated forward passes."""
    risks = []
    for _ in range(rep_num):
        logits = model(timelines)
        risks.append(logits[:, -1].softmax(dim=-1)[:, DEATH_TOKEN])
    return torch.stack(risks).mean(dim=0)
