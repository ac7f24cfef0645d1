"""SC403 with the device a constant of another module of the project (`DEVICE = torch.device("mps")` in
config.py, read as `from config import DEVICE`, `config.DEVICE` or a trainer's `self.device = settings.DEVICE`), in a
file whose own text never names mps; a device picked at run time there, one assigned under a condition, or one the
importer reassigns, stays silent."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

TRAIN = """
    import numpy as np
    import torch

    import config
    from config import DEVICE

    def main():
        table = np.loadtxt("data.csv", delimiter=",")
        x = torch.from_numpy(table[:, :-1]).to(DEVICE)
        y = torch.from_numpy(table[:, -1]).to(config.DEVICE)
        return x, y
    """

TRAINER = """
    import numpy as np
    import torch

    from tab import settings

    class Trainer:
        def __init__(self, model):
            self.device = settings.DEVICE
            self.model = model.to(self.device)

        def batches(self, n, d, bs=32):
            table = np.random.randn(n, d)
            for i in range(0, n, bs):
                yield torch.from_numpy(table[i:i + bs]).to(self.device)
    """


def test_a_device_constant_of_another_module_imported_by_name_or_through_the_module(tmp_path: Path) -> None:
    files = {"config.py": 'import torch\n\nDEVICE = torch.device("mps")\n', "train.py": TRAIN}
    assert lint_project(tmp_path, files, "SC403") == [("train.py", 10), ("train.py", 11)]


def test_a_trainer_s_device_from_a_settings_module_of_its_package(tmp_path: Path) -> None:
    files = {"tab/__init__.py": "", "tab/settings.py": 'DEVICE = "mps"\n', "tab/trainer.py": TRAINER}
    assert lint_project(tmp_path, files, "SC403") == [("tab/trainer.py", 15)]


def test_a_device_picked_at_run_time_assigned_under_a_condition_or_reassigned_is_silent(tmp_path: Path) -> None:
    picked = 'import torch\n\nDEVICE = "mps" if torch.backends.mps.is_available() else "cpu"\n'
    assert lint_project(tmp_path, {"config.py": picked, "train.py": TRAIN}, "SC403") == []
    conditional = 'import torch\n\nDEVICE = "cpu"\nif torch.backends.mps.is_available():\n    DEVICE = "mps"\n'
    assert lint_project(tmp_path, {"config.py": conditional, "train.py": TRAIN}, "SC403") == []
    reassigned = TRAIN.replace("    def main():\n", "    def main():\n        config.DEVICE = 'cpu'\n").replace(
        ".to(DEVICE)", ".to('cpu')")
    assert lint_project(tmp_path, {"config.py": 'DEVICE = "mps"\n', "train.py": reassigned}, "SC403") == []
