import torch


def implicit_pairs(user_num, item_num, n_pos, num_ng, generator):
    """Observed (user, item) pairs labelled 1 and num_ng sampled negatives per positive labelled 0."""
    users = torch.randint(0, user_num, (n_pos,), generator=generator)
    items = torch.randint(0, item_num, (n_pos,), generator=generator)
    neg_users = users.repeat_interleave(num_ng)
    neg_items = torch.randint(0, item_num, (n_pos * num_ng,), generator=generator)
    u = torch.cat([users, neg_users])
    i = torch.cat([items, neg_items])
    r = torch.cat([torch.ones(n_pos), torch.zeros(n_pos * num_ng)])
    return u, i, r
