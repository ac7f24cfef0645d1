import torch
import torch.nn as nn
from jaxtyping import Bool, Float
from torch import Tensor

from frontend import Conv1dSubsampler

BLANK = 0


class TransformerEncoder(nn.Module):
    def __init__(self, d_model, n_heads, n_layers):
        super().__init__()
        layer = nn.TransformerEncoderLayer(d_model, n_heads, dim_feedforward=2 * d_model, batch_first=True)
        self.layers = nn.TransformerEncoder(layer, n_layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)

    def forward(
        self, x: Float[Tensor, "batch time d_model"], pad_mask: Bool[Tensor, "batch time"]
    ) -> Float[Tensor, "batch time d_model"]:
        return self.norm(self.layers(x, src_key_padding_mask=pad_mask))


class CTCModel(nn.Module):
    def __init__(self, n_mels=40, d_model=32, n_heads=4, n_layers=2, vocab_size=29):
        super().__init__()
        self.subsample = Conv1dSubsampler(n_mels, d_model)
        self.encoder = TransformerEncoder(d_model, n_heads, n_layers)
        self.ctc_head = nn.Linear(d_model, vocab_size)

    def forward(self, mels, mel_lengths):
        feats = self.subsample(mels)
        out_lengths = Conv1dSubsampler.output_lengths(mel_lengths)
        pad_mask = torch.arange(feats.shape[-1]).unsqueeze(0) >= out_lengths.unsqueeze(1)
        enc = self.encoder(feats, pad_mask)
        return self.ctc_head(enc).log_softmax(-1), out_lengths


def synthetic_batch(g, batch_size=3, n_mels=40, max_frames=60, vocab_size=29):
    mel_lengths = torch.tensor([60, 52, 44])[:batch_size]
    mels = torch.randn(batch_size, n_mels, max_frames, generator=g)
    target_lengths = torch.tensor([6, 5, 4])[:batch_size]
    targets = torch.randint(1, vocab_size, (batch_size, int(target_lengths.max())), generator=g)
    return mels, mel_lengths, targets, target_lengths


def main():
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    model = CTCModel()
    ctc = nn.CTCLoss(blank=BLANK, zero_infinity=True)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        mels, mel_lengths, targets, target_lengths = synthetic_batch(g)
        log_probs, out_lengths = model(mels, mel_lengths)
        loss = ctc(log_probs.transpose(0, 1), targets, out_lengths, target_lengths)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} ctc {loss.item():.3f}")


if __name__ == "__main__":
    main()
