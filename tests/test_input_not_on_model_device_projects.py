"""SC211 on a forecaster class that moves its typed model to `self.device` in `__init__` (`self.model: nn.Module =
model.to(self.device)`) and feeds it the batches of a dict-yielding Dataset of another module, built in a script
that imports the class, unmoved."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

DATA = """
    import torch
    from torch.utils.data import Dataset


    class WindowDataset(Dataset):
        def __init__(self, series, past=24, horizon=6):
            self.series = torch.as_tensor(series, dtype=torch.float32)
            self.past, self.horizon = past, horizon

        def __len__(self):
            return len(self.series) - self.past - self.horizon + 1

        def __getitem__(self, i):
            window = self.series[i:i + self.past + self.horizon]
            return {"past": window[:self.past].unsqueeze(-1), "future": window[self.past:]}
"""

FORECASTER = """
    import torch
    import torch.nn as nn


    class Forecaster:
        def __init__(self, model: nn.Module, lr: float = 1e-3, device: str = "cuda"):
            self.device = torch.device(device if torch.cuda.is_available() else "cpu")
            self.model: nn.Module = model.to(self.device)
            self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
            self.loss_fn = nn.MSELoss()

        def fit(self, loader, epochs: int = 2):
            for epoch in range(epochs):
                self.model.train()
                for batch in loader:
                    BATCH
                    loss = self.loss_fn(self.model(past), future)
                    self.optimizer.zero_grad()
                    loss.backward()
                    self.optimizer.step()
            return self
"""

RUN = """
    import math

    import torch.nn as nn
    from torch.utils.data import DataLoader

    from data import WindowDataset
    from forecaster import Forecaster

    if __name__ == "__main__":
        series = [math.sin(t / 5) for t in range(200)]
        loader = DataLoader(WindowDataset(series), batch_size=8, shuffle=True)
        Forecaster(nn.Sequential(nn.Flatten(), nn.Linear(24, 6))).fit(loader)
"""


def test_a_typed_model_moved_in_init_fed_a_dict_dataset_s_batches(tmp_path: Path) -> None:
    def run(batch: str) -> list[tuple[str, int]]:
        return lint_project(tmp_path, {"data.py": DATA, "forecaster.py": FORECASTER.replace("BATCH", batch),
                                       "run.py": RUN}, "SC211")

    assert run('past, future = batch["past"], batch["future"]') == [("forecaster.py", 18)]
    assert run('past = batch["past"]\n                    future = batch["future"]') == [("forecaster.py", 19)]
    assert run('past, future = batch["past"].to(self.device), batch["future"].to(self.device)') == []
    assert run('batch = {k: v.to(self.device) for k, v in batch.items()}\n'
               '                    past, future = batch["past"], batch["future"]') == []
