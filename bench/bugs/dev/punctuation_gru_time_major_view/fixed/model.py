import torch
from torch import nn


class GruRNN(nn.Module):
    """Predicts the punctuation mark that follows each character."""

    def __init__(self, input_size: int, hidden_size: int, output_size: int, layers: int = 1, bi: bool = True) -> None:
        super().__init__()
        self.hidden_size = hidden_size
        self.bi_mul = 2 if bi else 1
        self.encoder = nn.Embedding(input_size, hidden_size)
        self.gru = nn.GRU(hidden_size, hidden_size, layers, bidirectional=bi)
        self.decoder = nn.Linear(hidden_size * self.bi_mul, output_size)

    def forward(self, input_batch: torch.Tensor) -> torch.Tensor:
        batch_size = input_batch.size(0)
        embedded = self.encoder(input_batch).transpose(0, 1)
        gru_output, _ = self.gru(embedded)
        output = self.decoder(gru_output.transpose(0, 1).contiguous().view(-1, self.hidden_size * self.bi_mul))
        return output.view(batch_size, -1, output.size(-1))
