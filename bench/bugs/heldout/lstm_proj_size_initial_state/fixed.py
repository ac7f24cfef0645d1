import torch
import torch.nn as nn


class StreamingAcousticModel(nn.Module):
    """LSTMP acoustic model that carries its state across audio chunks."""

    def __init__(self, n_mels=40, hidden=64, proj=16, n_tokens=30):
        super().__init__()
        self.hidden, self.proj = hidden, proj
        self.lstm = nn.LSTM(n_mels, hidden, proj_size=proj, batch_first=True)
        self.out = nn.Linear(proj, n_tokens)

    def initial_state(self, batch_size):
        h0 = torch.zeros(1, batch_size, self.proj)
        c0 = torch.zeros(1, batch_size, self.hidden)
        return h0, c0

    def forward(self, chunk, state):
        output, state = self.lstm(chunk, state)
        return self.out(output).log_softmax(-1), state


model = StreamingAcousticModel().eval()
audio = torch.randn(4, 60, 40)
state = model.initial_state(batch_size=4)
with torch.no_grad():
    for chunk in audio.split(20, dim=1):
        log_probs, state = model(chunk, state)
print(log_probs.shape)
