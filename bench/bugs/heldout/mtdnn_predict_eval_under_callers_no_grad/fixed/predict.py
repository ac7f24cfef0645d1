import argparse
import json

import torch

from mt_dnn.inference import eval_model
from mt_dnn.model import MTDNNModel


def synthetic_task(n_batches, generator, batch_size=4, seq_len=10):
    data = []
    for b in range(n_batches):
        input_ids = torch.randint(1, 100, (batch_size, seq_len), generator=generator)
        labels = torch.randint(0, 3, (batch_size,), generator=generator)
        meta = {"uids": [f"{b}-{i}" for i in range(batch_size)], "label": labels.tolist()}
        data.append((meta, {"input_ids": input_ids, "attention_mask": torch.ones_like(input_ids), "labels": labels}))
    return data


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--task", default="mnli")
    parser.add_argument("--score", default="scores.json")
    args = parser.parse_args([])
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(0)
    config = {"n_labels": 3, "learning_rate": 5e-4}
    model = MTDNNModel(config)
    for meta, data in synthetic_task(2, g):
        model.update(meta, data)
    test_data = synthetic_task(2, g)
    with torch.no_grad():
        test_metrics, test_predictions, scores, golds, test_ids = eval_model(model, test_data)
    print(args.task, json.dumps(test_metrics))


if __name__ == "__main__":
    main()
