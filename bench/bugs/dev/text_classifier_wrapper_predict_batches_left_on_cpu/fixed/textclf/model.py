import torch.nn as nn


class FastTextModel(nn.Module):
    def __init__(self, num_buckets, embedding_dim, num_classes, padding_idx=0):
        super().__init__()
        self.embeddings = nn.EmbeddingBag(num_buckets, embedding_dim, mode="mean", padding_idx=padding_idx)
        self.fc = nn.Linear(embedding_dim, num_classes)

    def forward(self, token_ids):
        return self.fc(self.embeddings(token_ids))
