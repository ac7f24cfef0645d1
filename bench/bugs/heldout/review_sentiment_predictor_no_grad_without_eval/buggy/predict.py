import torch

from model import KimCNN
from vocab import Vocab

LABELS = ["negative", "positive"]


class SentimentPredictor:
    def __init__(self, model: KimCNN, vocab: Vocab, max_len: int = 32):
        self.model = model
        self.vocab = vocab
        self.max_len = max_len

    def predict(self, texts):
        tokens = torch.tensor([self.vocab.encode(t, self.max_len) for t in texts])
        with torch.no_grad():
            probs = torch.softmax(self.model(tokens), dim=-1)
        return [(LABELS[int(p.argmax())], float(p.max())) for p in probs]


def load_predictor(checkpoint: str, reviews):
    vocab = Vocab(reviews)
    model = KimCNN(len(vocab))
    model.load_state_dict(torch.load(checkpoint))
    return SentimentPredictor(model, vocab)


if __name__ == "__main__":
    reviews = ["an absolute delight from start to finish", "dull, slow and far too long",
               "the cast is wonderful but the plot is thin", "i would not watch it again"]
    torch.save(KimCNN(len(Vocab(reviews))).state_dict(), "kimcnn.pt")
    predictor = load_predictor("kimcnn.pt", reviews)
    for review, (label, confidence) in zip(reviews, predictor.predict(reviews)):
        print(f"{label:>8} {confidence:.2f}  {review}")
