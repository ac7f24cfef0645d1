import logging

import torch
from torch.utils.data import DataLoader

from agent.evaluator import Evaluator
from agent.model import TinyCausalLM


def make_episodes(n=24, max_len=16, vocab=64, seed=0):
    g = torch.Generator().manual_seed(seed)
    episodes = []
    for _ in range(n):
        length = int(torch.randint(6, max_len + 1, (1,), generator=g))
        ids = torch.zeros(max_len, dtype=torch.long)
        ids[:length] = torch.randint(1, vocab, (length,), generator=g)
        mask = (torch.arange(max_len) < length).long()
        episodes.append({"input_ids": ids, "attention_mask": mask})
    return episodes


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    loader = DataLoader(make_episodes(), batch_size=8)
    Evaluator(TinyCausalLM(), loader).perplexity()


if __name__ == "__main__":
    main()
