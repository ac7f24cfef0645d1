"""A size from a command line that `parse_args()` reads is one size of its own, whatever its default; where it is
the one option a mismatch involves, against sizes the code states, the mismatch is checked in the run with no flags
(its default), and the finding names that default. Each project is a layout a training script takes (a package
re-exporting its modules, a model registry, a `src/` folder, a notebook-style script), each run in torch: with the
INVALID default it raises, with the VALID one it runs."""

from __future__ import annotations

import textwrap
from pathlib import Path

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from shapecheck.objects.project import PROJECT


def found(folder: Path, files: dict[str, str], entry: str) -> list[tuple[int, str]]:
    """The SC105 findings of `entry` in a project of `files`: (row, message)."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    PROJECT.forget()
    result = lint_text((folder / entry).read_text(), str(folder / entry), resolve(None))
    return [(f.location.row, f.message) for f in result.findings if f.code == "SC105"]


# a U-Net package (`segment/__init__.py` re-exports its modules): four poolings of 100-pixel crops leave 6, whose
# upsampled 12 and then 24 meet the 25-pixel skip; a trainer holds `args` and sizes its loader and epochs from it
UNET = {
    "train.py": '''
    import argparse

    import torch
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    from segment import CropDataset, UNet


    def get_args():
        parser = argparse.ArgumentParser(description="train a U-Net on random crops")
        parser.add_argument("--crop", type=int, default=100, help="side of the training crops")
        parser.add_argument("--n-crops", type=int, default=32)
        parser.add_argument("--batch-size", type=int, default=4)
        parser.add_argument("--epochs", type=int, default=5)
        parser.add_argument("--lr", type=float, default=1e-3)
        return parser.parse_args()


    class Trainer:
        def __init__(self, model, args):
            self.model = model
            self.args = args
            self.loader = DataLoader(CropDataset(args.n_crops, args.crop), batch_size=args.batch_size, shuffle=True)
            self.optimizer = torch.optim.Adam(model.parameters(), lr=args.lr)

        def train_epoch(self):
            self.model.train()
            for images, masks in self.loader:
                logits = self.model(images)
                loss = F.cross_entropy(logits, masks)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()

        def fit(self):
            for epoch in range(self.args.epochs):
                self.train_epoch()


    if __name__ == "__main__":
        args = get_args()
        Trainer(UNet(), args).fit()
    ''',
    "segment/__init__.py": '''
    from .unet import UNet
    from .data import CropDataset

    __all__ = ["UNet", "CropDataset"]
    ''',
    "segment/data.py": '''
    import torch
    from torch.utils.data import Dataset


    class CropDataset(Dataset):
        """Random square crops of synthetic scenes and their masks."""

        def __init__(self, n_crops, crop, n_classes=2):
            self.n_crops = n_crops
            self.crop = crop
            self.n_classes = n_classes

        def __len__(self):
            return self.n_crops

        def __getitem__(self, idx):
            image = torch.rand(3, self.crop, self.crop)
            mask = torch.randint(0, self.n_classes, (self.crop, self.crop))
            return image, mask
    ''',
    "segment/unet.py": '''
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    def double_conv(c_in, c_out):
        return nn.Sequential(
            nn.Conv2d(c_in, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
            nn.Conv2d(c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU(inplace=True),
        )


    class UNet(nn.Module):
        def __init__(self, in_channels=3, n_classes=2, base=16):
            super().__init__()
            widths = [base * 2 ** i for i in range(5)]
            self.downs = nn.ModuleList()
            c = in_channels
            for w in widths:
                self.downs.append(double_conv(c, w))
                c = w
            self.ups = nn.ModuleList(double_conv(widths[i] + widths[i + 1], widths[i]) for i in reversed(range(4)))
            self.head = nn.Conv2d(widths[0], n_classes, 1)

        def forward(self, x):
            skips = []
            for i, down in enumerate(self.downs):
                x = down(x)
                if i < 4:
                    skips.append(x)
                    x = F.max_pool2d(x, 2)
            for up, skip in zip(self.ups, reversed(skips)):
                x = F.interpolate(x, scale_factor=2, mode="bilinear", align_corners=False)
                x = up(torch.cat([skip, x], dim=1))
            return self.head(x)
    ''',
}


def test_a_unet_skip_after_four_poolings_of_the_default_crop(tmp_path: Path) -> None:
    rows = found(tmp_path / "bad", UNET, "train.py")
    assert [row for row, _ in rows] == [30]
    assert "cat needs every dim but dim 1 equal" in rows[0][1]
    assert rows[0][1].endswith("(with args.crop = 100, the command line's default)")
    fixed = {**UNET, "train.py": UNET["train.py"].replace("default=100,", "default=96,")}
    assert found(tmp_path / "good", fixed, "train.py") == []


# an FPN from a registry (`build_model("fpn")`), its top-down path `F.interpolate(scale_factor=2.0)`: 360 pixels
# leave a 23-pixel stride-16 map, doubled to 46 against the 45-pixel stride-8 lateral; the parse is handed to `main`
FPN = {
    "train.py": '''
    import argparse

    import torch
    import torch.nn as nn

    from models import build_model


    class Runner:
        def __init__(self, cfg, model):
            self.cfg = cfg
            self.model = model
            self.criterion = nn.BCEWithLogitsLoss()
            self.optim = torch.optim.SGD(model.parameters(), lr=cfg["lr"])

        def training_step(self, batch):
            images, heat = batch
            pred = self.model(images)
            return self.criterion(pred, heat)

        def run(self, steps, size):
            for step in range(steps):
                images = torch.randn(2, 3, size, size)
                heat = torch.rand(2, 5, size // 8, size // 8)
                loss = self.training_step((images, heat))
                self.optim.zero_grad()
                loss.backward()
                self.optim.step()


    def main(args):
        cfg = {"lr": args.lr, "num_classes": 5}
        model = build_model("fpn", num_classes=cfg["num_classes"])
        Runner(cfg, model).run(args.steps, args.image_size)


    if __name__ == "__main__":
        parser = argparse.ArgumentParser()
        parser.add_argument("--image-size", type=int, default=360)
        parser.add_argument("--steps", type=int, default=100)
        parser.add_argument("--lr", type=float, default=0.01)
        main(parser.parse_args())
    ''',
    "models/__init__.py": '''
    from .fpn import DetectorFPN

    MODELS = {"fpn": DetectorFPN}


    def build_model(name, **kwargs):
        return MODELS[name](**kwargs)
    ''',
    "models/fpn.py": '''
    import torch.nn as nn
    import torch.nn.functional as F


    class DetectorFPN(nn.Module):
        def __init__(self, num_classes=5, width=16, out_channels=32):
            super().__init__()
            self.stem = nn.Conv2d(3, width, 7, stride=2, padding=3)
            self.stage2 = nn.Conv2d(width, width * 2, 3, stride=2, padding=1)
            self.stage3 = nn.Conv2d(width * 2, width * 4, 3, stride=2, padding=1)
            self.stage4 = nn.Conv2d(width * 4, width * 8, 3, stride=2, padding=1)
            self.lat3 = nn.Conv2d(width * 4, out_channels, 1)
            self.lat4 = nn.Conv2d(width * 8, out_channels, 1)
            self.cls = nn.Conv2d(out_channels, num_classes, 3, padding=1)

        def forward(self, images):
            c2 = self.stage2(F.relu(self.stem(images)))
            c3 = self.stage3(F.relu(c2))
            c4 = self.stage4(F.relu(c3))
            p4 = self.lat4(c4)
            p3 = self.lat3(c3) + F.interpolate(p4, scale_factor=2.0, mode="nearest")
            return self.cls(p3)
    ''',
}


def test_an_fpn_top_down_sum_on_the_default_image_size(tmp_path: Path) -> None:
    rows = found(tmp_path / "bad", FPN, "train.py")
    assert [row for row, _ in rows] == [18]
    assert "don't broadcast (with parser.parse_args().image_size = 360, the command line's default)" in rows[0][1]
    fixed = {**FPN, "train.py": FPN["train.py"].replace("default=360", "default=384")}
    assert found(tmp_path / "good", fixed, "train.py") == []


# a `src/` layout: the dataset gives (time, channels) log-mel frames, 101 of them from the config module's
# constants, to a Conv1d front end built for `--n-mels`
KEYWORDS = {
    "src/train_kws.py": '''
    import argparse

    import torch
    import torch.nn.functional as F
    from torch.utils.data import DataLoader

    from kws.features import KeywordClips
    from kws.model import TCNKeywordSpotter


    def parse():
        parser = argparse.ArgumentParser()
        parser.add_argument("--n-mels", type=int, default=40)
        parser.add_argument("--keywords", type=int, default=12)
        parser.add_argument("--clips", type=int, default=64)
        parser.add_argument("--epochs", type=int, default=3)
        return parser.parse_args()


    def evaluate(model, loader):
        model.eval()
        correct = 0
        with torch.no_grad():
            for mels, labels in loader:
                correct += (model(mels).argmax(1) == labels).sum().item()
        return correct / len(loader.dataset)


    def main():
        args = parse()
        data = KeywordClips(args.clips, args.n_mels, args.keywords)
        loader = DataLoader(data, batch_size=16, shuffle=True)
        model = TCNKeywordSpotter(args.n_mels, args.keywords)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
        for epoch in range(args.epochs):
            model.train()
            for mels, labels in loader:
                loss = F.cross_entropy(model(mels), labels)
                opt.zero_grad()
                loss.backward()
                opt.step()
            print(epoch, evaluate(model, loader))


    if __name__ == "__main__":
        main()
    ''',
    "src/kws/__init__.py": '''
    ''',
    "src/kws/config.py": '''
    SAMPLE_RATE = 16000
    HOP_LENGTH = 160
    N_FRAMES = SAMPLE_RATE // HOP_LENGTH + 1
    ''',
    "src/kws/features.py": '''
    import torch
    from torch.utils.data import Dataset

    from .config import N_FRAMES


    class KeywordClips(Dataset):
        """One-second clips as log-mel frames, one keyword label each."""

        def __init__(self, n_clips, n_mels, n_keywords):
            self.n_clips = n_clips
            self.n_mels = n_mels
            self.labels = torch.randint(0, n_keywords, (n_clips,))

        def __len__(self):
            return self.n_clips

        def __getitem__(self, index):
            frames = torch.randn(N_FRAMES, self.n_mels)
            return frames, self.labels[index]
    ''',
    "src/kws/model.py": '''
    import torch.nn as nn


    class TCNKeywordSpotter(nn.Module):
        def __init__(self, n_mels, n_keywords, hidden=64):
            super().__init__()
            self.conv = nn.Sequential(
                nn.Conv1d(n_mels, hidden, kernel_size=3, padding=1),
                nn.ReLU(),
                nn.Conv1d(hidden, hidden, kernel_size=3, padding=2, dilation=2),
                nn.ReLU(),
                nn.AdaptiveAvgPool1d(1),
            )
            self.out = nn.Linear(hidden, n_keywords)

        def forward(self, mels):
            return self.out(self.conv(mels).squeeze(-1))
    ''',
}


def test_time_major_frames_into_a_conv1d_of_the_default_mel_count(tmp_path: Path) -> None:
    rows = found(tmp_path / "bad", KEYWORDS, "src/train_kws.py")
    assert [row for row, _ in rows] == [25, 38]
    assert "101 channels (dim -2)" in rows[1][1] and rows[1][1].endswith(
        "expects args.n_mels (with args.n_mels = 40, the command line's default)")
    fixed = {**KEYWORDS, "src/kws/features.py": KEYWORDS["src/kws/features.py"].replace(
        "return frames, ", "return frames.T, ")}
    assert found(tmp_path / "good", fixed, "src/train_kws.py") == []


# a notebook-style script: a conv stack an `nn.Sequential` subclass builds in a loop over a config dataclass's
# channels, flattened into a Linear sized from the config's default window (128), fed windows of `--window`
WINDOWS = {
    "config.py": '''
    from dataclasses import dataclass, field


    @dataclass
    class NetConfig:
        in_channels: int = 6
        channels: list = field(default_factory=lambda: [16, 32, 64])
        window: int = 128
        n_classes: int = 4
    ''',
    "nets.py": '''
    import torch.nn as nn

    from config import NetConfig


    class SignalEncoder(nn.Sequential):
        def __init__(self, cfg: NetConfig):
            blocks = []
            c_in = cfg.in_channels
            for c_out in cfg.channels:
                blocks.append(nn.Conv1d(c_in, c_out, kernel_size=5, padding=2))
                blocks.append(nn.ReLU())
                blocks.append(nn.MaxPool1d(2))
                c_in = c_out
            blocks.append(nn.Flatten())
            blocks.append(nn.Linear(cfg.channels[-1] * (cfg.window // 2 ** len(cfg.channels)), cfg.n_classes))
            super().__init__(*blocks)
    ''',
    "run.py": '''
    import argparse

    import numpy as np
    import torch
    import torch.nn as nn
    from torch.utils.data import DataLoader, Dataset

    from config import NetConfig
    from nets import SignalEncoder

    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=int, default=100)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()


    class Windows(Dataset):
        def __init__(self, signal, labels, window):
            self.signal, self.labels, self.window = signal, labels, window

        def __len__(self):
            return len(self.signal) - self.window

        def __getitem__(self, i):
            x = self.signal[i:i + self.window].T
            return torch.from_numpy(np.ascontiguousarray(x)).float(), int(self.labels[i + self.window - 1])


    signal = np.random.randn(1000, 6).astype(np.float32)
    labels = np.random.randint(0, 4, size=1000)
    loader = DataLoader(Windows(signal, labels, args.window), batch_size=32, shuffle=True)
    model = SignalEncoder(NetConfig())
    opt = torch.optim.Adam(model.parameters())
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        for x, y in loader:
            loss = loss_fn(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
    ''',
}


def test_a_flattened_conv_stack_sized_by_the_config_fed_the_default_window(tmp_path: Path) -> None:
    rows = found(tmp_path / "bad", WINDOWS, "run.py")
    assert [row for row, _ in rows] == [37]
    assert rows[0][1].endswith("expects 1024 (with args.window = 100, the command line's default)")
    fixed = {**WINDOWS, "run.py": WINDOWS["run.py"].replace("default=100)", "default=128)")}
    assert found(tmp_path / "good", fixed, "run.py") == []


def test_a_script_loop_over_levels_reads_the_options_defaults(tmp_path: Path) -> None:
    """A script's own loop, read as of its passes, still knows `args = parser.parse_args()` and its defaults; a
    list element the loop replaces (`levels[i - 1] = ...`) is the new value on the next pass; and a sum of two sizes
    not proven equal (an FPN level plus the upsampled one below it) is, with no flags, the one size they both are:
    doubled again, it fails against 75."""
    script = '''
        import argparse
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        parser = argparse.ArgumentParser()
        parser.add_argument("--size", type=int, default=%d)
        args = parser.parse_args()

        x = torch.randn(2, 3, args.size, args.size)
        levels = []
        for _ in range(3):
            x = nn.Conv2d(x.size(1), 8, 3, stride=2, padding=1)(x)
            levels.append(x)
        for i in range(len(levels) - 1, 0, -1):
            levels[i - 1] = levels[i - 1] + F.interpolate(levels[i], scale_factor=2)
    '''
    rows = found(tmp_path, {"fpn.py": script % 150}, "fpn.py")
    assert [row for row, _ in rows] == [16] and rows[0][1].endswith("(with args.size = 150, the command line's default)")
    assert found(tmp_path / "fixed", {"fpn.py": script % 160}, "fpn.py") == []


def test_a_dataclass_config_given_an_option_keeps_its_default(tmp_path: Path) -> None:
    """`CNNConfig(pool=args.pool)` holds the option itself, so a property of the config (the flattened features of
    image pooled by it) is checked at the option's default: the 32-pixel images the script gives pool to 16 * 16 * 16
    features where a head sized for the config's default 64-pixel image expects 16 * 32 * 32 (--pool 2)."""
    files = {
        "nets/__init__.py": "",
        "nets/config.py": '''
            from dataclasses import dataclass


            @dataclass
            class CNNConfig:
                image_size: int = %d
                pool: int = 4
                width: int = 16
                classes: int = 10

                @property
                def flat(self) -> int:
                    return self.width * (self.image_size // self.pool) ** 2
        ''',
        "nets/cnn.py": '''
            import torch.nn as nn


            class SmallCNN(nn.Module):
                def __init__(self, cfg):
                    super().__init__()
                    self.body = nn.Sequential(nn.Conv2d(3, cfg.width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(cfg.pool))
                    self.head = nn.Linear(cfg.flat, cfg.classes)

                def forward(self, x):
                    return self.head(self.body(x).flatten(1))
        ''',
        "train.py": '''
            import argparse

            import torch

            from nets.cnn import SmallCNN
            from nets.config import CNNConfig

            parser = argparse.ArgumentParser()
            parser.add_argument("--pool", type=int, default=2)
            args = parser.parse_args()

            model = SmallCNN(CNNConfig(pool=args.pool))
            logits = model(torch.randn(8, 3, 32, 32))
        ''',
    }
    rows = found(tmp_path, {**files, "nets/config.py": files["nets/config.py"] % 64}, "train.py")
    assert [row for row, _ in rows] == [13] and rows[0][1].endswith("(with args.pool = 2, the command line's default)")
    assert found(tmp_path / "fixed", {**files, "nets/config.py": files["nets/config.py"] % 32}, "train.py") == []
