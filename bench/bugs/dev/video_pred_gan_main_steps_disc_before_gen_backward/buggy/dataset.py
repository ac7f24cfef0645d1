import torch


def moving_squares(n, t_total, size, generator):
    """A square bouncing horizontally; returns clips (n, t_total, 1, size, size) in [-1, 1]."""
    clips = -torch.ones(n, t_total, 1, size, size)
    pos = torch.randint(0, size - 4, (n,), generator=generator)
    vel = torch.randint(1, 3, (n,), generator=generator)
    row = torch.randint(0, size - 4, (n,), generator=generator)
    for i in range(n):
        x, v = int(pos[i]), int(vel[i])
        for t in range(t_total):
            clips[i, t, 0, row[i]:row[i] + 4, x:x + 4] = 1.0
            if not 0 <= x + v <= size - 4:
                v = -v
            x += v
    return clips
