import torch
import torch.nn as nn
from torch.optim.lr_scheduler import LambdaLR
from torch.utils.data import DataLoader, TensorDataset

args = {
    "train_batch_size": 8,
    "gradient_accumulation_steps": 1,
    "num_train_epochs": 2,
    "learning_rate": 4e-5,
    "adam_epsilon": 1e-8,
    "warmup_ratio": 0.1,
    "max_grad_norm": 1.0,
    "logging_steps": 2,
}


def get_linear_schedule_with_warmup(optimizer, num_warmup_steps, num_training_steps):
    def lr_lambda(current_step):
        if current_step < num_warmup_steps:
            return float(current_step) / float(max(1, num_warmup_steps))
        return max(0.0, float(num_training_steps - current_step) / float(max(1, num_training_steps - num_warmup_steps)))

    return LambdaLR(optimizer, lr_lambda)


class SequenceClassifier(nn.Module):
    def __init__(self, vocab=1000, dim=32, num_labels=2):
        super().__init__()
        self.embeddings = nn.EmbeddingBag(vocab, dim)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, labels):
        logits = self.classifier(self.embeddings(input_ids))
        return nn.functional.cross_entropy(logits, labels), logits


def train(train_dataset, model):
    train_dataloader = DataLoader(train_dataset, batch_size=args["train_batch_size"], shuffle=True)
    t_total = len(train_dataloader) // args["gradient_accumulation_steps"] * args["num_train_epochs"]
    optimizer = torch.optim.AdamW(model.parameters(), lr=args["learning_rate"], eps=args["adam_epsilon"])
    scheduler = get_linear_schedule_with_warmup(optimizer, int(t_total * args["warmup_ratio"]), t_total)
    global_step, tr_loss = 0, 0.0
    model.zero_grad()
    for _ in range(args["num_train_epochs"]):
        for step, (input_ids, labels) in enumerate(train_dataloader):
            model.train()
            loss, _ = model(input_ids, labels)
            loss = loss / args["gradient_accumulation_steps"]
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), args["max_grad_norm"])
            tr_loss += loss.item()
            if (step + 1) % args["gradient_accumulation_steps"] == 0:
                optimizer.step()
                scheduler.step()
                model.zero_grad()
                global_step += 1
                if global_step % args["logging_steps"] == 0:
                    print("lr", scheduler.get_last_lr()[0], "loss", tr_loss / global_step)
    return global_step, tr_loss / global_step


if __name__ == "__main__":
    torch.manual_seed(0)
    dataset = TensorDataset(torch.randint(0, 1000, (32, 12)), torch.randint(0, 2, (32,)))
    print(train(dataset, SequenceClassifier()))
