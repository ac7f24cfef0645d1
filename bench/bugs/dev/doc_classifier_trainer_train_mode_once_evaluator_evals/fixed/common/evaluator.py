import torch
import torch.nn.functional as F


class ClassificationEvaluator:
    def __init__(self, model, data_loader, device="cpu"):
        self.model = model
        self.data_loader = data_loader
        self.device = device

    def get_scores(self):
        self.model.eval()
        total_loss, n_correct, n_total = 0.0, 0, 0
        with torch.no_grad():
            for text, label in self.data_loader:
                text, label = text.to(self.device), label.to(self.device)
                scores = self.model(text)
                total_loss += F.cross_entropy(scores, label, reduction="sum").item()
                n_correct += (scores.argmax(1) == label).sum().item()
                n_total += label.size(0)
        accuracy = n_correct / n_total
        return [accuracy, total_loss / n_total], ["accuracy", "cross_entropy_loss"]
