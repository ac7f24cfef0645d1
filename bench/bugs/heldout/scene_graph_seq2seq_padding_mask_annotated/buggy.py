"""Scene-graph generation as sequence-to-sequence: object features in, relation-triplet tokens out."""
import torch
import torch.nn as nn
from jaxtyping import Bool, Float, Int
from torch import Tensor

PAD, BOS = 0, 1


def make_tgt_masks(tgt: Int[Tensor, "B T"]) -> tuple[Float[Tensor, "T T"], Bool[Tensor, "B T"]]:
    """Causal mask over the target positions and the padding mask of the target tokens."""
    size = tgt.size(1)
    causal = torch.triu(torch.full((size, size), float("-inf")), diagonal=1)
    tgt_key_padding_mask = tgt.eq(PAD).transpose(0, 1)
    return causal, tgt_key_padding_mask


class RelationSeq2Seq(nn.Module):
    def __init__(self, feat_dim=24, d_model=32, vocab_size=40, nhead=4):
        super().__init__()
        self.obj_proj = nn.Linear(feat_dim, d_model)
        self.tok_emb = nn.Embedding(vocab_size, d_model, padding_idx=PAD)
        self.transformer = nn.Transformer(d_model, nhead, num_encoder_layers=1, num_decoder_layers=1,
                                          dim_feedforward=64, dropout=0.1, batch_first=True)
        self.generator = nn.Linear(d_model, vocab_size)

    def forward(self, obj_feats: Float[Tensor, "B N F"], obj_mask: Bool[Tensor, "B N"],
                tgt: Int[Tensor, "B T"]) -> Float[Tensor, "B T V"]:
        tgt_mask, tgt_key_padding_mask = make_tgt_masks(tgt)
        out = self.transformer(self.obj_proj(obj_feats), self.tok_emb(tgt), tgt_mask=tgt_mask,
                               src_key_padding_mask=obj_mask, tgt_key_padding_mask=tgt_key_padding_mask,
                               memory_key_padding_mask=obj_mask)
        return self.generator(out)


def synthetic_batch(batch_size, n_objects, seq_len, generator):
    feats = torch.randn(batch_size, n_objects, 24, generator=generator)
    obj_mask = torch.zeros(batch_size, n_objects, dtype=torch.bool)
    obj_mask[0, -2:] = True
    tokens = torch.randint(2, 40, (batch_size, seq_len + 1), generator=generator)
    tokens[:, 0] = BOS
    tokens[1, -3:] = PAD
    return feats, obj_mask, tokens


def main():
    torch.manual_seed(0)
    model = RelationSeq2Seq()
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    criterion = nn.CrossEntropyLoss(ignore_index=PAD)
    g = torch.Generator().manual_seed(0)
    for epoch in range(2):
        feats, obj_mask, tokens = synthetic_batch(4, 6, 9, g)
        logits = model(feats, obj_mask, tokens[:, :-1])
        loss = criterion(logits.reshape(-1, logits.size(-1)), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"Epoch {epoch + 1} loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
