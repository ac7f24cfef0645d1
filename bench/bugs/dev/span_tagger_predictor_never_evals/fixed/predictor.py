import torch

from vocab import LABELS


def pad(batch, value=0):
    width = max(len(x) for x in batch)
    return torch.tensor([x + [value] * (width - len(x)) for x in batch])


class SpanPredictor:
    """Wraps a trained tagger and turns its output into labelled spans."""

    def __init__(self, model, vocab, batch_size=8):
        self.model = model
        self.vocab = vocab
        self.batch_size = batch_size

    def _decode(self, tokens, label_ids):
        spans = []
        for i, (tok, lab) in enumerate(zip(tokens, label_ids)):
            name = LABELS[lab]
            if name.startswith("B-"):
                spans.append({"start": i, "text": tok, "label": name[2:]})
        return spans

    def predict(self, sentences):
        results = []
        self.model.eval()
        with torch.no_grad():
            for start in range(0, len(sentences), self.batch_size):
                chunk = sentences[start:start + self.batch_size]
                input_ids = pad([self.vocab.encode(s) for s in chunk])
                logits = self.model(input_ids)
                label_ids = logits.argmax(dim=-1).tolist()
                results.extend(self._decode(s, ids) for s, ids in zip(chunk, label_ids))
        return results
