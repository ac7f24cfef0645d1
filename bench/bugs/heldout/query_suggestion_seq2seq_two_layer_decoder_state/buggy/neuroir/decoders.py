import torch
import torch.nn as nn


class RNNDecoder(nn.Module):
    def __init__(self, input_size, hidden_size, nlayers, dropout):
        super().__init__()
        self.rnn = nn.LSTM(input_size, hidden_size, nlayers, batch_first=True,
                           dropout=dropout if nlayers > 1 else 0.0)

    def init_decoder(self, encoder_final):
        """The encoder's last layer, both directions concatenated, starts the decoder."""

        def _fix_enc_hidden(hidden):
            return torch.cat([hidden[-2], hidden[-1]], dim=-1).unsqueeze(0)

        return tuple(_fix_enc_hidden(h) for h in encoder_final)

    def forward(self, tgt_emb, state):
        return self.rnn(tgt_emb, state)
