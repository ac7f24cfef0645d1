import torch


def sample_triples(n_entities, n_relations, n_triples, generator):
    heads = torch.randint(0, n_entities, (n_triples,), generator=generator)
    rels = torch.randint(0, n_relations, (n_triples,), generator=generator)
    tails = (heads + rels + 1) % n_entities
    return torch.stack([heads, rels, tails], dim=1)


def corrupt_tails(triples, n_entities, generator):
    neg = triples.clone()
    neg[:, 2] = torch.randint(0, n_entities, (len(triples),), generator=generator)
    return neg
