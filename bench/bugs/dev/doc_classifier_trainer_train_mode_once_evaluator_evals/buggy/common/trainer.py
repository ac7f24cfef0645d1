import os
import time

import torch
import torch.nn.functional as F

from .evaluator import ClassificationEvaluator


class ClassificationTrainer:
    def __init__(self, model, optimizer, train_loader, dev_evaluator: ClassificationEvaluator, trainer_config):
        self.model = model
        self.optimizer = optimizer
        self.train_loader = train_loader
        self.dev_evaluator = dev_evaluator
        self.config = trainer_config
        self.iterations = 0
        self.best_dev_acc = 0
        self.iters_not_improved = 0
        self.snapshot_path = os.path.join(trainer_config["model_outfile"], "best_model.pt")
        self.log_template = "{:>5.0f} {:>6.0f} {:>8.4f} {:>10.4f}"

    def train_epoch(self, epoch):
        for batch_idx, (text, label) in enumerate(self.train_loader):
            self.iterations += 1
            self.optimizer.zero_grad()
            scores = self.model(text)
            loss = F.cross_entropy(scores, label)
            loss.backward()
            self.optimizer.step()
            if self.iterations % self.config["log_every"] == 0:
                acc = (scores.argmax(1) == label).float().mean().item()
                print(self.log_template.format(epoch, self.iterations, acc, loss.item()))

    def train(self, epochs):
        start = time.time()
        os.makedirs(self.config["model_outfile"], exist_ok=True)
        self.model.train()
        for epoch in range(1, epochs + 1):
            self.train_epoch(epoch)

            dev_scores, _ = self.dev_evaluator.get_scores()
            dev_acc = dev_scores[0]
            print(f"epoch {epoch} dev acc {dev_acc:.4f} ({time.time() - start:.1f}s)")
            if dev_acc > self.best_dev_acc:
                self.iters_not_improved = 0
                self.best_dev_acc = dev_acc
                torch.save(self.model.state_dict(), self.snapshot_path)
            else:
                self.iters_not_improved += 1
                if self.iters_not_improved >= self.config["patience"]:
                    print(f"early stopping at epoch {epoch}")
                    break
