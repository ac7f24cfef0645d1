import torch
import torch.nn as nn

from models import Controller, SharedRNN


class Trainer:
    def __init__(self, args):
        self.args = args
        self.shared = SharedRNN()
        self.controller = Controller()
        self.shared_optim = torch.optim.SGD(self.shared.parameters(), lr=args.shared_lr)
        self.controller_optim = torch.optim.Adam(self.controller.parameters(), lr=args.controller_lr)
        self.ce = nn.CrossEntropyLoss(reduction="none")
        self.baseline = None

    def get_loss(self, inputs, targets, dag):
        output = self.shared(inputs, dag)
        return self.ce(output.view(-1, output.size(-1)), targets.view(-1))

    def train_shared(self, batches):
        self.shared.train()
        for inputs, targets in batches:
            dag, _ = self.controller.sample()
            loss = self.get_loss(inputs, targets, dag)
            self.shared_optim.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(self.shared.parameters(), self.args.shared_grad_clip)
            self.shared_optim.step()

    def train_controller(self, valid_batch):
        inputs, targets = valid_batch
        dag, log_prob = self.controller.sample()
        with torch.no_grad():
            reward = 80.0 / self.get_loss(inputs, targets, dag).mean().exp()
        self.baseline = reward if self.baseline is None else 0.95 * self.baseline + 0.05 * reward
        loss = -log_prob * (reward - self.baseline)
        self.controller_optim.zero_grad()
        loss.backward()
        self.controller_optim.step()

    def train(self, batches, valid_batch):
        for epoch in range(self.args.max_epoch):
            self.train_shared(batches)
            self.train_controller(valid_batch)
            print(f"epoch {epoch} baseline {float(self.baseline):.3f}")
