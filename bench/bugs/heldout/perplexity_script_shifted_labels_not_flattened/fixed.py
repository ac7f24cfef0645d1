import argparse
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalLM(nn.Module):
    def __init__(self, vocab_size=80, dim=32, n_layers=2, n_heads=4, max_len=32):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, dim)
        self.pos = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, n_heads, dim_feedforward=64, batch_first=True, dropout=0.0)
        self.blocks = nn.TransformerEncoder(layer, n_layers)
        self.lm_head = nn.Linear(dim, vocab_size, bias=False)

    def forward(self, input_ids):
        seq_len = input_ids.size(1)
        positions = torch.arange(seq_len, device=input_ids.device)
        mask = nn.Transformer.generate_square_subsequent_mask(seq_len)
        h = self.blocks(self.tok(input_ids) + self.pos(positions), mask=mask, is_causal=True)
        return self.lm_head(h)


def token_loss(logits, input_ids):
    shift_logits = logits[:, :-1, :].contiguous()
    shift_labels = input_ids[:, 1:].contiguous()
    return F.cross_entropy(shift_logits.view(-1, shift_logits.size(-1)), shift_labels.view(-1))


@torch.no_grad()
def perplexity(model, texts):
    model.eval()
    nlls = []
    for input_ids in texts:
        logits = model(input_ids)
        nlls.append(token_loss(logits, input_ids).item())
    return math.exp(sum(nlls) / len(nlls))


def main():
    parser = argparse.ArgumentParser(description="score prompts with a small causal LM")
    parser.add_argument("--n_prompts", type=int, default=3)
    parser.add_argument("--prompt_len", type=int, default=16)
    args = parser.parse_args([])
    torch.manual_seed(0)
    model = CausalLM()
    texts = [torch.randint(0, 80, (1, args.prompt_len)) for _ in range(args.n_prompts)]
    print(f"ppl {perplexity(model, texts):.2f}")


if __name__ == "__main__":
    main()
