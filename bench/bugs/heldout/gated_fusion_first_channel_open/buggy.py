import torch
import torch.nn as nn
import torch.nn.functional as F


class GatedFusion(nn.Module):
    """Fuses audio and video features with a learned gate; channel 0 carries the speech energy and stays open."""

    def __init__(self, audio_dim=12, video_dim=20, dim=16):
        super().__init__()
        self.audio = nn.Linear(audio_dim, dim)
        self.video = nn.Linear(video_dim, dim)
        self.gate_fc = nn.Linear(2 * dim, dim)

    def forward(self, audio, video):
        a, v = torch.tanh(self.audio(audio)), torch.tanh(self.video(video))
        gate = torch.sigmoid(self.gate_fc(torch.cat([a, v], dim=-1)))
        gate[:, 0] = 1.0
        return gate * a + (1 - gate) * v


class EmotionClassifier(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.fusion = GatedFusion()
        self.head = nn.Linear(16, n_classes)

    def forward(self, audio, video):
        return self.head(self.fusion(audio, video))


def train(model, steps=3):
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        audio, video = torch.randn(8, 12), torch.randn(8, 20)
        labels = torch.randint(0, 4, (8,))
        loss = F.cross_entropy(model(audio, video), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    torch.manual_seed(0)
    train(EmotionClassifier())
