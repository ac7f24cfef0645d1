"""SC207 links of stop 45: a detector trainer's `loss, preds = self.train_step(batch)` (the step returning the
stored model's output in its tuple) handed to a visualizer of another module converting the heatmaps; a notebook's
`best_model, history = train(MaskNet())` (a training helper handing back the model it was given) run on a mixture;
and a validation helper's model parameter handed on through two helpers of another module (`predict_batch(model,
batch)` returning `to_probabilities(run_model(model, batch))`), the model decided by the callers or an annotation
naming a module class of the project."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

DETECTOR = """
    import torch.nn as nn


    class CenterHead(nn.Module):
        def __init__(self, in_ch, num_classes):
            super().__init__()
            self.hm = nn.Sequential(nn.Conv2d(in_ch, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, num_classes, 1))
            self.wh = nn.Conv2d(in_ch, 2, 1)

        def forward(self, feats):
            return {"heatmap": self.hm(feats), "wh": self.wh(feats)}


    class CenterNet(nn.Module):
        def __init__(self, num_classes=3):
            super().__init__()
            self.backbone = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.ReLU())
            self.head = CenterHead(16, num_classes)

        def forward(self, images):
            return self.head(self.backbone(images))
"""

VISUALIZER = """
    import numpy as np
    import torch


    class HeatmapVisualizer:
        def __init__(self, out_dir):
            self.out_dir = out_dir
            self.frames = []

        def draw(self, images, heatmaps):
            hm = torch.sigmoid(heatmaps).cpu().numpy()
            img = images.cpu().numpy()
            self.frames.append(np.concatenate([img[0].mean(0)[::2, ::2], hm[0].max(0)], axis=1))
"""

TRAINER = """
    from dataclasses import dataclass

    import torch
    import torch.nn.functional as F

    from vis import HeatmapVisualizer


    @dataclass
    class TrainerConfig:
        lr: float = 1e-3
        steps: int = 4
        vis_interval: int = 2
        out_dir: str = "vis"


    class DetectorTrainer:
        def __init__(self, model, cfg: TrainerConfig):
            self.model = model
            self.cfg = cfg
            self.optimizer = torch.optim.Adam(model.parameters(), lr=cfg.lr)
            self.visualizer = HeatmapVisualizer(cfg.out_dir)

        def train_step(self, batch):
            preds = self.model(batch["image"])
            loss = F.binary_cross_entropy_with_logits(preds["heatmap"], batch["heatmap"])
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            return loss.item(), preds

        def run(self, batches):
            for step, batch in enumerate(batches):
                loss, preds = self.train_step(batch)
                if step % self.cfg.vis_interval == 0:
                    self.visualizer.draw(batch["image"], preds["heatmap"])
                print(step, loss)
"""

RUN = """
    import torch

    from model import CenterNet
    from trainer import DetectorTrainer, TrainerConfig


    def fake_batches(n):
        return [{"image": torch.randn(2, 3, 32, 32), "heatmap": torch.rand(2, 3, 16, 16)} for _ in range(n)]


    if __name__ == "__main__":
        cfg = TrainerConfig()
        trainer = DetectorTrainer(CenterNet(num_classes=3), cfg)
        trainer.run(fake_batches(cfg.steps))
