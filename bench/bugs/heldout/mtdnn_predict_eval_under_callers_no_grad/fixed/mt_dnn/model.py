import torch
import torch.nn.functional as F

from .matcher import SANBertNetwork


class MTDNNModel:
    def __init__(self, config, state_dict=None):
        self.config = config
        self.network = SANBertNetwork(n_labels=config["n_labels"])
        if state_dict is not None:
            self.network.load_state_dict(state_dict)
        self.optimizer = torch.optim.Adamax(self.network.parameters(), lr=config["learning_rate"])

    def update(self, batch_meta, batch_data):
        self.network.train()
        logits = self.network(batch_data["input_ids"], batch_data["attention_mask"])
        loss = F.cross_entropy(logits, batch_data["labels"])
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return loss.item()

    def predict(self, batch_meta, batch_data):
        self.network.eval()
        score = self.network(batch_data["input_ids"], batch_data["attention_mask"])
        score = F.softmax(score, dim=1)
        predict = torch.argmax(score, dim=1).tolist()
        return score.tolist(), predict, batch_meta["label"]
