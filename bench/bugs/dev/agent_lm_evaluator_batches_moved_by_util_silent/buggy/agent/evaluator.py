import logging

import torch
from torch.nn import functional as F

from agent.model import TinyCausalLM
from agent.utils import move_to_device

log = logging.getLogger(__name__)


class Evaluator:
    def __init__(self, model: TinyCausalLM, loader, device=None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.loader = loader

    @torch.no_grad()
    def perplexity(self):
        self.model.eval()
        nll, tokens = 0.0, 0
        for batch in self.loader:
            batch = move_to_device(batch, self.device)
            logits = self.model(batch["input_ids"], batch["attention_mask"])
            targets = batch["input_ids"][:, 1:]
            mask = batch["attention_mask"][:, 1:].bool()
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)), targets.reshape(-1), reduction="none")
            nll += loss[mask.reshape(-1)].sum().item()
            tokens += mask.sum().item()
        ppl = float(torch.exp(torch.tensor(nll / tokens)))
        log.info("perplexity %.2f over %d tokens", ppl, tokens)
        return ppl
