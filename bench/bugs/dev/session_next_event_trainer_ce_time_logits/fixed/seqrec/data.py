import torch
from torch.utils.data import Dataset


class SessionDataset(Dataset):
    """Synthetic click sessions: each event id mostly follows from the previous one."""

    def __init__(self, n_sessions: int, session_len: int, n_events: int, seed: int = 0):
        g = torch.Generator().manual_seed(seed)
        start = torch.randint(0, n_events, (n_sessions, 1), generator=g)
        steps = torch.randint(1, 3, (n_sessions, session_len), generator=g)
        self.sessions = (start + steps.cumsum(1)) % n_events

    def __len__(self):
        return len(self.sessions)

    def __getitem__(self, idx):
        session = self.sessions[idx]
        return session[:-1], session[1:]
