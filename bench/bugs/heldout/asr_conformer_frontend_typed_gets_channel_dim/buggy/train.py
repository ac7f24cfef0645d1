import torch
import torch.nn.functional as F
from jaxtyping import Float
from torch import Tensor
from torch.utils.data import DataLoader

from asr.data import FbankDataset
from asr.encoder import Encoder


def ctc_step(model: Encoder, feats: Float[Tensor, "batch n_mels frames"], targets, optimizer):
    log_probs = model(feats).log_softmax(-1).transpose(0, 1)
    input_lengths = torch.full((feats.shape[0],), log_probs.shape[0], dtype=torch.long)
    target_lengths = torch.full((feats.shape[0],), targets.shape[1], dtype=torch.long)
    loss = F.ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    loader = DataLoader(FbankDataset(), batch_size=4, shuffle=True)
    model = Encoder()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        for feats, targets in loader:
            loss = ctc_step(model, feats, targets, optimizer)
        print(f"epoch {epoch} ctc {loss:.3f}")


if __name__ == "__main__":
    main()
