import torch
import torch.nn as nn

from modules import DecoderLayer

VOCAB, DIM, BOS, EOS = 40, 32, 1, 2


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Embedding(VOCAB, DIM)
        self.encoder = nn.GRU(DIM, DIM, batch_first=True)
        self.decoder = DecoderLayer(DIM)
        self.output_projection = nn.Linear(DIM, VOCAB)

    def encode(self, src_tokens):
        memory, _ = self.encoder(self.embed(src_tokens))
        return memory, src_tokens.eq(0)

    def decode(self, prev_tokens, memory, padding_mask):
        return self.output_projection(self.decoder(self.embed(prev_tokens), memory, padding_mask))


@torch.no_grad()
def greedy_generate(model, src_tokens, max_len=6):
    model.eval()
    memory, padding_mask = model.encode(src_tokens)
    tokens = torch.full((src_tokens.size(0), 1), BOS, dtype=torch.long)
    for _ in range(max_len):
        logits = model.decode(tokens, memory, padding_mask)
        next_tok = logits[:, -1].argmax(-1, keepdim=True)
        tokens = torch.cat([tokens, next_tok], dim=1)
        if next_tok.eq(EOS).all():
            break
    return tokens


if __name__ == "__main__":
    model = Seq2Seq()
    src = torch.randint(3, VOCAB, (3, 7))
    src[1, 5:] = 0
    print(greedy_generate(model, src))
