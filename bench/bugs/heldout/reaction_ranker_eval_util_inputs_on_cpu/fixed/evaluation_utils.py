import torch


def featurize(smiles_list, n_bits=64):
    """Hashed character n-gram fingerprint (stand-in for a Morgan fingerprint)."""
    fps = torch.zeros(len(smiles_list), n_bits)
    for i, s in enumerate(smiles_list):
        for a, b in zip(s, s[1:]):
            fps[i, hash(a + b) % n_bits] = 1.0
    return fps


def rank_conditions(model, reactions, conditions, top_k=3):
    """Score every candidate condition for each reaction and keep the top k."""
    device = next(model.parameters()).device
    rxn_fp = featurize(reactions).to(device)
    cond_fp = featurize(conditions).to(device)
    pairs = torch.cat(
        [rxn_fp.repeat_interleave(len(conditions), 0), cond_fp.repeat(len(reactions), 1)], dim=1
    )
    with torch.no_grad():
        scores = model(pairs).view(len(reactions), len(conditions))
    return scores.topk(top_k, dim=1).indices.cpu().tolist()
