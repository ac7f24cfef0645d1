import torch
import torch.nn.functional as F

from model import MidiDecoder


class Trainer:
    def __init__(self, model: MidiDecoder, lr=3e-4, clip=1.0):
        self.model = model
        self.clip = clip
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def train_step(self, batch):
        inputs, targets = batch[:, :-1], batch[:, 1:]
        logits = self.model(inputs)
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1), ignore_index=0)
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.clip)
        self.optimizer.step()
        return loss.item()


def random_pieces(n=3, batch_size=5, length=17):
    for _ in range(n):
        batch = torch.randint(1, 90, (batch_size, length))
        batch[0, -4:] = 0
        yield batch


if __name__ == "__main__":
    torch.manual_seed(0)
    trainer = Trainer(MidiDecoder())
    for step, batch in enumerate(random_pieces()):
        print(step, trainer.train_step(batch))
