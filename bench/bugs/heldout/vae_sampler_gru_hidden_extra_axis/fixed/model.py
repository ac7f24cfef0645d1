import torch
import torch.nn as nn


class SentenceVAE(nn.Module):
    def __init__(self, vocab_size, embedding_size, hidden_size, latent_size, num_layers=1, bidirectional=False,
                 sos_idx=1, eos_idx=2):
        super().__init__()
        self.hidden_size = hidden_size
        self.latent_size = latent_size
        self.num_layers = num_layers
        self.bidirectional = bidirectional
        self.sos_idx = sos_idx
        self.eos_idx = eos_idx
        self.hidden_factor = (2 if bidirectional else 1) * num_layers

        self.embedding = nn.Embedding(vocab_size, embedding_size)
        self.encoder_rnn = nn.GRU(embedding_size, hidden_size, num_layers=num_layers, bidirectional=bidirectional,
                                  batch_first=True)
        self.decoder_rnn = nn.GRU(embedding_size, hidden_size, num_layers=num_layers, bidirectional=bidirectional,
                                  batch_first=True)
        self.hidden2mean = nn.Linear(hidden_size * self.hidden_factor, latent_size)
        self.hidden2logv = nn.Linear(hidden_size * self.hidden_factor, latent_size)
        self.latent2hidden = nn.Linear(latent_size, hidden_size * self.hidden_factor)
        self.outputs2vocab = nn.Linear(hidden_size * (2 if bidirectional else 1), vocab_size)

    def _to_decoder_hidden(self, z):
        batch_size = z.size(0)
        hidden = self.latent2hidden(z)
        if self.bidirectional or self.num_layers > 1:
            return hidden.view(batch_size, self.hidden_factor, self.hidden_size).transpose(0, 1).contiguous()
        return hidden.unsqueeze(0)

    def forward(self, tokens):
        batch_size = tokens.size(0)
        embedded = self.embedding(tokens)
        _, hidden = self.encoder_rnn(embedded)
        if self.bidirectional or self.num_layers > 1:
            hidden = hidden.transpose(0, 1).reshape(batch_size, self.hidden_size * self.hidden_factor)
        else:
            hidden = hidden.squeeze(0)
        mean = self.hidden2mean(hidden)
        logv = self.hidden2logv(hidden)
        z = mean + torch.randn_like(mean) * torch.exp(0.5 * logv)
        outputs, _ = self.decoder_rnn(embedded, self._to_decoder_hidden(z))
        logp = nn.functional.log_softmax(self.outputs2vocab(outputs), dim=-1)
        return logp, mean, logv

    @torch.no_grad()
    def inference(self, n=4, max_len=10, z=None):
        if z is None:
            z = torch.randn(n, self.latent_size)
        hidden = self.latent2hidden(z)
        if self.bidirectional or self.num_layers > 1:
            hidden = hidden.view(self.hidden_factor, n, self.hidden_size)
        else:
            hidden = hidden.unsqueeze(0)

        tokens = torch.full((n, 1), self.sos_idx, dtype=torch.long)
        generations = []
        for _ in range(max_len):
            output, hidden = self.decoder_rnn(self.embedding(tokens), hidden)
            logits = self.outputs2vocab(output)
            tokens = logits.argmax(dim=-1)
            generations.append(tokens)
        return torch.cat(generations, dim=1), z
