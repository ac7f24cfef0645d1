import torch
import torch.nn as nn


class TinyTransformer(nn.Module):
    def __init__(self, src_vocab, trg_vocab, d_model=32, heads=4, n_layers=2):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.trg_embed = nn.Embedding(trg_vocab, d_model)
        self.encoder = nn.TransformerEncoder(
            nn.TransformerEncoderLayer(d_model, heads, 64, dropout=0.1, batch_first=True), n_layers)
        self.decoder = nn.TransformerDecoder(
            nn.TransformerDecoderLayer(d_model, heads, 64, dropout=0.1, batch_first=True), n_layers)
        self.out = nn.Linear(d_model, trg_vocab)

    def forward(self, src, trg, src_mask, trg_mask):
        memory = self.encoder(self.src_embed(src), src_key_padding_mask=~src_mask.squeeze(1))
        causal = ~trg_mask[0] if trg_mask.size(0) == 1 else ~trg_mask.all(0)
        h = self.decoder(self.trg_embed(trg), memory, tgt_mask=causal,
                         memory_key_padding_mask=~src_mask.squeeze(1))
        return self.out(h)
