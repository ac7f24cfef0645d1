import torch
import torch.nn as nn


class Translator(nn.Module):
    def __init__(self, src_vocab=500, tgt_vocab=600, d_model=32):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.tgt_embed = nn.Embedding(tgt_vocab, d_model)
        self.transformer = nn.Transformer(d_model=d_model, nhead=4, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=64, dropout=0.1, batch_first=True)
        self.generator = nn.Linear(d_model, tgt_vocab)

    def forward(self, src, tgt_in):
        tgt_mask = self.transformer.generate_square_subsequent_mask(src.size(1))
        out = self.transformer(self.src_embed(src), self.tgt_embed(tgt_in), tgt_mask=tgt_mask)
        return self.generator(out)


model = Translator()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-4, betas=(0.9, 0.98))
src = torch.randint(0, 500, (4, 12))
tgt = torch.randint(0, 600, (4, 10))
tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
logits = model(src, tgt_in)
loss = nn.functional.cross_entropy(logits.reshape(-1, 600), tgt_out.reshape(-1))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(loss.item())
