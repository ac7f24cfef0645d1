import torch
from torch import nn


class DeepBeats(nn.Module):
    """Predicts the next note of a melody from the rhythm (durations) and the notes so far."""

    def __init__(self, num_notes: int = 128, rhythm_dim: int = 2, embed: int = 32, hidden: int = 64) -> None:
        super().__init__()
        self.note_embed = nn.Embedding(num_notes, embed)
        self.encoder = nn.LSTM(rhythm_dim, hidden, batch_first=True)
        self.decoder = nn.LSTM(embed + hidden, hidden, batch_first=True)
        self.fc = nn.Linear(hidden, num_notes)

    def forward(self, rhythm: torch.Tensor, notes_in: torch.Tensor) -> torch.Tensor:
        context, _ = self.encoder(rhythm)
        x = torch.cat([self.note_embed(notes_in), context], dim=-1)
        out, _ = self.decoder(x)
        return self.fc(out)
