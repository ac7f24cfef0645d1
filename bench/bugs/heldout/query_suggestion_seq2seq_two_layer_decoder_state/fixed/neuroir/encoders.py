import torch.nn as nn


class RNNEncoder(nn.Module):
    def __init__(self, input_size, hidden_size, bidirection, nlayers, dropout):
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_size // (2 if bidirection else 1), nlayers, batch_first=True,
                           bidirectional=bidirection, dropout=dropout if nlayers > 1 else 0.0)

    def forward(self, emb):
        return self.rnn(emb)
