import torch
import torch.nn.functional as F

from config import Config
from model import WordPairModel


def make_batch(config, seq_len=6):
    input_ids = torch.randint(0, 100, (config.batch_size, seq_len))
    pos = torch.arange(seq_len)
    dist = (pos[None, :] - pos[:, None]).abs().clamp(max=19).expand(config.batch_size, -1, -1)
    grid_labels = torch.randint(0, config.label_num, (config.batch_size, seq_len, seq_len))
    return input_ids, dist, grid_labels


class Trainer:
    def __init__(self, model, config):
        self.model = model
        self.config = config
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.learning_rate)

    def train_epoch(self, batches):
        self.model.train()
        for input_ids, dist, grid_labels in batches:
            outputs = self.model(input_ids, dist)
            loss = F.cross_entropy(outputs.reshape(-1, self.config.label_num), grid_labels.reshape(-1))
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()


if __name__ == "__main__":
    config = Config(bert_name="bert-base-cased", bert_hid_size=768, label_num=5, batch_size=2)
    trainer = Trainer(WordPairModel(config), config)
    for epoch in range(config.epochs):
        print(epoch, trainer.train_epoch([make_batch(config) for _ in range(2)]))
