import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

from model import TinyMaskedLM

default_args = {
    "vocab_size": 60,
    "dim": 32,
    "hidden": 64,
    "dropout": 0.1,
    "seq_len": 16,
    "mlm_probability": 0.15,
    "train_batch_size": 8,
    "eval_batch_size": 16,
    "num_train_epochs": 2,
    "learning_rate": 1e-3,
    "evaluate_during_training": True,
    "evaluate_during_training_steps": 3,
}


def mask_tokens(inputs, mask_token_id, probability):
    labels = inputs.clone()
    masked = torch.rand(inputs.shape) < probability
    labels[~masked] = -100
    return inputs.masked_fill(masked, mask_token_id), labels


class LanguageModelingModel:
    def __init__(self, args):
        self.args = dict(default_args, **args)
        a = self.args
        self.model = TinyMaskedLM(a["vocab_size"], a["dim"], a["hidden"], a["dropout"])
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=a["learning_rate"])
        self.mask_token_id = a["vocab_size"] - 1

    def _loss(self, input_ids):
        inputs, labels = mask_tokens(input_ids, self.mask_token_id, self.args["mlm_probability"])
        logits = self.model(inputs)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), labels.view(-1))

    def train_model(self, train_ids, eval_ids):
        loader = DataLoader(TensorDataset(train_ids), batch_size=self.args["train_batch_size"], shuffle=True)
        global_step = 0
        self.model.train()
        for epoch in range(self.args["num_train_epochs"]):
            for (batch,) in loader:
                loss = self._loss(batch)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                global_step += 1
                if self.args["evaluate_during_training"] and global_step % self.args["evaluate_during_training_steps"] == 0:
                    results = self.eval_model(eval_ids)
                    print(f"epoch {epoch} step {global_step}: eval_loss {results['eval_loss']:.4f}")
                    self.model.train()
        return global_step

    def eval_model(self, eval_ids):
        loader = DataLoader(TensorDataset(eval_ids), batch_size=self.args["eval_batch_size"])
        self.model.eval()
        losses = []
        with torch.no_grad():
            for (batch,) in loader:
                losses.append(self._loss(batch).item())
        return {"eval_loss": sum(losses) / len(losses)}


if __name__ == "__main__":
    torch.manual_seed(0)
    lm = LanguageModelingModel({"num_train_epochs": 2})
    train_ids = torch.randint(0, 59, (48, default_args["seq_len"]))
    eval_ids = torch.randint(0, 59, (16, default_args["seq_len"]))
    print("steps", lm.train_model(train_ids, eval_ids))
