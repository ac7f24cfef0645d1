import argparse

import numpy as np
import torch
import torch.nn as nn

from config import EXPERIMENT
from data import make_ordinal_regression, train_test_split
from ordinal import OrdinalMLP, PytorchEstimator


def mean_absolute_error_grades(y_true, y_pred):
    return float(np.mean(np.abs(y_true - y_pred)))


def ranked_probability_score(y_true, y_proba):
    onehot = np.eye(y_proba.shape[1])[y_true]
    return float(np.mean(np.sum((np.cumsum(y_proba, 1) - np.cumsum(onehot, 1)) ** 2, axis=1)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=EXPERIMENT["epochs"])
    args = parser.parse_args([])

    torch.manual_seed(EXPERIMENT["seed"])
    X, y = make_ordinal_regression(n_features=EXPERIMENT["n_features"], num_classes=EXPERIMENT["num_classes"])
    X_train, X_test, y_train, y_test = train_test_split(X, y)

    model = OrdinalMLP(EXPERIMENT["n_features"], EXPERIMENT["num_classes"], EXPERIMENT["hidden"], EXPERIMENT["dropout"])
    estimator = PytorchEstimator(
        model=model,
        loss_fn=nn.CrossEntropyLoss(),
        optimizer=torch.optim.Adam(model.parameters(), lr=EXPERIMENT["lr"]),
        max_iter=args.epochs,
        batch_size=EXPERIMENT["batch_size"],
    )
    estimator.fit(X_train, y_train)

    y_proba = estimator.predict_proba(X_test)
    y_pred = y_proba.argmax(axis=1)
    print("MAE", mean_absolute_error_grades(y_test, y_pred))
    print("RPS", ranked_probability_score(y_test, y_proba))


if __name__ == "__main__":
    main()
