import torch

TOPICS = ["world", "sports", "business", "sci_tech"]


def bag_of_words(n_docs, vocab_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    topic = torch.randint(0, len(TOPICS), (n_docs,), generator=g)
    counts = torch.poisson(torch.full((n_docs, vocab_size), 0.2), generator=g)
    block = vocab_size // len(TOPICS)
    for i, t in enumerate(topic.tolist()):
        counts[i, t * block:(t + 1) * block] += torch.poisson(torch.full((block,), 0.6), generator=g)
    return torch.log1p(counts), topic


def minibatches(x, y, batch_size):
    return [(x[i:i + batch_size], y[i:i + batch_size]) for i in range(0, len(x), batch_size)]
