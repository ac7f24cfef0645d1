import random

from textclf.wrapper import TextClassifier

LABELS = {"sports": 0, "politics": 1, "tech": 2}
VOCAB = {
    "sports": "match goal team score league coach",
    "politics": "vote election minister law party senate",
    "tech": "software chip cloud model data startup",
}


def make_corpus(n, seed=0):
    rnd = random.Random(seed)
    texts, labels = [], []
    for _ in range(n):
        topic = rnd.choice(list(LABELS))
        texts.append(" ".join(rnd.choices(VOCAB[topic].split(), k=6)))
        labels.append(LABELS[topic])
    return texts, labels


def main():
    texts, labels = make_corpus(90)
    clf = TextClassifier(num_classes=len(LABELS))
    print("final train loss", clf.fit(texts, labels))
    print(clf.predict(["the team scored a late goal", "new chip for cloud data centres"]))


if __name__ == "__main__":
    main()
