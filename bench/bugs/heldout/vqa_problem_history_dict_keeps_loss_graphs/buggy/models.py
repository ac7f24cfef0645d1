import torch
import torch.nn as nn


class QuestionImageNet(nn.Module):
    def __init__(self, img_feat=20, q_vocab=50, q_dim=16, hidden=32, n_answers=6):
        super().__init__()
        self.q_embed = nn.EmbeddingBag(q_vocab, q_dim)
        self.img = nn.Sequential(nn.Linear(img_feat, hidden), nn.ReLU())
        self.fuse = nn.Sequential(nn.Linear(hidden + q_dim, hidden), nn.ReLU(), nn.Dropout(0.1))
        self.out = nn.Linear(hidden, n_answers)

    def forward(self, img, question):
        h = torch.cat([self.img(img), self.q_embed(question)], dim=1)
        return self.out(self.fuse(h))
