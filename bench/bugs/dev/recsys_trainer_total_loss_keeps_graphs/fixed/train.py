import torch
import torch.nn as nn

from trainer import Trainer

config = {"n_users": 40, "n_items": 60, "embedding_size": 16, "reg_weight": 1e-4,
          "epochs": 2, "learning_rate": 1e-2, "train_batch_size": 16}


class BPR(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.user_embedding = nn.Embedding(config["n_users"], config["embedding_size"])
        self.item_embedding = nn.Embedding(config["n_items"], config["embedding_size"])
        self.reg_weight = config["reg_weight"]

    def calculate_loss(self, interaction):
        user, pos_item, neg_item = interaction["user_id"], interaction["item_id"], interaction["neg_item_id"]
        u = self.user_embedding(user)
        pos, neg = self.item_embedding(pos_item), self.item_embedding(neg_item)
        pos_score, neg_score = (u * pos).sum(dim=1), (u * neg).sum(dim=1)
        bpr_loss = -torch.log(torch.sigmoid(pos_score - neg_score) + 1e-10).mean()
        reg_loss = self.reg_weight * (u.norm(2).pow(2) + pos.norm(2).pow(2) + neg.norm(2).pow(2)) / user.size(0)
        return bpr_loss + reg_loss


def build_train_data(config, n_interactions=128):
    users = torch.randint(0, config["n_users"], (n_interactions,))
    items = torch.randint(0, config["n_items"], (n_interactions,))
    negs = torch.randint(0, config["n_items"], (n_interactions,))
    bs = config["train_batch_size"]
    return [
        {"user_id": users[i:i + bs], "item_id": items[i:i + bs], "neg_item_id": negs[i:i + bs]}
        for i in range(0, n_interactions, bs)
    ]


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(config, BPR(config))
    trainer.fit(build_train_data(config))