"""

NOTEBOOK = """
    import copy

    import numpy as np
    import torch
    import torch.nn as nn

    N_FFT = 64
    HOP = 16


    def spectrogram(wave):
        spec = torch.stft(wave, N_FFT, HOP, window=torch.hann_window(N_FFT), return_complex=True)
        return spec.abs()


    class MaskNet(nn.Module):
        def __init__(self, n_bins=N_FFT // 2 + 1, hidden=32):
            super().__init__()
            self.rnn = nn.GRU(n_bins, hidden, batch_first=True)
            self.out = nn.Linear(hidden, n_bins)

        def forward(self, mag):
            h, _ = self.rnn(mag.transpose(1, 2))
            return torch.sigmoid(self.out(h)).transpose(1, 2)


    def make_pair(n=4, length=1024):
        speech = torch.randn(n, length) * 0.5
        noise = torch.randn(n, length) * 0.3
        return speech + noise, speech


    def train(model, epochs=3, lr=1e-3):
        opt = torch.optim.Adam(model.parameters(), lr=lr)
        best_loss, best_state = float("inf"), None
        history = []
        for epoch in range(epochs):
            mixture, clean = make_pair()
            mix_mag, clean_mag = spectrogram(mixture), spectrogram(clean)
            mask = model(mix_mag)
            loss = ((mask * mix_mag - clean_mag) ** 2).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            history.append(loss.item())
            if loss.item() < best_loss:
                best_loss = loss.item()
                best_state = copy.deepcopy(model.state_dict())
        model.load_state_dict(best_state)
        return model, history


    best_model, history = train(MaskNet())

    test_mix, _ = make_pair(n=1)
    test_mag = spectrogram(test_mix)
    mask_est = best_model(test_mag)
    est_mag = (mask_est * test_mag).squeeze(0).cpu().numpy()
    print(np.log1p(est_mag).mean())
"""

HELPERS = """
    import torch.nn.functional as F


    def run_model(model, batch):
        return model(batch["features"])


    def to_probabilities(logits, temperature=1.0):
        return F.softmax(logits / temperature, dim=-1)


    def predict_batch(model, batch):
        logits = run_model(model, batch)
        return to_probabilities(logits)
"""

METRICS = """
    import numpy as np


    def expected_calibration_error(probs, labels, n_bins=5):
        conf = probs.max(axis=1)
        pred = probs.argmax(axis=1)
        bins = np.linspace(0, 1, n_bins + 1)
        ece = 0.0
        for lo, hi in zip(bins[:-1], bins[1:]):
            sel = (conf > lo) & (conf <= hi)
            if sel.any():
                ece += sel.mean() * abs((pred[sel] == labels[sel]).mean() - conf[sel].mean())
        return ece
"""

TRAIN = """
    import torch
    import torch.nn as nn

    from helpers import predict_batch
    from metrics import expected_calibration_error


    class Classifier(nn.Module):
        def __init__(self, d_in=6, n_classes=3):
            super().__init__()
            self.net = nn.Sequential(nn.Linear(d_in, 16), nn.ReLU(), nn.Linear(16, n_classes))

        def forward(self, x):
            return self.net(x)


    def validate(model, batches):
        model.eval()
        all_probs, all_labels = [], []
        for batch in batches:
            probs = predict_batch(model, batch)
            all_probs.append(probs.numpy())
            all_labels.append(batch["label"].numpy())
        model.train()
        return expected_calibration_error(*map(lambda a: __import__("numpy").concatenate(a), (all_probs, all_labels)))


    def main():
        model = Classifier()
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        batches = [{"features": torch.randn(8, 6), "label": torch.randint(0, 3, (8,))} for _ in range(4)]
        for epoch in range(2):
            for batch in batches:
                loss = nn.functional.cross_entropy(model(batch["features"]), batch["label"])
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(epoch, validate(model, batches))


    if __name__ == "__main__":
        main()
"""


def _detector(tmp_path: Path, trainer: str = TRAINER) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"model.py": DETECTOR, "vis.py": VISUALIZER, "trainer.py": trainer,
                                   "train.py": RUN}, "SC207")


def test_heatmaps_a_trainer_s_step_returns_handed_to_a_visualizer(tmp_path: Path) -> None:
    assert _detector(tmp_path) == [("vis.py", 12)]


def test_detached_heatmaps_are_clean(tmp_path: Path) -> None:
    fixed = TRAINER.replace('preds["heatmap"])\n', 'preds["heatmap"].detach())\n')
    assert fixed != TRAINER
    assert _detector(tmp_path, fixed) == []


def test_heatmaps_of_a_step_under_no_grad_are_clean(tmp_path: Path) -> None:
    evaluated = TRAINER.replace("        def train_step(self, batch):",
                                "        @torch.no_grad()\n        def eval_step(self, batch):\n"
                                "            return 0.0, self.model(batch[\"image\"])\n\n"
                                "        def train_step(self, batch):")
    evaluated = evaluated.replace("loss, preds = self.train_step(batch)",
                                  "loss, _ = self.train_step(batch)\n                loss, preds = self.eval_step(batch)")
    assert evaluated.count("eval_step") == 2
    assert _detector(tmp_path, evaluated) == []


def test_a_model_a_training_helper_hands_back_in_its_tuple(tmp_path: Path) -> None:
    assert lint_project(tmp_path, {"nb.py": NOTEBOOK}, "SC207") == [("nb.py", 59)]


def test_the_mask_estimated_under_no_grad_is_clean(tmp_path: Path) -> None:
    fixed = NOTEBOOK.replace("    mask_est = best_model(test_mag)\n",
                             "    with torch.no_grad():\n        mask_est = best_model(test_mag)\n")
    assert fixed != NOTEBOOK
    assert lint_project(tmp_path, {"nb.py": fixed}, "SC207") == []


def _validation(tmp_path: Path, train: str = TRAIN) -> list[tuple[str, int]]:
    return lint_project(tmp_path, {"helpers.py": HELPERS, "metrics.py": METRICS, "train.py": train}, "SC207")


def test_a_model_parameter_handed_on_through_helpers_of_another_module(tmp_path: Path) -> None:
    assert _validation(tmp_path) == [("train.py", 23)]


def test_an_annotated_model_parameter(tmp_path: Path) -> None:
    annotated = TRAIN.replace("def validate(model, batches):", "def validate(model: Classifier, batches):")
    assert annotated != TRAIN
    assert _validation(tmp_path, annotated) == [("train.py", 23)]


def test_the_validation_detaching_or_run_under_no_grad_is_clean(tmp_path: Path) -> None:
    detached = TRAIN.replace("all_probs.append(probs.numpy())", "all_probs.append(probs.detach().numpy())")
    assert detached != TRAIN
    assert _validation(tmp_path, detached) == []
    quiet = TRAIN.replace("            print(epoch, validate(model, batches))",
                          "            with torch.no_grad():\n                print(epoch, validate(model, batches))")
    assert quiet != TRAIN
    assert _validation(tmp_path, quiet) == []


def test_a_validation_handed_no_model_is_not_decided(tmp_path: Path) -> None:
    # the callers hand a function, not a module: the helper's `model(...)` is not a model's output
    handed = TRAIN.replace("print(epoch, validate(model, batches))",
                           "print(epoch, validate(lambda x: x.softmax(-1), batches))")
    assert handed != TRAIN
    assert _validation(tmp_path, handed) == []
