"""Convolution, pooling and layout bugs in small projects written the way repositories are: a model package of
several files, a Dataset reading files through torchvision transforms, a trainer or runner class holding the model
and the loader, a config; each with its fixed look-alike."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import lint_project

# a U-Net whose ModuleList of down blocks pools four times: 200 rows pool to 100, 50, 25, 12, and the upsampled 24
# meets the 25-row skip in torch.cat (checked in torch 2.13: "Sizes of tensors must match except in dimension 1.
# Expected size 25 but got size 24"); the fix resizes to sides divisible by 16
_UNET = '''
import torch
import torch.nn as nn
import torch.nn.functional as F

from .blocks import conv_block


class UNet(nn.Module):
    def __init__(self, in_channels=3, num_classes=1, features=(32, 64, 128, 256)):
        super().__init__()
        self.downs = nn.ModuleList()
        self.ups = nn.ModuleList()
        ch = in_channels
        for f in features:
            self.downs.append(conv_block(ch, f))
            ch = f
        self.bottleneck = conv_block(features[-1], features[-1] * 2)
        for f in reversed(features):
            self.ups.append(nn.ConvTranspose2d(f * 2, f, 2, stride=2))
            self.ups.append(conv_block(f * 2, f))
        self.head = nn.Conv2d(features[0], num_classes, 1)

    def forward(self, x):
        skips = []
        for down in self.downs:
            x = down(x)
            skips.append(x)
            x = F.max_pool2d(x, 2)
        x = self.bottleneck(x)
        skips = skips[::-1]
        for i in range(0, len(self.ups), 2):
            x = self.ups[i](x)
            x = torch.cat((skips[i // 2], x), dim=1)
            x = self.ups[i + 1](x)
        return self.head(x)
'''
_BLOCKS = '''
import torch.nn as nn


def conv_block(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, kernel_size=3, padding=1),
        nn.ReLU(),
        nn.Conv2d(cout, cout, kernel_size=3, padding=1),
        nn.ReLU(),
    )
'''
_MODELS = '''
from .unet import UNet

MODELS = {"unet": UNet}


def build_model(name="unet", **kwargs):
    return MODELS[name](**kwargs)
'''
_CARVANA = '''
import os

from PIL import Image
from torch.utils.data import Dataset
from torchvision import transforms


class CarvanaDataset(Dataset):
    def __init__(self, root, image_size=%s):
        self.root = root
        self.names = sorted(os.listdir(os.path.join(root, "images")))
        self.img_tf = transforms.Compose([transforms.Resize(image_size), transforms.ToTensor()])
        self.mask_tf = transforms.Compose([
            transforms.Resize(image_size, interpolation=transforms.InterpolationMode.NEAREST),
            transforms.ToTensor(),
        ])

    def __len__(self):
        return len(self.names)

    def __getitem__(self, idx):
        name = self.names[idx]
        img = Image.open(os.path.join(self.root, "images", name)).convert("RGB")
        mask = Image.open(os.path.join(self.root, "masks", name)).convert("L")
        return self.img_tf(img), self.mask_tf(mask)
'''
_CARVANA_TRAIN = '''
import torch
from torch.utils.data import DataLoader

from seg.data import CarvanaDataset
from seg.models import build_model


class Runner:
    def __init__(self, root, batch_size=8):
        self.model = build_model(in_channels=3, num_classes=1)
        self.loss_fn = torch.nn.BCEWithLogitsLoss()
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-4)
        self.loader = DataLoader(CarvanaDataset(root), batch_size=batch_size, shuffle=True, drop_last=True)

    def run_epoch(self):
        for images, masks in self.loader:
            logits = self.model(images)
            loss = self.loss_fn(logits, masks)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


if __name__ == "__main__":
    runner = Runner("data/carvana")
    for epoch in range(10):
        runner.run_epoch()
'''


def _carvana(size: str) -> dict[str, str]:
    return {"seg/__init__.py": "", "seg/models/__init__.py": _MODELS, "seg/models/blocks.py": _BLOCKS,
            "seg/models/unet.py": _UNET, "seg/data/__init__.py": "from .dataset import CarvanaDataset\n",
            "seg/data/dataset.py": _CARVANA % size, "train.py": _CARVANA_TRAIN}


def test_a_unet_skip_after_four_poolings_of_a_dataset_resize_not_divisible_by_16(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _carvana("(200, 300)"), "SC105") == [("train.py", 18)]
    assert lint_project(tmp_path / "fixed", _carvana("(192, 288)"), "SC105") == []


# an FPN's top-down pathway: each level upsampled by scale_factor=2 and added to the lateral below it, the list's
# elements replaced in a loop. A 300-pixel image gives strided levels of 75, 38 and 19: 19 doubles to 38, but the
# sum doubles to 76 against the 75-pixel level (checked in torch 2.13: "The size of tensor a (75) must match the
# size of tensor b (76) at non-singleton dimension 3"); the fix is an image size divisible by the total stride
_FPN = '''
import torch.nn as nn
import torch.nn.functional as F


class FPN(nn.Module):
    def __init__(self, in_channels_list, out_channels=128):
        super().__init__()
        self.lateral = nn.ModuleList([nn.Conv2d(c, out_channels, 1) for c in in_channels_list])
        self.smooth = nn.ModuleList([nn.Conv2d(out_channels, out_channels, 3, padding=1) for _ in in_channels_list])

    def forward(self, feats):
        laterals = [l(f) for l, f in zip(self.lateral, feats)]
        for i in range(len(laterals) - 1, 0, -1):
            laterals[i - 1] = laterals[i - 1] + F.interpolate(laterals[i], scale_factor=2, mode="nearest")
        return [s(x) for s, x in zip(self.smooth, laterals)]
'''
_BACKBONE = '''
import torch.nn as nn


def stage(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride=2, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class Backbone(nn.Module):
    def __init__(self, in_ch=3):
        super().__init__()
        self.stem = stage(in_ch, 32)
        self.layer1 = stage(32, 64)
        self.layer2 = stage(64, 128)
        self.layer3 = stage(128, 256)

    def forward(self, x):
        c1 = self.layer1(self.stem(x))
        c2 = self.layer2(c1)
        c3 = self.layer3(c2)
        return c1, c2, c3
'''
_DETECTOR = '''
import torch.nn as nn

from .backbone import Backbone
from .fpn import FPN


class Detector(nn.Module):
    def __init__(self, num_classes=10):
        super().__init__()
        self.backbone = Backbone()
        self.fpn = FPN([64, 128, 256])
        self.cls = nn.Conv2d(128, num_classes, 1)

    def forward(self, x):
        pyramid = self.fpn(list(self.backbone(x)))
        return [self.cls(p) for p in pyramid]
'''
_DETECT = '''
import argparse

import torch

from models import Detector

parser = argparse.ArgumentParser()
parser.add_argument("--size", type=int, default=%d)
args = parser.parse_args()

model = Detector().eval()
with torch.no_grad():
    outs = model(torch.randn(2, 3, args.size, args.size))
'''


def _detector(size: int) -> dict[str, str]:
    return {"models/__init__.py": "from .detector import Detector\n", "models/fpn.py": _FPN,
            "models/backbone.py": _BACKBONE, "models/detector.py": _DETECTOR, "detect.py": _DETECT % size}


def test_an_fpn_top_down_loop_doubling_a_level_against_an_odd_lateral(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _detector(300), "SC105") == [("detect.py", 14)]
    assert lint_project(tmp_path / "fixed", _detector(320), "SC105") == []


# a HAR dataset reads its signals from an .npz archive and reshapes them to (samples, channels); `__getitem__`
# slices a window of rows, (time, channels), which the default collation stacks to (B, 128, 9): a Conv1d stack
# built for 9 channels gets 128 (checked in torch 2.13: "expected input[64, 128, 9] to have 9 channels, but got
# 128 channels instead"); the fix transposes the window to (channels, time)
_HAR_CONFIG = '''
from dataclasses import dataclass


@dataclass
class Config:
    window: int = 128
    n_channels: int = 9
    n_classes: int = 6
    batch_size: int = 64
    data_path: str = "data/har.npz"
'''
_HAR_DATA = '''
import numpy as np
import torch
from torch.utils.data import Dataset, DataLoader


class HARWindows(Dataset):
    def __init__(self, signals, labels, window):
        self.signals = signals
        self.labels = labels
        self.window = window

    def __len__(self):
        return len(self.signals) - self.window

    def __getitem__(self, idx):
        x = self.signals[idx:idx + self.window]%s
        return torch.tensor(x, dtype=torch.float32), int(self.labels[idx + self.window - 1])


def make_loader(cfg):
    raw = np.load(cfg.data_path)
    signals = raw["signals"].reshape(-1, cfg.n_channels)
    return DataLoader(HARWindows(signals, raw["labels"], cfg.window), batch_size=cfg.batch_size, shuffle=True)
'''
_HAR_MODEL = '''
import torch.nn as nn


class ConvNet(nn.Module):
    def __init__(self, n_channels, n_classes):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv1d(n_channels, 64, kernel_size=5, padding=2), nn.ReLU(), nn.MaxPool1d(2),
            nn.Conv1d(64, 128, kernel_size=5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1),
        )
        self.head = nn.Linear(128, n_classes)

    def forward(self, x):
        return self.head(self.features(x).squeeze(-1))
'''
_HAR_CHECK = '''
import torch

from har.config import Config
from har.data import make_loader
from har.model import ConvNet


class Trainer:
    def __init__(self, cfg: Config):
        self.model = ConvNet(cfg.n_channels, cfg.n_classes)
        self.loader = make_loader(cfg)

    def sanity_check(self):
        xb, yb = next(iter(self.loader))
        with torch.no_grad():
            print(self.model(xb).shape, yb.shape)


if __name__ == "__main__":
    Trainer(Config()).sanity_check()
'''


def _har(transpose: str) -> dict[str, str]:
    return {"har/__init__.py": "", "har/config.py": _HAR_CONFIG, "har/data.py": _HAR_DATA % transpose,
            "har/model.py": _HAR_MODEL, "check.py": _HAR_CHECK}


def test_windows_of_an_npz_archive_laid_out_time_by_channels_into_conv1d(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _har(""), "SC105") == [("check.py", 17)]
    assert lint_project(tmp_path / "fixed", _har(".T"), "SC105") == []


# signals read from a CSV (features, then the label) reshaped to (N, 10), which the loader helper unsqueezes to
# (N, 1, 10): one channel of ten steps, while the ModuleList built from the config's channel list starts with
# Conv1d(10, ...) (checked in torch 2.13: "expected input[64, 1, 10] to have 10 channels, but got 1 channels
# instead"); the fix adds the axis last, ten channels of one step each
_SIGNAL_LOADING = '''
import torch
from torch.utils.data import DataLoader, TensorDataset


def make_loader(X, y, batch_size=32, shuffle=True):
    xt = torch.tensor(X, dtype=torch.float32).unsqueeze(%d)
    yt = torch.tensor(y, dtype=torch.long)
    return DataLoader(TensorDataset(xt, yt), batch_size=batch_size, shuffle=shuffle)
'''
_SIGNAL_CNN = '''
import torch.nn as nn


class SignalCNN(nn.Module):
    def __init__(self, config):
        super().__init__()
        chans = config["channels"]
        self.layers = nn.ModuleList()
        for c_in, c_out in zip(chans[:-1], chans[1:]):
            self.layers.append(nn.Conv1d(c_in, c_out, kernel_size=1))
        self.fc = nn.Linear(chans[-1], config["n_classes"])

    def forward(self, x):
        for layer in self.layers:
            x = layer(x).relu()
        return self.fc(x.mean(-1))
'''
_SIGNAL_TRAIN = '''
import numpy as np
import torch

from sig.models import SignalCNN
from sig.utils import make_loader

CONFIG = {"model": {"channels": [10, 32, 64], "n_classes": 3}, "lr": 1e-3}


def load_data(path):
    table = np.loadtxt(path, delimiter=",")
    return table[:, :-1].reshape(-1, 10), table[:, -1].astype(np.int64)


class Runner:
    def __init__(self):
        self.model = SignalCNN(CONFIG["model"])
        self.opt = torch.optim.Adam(self.model.parameters(), lr=CONFIG["lr"])

    def fit(self, path):
        X, y = load_data(path)
        for xb, yb in make_loader(X, y, batch_size=64):
            loss = torch.nn.functional.cross_entropy(self.model(xb), yb)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()


if __name__ == "__main__":
    Runner().fit("signals.csv")
'''


def _signals(axis: int) -> dict[str, str]:
    return {"sig/__init__.py": "", "sig/utils/__init__.py": "from .loading import make_loader\n",
            "sig/utils/loading.py": _SIGNAL_LOADING % axis, "sig/models/__init__.py": "from .cnn import SignalCNN\n",
            "sig/models/cnn.py": _SIGNAL_CNN, "train.py": _SIGNAL_TRAIN}


def test_csv_signals_unsqueezed_to_one_channel_by_a_loader_helper_into_a_config_module_list(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _signals(1), "SC105") == [("train.py", 24)]
    assert lint_project(tmp_path / "fixed", _signals(-1), "SC105") == []


# keyword clips loaded mono by librosa, cut and padded to 8000 samples (half a second at 16 kHz), into a conv stack
# an nn.Sequential subclass builds from a config dataclass whose Linear is sized for the config's default of 16000
# samples (checked in torch 2.13: "mat1 and mat2 shapes cannot be multiplied (32x8000 and 16000x12)"); the fix
# sizes the config for the clips
_KWS_CONFIG = '''
from dataclasses import dataclass, field


@dataclass
class ModelConfig:
    in_channels: int = 1
    channels: tuple = (16, 32, 64)
    kernel_size: int = 3
    input_length: int = %d
    n_classes: int = 12

    @property
    def flat_features(self) -> int:
        length = self.input_length
        for _ in self.channels:
            length = length // 4
        return self.channels[-1] * length


@dataclass
class TrainConfig:
    model: ModelConfig = field(default_factory=ModelConfig)
    batch_size: int = 32
    clip_samples: int = 8000
    lr: float = 1e-3
'''
_KWS_MODEL = '''
import torch.nn as nn


class ConvStack(nn.Sequential):
    def __init__(self, cfg):
        layers = []
        cin = cfg.in_channels
        for cout in cfg.channels:
            layers += [nn.Conv1d(cin, cout, cfg.kernel_size, padding=cfg.kernel_size // 2), nn.ReLU(), nn.MaxPool1d(4)]
            cin = cout
        layers += [nn.Flatten(), nn.Linear(cfg.flat_features, cfg.n_classes)]
        super().__init__(*layers)
'''
_KWS_DATA = '''
import glob

import numpy as np
import librosa
import torch
from torch.utils.data import Dataset, DataLoader


class Clips(Dataset):
    def __init__(self, root, max_len=8000):
        self.files = sorted(glob.glob(f"{root}/*/*.wav"))
        self.labels = [f.split("/")[-2] for f in self.files]
        self.classes = sorted(set(self.labels))
        self.max_len = max_len

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        wave, sr = librosa.load(self.files[i], sr=16000)
        wave = wave[: self.max_len]
        wave = np.pad(wave, (0, self.max_len - len(wave)))
        x = torch.from_numpy(wave).float().unsqueeze(0)
        return x, self.classes.index(self.labels[i])


def build_loader(cfg, root="data/speech_commands"):
    return DataLoader(Clips(root), batch_size=cfg.batch_size, shuffle=True, drop_last=True)
'''
_KWS_TRAIN = '''
import torch

from kws.config import TrainConfig
from kws.data import build_loader
from kws.model import ConvStack

cfg = TrainConfig()
model = ConvStack(cfg.model)
opt = torch.optim.Adam(model.parameters(), lr=cfg.lr)
loader = build_loader(cfg)
wave, label = next(iter(loader))
print(wave.shape)
for epoch in range(5):
    for wave, label in loader:
        loss = torch.nn.functional.cross_entropy(model(wave), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
'''


def _kws(input_length: int) -> dict[str, str]:
    return {"kws/__init__.py": "", "kws/config.py": _KWS_CONFIG % input_length, "kws/model.py": _KWS_MODEL,
            "kws/data.py": _KWS_DATA, "train.py": _KWS_TRAIN}


def test_librosa_clips_padded_to_half_a_second_into_a_linear_sized_by_the_config(tmp_path: Path) -> None:
    assert lint_project(tmp_path, _kws(16000), "SC105") == [("train.py", 16)]
    assert lint_project(tmp_path / "fixed", _kws(8000), "SC105") == []
