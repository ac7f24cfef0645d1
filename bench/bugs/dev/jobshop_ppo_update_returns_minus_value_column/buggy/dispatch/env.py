import numpy as np


class JobShopEnv:
    """Toy dispatching problem: at each step pick one of the waiting jobs; the reward is minus the
    makespan increase. Features per job: processing time on each machine and a done flag."""

    def __init__(self, n_jobs: int, n_machines: int, seed: int = 0):
        self.n_jobs = n_jobs
        self.n_machines = n_machines
        self.rng = np.random.default_rng(seed)

    def reset(self):
        self.times = self.rng.integers(1, 10, size=(self.n_jobs, self.n_machines)).astype(np.float32)
        self.done_jobs = np.zeros(self.n_jobs, dtype=np.float32)
        self.machine_free = np.zeros(self.n_machines, dtype=np.float32)
        return self._obs()

    def _obs(self):
        feats = np.concatenate([self.times / 10.0, self.done_jobs[:, None]], axis=1)
        return feats.reshape(-1)

    def legal_mask(self):
        return self.done_jobs == 0

    def step(self, job: int):
        before = self.machine_free.max()
        t = 0.0
        for m in range(self.n_machines):
            t = max(t, self.machine_free[m]) + self.times[job, m]
            self.machine_free[m] = t
        self.done_jobs[job] = 1.0
        reward = -(self.machine_free.max() - before) / 10.0
        return self._obs(), float(reward), bool(self.done_jobs.all())
