import torch
from torch import nn


class Encoder(nn.Module):
    def __init__(self, encoded_dim=64):
        super().__init__()
        self.cnn = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU(),
            nn.Conv2d(16, 32, 3, stride=2, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1),
        )
        self.fc = nn.Linear(32, encoded_dim)

    def forward(self, images):
        return self.fc(self.cnn(images).flatten(1))


class DecoderWithGRU(nn.Module):
    def __init__(self, vocab_size, embed_dim=32, decoder_dim=64, encoded_dim=64):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, embed_dim)
        self.init_h = nn.Linear(encoded_dim, decoder_dim)
        self.gru = nn.GRU(embed_dim, decoder_dim, batch_first=True)
        self.fc = nn.Linear(decoder_dim, vocab_size)

    def forward(self, encoder_out, captions):
        h0 = torch.tanh(self.init_h(encoder_out)).unsqueeze(0)
        out, _ = self.gru(self.embedding(captions), h0)
        return self.fc(out)
