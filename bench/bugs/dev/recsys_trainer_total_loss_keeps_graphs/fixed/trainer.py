import torch


class Trainer:
    def __init__(self, config, model):
        self.config = config
        self.model = model
        self.epochs = config["epochs"]
        self.optimizer = torch.optim.Adam(model.parameters(), lr=config["learning_rate"])
        self.train_loss_dict = {}

    def _train_epoch(self, train_data, epoch_idx):
        self.model.train()
        total_loss = None
        for interaction in train_data:
            self.optimizer.zero_grad()
            losses = self.model.calculate_loss(interaction)
            if isinstance(losses, tuple):
                loss = sum(losses)
                loss_tuple = tuple(per_loss.item() for per_loss in losses)
                total_loss = loss_tuple if total_loss is None else tuple(map(sum, zip(total_loss, loss_tuple)))
            else:
                loss = losses
                total_loss = losses.item() if total_loss is None else total_loss + losses.item()
            loss.backward()
            self.optimizer.step()
        return total_loss

    def _generate_train_loss_output(self, epoch_idx, losses):
        if isinstance(losses, tuple):
            parts = ", ".join(f"train_loss{i + 1}: {float(loss):.4f}" for i, loss in enumerate(losses))
            return f"epoch {epoch_idx} training [{parts}]"
        return f"epoch {epoch_idx} training [train loss: {float(losses):.4f}]"

    def fit(self, train_data):
        for epoch_idx in range(self.epochs):
            train_loss = self._train_epoch(train_data, epoch_idx)
            self.train_loss_dict[epoch_idx] = sum(train_loss) if isinstance(train_loss, tuple) else train_loss
            print(self._generate_train_loss_output(epoch_idx, train_loss))
        return self.train_loss_dict
