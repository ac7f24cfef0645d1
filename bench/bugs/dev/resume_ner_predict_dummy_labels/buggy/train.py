import torch

from model import TokenTagger

TAGS = ["O", "B-NAME", "I-NAME", "B-SKILL", "I-SKILL", "B-ORG", "I-ORG"]
MAX_LEN = 40


def encode(text: str, max_len: int = MAX_LEN):
    ids = [sum(map(ord, w)) % 500 + 1 for w in text.split()][:max_len]
    mask = [1] * len(ids) + [0] * (max_len - len(ids))
    ids = ids + [0] * (max_len - len(ids))
    return torch.tensor([ids]), torch.tensor([mask])


def train_step(model, optimizer, batch) -> float:
    input_ids, mask, labels = batch
    loss, _ = model(input_ids, attention_mask=mask, labels=labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def predict(model, text: str, max_len: int = MAX_LEN):
    model.eval()
    input_ids, input_mask = encode(text, max_len)
    labels = torch.tensor([1] * input_ids.size(0), dtype=torch.long).unsqueeze(0)
    with torch.no_grad():
        outputs = model(input_ids, labels=labels)
    loss, logits = outputs[:2]
    preds = logits.argmax(-1)[0][input_mask[0] == 1]
    return [TAGS[p] for p in preds.tolist()], loss.item()


if __name__ == "__main__":
    model = TokenTagger(vocab_size=501, num_labels=len(TAGS))
    optimizer = torch.optim.Adam(model.parameters(), lr=3e-4)
    ids = torch.randint(1, 501, (8, MAX_LEN))
    batch = (ids, torch.ones_like(ids), torch.randint(0, len(TAGS), (8, MAX_LEN)))
    print(train_step(model, optimizer, batch))
    print(predict(model, "Jane Doe python developer at Acme Corp"))
