import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderOnlyLM(nn.Module):
    def __init__(self, vocab_size=128, d_model=48, nhead=4, num_layers=2, block_size=32):
        super().__init__()
        self.block_size = block_size
        self.tok_emb = nn.Embedding(vocab_size, d_model)
        self.pos_emb = nn.Embedding(block_size, d_model)
        layer = nn.TransformerEncoderLayer(d_model, nhead, 4 * d_model, dropout=0.0, batch_first=True, norm_first=True)
        self.blocks = nn.TransformerEncoder(layer, num_layers)
        self.head = nn.Linear(d_model, vocab_size)
        self.register_buffer("causal_mask", nn.Transformer.generate_square_subsequent_mask(block_size))

    def forward(self, idx):
        b, t = idx.shape
        x = self.tok_emb(idx) + self.pos_emb(torch.arange(t))
        x = self.blocks(x, mask=self.causal_mask)
        return self.head(x)


@torch.no_grad()
def generate(model, idx, max_new_tokens=3):
    model.eval()
    for _ in range(max_new_tokens):
        logits = model(idx[:, -model.block_size:])
        next_id = torch.multinomial(F.softmax(logits[:, -1], dim=-1), 1)
        idx = torch.cat([idx, next_id], dim=1)
    return idx


model = DecoderOnlyLM()
prompt = torch.randint(0, 128, (2, 20))
print(generate(model, prompt).shape)
