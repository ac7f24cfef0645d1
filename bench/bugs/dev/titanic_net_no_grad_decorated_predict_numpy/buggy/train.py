import torch
import torch.nn as nn

from config import get_config
from data import load_passengers, to_loader
from metrics import accuracy, roc_auc
from model import SurvivalNet


def train_epoch(net: SurvivalNet, loader, loss_func, optimizer):
    net.train()
    loss_sum = 0.0
    for features, labels in loader:
        optimizer.zero_grad()
        predictions = net(features)
        loss = loss_func(predictions, labels)
        loss.backward()
        optimizer.step()
        loss_sum += loss.item()
    return loss_sum / len(loader)


def evaluate(net: SurvivalNet, X_val, y_val):
    y_proba = net.predict_proba(torch.from_numpy(X_val)).numpy()
    return {"auc": roc_auc(y_val, y_proba), "acc": accuracy(y_val, y_proba)}


def main():
    cfg = get_config()
    torch.manual_seed(cfg.seed)
    (X_train, y_train), (X_val, y_val) = load_passengers(n_features=cfg.n_features, seed=cfg.seed)
    train_loader = to_loader(X_train, y_train, cfg.batch_size, shuffle=True)

    net = SurvivalNet(cfg.n_features, cfg.hidden, cfg.dropout)
    loss_func = nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(net.parameters(), lr=cfg.lr)

    for epoch in range(1, cfg.epochs + 1):
        loss = train_epoch(net, train_loader, loss_func, optimizer)
        scores = evaluate(net, X_val, y_val)
        print(f"EPOCH = {epoch}, loss = {loss:.3f}, val_auc = {scores['auc']:.3f}, val_acc = {scores['acc']:.3f}")


if __name__ == "__main__":
    main()
