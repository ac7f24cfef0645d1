import torch
import torch.nn.functional as F

from textclf.model import FastTextModel
from textclf.tokenizer import HashTokenizer


class TextClassifier:
    def __init__(self, num_classes, embedding_dim=16, num_buckets=1000, device=None):
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
        self.tokenizer = HashTokenizer(num_buckets)
        self.model = FastTextModel(num_buckets, embedding_dim, num_classes).to(self.device)

    def fit(self, texts, labels, epochs=3, lr=0.05):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=lr)
        ids = self.tokenizer(texts).to(self.device)
        y = torch.tensor(labels, device=self.device)
        self.model.train()
        for _ in range(epochs):
            loss = F.cross_entropy(self.model(ids), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        return loss.item()

    @torch.no_grad()
    def predict(self, texts, top_k=1):
        self.model.eval()
        token_ids = self.tokenizer(texts)
        probs = F.softmax(self.model(token_ids), dim=-1)
        scores, classes = probs.topk(top_k, dim=-1)
        return classes.cpu().tolist(), scores.cpu().tolist()
