import argparse
import logging
import os

import torch

from model import BindingSiteCNN

log = logging.getLogger("clape")


def load_predictor(checkpoint=None):
    model = BindingSiteCNN()
    if checkpoint and os.path.exists(checkpoint):
        model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
    else:
        log.warning("no checkpoint found, using freshly initialised weights")
    return model


def predict(model: BindingSiteCNN, proteins, threshold=0.5, batch_size=4):
    results = []
    model.eval()
    with torch.no_grad():
        for i in range(0, len(proteins), batch_size):
            emb = torch.stack(proteins[i : i + batch_size])
            probs = torch.sigmoid(model(emb))
            results.extend((probs > threshold).long())
    return results


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--checkpoint", default="clape_dna.pt")
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args([])
    torch.manual_seed(0)
    proteins = [torch.randn(30, 32) for _ in range(8)]
    model = load_predictor(args.checkpoint)
    labels = predict(model, proteins, args.threshold)
    log.info("predicted %d binding residues", sum(int(l.sum()) for l in labels))


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
