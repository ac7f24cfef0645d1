"""SC105 shape-mismatch: an operation whose operand shapes the code states cannot fit, so it raises at run time."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Invalid, Rule
from shapecheck.shapes import runs
from shapecheck.shapes.dim_range import literal_index
from shapecheck.shapes.evaluator import evaluator, shape_conflict
from shapecheck.shapes.layers import construction_conflict

MAX_CODE = 60  # longer operations are not quoted in the message: the finding's range shows them

# Written once for a VALID look-alike and its INVALID twin: TabSurvey's SAINT attribution, a forward hook keeping the
# attention maps it sees in the method's `my_attention`; `%s` is how the hook declares the name.
_ATTENTION_HOOK = """
        import torch
        from einops import rearrange
        def attribute(model, testloader, strategy="diag"):
            model.eval()
            my_attention = torch.zeros(0)
            def sample_attribution(layer, minput, output):
                %s my_attention
                q, k, v = layer.to_qkv(minput[0]).chunk(3, dim=-1)
                q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=layer.heads), (q, k, v))
                sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * layer.scale
                my_attention = sim.softmax(dim=-1)
            model.transformer.layers[0][0].fn.fn.register_forward_hook(sample_attribution)
            attributions = []
            with torch.no_grad():
                for x_categ, x_cont in testloader:
                    model.transformer(x_categ, x_cont)
                    attributions.append(my_attention.sum(dim=1)[:, 1:, 1:].diagonal(0, 1, 2))
            return attributions
        """

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the equation of a pair scorer whose
# pairs come from a Dataset through a DataLoader.
_PAIR_SCORER = """
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class Pairs(Dataset):
    def __init__(self, n=32, dim=16):
        self.a, self.b = torch.randn(n, 5, dim), torch.randn(n, 7, dim)

    def __len__(self):
        return len(self.a)

    def __getitem__(self, i):
        return self.a[i], self.b[i]


class Scorer(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.w = nn.Parameter(torch.randn(dim, dim))

    def forward(self, a, b):
        return torch.einsum("%s", a @ self.w, b)


for a, b in DataLoader(Pairs(), batch_size=4):
    scores = Scorer()(a, b)
"""


# A VALID look-alike and its INVALID twin: a regression head and its (64, 2) targets, measured with both forms of a
# loss; `%s` is the head's outputs.
_REGRESSION_HEAD = """
import torch
import torch.nn as nn
import torch.nn.functional as F
head = nn.Linear(16, %s)
features, targets = torch.randn(64, 16), torch.randn(64, 2)
loss = F.mse_loss(head(features), targets)
criterion = nn.L1Loss()
error = criterion(head(features), targets)
"""


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the sections a VAE's helper cuts the
# encoder's 2 * latent features into.
_VAE_SECTIONS = """
import torch
import torch.nn as nn


def split_heads(x, sizes=(16, 16)):
    mu, logvar = torch.split(x, list(sizes), dim=1)
    return mu, logvar


class VAEHead(nn.Module):
    def __init__(self, dim=64, latent=16):
        super().__init__()
        self.fc = nn.Linear(dim, 2 * latent)

    def forward(self, h):
        mu, logvar = split_heads(self.fc(h), %s)
        return mu + (0.5 * logvar).exp() * torch.randn_like(mu)


z = VAEHead()(torch.randn(8, 64))
"""


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the dim a stereo dataset splits its
# stacked pair of frames along.
_STEREO_DATASET = """
import torch
from torch.utils.data import Dataset


class StereoPairs(Dataset):
    def __init__(self, n=16):
        self.frames = torch.randn(n, 6, 32, 32)

    def __len__(self):
        return len(self.frames)

    def __getitem__(self, idx: int):
        left, right = self.frames[idx].chunk(2, dim=%s)
        return left, right
"""


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is how many values per joint the first
# layer takes; the dataset's constructor appends (17, 3) poses (x, y, confidence) to a list `__getitem__` indexes.
_POSE_LIST_DATASET = """
        import numpy as np
        import torch
        import torch.nn.functional as F
        from torch import nn
        from torch.utils.data import DataLoader, Dataset

        N_JOINTS = 17

        class PoseClips(Dataset):
            def __init__(self, annotations):
                self.poses, self.actions = [], []
                for ann in annotations:
                    keypoints = np.asarray(ann["keypoints"], dtype=np.float32).reshape(N_JOINTS, 3)
                    self.poses.append(torch.from_numpy(keypoints))
                    self.actions.append(int(ann["action"]))

            def __len__(self):
                return len(self.poses)

            def __getitem__(self, idx):
                return self.poses[idx], self.actions[idx]

        class ActionMLP(nn.Module):
            def __init__(self, n_actions: int = 6):
                super().__init__()
                self.fc1 = nn.Linear(N_JOINTS * %s, 128)
                self.fc2 = nn.Linear(128, n_actions)

            def forward(self, pose):
                return self.fc2(F.relu(self.fc1(pose.flatten(1))))

        def train(annotations):
            model = ActionMLP()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            loader = DataLoader(PoseClips(annotations), batch_size=32, shuffle=True)
            for epoch in range(10):
                for poses, actions in loader:
                    optimizer.zero_grad()
                    F.cross_entropy(model(poses), actions).backward()
                    optimizer.step()
        """


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the index a point cloud's per-cluster
# pooling scatters with; each point's cluster id is a (N,) vector, the sums a (clusters, C) tensor.
_CLUSTER_POOLING = """
        import torch
        import torch.nn as nn

        class ClusterPool(nn.Module):
            def __init__(self, channels: int = 32):
                super().__init__()
                self.point_mlp = nn.Sequential(nn.Linear(3, channels), nn.ReLU())

            def forward(self, xyz: torch.Tensor, cluster: torch.Tensor, n_clusters: int) -> torch.Tensor:
                feats = self.point_mlp(xyz)
                sums = feats.new_zeros(n_clusters, feats.shape[1])
                counts = torch.zeros(n_clusters).scatter_add_(0, cluster, torch.ones(len(cluster)))
                sums = sums.scatter_add(0, %s, feats)
                return sums / counts.clamp(min=1).unsqueeze(1)

        points = torch.randn(500, 3)
        labels = torch.randint(0, 8, (500,))
        pooled = ClusterPool()(points, labels, 8)
        """


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the first conv's channels; a
# hand-written featurizer the dataset holds makes n_fft // 2 + 1 frequency bins with numpy (`np.fft.rfft`).
_SPECTROGRAM_DATASET = """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, Dataset

        N_FFT = 512
        HOP = 160


        class Spectrogram:
            def __init__(self, n_fft: int = N_FFT, hop: int = HOP):
                self.n_fft, self.hop = n_fft, hop
                self.window = np.hanning(n_fft).astype(np.float32)

            def __call__(self, wave: np.ndarray) -> np.ndarray:
                starts = range(0, len(wave) - self.n_fft + 1, self.hop)
                frames = np.stack([wave[s:s + self.n_fft] * self.window for s in starts])
                return np.log(np.abs(np.fft.rfft(frames, axis=1)) ** 2 + 1e-6).T.astype(np.float32)


        class Commands(Dataset):
            def __init__(self, n: int, featurize, sample_rate: int = 16000, seconds: float = 1.0):
                rng = np.random.default_rng(0)
                self.waves = [rng.normal(size=int(sample_rate * seconds)).astype(np.float32) for _ in range(n)]
                self.labels = rng.integers(0, 10, size=n)
                self.featurize = featurize

            def __len__(self):
                return len(self.waves)

            def __getitem__(self, i):
                return torch.from_numpy(self.featurize(self.waves[i])), int(self.labels[i])


        model = nn.Sequential(nn.Conv1d(%s, 64, kernel_size=3), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
                              nn.Linear(64, 10))
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for specs, labels in DataLoader(Commands(64, Spectrogram()), batch_size=16, shuffle=True):
            loss = F.cross_entropy(model(specs), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        """


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is what the dataset makes of a chip read
# as (H, W, C) with numpy; half the chips are flipped (a reversed slice) as augmentation.
_FLIPPED_CHIPS = """
        import numpy as np
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset


        class FieldChips(Dataset):
            def __init__(self, n: int = 64, side: int = 48):
                rng = np.random.default_rng(1)
                self.chips = rng.random((n, side, side, 4), dtype=np.float32)  # R, G, B, near infrared
                self.crops = rng.integers(0, 5, size=n)
                self.rng = rng

            def __len__(self):
                return len(self.crops)

            def __getitem__(self, i):
                chip = self.chips[i]
                if self.rng.random() < 0.5:
                    chip = chip[::-1]
                return torch.from_numpy(%s), int(self.crops[i])


        net = nn.Sequential(nn.Conv2d(4, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                            nn.Linear(32, 5))
        opt = torch.optim.SGD(net.parameters(), lr=0.01)
        for chips, crops in DataLoader(FieldChips(), batch_size=16, shuffle=True):
            loss = nn.functional.cross_entropy(net(chips), crops)
            opt.zero_grad()
            loss.backward()
            opt.step()
        """


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is what the collate makes of the boxes;
# each photo holds its own number of parcels, drawn with numpy.
_PARCEL_BOXES = """
        import numpy as np
        import torch
        from torch.utils.data import DataLoader, Dataset


        class Parcels(Dataset):
            # warehouse photos with 1 to 5 labelled parcels each, boxes as (x1, y1, x2, y2)
            def __init__(self, n: int = 40):
                self.images = torch.rand(n, 3, 128, 128)
                self.boxes = []
                for _ in range(n):
                    count = np.random.randint(1, 6)
                    corner = torch.rand(count, 2) * 96
                    self.boxes.append(torch.cat([corner, corner + 32], dim=1))

            def __len__(self):
                return len(self.images)

            def __getitem__(self, i):
                return self.images[i], self.boxes[i]


        def collate(samples):
            images = torch.stack([image for image, _ in samples])
            return images, %s


        def train(model, optimizer):
            for images, boxes in DataLoader(Parcels(), batch_size=8, collate_fn=collate):
                loss = model(images, boxes)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is which steps of a recording a sample
# keeps (a start is drawn at random).
_SENSOR_CROPS = """
        import random

        import torch
        from torch.utils.data import DataLoader, Dataset


        class SensorWindows(Dataset):
            # accelerometer recordings, cropped at random as augmentation
            def __init__(self, recordings: int = 256, steps: int = 500, channels: int = 6):
                self.signals = torch.randn(recordings, steps, channels)
                self.labels = torch.randint(0, 4, (recordings,))

            def __len__(self):
                return len(self.signals)

            def __getitem__(self, i):
                start = random.randint(0, 100)
                return self.signals[i, %s], self.labels[i]


        rnn = torch.nn.GRU(6, 32, batch_first=True)
        for windows, labels in DataLoader(SensorWindows(), batch_size=32, shuffle=True):
            _, h = rnn(windows)
        """


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is how long the key padding mask is;
# the sequences are drawn 20 to 60 frames long and padded to the longest of each batch by `pad_sequence`.
_PADDED_GESTURES = """
        import random

        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.nn.utils.rnn import pad_sequence
        from torch.utils.data import DataLoader, Dataset

        MAX_FRAMES = 64


        class Gestures(Dataset):
            # hand-landmark sequences of 20 to 60 frames, 21 landmarks (x, y, z) each

            def __init__(self, n: int = 32):
                self.samples = []
                for _ in range(n):
                    frames = random.randint(20, 60)
                    self.samples.append((torch.randn(frames, 63), random.randrange(5)))

            def __len__(self):
                return len(self.samples)

            def __getitem__(self, idx):
                return self.samples[idx]


        def collate(batch):
            seqs, labels = zip(*batch)
            lengths = torch.tensor([len(s) for s in seqs])
            return pad_sequence(seqs, batch_first=True), lengths, torch.tensor(labels)


        class GestureTransformer(nn.Module):
            def __init__(self, d_model: int = 64, n_classes: int = 5):
                super().__init__()
                self.embed = nn.Linear(63, d_model)
                layer = nn.TransformerEncoderLayer(d_model, nhead=4, batch_first=True)
                self.encoder = nn.TransformerEncoder(layer, num_layers=2)
                self.head = nn.Linear(d_model, n_classes)

            def forward(self, frames, padding):
                h = self.encoder(self.embed(frames), src_key_padding_mask=padding)
                return self.head(h.mean(dim=1))


        model = GestureTransformer()
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for frames, lengths, labels in DataLoader(Gestures(), batch_size=8, shuffle=True, collate_fn=collate):
            padding = torch.arange(%s)[None, :] >= lengths[:, None]
            loss = F.cross_entropy(model(frames, padding), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        """


# Examples written once for VALID look-alikes and their INVALID twin: `%s` are the rows and the loader's arguments
# after the batch size (1000 rows leave a last batch of 40, which `view(BATCH_SIZE, -1)` makes 64 rows of 490).
_CONSTANT_BATCH_VIEW = """
        import torch
        import torch.nn.functional as F
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset

        BATCH_SIZE = 64

        class MLP(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(28 * 28, 128)
                self.fc2 = nn.Linear(128, 10)

            def forward(self, x):
                x = x.view(BATCH_SIZE, -1)
                return self.fc2(F.relu(self.fc1(x)))

        rows = %s
        images, digits = torch.randn(rows, 1, 28, 28), torch.randint(0, 10, (rows,))
        model = MLP()
        optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
        for epoch in range(2):
            for x, y in DataLoader(TensorDataset(images, digits), batch_size=BATCH_SIZE, shuffle=True%s):
                loss = F.cross_entropy(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the stride of the last stage, which the
# top-down path's `nn.Upsample(scale_factor=2)` must undo to add it to the stage before.
_FPN_STRIDES = """
        import torch
        from torch import nn

        class FPN(nn.Module):
            def __init__(self):
                super().__init__()
                self.c3 = nn.Conv2d(3, 32, 3, stride=2, padding=1)
                self.c4 = nn.Conv2d(32, 64, 3, stride=2, padding=1)
                self.c5 = nn.Conv2d(64, 128, 3, stride=%s, padding=1)
                self.lat4 = nn.Conv2d(64, 64, 1)
                self.lat5 = nn.Conv2d(128, 64, 1)
                self.up = nn.Upsample(scale_factor=2, mode="nearest")

            def forward(self, x):
                c4 = self.c4(self.c3(x))
                return self.up(self.lat5(self.c5(c4))) + self.lat4(c4)

        out = FPN()(torch.randn(2, 3, 64, 64))
        """

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the rest of the `torch.cat` of the
# two embeddings (the look-alike joins them along the features, the twin along the batch).
_SIAMESE_PAIRS = """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset

        class PairDataset(Dataset):
            def __init__(self, n=20):
                self.pairs = torch.randn(n, 2, 16)
                self.same = torch.randint(0, 2, (n,)).float()

            def __len__(self):
                return len(self.same)

            def __getitem__(self, idx):
                return tuple(self.pairs[idx]), self.same[idx]

        class Siamese(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Linear(16, 8)
                self.head = nn.Linear(2 * 8, 1)

            def forward(self, left, right):
                joined = torch.cat([self.embed(left), self.embed(right)]%s)
                return self.head(joined)

        model = Siamese()
        for pair, same in DataLoader(PairDataset(), batch_size=4):
            score = model(*pair)
        """

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the number of feature columns.
_ARGPARSE_AUTOENCODER = """
        import argparse
        import torch
        from torch import nn

        parser = argparse.ArgumentParser(description="MNIST autoencoder")
        parser.add_argument("--batch-size", type=int, default=64)
        parser.add_argument("--hidden", type=int, default=256)
        parser.add_argument("--latent", type=int, default=20)
        args = parser.%s

        encoder = nn.Sequential(nn.Linear(784, args.hidden), nn.ReLU())
        decoder = nn.Sequential(nn.Linear(args.latent, 784), nn.Sigmoid())
        recon = decoder(encoder(torch.rand(args.batch_size, 784)))
        """

# Examples written once for a VALID look-alike and its INVALID twin: the first layer's input size, and how the data is
# made (the look-alike sets `args.input_dim` from the data it loads, before the model is built).
_ARGPARSE_NET = """
        import argparse
        import torch
        from torch import nn

        parser = argparse.ArgumentParser(description="tabular classifier")
        parser.add_argument("--input-dim", type=int, default=20)
        parser.add_argument("--hidden", type=int, default=64)
        parser.add_argument("--n-classes", type=int, default=3)
        parser.add_argument("--n-samples", type=int, default=128)
        args = parser.parse_args([])


        class Net(nn.Module):
            def __init__(self, args):
                super().__init__()
                self.args = args
                self.body = nn.Sequential(nn.Linear(%s, args.hidden), nn.ReLU())
                self.head = nn.Linear(args.hidden, args.n_classes)

            def forward(self, x):
                return self.head(self.body(x))


        def load_data(args):
            %s
            return features, torch.randint(0, args.n_classes, (args.n_samples,))


        features, labels = load_data(args)
        model = Net(args)
        loss = nn.functional.cross_entropy(model(features), labels)
        """

_NUMPY_FEATURES = """
        import numpy as np
        import torch
        import torch.nn as nn

        features = np.random.rand(200, %s).astype(np.float32)
        labels = np.random.randint(0, 2, size=(200,))
        X, y = torch.from_numpy(features), torch.from_numpy(labels)
        model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))
        loss = nn.CrossEntropyLoss()(model(X), y)
        """

# a human-activity dataset: an accelerometer recording (time, 3 axes), cut into windows at starts a list holds;
# `%s` is what a window hands torch (Conv1d takes (batch, channels, time))
_HAR_WINDOWS = """
        import numpy as np
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset


        def load_accelerometer(n_samples=3000):
            t = np.linspace(0, 60, n_samples)
            axes = [np.sin(2 * np.pi * f * t) for f in (0.5, 1.0, 2.0)]
            return np.stack(axes, axis=1).astype(np.float32)


        class HARWindows(Dataset):
            def __init__(self, signal, window=100, step=50):
                self.signal = (signal - signal.mean(axis=0)) / signal.std(axis=0)
                self.window = window
                self.starts = list(range(0, len(signal) - window, step))

            def __len__(self):
                return len(self.starts)

            def __getitem__(self, idx):
                start = self.starts[idx]
                return torch.from_numpy(%s)


        encoder = nn.Sequential(nn.Conv1d(3, 32, 5, padding=2), nn.ReLU(), nn.AdaptiveAvgPool1d(1))
        loader = DataLoader(HARWindows(load_accelerometer()), batch_size=32, shuffle=True)
        for x in loader:
            z = encoder(x)
        """

# a tabular set one-hot encoded with numpy: a price column and a color's three levels; `%s` is the width the
# first layer takes
_ONEHOT_TABLE = """
        import numpy as np
        import torch
        import torch.nn as nn

        COLORS = ["red", "green", "blue"]
        rng = np.random.default_rng(0)
        price = rng.normal(10.0, 2.0, 500)
        color = np.random.choice(COLORS, 500)
        onehot = (color[:, None] == np.array(COLORS)[None, :]).astype(np.float32)
        X = torch.from_numpy(np.concatenate([price[:, None], onehot], axis=1).astype(np.float32))
        model = nn.Sequential(nn.Linear(%s, 8), nn.ReLU(), nn.Linear(8, 1))
        pred = model(X)
        """

# a road graph's junctions as one-hot rows of their kind (`np.eye(k)[kinds]`, one row per junction) beside their
# degree, for a dense two-layer graph convolution; `%s` is the first layer's input size
_JUNCTION_GRAPH = """
        import numpy as np
        import torch
        import torch.nn as nn


        def junction_features(n_junctions=120, n_kinds=5, seed=0):
            rng = np.random.default_rng(seed)
            kinds = rng.integers(0, n_kinds, size=n_junctions)
            degree = rng.poisson(3.0, size=n_junctions).astype(np.float32)
            return np.concatenate([np.eye(n_kinds, dtype=np.float32)[kinds], degree[:, None]], axis=1)


        class DenseGCN(nn.Module):
            def __init__(self, in_size, hidden=32, n_classes=4):
                super().__init__()
                self.lin1 = nn.Linear(in_size, hidden)
                self.lin2 = nn.Linear(hidden, n_classes)

            def forward(self, x, adj):
                return self.lin2(adj @ torch.relu(self.lin1(adj @ x)))


        x = torch.from_numpy(junction_features())
        adj = torch.eye(x.shape[0])
        model = DenseGCN(in_size=%s)
        logits = model(x, adj)
        """

# a translator decoding greedily: a bidirectional GRU encoder (2 * hidden features per source token) attended by a
# GRU cell's hidden-sized queries; the first token is bound before the loop, which rebinds it to the pick after the
# call reading it, so only a caller's run (a batch of 3 sentences, 5 steps) proves the first pass; `%s` is what the
# decoder attends over
_GREEDY_TRANSLATOR = """
        import torch
        import torch.nn as nn


        class Translator(nn.Module):
            def __init__(self, src_vocab=500, tgt_vocab=400, hidden=32):
                super().__init__()
                self.src_embed = nn.Embedding(src_vocab, hidden)
                self.encoder = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
                self.bridge = nn.Linear(2 * hidden, hidden)
                self.tgt_embed = nn.Embedding(tgt_vocab, hidden)
                self.cell = nn.GRUCell(hidden, hidden)
                self.generator = nn.Linear(2 * hidden, tgt_vocab)

            def attend(self, query, keys):
                weights = torch.softmax(torch.bmm(keys, query.unsqueeze(2)), dim=1)
                return (weights * keys).sum(1)

            def forward(self, src, max_len):
                encoded, final = self.encoder(self.src_embed(src))
                keys = %s
                h = final[0] + final[1]  # the directions' last states summed: hidden features
                token = torch.full((src.size(0),), 1, dtype=torch.long)  # <bos>
                picks = []
                for _ in range(max_len):
                    h = self.cell(self.tgt_embed(token), h)
                    logits = self.generator(torch.cat([h, self.attend(h, keys)], dim=1))
                    token = logits.argmax(dim=1)
                    picks.append(token)
                return torch.stack(picks, dim=1)


        translator = Translator()
        with torch.no_grad():
            picks = translator(torch.randint(0, 500, (3, 9)), max_len=5)
        """

# yunjey/pytorch-tutorial's bidirectional RNN on MNIST: the loader's batches are not stated, the loop's
# `.reshape` states them; `%s` is the head's input size (a bidirectional LSTM gives 2 * hidden_size features).
_LOADER_BIRNN = """
        import torch
        import torch.nn as nn
        import torchvision

        class BiRNN(nn.Module):
            def __init__(self, input_size, hidden_size, num_layers, num_classes):
                super().__init__()
                self.lstm = nn.LSTM(input_size, hidden_size, num_layers, batch_first=True, bidirectional=True)
                self.fc = nn.Linear(%s, num_classes)

            def forward(self, x):
                out, _ = self.lstm(x)
                return self.fc(out[:, -1, :])

        dataset = torchvision.datasets.MNIST(root="data", train=True, download=True)
        train_loader = torch.utils.data.DataLoader(dataset=dataset, batch_size=100, shuffle=True)
        model = BiRNN(28, 128, 2, 10).to("cuda")
        criterion = nn.CrossEntropyLoss()
        for epoch in range(2):
            for i, (images, labels) in enumerate(train_loader):
                images = images.reshape(-1, 28, 28).to("cuda")
                loss = criterion(model(images), labels.to("cuda"))
        """

# An audio spectrogram transformer fed by a batch generator of a dataclass config's sizes: `%s` passes the model
# the frame count or leaves its default, which sizes the position table.
_GENERATED_SPECTROGRAMS = """
        from dataclasses import dataclass

        import torch
        from torch import nn


        @dataclass
        class AudioConfig:
            n_mels: int = 64
            n_frames: int = 200
            batch_size: int = 8


        class PatchAST(nn.Module):
            def __init__(self, n_mels=64, n_frames=100, patch=16, dim=96, n_classes=10):
                super().__init__()
                self.patch = nn.Conv2d(1, dim, patch, stride=patch)
                self.pos = nn.Parameter(torch.zeros(1, (n_mels // patch) * (n_frames // patch), dim))
                self.head = nn.Linear(dim, n_classes)

            def forward(self, spec):
                tokens = self.patch(spec.unsqueeze(1)).flatten(2).transpose(1, 2)
                return self.head((tokens + self.pos).mean(1))


        def spectrogram_batches(cfg: AudioConfig, steps=3):
            for _ in range(steps):
                yield torch.randn(cfg.batch_size, cfg.n_mels, cfg.n_frames), torch.randint(0, 10, (cfg.batch_size,))


        def fit(cfg: AudioConfig):
            model = PatchAST(n_mels=cfg.n_mels%s)
            optimizer = torch.optim.AdamW(model.parameters())
            for spec, label in spectrogram_batches(cfg):
                loss = nn.functional.cross_entropy(model(spec), label)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()


        fit(AudioConfig())
        """

# A human-activity CNN fed by the project's own batch iterator, a class whose `__iter__` is a generator over
# (N, time, channels) sensor windows: `%s` is the yield of `__iter__`, which must hand `nn.Conv1d` its channels in
# dim 1.
_WINDOW_BATCHES = """
        import torch
        from torch import nn


        class WindowBatches:
            def __init__(self, windows, labels, batch_size=32, shuffle=True, jitter=False):
                self.windows = windows
                self.labels = labels
                self.batch_size = batch_size
                self.shuffle = shuffle
                self.jitter = jitter

            def __iter__(self):
                n = self.windows.size(0)
                order = torch.randperm(n) if self.shuffle else torch.arange(n)
                for start in range(0, n, self.batch_size):
                    idx = order[start:start + self.batch_size]
                    %s


        class ActivityCNN(nn.Module):
            def __init__(self, channels=6, classes=6):
                super().__init__()
                self.features = nn.Sequential(
                    nn.Conv1d(channels, 64, kernel_size=5, padding=2), nn.ReLU(),
                    nn.Conv1d(64, 64, kernel_size=5, padding=2), nn.ReLU(),
                    nn.AdaptiveAvgPool1d(1),
                )
                self.classifier = nn.Linear(64, classes)

            def forward(self, x):
                return self.classifier(self.features(x).squeeze(-1))


        def train(epochs=2, jitter=False):
            windows, labels = torch.randn(512, 128, 6), torch.randint(0, 6, (512,))
            model = ActivityCNN()
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(epochs):
                for x, y in WindowBatches(windows, labels, jitter=jitter):
                    loss = nn.functional.cross_entropy(model(x), y)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


        train()
        """

# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the one place they differ.
_CONFIG_PROPERTY = """
        from dataclasses import dataclass
        import torch
        import torch.nn as nn

        @dataclass
        class ModelArgs:
            d_model: int = 96
            expansion: int = 4

            @property
            def d_ff(self) -> int:
                return self.d_model * self.expansion

        class FeedForward(nn.Module):
            def __init__(self, args: ModelArgs):
                super().__init__()
                self.up = nn.Linear(args.d_model, args.d_ff)
                self.down = nn.Linear(%s, args.d_model)

            def forward(self, x):
                return self.down(torch.relu(self.up(x)))

        ffn = FeedForward(ModelArgs())
        y = ffn(torch.randn(2, 5, 96))
        """

# A job config holding section configs made by their own dataclass (torchtitan's `ForgeJobConfig`: `model: Model =
# field(default_factory=Model)`): `%s` is the state size the recurrent model starts from.
_NESTED_CONFIG = """
        from dataclasses import dataclass, field
        import torch
        import torch.nn as nn

        @dataclass
        class ModelConfig:
            hidden: int = 32
            layers: int = 2

        @dataclass
        class JobConfig:
            model: ModelConfig = field(default_factory=ModelConfig)
            lr: float = 1e-3

        class Tagger(nn.Module):
            def __init__(self, hidden, layers):
                super().__init__()
                self.layers, self.hidden = layers, hidden
                self.rnn = nn.GRU(16, hidden, num_layers=layers, batch_first=True)

            def forward(self, x):
                h0 = torch.zeros(%s, self.hidden)
                return self.rnn(x, h0)[0]

        def train(cfg: JobConfig):
            model = Tagger(cfg.model.hidden, cfg.model.layers)
            return model(torch.randn(4, 10, 16))

        train(JobConfig())
        """

# A model built from every parsed option at once (`Model(**vars(args))`, its `__init__` taking the rest as
# `**kwargs`): `%s` is the width its head is built for.
_SPREAD_ARGS = """
        import argparse
        import torch
        import torch.nn as nn

        class Encoder(nn.Module):
            def __init__(self, vocab=1000, emb=128, hidden=128, **unused):
                super().__init__()
                self.embed = nn.Embedding(vocab, emb)
                self.rnn = nn.LSTM(emb, hidden, batch_first=True)
                self.proj = nn.Linear(%s, 10)

            def forward(self, tokens):
                out, _ = self.rnn(self.embed(tokens))
                return self.proj(out[:, -1])

        def main():
            parser = argparse.ArgumentParser()
            parser.add_argument("--emb", type=int, default=64)
            parser.add_argument("--hidden", type=int, default=256)
            parser.add_argument("--lr", type=float, default=1e-3)
            args = parser.parse_args([])
            model = Encoder(**vars(args))
            return model(torch.randint(0, 1000, (4, 12)))
        """

# pytorch/examples' word language model, run from a config dict its `main` takes as a default: `%s` is the size of
# the cell state `init_hidden` makes from any parameter of the model.
_INIT_HIDDEN = """
        import torch
        import torch.nn as nn
        from torch.autograd import Variable

        CONFIG = {"ntoken": 100, "ninp": 32, "nhid": 48, "nlayers": 2, "bptt": 35, "batch_size": 10}

        class RNNModel(nn.Module):
            def __init__(self, ntoken, ninp, nhid, nlayers, **kwargs):
                super().__init__()
                self.nhid, self.nlayers = nhid, nlayers
                self.encoder = nn.Embedding(ntoken, ninp)
                self.rnn = nn.LSTM(ninp, nhid, nlayers)

            def forward(self, input, hidden):
                return self.rnn(self.encoder(input), hidden)

            def init_hidden(self, bsz):
                weight = next(self.parameters())
                return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                        weight.new_zeros(self.nlayers, bsz, %s))

        def main(cfg=CONFIG):
            model = RNNModel(**cfg)
            hidden = model.init_hidden(cfg["batch_size"])
            data = Variable(torch.randint(0, cfg["ntoken"], (cfg["bptt"], cfg["batch_size"])))
            output, hidden = model(data, hidden)

        if __name__ == "__main__":
            main()
        """

# A translation model whose causal mask comes from the nn.Transformer it holds: `%s` is the sequence it is sized by.
_TGT_MASK = """
        import torch
        import torch.nn as nn

        class Seq2Seq(nn.Module):
            def __init__(self, src_vocab, tgt_vocab, d_model=64):
                super().__init__()
                self.src_emb = nn.Embedding(src_vocab, d_model)
                self.tgt_emb = nn.Embedding(tgt_vocab, d_model)
                self.transformer = nn.Transformer(d_model, 4, 2, 2, dim_feedforward=128, batch_first=True)

            def forward(self, src, tgt_in):
                tgt_mask = self.transformer.generate_square_subsequent_mask(%s.size(1))
                return self.transformer(self.src_emb(src), self.tgt_emb(tgt_in), tgt_mask=tgt_mask)

        model = Seq2Seq(100, 120)
        tgt = torch.randint(0, 120, (4, 11))
        out = model(torch.randint(0, 100, (4, 15)), tgt[:, :-1])
        """

_DECODER_CELL = """
        import torch
        import torch.nn as nn

        class Decoder(nn.Module):
            def __init__(self, n_in=32, hidden=256):
                super().__init__()
                self.hidden = hidden
                self.cell = nn.GRUCell(n_in, hidden)
                self.out = nn.Linear(hidden, n_in)

            def forward(self, x, h=None):
                if h is None:
                    h = torch.zeros(x.size(0), %s)
                h = self.cell(x, h)
                return self.out(h), h

        decoder = Decoder()
        y, h = decoder(torch.randn(4, 32))
        """

_RESAMPLER = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Resampler(nn.Module):
            def __init__(self, length=400):
                super().__init__()
                self.length = length

            def forward(self, wave):
                return F.interpolate(wave, size=%s, mode="linear", align_corners=False)

        clips = Resampler()(torch.randn(4, 1, 16000))
        """

_SEGMENTATION_RESIZE = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        config = {"image_size": %s, "channels": 16, "num_classes": 21}

        class SegmentationHead(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.image_size = config["image_size"]
                self.classifier = nn.Conv2d(config["channels"], config["num_classes"], 1)

            def forward(self, features):
                logits = self.classifier(features)
                return F.interpolate(logits, size=self.image_size, mode="bilinear", align_corners=False)

        masks = SegmentationHead(config)(torch.randn(2, 16, 32, 32))
        """

_UNFOLD_PATCHES = """
        import torch
        import torch.nn as nn

        class PatchEmbed(nn.Module):
            def __init__(self, patch=4, in_chans=%s, dim=64):
                super().__init__()
                self.patch = patch
                self.proj = nn.Linear(patch * patch * in_chans, dim)

            def forward(self, img):
                b = img.shape[0]
                x = img.unfold(2, self.patch, self.patch).unfold(3, self.patch, self.patch)
                x = x.permute(0, 2, 3, 1, 4, 5).reshape(b, -1, x.shape[1] * self.patch * self.patch)
                return self.proj(x)

        tokens = PatchEmbed()(torch.randn(8, 3, 32, 32))
        """

_UPSAMPLING_DECODER = """
        import torch
        import torch.nn as nn

        class Decoder(nn.Sequential):
            def __init__(self, channels=64, out_size=%s):
                super().__init__(
                    nn.Conv2d(channels, 32, 3, padding=1), nn.ReLU(),
                    nn.Upsample(size=out_size, mode="nearest"),
                    nn.Conv2d(32, 1, 1),
                )

        masks = Decoder()(torch.randn(2, 64, 16, 16))
        """

_RNN_LAST_STATE = """
        import torch
        import torch.nn as nn

        class Encoder(nn.Module):
            def __init__(self, n_features=12, hidden=48, bidirectional=%s):
                super().__init__()
                self.rnn = nn.GRU(n_features, hidden, batch_first=True, bidirectional=bidirectional)
                self.head = nn.Linear(hidden * 2, 1)

            def forward(self, x):
                _, h_n = self.rnn(x)
                return self.head(torch.cat([h_n[0], h_n[1]], dim=-1))

        scores = Encoder()(torch.randn(64, 30, 12))
        """

# activatedgeek/LeNet-5: MNIST resized to the 32x32 its 5x5 convolutions need, in a `train(epoch)` over the loader;
# `%s` is the transforms before `ToTensor` (without the resize the third convolution gets a 4x4 input).
_LENET_MNIST = """
        import torch.nn as nn
        import torch.optim as optim
        import torchvision.transforms as transforms
        from torch.utils.data import DataLoader
        from torchvision.datasets.mnist import MNIST

        class LeNet5(nn.Module):
            def __init__(self):
                super().__init__()
                self.convnet = nn.Sequential(
                    nn.Conv2d(1, 6, kernel_size=(5, 5)), nn.ReLU(), nn.MaxPool2d(kernel_size=(2, 2), stride=2),
                    nn.Conv2d(6, 16, kernel_size=(5, 5)), nn.ReLU(), nn.MaxPool2d(kernel_size=(2, 2), stride=2),
                    nn.Conv2d(16, 120, kernel_size=(5, 5)), nn.ReLU())
                self.fc = nn.Sequential(nn.Linear(120, 84), nn.ReLU(), nn.Linear(84, 10), nn.LogSoftmax(dim=-1))

            def forward(self, img):
                output = self.convnet(img)
                return self.fc(output.view(img.size(0), -1))

        data_train = MNIST("./data/mnist", download=True, transform=transforms.Compose([%stransforms.ToTensor()]))
        data_train_loader = DataLoader(data_train, batch_size=256, shuffle=True, num_workers=8)
        net = LeNet5()
        criterion = nn.CrossEntropyLoss()
        optimizer = optim.Adam(net.parameters(), lr=2e-3)

        def train(epoch):
            net.train()
            for i, (images, labels) in enumerate(data_train_loader):
                optimizer.zero_grad()
                loss = criterion(net(images), labels)
                loss.backward()
                optimizer.step()

        for e in range(1, 16):
            train(e)
        """

# A course CNN for CIFAR-10 (3x32x32 images from the loader, the model's input size stated nowhere else); `%s` is
# the first linear layer's input size, 16 channels of 5x5 after two convolutions and poolings.
_CIFAR_CNN = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        import torchvision
        import torchvision.transforms as transforms

        transform = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
        trainset = torchvision.datasets.CIFAR10(root="./data", train=True, download=True, transform=transform)
        trainloader = torch.utils.data.DataLoader(trainset, batch_size=4, shuffle=True, num_workers=2)

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(3, 6, 5)
                self.pool = nn.MaxPool2d(2, 2)
                self.conv2 = nn.Conv2d(6, 16, 5)
                self.fc1 = nn.Linear(%s, 120)
                self.fc2 = nn.Linear(120, 10)

            def forward(self, x):
                x = self.pool(F.relu(self.conv1(x)))
                x = self.pool(F.relu(self.conv2(x)))
                x = torch.flatten(x, 1)
                return self.fc2(F.relu(self.fc1(x)))

        net = Net()
        criterion = nn.CrossEntropyLoss()
        for inputs, labels in trainloader:
            loss = criterion(net(inputs), labels)
        """

_PROJECT_DATASET = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset

        class Digits(Dataset):
            def __init__(self, n=64):
                self.images = torch.randn(n, %s, 28, 28)
                self.labels = torch.randint(0, 10, (n,))

            def __len__(self):
                return len(self.labels)

            def __getitem__(self, idx):
                return self.images[idx], self.labels[idx]

        model = nn.Sequential(nn.Conv2d(1, 8, 3), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
        for images, labels in DataLoader(Digits(), batch_size=16):
            loss = nn.functional.cross_entropy(model(images), labels)
        """

# A tabular model built by a classmethod from a config dict, wrapped in DataParallel and trained over a tqdm bar:
# `%s` is the number of features the config gives the first layer (the data has 20).
_FROM_CONFIG_PARALLEL = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset
        from tqdm import tqdm

        class TabularNet(nn.Module):
            def __init__(self, n_features, hidden=64, n_classes=3):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(n_features, hidden), nn.ReLU(), nn.Linear(hidden, n_classes))

            @classmethod
            def from_config(cls, config):
                return cls(**config["model"])

            def forward(self, x):
                return self.net(x)

        config = {"model": {"n_features": %s, "hidden": 64}, "batch_size": 32}
        features = torch.randn(512, 20)
        labels = torch.randint(0, 3, (512,))
        loader = DataLoader(TensorDataset(features, labels), batch_size=config["batch_size"], shuffle=True)
        model = nn.DataParallel(TabularNet.from_config(config))
        criterion = nn.CrossEntropyLoss()
        for epoch in range(3):
            for x, y in tqdm(loader, desc=f"epoch {epoch}"):
                loss = criterion(model(x), y)
        """

# A notebook's config as a SimpleNamespace, its fields handed to the model: `%s` is the mel bins it gives the GRU
# (the spectrograms have 64). Handed whole to a call, it may be changed there: unknown after.
_NAMESPACE_CONFIG = """
        import torch
        import torch.nn as nn
        from types import SimpleNamespace

        cfg = SimpleNamespace(n_mels=%s, hidden=128, n_classes=10)

        class AudioClassifier(nn.Module):
            def __init__(self, n_mels, hidden, n_classes):
                super().__init__()
                self.rnn = nn.GRU(n_mels, hidden, batch_first=True)
                self.fc = nn.Linear(hidden, n_classes)

            def forward(self, mels):
                out, _ = self.rnn(mels)
                return self.fc(out[:, -1])

        model = AudioClassifier(cfg.n_mels, cfg.hidden, cfg.n_classes)
        logits = model(torch.randn(16, 100, 64))
        """

# DETR-style learned queries: an embedding's weight, a batch of one, against a batch of image features
_LEARNED_QUERIES = """
import torch
import torch.nn as nn

class Decoder(nn.Module):
    def __init__(self, dim=256, num_queries=10):
        super().__init__()
        self.query_embed = nn.Embedding(num_queries, dim)
        self.attn = nn.MultiheadAttention(dim, 8, batch_first=True)

    def forward(self, features):
        query = self.query_embed.weight.unsqueeze(0)%s
        out, _ = self.attn(query, features, features)
        return out

Decoder()(torch.randn(4, 196, 256))
"""

# a ResNet bottleneck whose shortcut is the input unless a downsample is given: `out += residual` in place
_BOTTLENECK = """
import torch
import torch.nn as nn

class Bottleneck(nn.Module):
    def __init__(self, inplanes, planes, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.conv2 = nn.Conv2d(planes, planes * 4, 1, bias=False)
        self.downsample = downsample

    def forward(self, x):
        residual = x
        out = self.conv2(torch.relu(self.conv1(x)))
        if self.downsample is not None:
            residual = self.downsample(x)
        out += residual
        return torch.relu(out)

block = Bottleneck(256, %s)
y = block(torch.randn(2, 256, 16, 16))
"""

_MASKED_SCORES = """
        import torch
        import torch.nn as nn

        class MHA(nn.Module):
            def __init__(self, d=64, h=8):
                super().__init__()
                self.h, self.dk = h, d // h
                self.qkv = nn.Linear(d, 3 * d)

            def forward(self, x, mask):
                B, T, _ = x.shape
                q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
                scores = q @ k.transpose(-2, -1) / self.dk ** 0.5
                scores = scores.masked_fill(%s == 0, float("-inf"))
                return scores.softmax(-1) @ v

        out = MHA()(torch.randn(3, 11, 64), torch.ones(3, 11))
        """


# attention weights that re-weight the tokens: averaged over the heads (B, T, T) they multiply the (B, T, D) tokens;
# per head (B, H, T, T) the batch dims (B, H) and (B,) don't broadcast
_ATTENTION_POOLING = """
        import torch
        import torch.nn as nn

        class AttentionPooling(nn.Module):
            def __init__(self, dim=64, heads=4):
                super().__init__()
                self.attn = nn.MultiheadAttention(dim, heads, batch_first=True)

            def forward(self, x):
                _, weights = self.attn(x, x, x%s)
                # each token re-weighted by how much the others attend to it
                return weights @ x

        pooled = AttentionPooling()(torch.randn(8, 20, 64))
        """

# an image captioner whose CNN features (B, 49, d) are the memory of a sequence-first decoder: tgt is (T, B, d)
_CAPTION_MEMORY = """
        import torch
        import torch.nn as nn

        class Captioner(nn.Module):
            def __init__(self, vocab=1000, d_model=256):
                super().__init__()
                self.embed = nn.Embedding(vocab, d_model)
                self.decoder = nn.TransformerDecoder(nn.TransformerDecoderLayer(d_model, 8), num_layers=2)
                self.out = nn.Linear(d_model, vocab)

            def forward(self, features, captions):
                tgt = self.embed(captions).permute(1, 0, 2)
                return self.out(self.decoder(tgt, features%s))

        logits = Captioner()(torch.randn(4, 49, 256), torch.randint(0, 1000, (4, 12)))
        """

_SHORTCUT_FREE_BLOCK = """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Block(nn.Module):
            def __init__(self, c_in: int, c_out: int, stride: int) -> None:
                super().__init__()
                self.conv = nn.Conv2d(c_in, c_out, 3, stride, 1)
                self.proj = nn.Conv2d(c_in, c_out, 1, stride) if stride != 1 or c_in != c_out else None

            def forward(self, x):
                return F.relu(self.conv(x) + (self.proj(x) if self.proj is not None else x))


        class Net(nn.Module):
            def __init__(self, num_classes: int = 10) -> None:
                super().__init__()
                self.stem = nn.Conv2d(3, 32, 3, 1, 1)
                self.layer1 = Block(32, 32, 1)
                self.layer2 = Block(32, 64, 2)
                self.fc = nn.Linear(%s, num_classes)

            def forward(self, x):
                x = self.layer2(self.layer1(self.stem(x)))
                return self.fc(torch.flatten(x, 1))


        logits = Net()(torch.randn(2, 3, 32, 32))
"""

_CHAR_WINDOWS = """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset


        class CharDataset(Dataset):
            def __init__(self, data: torch.Tensor, block_size: int) -> None:
                self.data = data
                self.block_size = block_size

            def __len__(self) -> int:
                return len(self.data) - self.block_size

            def __getitem__(self, idx: int):
                chunk = self.data[idx:idx + self.block_size + 1]
                return chunk[:-1], chunk[1:]


        class TinyLM(nn.Module):
            def __init__(self, vocab: int, d: int, block_size: int) -> None:
                super().__init__()
                self.tok = nn.Embedding(vocab, d)
                self.attn = nn.MultiheadAttention(d, 4, batch_first=True)
                self.register_buffer("causal", torch.triu(torch.ones(block_size, block_size, dtype=torch.bool), 1))
                self.head = nn.Linear(d, vocab)

            def forward(self, idx: torch.Tensor) -> torch.Tensor:
                h = self.tok(idx)
                h, _ = self.attn(h, h, h, attn_mask=%s)
                return self.head(h)


        text = torch.randint(0, 65, (1000,))
        loader = DataLoader(CharDataset(text, 64), batch_size=8, shuffle=True)
        model = TinyLM(65, 32, block_size=128)
        for x, y in loader:
            logits = model(x)
            break
"""


_FOLD_LOADERS = """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset


        def evaluate(model: nn.Module, loader: DataLoader) -> int:
            correct = 0
            with torch.no_grad():
                for images, labels in loader:
                    correct += int((model(images).argmax(1) == labels).sum())
            return correct


        frames = torch.rand(120, 48, 48, 3)  # video frames, channels last
        labels = torch.randint(0, 5, (120,))
        folds = [DataLoader(TensorDataset(frames%s[:40], labels[:40]), batch_size=20) for _ in range(3)]
        model = nn.Sequential(nn.Conv2d(3, 16, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 5))
        scores = [evaluate(model, loader) for loader in folds]
"""


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the width of a lucidrains-style ViT
# whose attention splits it into 8 heads with einops (`rearrange(..., "b n (h d) -> b h n d", h=8)`).
_EINOPS_VIT = """
import torch
from torch import nn
from einops import rearrange, repeat, reduce


class Attention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x):
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = [rearrange(t, "b n (h d) -> b h n d", h=self.heads) for t in qkv]
        attn = (q @ k.transpose(-1, -2) * self.scale).softmax(dim=-1)
        return self.to_out(rearrange(attn @ v, "b h n d -> b n (h d)"))


class ViT(nn.Module):
    def __init__(self, dim=%s, patch=4, classes=10):
        super().__init__()
        self.patch = patch
        self.to_tokens = nn.Linear(patch * patch * 3, dim)
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.attn = Attention(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, img):
        x = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=self.patch, p2=self.patch)
        x = self.to_tokens(x)
        x = torch.cat((repeat(self.cls_token, "() n d -> b n d", b=x.shape[0]), x), dim=1)
        x = self.attn(x)
        return self.head(reduce(x, "b n d -> b d", "mean"))


logits = ViT()(torch.randn(2, 3, 32, 32))
"""


# Examples written once for a VALID look-alike and its INVALID twin: `%s` is the in-features of the Linear after
# einops' `Rearrange` cuts 224-pixel RGB images into 16 x 16 patches.
_EINOPS_PATCHES = """
import torch
from torch import nn
from einops.layers.torch import Rearrange, Reduce

model = nn.Sequential(
    Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16),
    nn.Linear(%s, 256),
    Reduce("b n d -> b d", "mean"),
    nn.Linear(256, 10),
)
logits = model(torch.randn(8, 3, 224, 224))
"""

# darknet's `create_modules` (YOLOv3 ports): each block an empty `nn.Sequential()` the loop over the config list fills
# with `add_module`, kept in a ModuleList that `forward` runs in turn; `%s` is the image channels the net is built for
_DARKNET_BLOCKS = """
import torch
import torch.nn as nn

MODULE_DEFS = [
    {"type": "convolutional", "filters": 16, "size": 3, "stride": 1},
    {"type": "maxpool", "size": 2, "stride": 2},
    {"type": "convolutional", "filters": 32, "size": 3, "stride": 1},
]

class Darknet(nn.Module):
    def __init__(self, in_channels):
        super().__init__()
        self.module_list = nn.ModuleList()
        output_filters = [in_channels]
        for module_def in MODULE_DEFS:
            modules = nn.Sequential()
            if module_def["type"] == "convolutional":
                filters, size = module_def["filters"], module_def["size"]
                modules.add_module("conv", nn.Conv2d(output_filters[-1], filters, size, module_def["stride"],
                                                     padding=(size - 1) // 2))
                modules.add_module("leaky", nn.LeakyReLU(0.1))
            else:
                filters = output_filters[-1]
                modules.add_module("maxpool", nn.MaxPool2d(module_def["size"], module_def["stride"]))
            self.module_list.append(modules)
            output_filters.append(filters)

    def forward(self, x):
        for module in self.module_list:
            x = module(x)
        return x

frames = torch.rand(4, 1, 64, 64)  # a line-scan camera's grayscale frames
features = Darknet(%s)(frames)
"""

# a script's `main(argv=None)` parses `argv` in a helper; `%s` is what its `__main__` block hands `main`
_ARGV_MAIN = """
import argparse
import torch
import torch.nn as nn

def parse_args(argv=None):
    parser = argparse.ArgumentParser(description="classify 8x8 tiles")
    parser.add_argument("--tile", type=int, default=8)
    return parser.parse_args(argv)

def main(argv=None):
    args = parse_args(argv)
    head = nn.Linear(3 * 16 * 16, 10)
    tiles = torch.rand(2, 3, args.tile, args.tile)
    return head(tiles.flatten(1))

if __name__ == "__main__":
    main(%s)
"""


# A VALID look-alike and its INVALID twin: switchable normalization mixes the statistics with weights `__init__` sizes
# under a constructor flag (3 with batch statistics, 2 without); `%s` is the size with them.
_SWITCHABLE_MIX = """
import torch
import torch.nn as nn

class SwitchNorm(nn.Module):
    def __init__(self, using_bn=True):
        super().__init__()
        self.using_bn = using_bn
        if self.using_bn:
            self.mean_weight = nn.Parameter(torch.ones(%s))
        else:
            self.mean_weight = nn.Parameter(torch.ones(2))

    def forward(self, x):
        mean_in = x.mean(-1, keepdim=True)
        mean_ln = mean_in.mean(1, keepdim=True)
        mean_bn = mean_in.mean(0, keepdim=True)
        mean_weight = torch.softmax(self.mean_weight, 0)
        if self.using_bn:
            return mean_weight[0] * mean_in + mean_weight[1] * mean_ln + mean_weight[2] * mean_bn
        return mean_weight[0] * mean_in + mean_weight[1] * mean_ln
"""


class ShapeMismatch(Rule):
    code = "SC105"
    name = "shape-mismatch"
    raises = True  # not reported where a test expects the error
    message = "shapes cannot fit: this raises at run time"
    triggers = ("torch",)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds operations whose operand shapes, as the code states them, cannot fit, so that they raise at run time:
        - a layer applied to a tensor whose feature size differs from the layer's: consecutive `nn.Linear` layers
          whose sizes do not meet, a `Flatten` or conv stack into a Linear with the wrong `in_features`, a conv or
          norm given the wrong number of channels, an RNN or `LayerNorm` given the wrong last dim;
        - `@` / `matmul` / `mm` / `bmm` whose inner dims differ, `mm` of a tensor that is not 2-D, `bmm` of one that is
          not 3-D or of batches of different sizes (neither broadcasts);
        - `torch.cat` whose tensors differ outside the cat dim, `torch.stack` of tensors of different shapes;
        - a regression loss (`mse_loss`, `l1_loss`, `smooth_l1_loss`, `huber_loss`, or its `nn` module) whose input and
          target cannot broadcast;
        - elementwise ops and masks whose dims cannot broadcast (two different literals, two different names of a
          jaxtyping annotation);
        - a `view` / `reshape` whose element count cannot match the tensor's;
        - an einops `rearrange` / `repeat` / `reduce` (or `Rearrange` / `Reduce` layer) whose pattern the input
          cannot match: another number of dims (without `...`), a group `(h d)` whose sizes cannot multiply to its
          dim (`h=8` of a width of 500);
        - an `expand` / `expand_as` that would stretch a dim that is not 1 (sizes line up from the right), or that
          puts -1 in a new leading dim.

        Shapes come from the engine's shape analysis: jaxtyping annotations, `B, T, C = x.shape`, constructors like
        `torch.randn(64, 1, 28, 28)`, layers built in `__init__` or at module level, and a model's own `forward`
        when `model(x)` is called in the same file. Sizes the code does not state are unknown, and an unknown size
        never conflicts: `nn.Linear(d_in, d_h)` followed by `nn.Linear(d_h, d_out)` meet, and so does
        `nn.Linear(d_in, 64)` followed by `nn.Linear(d, 10)` as far as shapecheck can tell.

        A model called on every pass of a loop over a `DataLoader` whose dataset's length is no multiple of the batch
        size (both literals, no `drop_last`, no sampler) also runs on the short last batch: a hidden state or a
        `view` sized by the configured batch size fails there, on every epoch ("on the last batch, of 3 rows").

        ## Why is this bad?
        "Most bugs in the course are shape bugs." The primer's troubleshooting table puts "RuntimeError: mat1 and
        mat2 shapes cannot be multiplied" first: the "input tensor shape does not match the layer's expected input
        dimension", and its fix is to "print shapes with print(x.shape) before each layer; ensure you flatten or
        reshape correctly". shapecheck does that printing for you, before the run: the conv stack's output size,
        what `Flatten` makes of it, what the next Linear expects. The same goes for broadcasting ("a (B,) tensor
        is not the same as a (B, 1) tensor when the other operand is (B, D)"), for `cat` ("Other dims must
        match") and `stack` ("Inputs must all have the same shape").

        ## Example
        ```python
        class ConvNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(1, 32, 3, 1)
                self.conv2 = nn.Conv2d(32, 64, 3, 1)
                self.pool = nn.MaxPool2d(2)
                self.fc1 = nn.Linear(64 * 14 * 14, 128)   # 28 -> 26 -> 24 -> pool -> 12, not 14

            def forward(self, x):
                x = self.pool(F.relu(self.conv2(F.relu(self.conv1(x)))))
                return self.fc1(torch.flatten(x, 1))

        model = ConvNet()
        out = model(torch.randn(64, 1, 28, 28))   # SC105: x has 9216 features, self.fc1 expects 12544

        def logits(h: Float[Tensor, "B T D"], w: Float[Tensor, "V D"]):
            return h @ w                          # SC105: inner dims differ: did you mean `w.T`?
        ```

        ## Use instead
        ```python
                self.fc1 = nn.Linear(64 * 12 * 12, 128)

        def logits(h: Float[Tensor, "B T D"], w: Float[Tensor, "V D"]):
            return h @ w.T
        ```

        There is no fix: which of the two sizes is wrong is the author's call.
    """
    VALID = [
        # a pydantic store's field default is what it holds until `add` first grows it: the reads in `add` are of
        # whatever the earlier calls left, the default is no size of the method's
        """
        import torch
        from jaxtyping import Float
        from pydantic import BaseModel, ConfigDict
        from torch import Tensor

        class ActivationStore(BaseModel):
            model_config = ConfigDict(arbitrary_types_allowed=True)

            acts: Float[Tensor, "batch seq hidden"] = torch.empty(0, 128, 512)

            def add(self, acts: Float[Tensor, "batch seq hidden"]) -> None:
                self.acts = torch.cat([self.acts, acts.cpu()])
        """,
        # a regression head as wide as its targets
        _REGRESSION_HEAD % "2",
        # mixing weights sized 3 or 2 on the flag: `forward` reads either, so their size is unknown there
        _SWITCHABLE_MIX % "3",
        # the same under a closure: the function around it binds the weights on two branches
        """
        import torch

        def make_mixer(three):
            if three:
                w = torch.softmax(torch.ones(3), 0)
            else:
                w = torch.softmax(torch.ones(2), 0)

            def mix(a, b, c):
                if three:
                    return w[0] * a + w[1] * b + w[2] * c
                return w[0] * a + w[1] * b
            return mix
        """,
        # a width a builder doubles on its config between two layers: the reads on either side are two sizes
        """
        import torch
        import torch.nn as nn

        def build_head(cfg):
            first = nn.Linear(8, cfg.hidden)
            cfg.hidden = cfg.hidden * 2
            second = nn.Linear(cfg.hidden, 4)
            h = first(torch.randn(2, 8))
            return second(torch.cat([h, h], dim=1))
        """,
        # a project loader's window set again from outside its class before the loop (`loader.window = 16`)
        """
        import torch
        import torch.nn as nn

        class SlidingWindows:
            def __init__(self, series, window=32):
                self.series = series
                self.window = window

        loader = SlidingWindows(torch.randn(1000))
        loader.window = 16
        head = nn.Linear(16, 1)
        forecast = head(loader.series[: loader.window].unsqueeze(0))
        """,
        # the feature columns a registering helper appends to a module-level list: not the empty list it started as
        """
        import torch
        import torch.nn as nn

        FEATURES = []

        def register(name):
            FEATURES.append(name)

        register("age")
        register("income")
        head = nn.Linear(2, 1)
        scores = head(torch.randn(8, len(FEATURES)))
        """,
        # tabular data made with numpy, as many columns as the first layer takes
        _NUMPY_FEATURES % "4",
        # windows of a (time, axes) recording turned channels-first, copied into C order
        _HAR_WINDOWS % "self.signal[start:start + self.window].T.copy()",
        _HAR_WINDOWS % "np.ascontiguousarray(self.signal[start:start + self.window].T)",
        # a price column and a one-hot color: 1 + 3 columns
        _ONEHOT_TABLE % "1 + len(COLORS)",
        # the width of the junctions' features: five kinds one-hot and a degree
        _JUNCTION_GRAPH % "x.shape[1]",
        _JUNCTION_GRAPH % "x.shape[-1]",
        _LOADER_BIRNN % "hidden_size * 2",
        # the encoder's two directions brought back to the decoder's size before it attends over them
        _GREEDY_TRANSLATOR % "self.bridge(encoded)",
        _LENET_MNIST % "transforms.Resize((32, 32)), ",
        _CIFAR_CNN % "16 * 5 * 5",
        # a stereo dataset's item (`idx: int` drops the first dim) split along its 6 stacked channels
        _STEREO_DATASET % "0",
        # a VAE head's mean and log-variance, 16 features each of the 32 its layer gives
        _VAE_SECTIONS % "(16, 16)",
        # a bilinear score of each pair of rows
        _PAIR_SCORER % "bid,bjd->bij",
        # open-mmlab/mmpretrain's tests: a call that must fail, under `pytest.raises`
        """
        import pytest
        import torch

        def channel_shuffle(x, groups):
            batch_size, num_channels, height, width = x.size()
            assert num_channels % groups == 0, "num_channels should be divisible by groups"
            channels_per_group = num_channels // groups
            x = x.view(batch_size, groups, channels_per_group, height, width)
            return torch.transpose(x, 1, 2).contiguous().view(batch_size, -1, height, width)

        def test_channel_shuffle():
            x = torch.randn(1, 24, 56, 56)
            with pytest.raises(AssertionError):
                channel_shuffle(x, 7)
        """,
        # nanoGPT's bigram model: token ids drawn from the vocabulary the embedding table is built with, and ids of a
        # larger range folded into it
        """
        import torch
        import torch.nn as nn

        vocab_size, n_embd = 65, 32

        class BigramLanguageModel(nn.Module):
            def __init__(self, vocab_size):
                super().__init__()
                self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
                self.lm_head = nn.Linear(n_embd, vocab_size)

            def forward(self, idx):
                return self.lm_head(self.token_embedding_table(idx))

        model = BigramLanguageModel(vocab_size)
        data = torch.randint(0, vocab_size, (1000,))
        logits = model(data[:32].view(4, 8))
        raw = torch.randint(0, 1000, (32,))
        folded = model((raw % vocab_size).view(4, 8))
        """,
        # jfzhang95/pytorch-deeplab-xception's ResNet: `_make_layer` builds each stage's downsample from
        # `self.inplanes` and then moves it on, so each stage's first conv reads the value of its own call
        """
        import torch
        import torch.nn as nn

        class Bottleneck(nn.Module):
            def __init__(self, inplanes, planes, downsample=None):
                super().__init__()
                self.conv = nn.Conv2d(inplanes, planes * 4, 1)
                self.downsample = downsample

            def forward(self, x):
                residual = x if self.downsample is None else self.downsample(x)
                return self.conv(x) + residual

        class ResNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.inplanes = 64
                self.layer1 = self._make_layer(64)
                self.layer2 = self._make_layer(128)

            def _make_layer(self, planes):
                downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes * 4, 1), nn.BatchNorm2d(planes * 4))
                layers = [Bottleneck(self.inplanes, planes, downsample)]
                self.inplanes = planes * 4
                return nn.Sequential(*layers)

            def forward(self, x):
                return self.layer2(self.layer1(x))

        model = ResNet()
        out = model(torch.randn(1, 64, 8, 8))
        """,
        # the Luong attention step as written: 2-D weights made a batch of one-row matrices first
        """
        import torch
        import torch.nn.functional as F

        encoder_outputs = torch.randn(4, 9, 32)
        weights = F.softmax(torch.randn(4, 9), dim=1)
        context = weights.unsqueeze(1).bmm(encoder_outputs).squeeze(1)
        projected = torch.mm(context, torch.randn(32, 10))
        """,
        # kuangliu/pytorch-cifar's ResNeXt: each stage built by a method that moves `self.in_planes` on and doubles
        # the width
        """
        import torch
        import torch.nn as nn


        class Block(nn.Module):
            expansion = 2

            def __init__(self, in_planes, width):
                super().__init__()
                self.conv1 = nn.Conv2d(in_planes, width, 1)
                self.conv3 = nn.Conv2d(width, self.expansion * width, 1)

            def forward(self, x):
                return self.conv3(self.conv1(x))


        class Net(nn.Module):
            def __init__(self, num_blocks, width):
                super().__init__()
                self.width = width
                self.in_planes = 64
                self.layer1 = self._make_layer(num_blocks[0])
                self.layer2 = self._make_layer(num_blocks[1])
                self.layer3 = self._make_layer(num_blocks[2])

            def _make_layer(self, num_blocks):
                layers = []
                for _ in range(num_blocks):
                    layers.append(Block(self.in_planes, self.width))
                    self.in_planes = Block.expansion * self.width
                self.width *= 2
                return nn.Sequential(*layers)

            def forward(self, x):
                return self.layer3(self.layer2(self.layer1(x)))


        net = Net([3, 3, 3], 64)
        y = net(torch.randn(1, 64, 8, 8))
        """,
        # kuangliu/pytorch-cifar's ShuffleNet: a block that concatenates its shortcut when it downsamples and adds it
        # otherwise; the branch of `a if test else b` the test doesn't pick is not checked
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Bottleneck(nn.Module):
            def __init__(self, in_planes, out_planes, stride):
                super().__init__()
                self.stride = stride
                self.conv = nn.Conv2d(in_planes, out_planes, 3, stride=stride, padding=1)
                self.shortcut = nn.AvgPool2d(3, stride=2, padding=1) if stride == 2 else nn.Identity()

            def forward(self, x):
                out = self.conv(x)
                res = self.shortcut(x)
                return F.relu(torch.cat([out, res], 1)) if self.stride == 2 else F.relu(out + res)

        layers = []
        in_planes = 24
        for i in range(3):
            stride = 2 if i == 0 else 1
            cat_planes = in_planes if i == 0 else 0
            layers.append(Bottleneck(in_planes, 200 - cat_planes, stride))
            in_planes = 200
        y = nn.Sequential(*layers)(torch.randn(1, 24, 32, 32))
        """,
        # a padding mask made (B, 1, 1, T) for the (B, H, T, T) scores of a `q, k, v = qkv` unpacking
        _MASKED_SCORES % "mask[:, None, None, :]",
        _ATTENTION_POOLING % "",
        # the features made sequence-first, as the decoder's tgt
        _CAPTION_MEMORY % ".permute(1, 0, 2)",
        # a Dataset class of the project whose samples fit the model
        _PROJECT_DATASET % "1",
        _LEARNED_QUERIES % ".expand(features.size(0), -1, -1)",
        _FROM_CONFIG_PARALLEL % "20",
        _NAMESPACE_CONFIG % "64",
        # a pretrained model's classmethod reads its sizes from a JSON file: nothing the code states, nothing known
        """
        import json
        import torch
        import torch.nn as nn

        class Classifier(nn.Module):
            def __init__(self, in_dim, n_classes):
                super().__init__()
                self.fc = nn.Linear(in_dim, n_classes)

            @classmethod
            def from_pretrained(cls, path):
                with open(f"{path}/config.json") as f:
                    model = cls(**json.load(f))
                model.load_state_dict(torch.load(f"{path}/model.pt"))
                return model

            def forward(self, x):
                return self.fc(x)

        model = torch.compile(Classifier.from_pretrained("checkpoints/best"))
        logits = model(torch.randn(4, 768))
        """,
        _BOTTLENECK % "64",
        _BOTTLENECK % "128, downsample=nn.Conv2d(256, 512, 1)",
        # a config's size computed by a property (llama-style `ModelArgs`)
        _CONFIG_PROPERTY % "args.d_ff",
        # the position table sized by the frames the config's batches have
        _GENERATED_SPECTROGRAMS % ", n_frames=cfg.n_frames",
        # a batch iterator class whose generator `__iter__` moves the channels to dim 1, on every batch or on each
        # branch of a jittering one
        _WINDOW_BATCHES % "yield self.windows[idx].transpose(1, 2), self.labels[idx]",
        _WINDOW_BATCHES % ("x = self.windows[idx].transpose(1, 2)\n"
                           "                    if self.jitter:\n"
                           "                        yield x + 0.05 * torch.randn_like(x), self.labels[idx]\n"
                           "                    else:\n"
                           "                        yield x, self.labels[idx]"),
        # a model sized by a nested config section, its GRU state laid out layers first
        _NESTED_CONFIG % "self.layers, x.size(0)",
        # every parsed option spread into the constructor, the head built on the LSTM's width
        _SPREAD_ARGS % "hidden",
        _INIT_HIDDEN % "self.nhid",
        _TGT_MASK % "tgt_in",
        # a Sequential subclass that also sets its head as an attribute: torch registers it, and the head runs after
        # the layers handed to the constructor (timm's and torchvision's classifier blocks do this)
        """
        import torch
        import torch.nn as nn

        class Trunk(nn.Sequential):
            def __init__(self, in_dim, hidden, num_classes):
                super().__init__(nn.Linear(in_dim, hidden), nn.ReLU())
                self.head = nn.Linear(hidden, num_classes)

        logits = Trunk(20, 64, 5)(torch.randn(8, 20))
        probs = nn.Linear(5, 1)(logits.softmax(-1))
        """,
        # re-ID features saved with `scipy.io.savemat` and read back: the legacy constructor copies the (N, 512)
        # matrix it is handed (read as N elements, a 1-D tensor, `torch.mm` would not take it)
        """
        import scipy.io
        import torch

        result = scipy.io.loadmat("pytorch_result.mat")
        query_feature = torch.FloatTensor(result["query_f"])
        gallery_feature = torch.FloatTensor(result["gallery_f"])
        score = torch.mm(gallery_feature, query_feature[0].view(-1, 1))
        """,
        # DeepLab's residual stage: a Sequential subclass whose blocks `add_module` names in a loop over a count from
        # the config, so the channels it gives are not known (not the input's, as an empty Sequential would pass)
        """
        import torch.nn as nn

        class _Bottleneck(nn.Sequential):
            def __init__(self, in_ch, out_ch):
                super(_Bottleneck, self).__init__(nn.Conv2d(in_ch, out_ch // 4, 1), nn.Conv2d(out_ch // 4, out_ch, 1))

        class _ResLayer(nn.Sequential):
            def __init__(self, n_layers, in_ch, out_ch):
                super(_ResLayer, self).__init__()
                for i in range(n_layers):
                    self.add_module("block{}".format(i + 1), _Bottleneck(in_ch if i == 0 else out_ch, out_ch))

        class DeepLabV3Plus(nn.Module):
            def __init__(self, n_blocks):
                super(DeepLabV3Plus, self).__init__()
                self.layer1 = nn.Conv2d(3, 64, 7, 2, 3)
                self.layer2 = _ResLayer(n_blocks[0], 64, 256)
                self.reduce = nn.Conv2d(256, 48, 1)

            def forward(self, x):
                h = self.layer1(x)
                h = self.layer2(h)
                return self.reduce(h)
        """,
        # a recurrent cell's default state, made with the cell's hidden size when the caller gives none
        _DECODER_CELL % "self.hidden",
        # a (batch, channels, time) waveform resampled to a length
        _RESAMPLER % "self.length",
        # segmentation logits upsampled to the (height, width) a config states, kept on the instance
        _SEGMENTATION_RESIZE % "(512, 512)",
        _SEGMENTATION_RESIZE % "512",
        # patches cut with unfold, flattened to the (patch, patch, channels) the projection takes
        _UNFOLD_PATCHES % "3",
        _UPSAMPLING_DECODER % "(128, 128)",
        # a bidirectional GRU's two final states, forward and backward, joined
        _RNN_LAST_STATE % "True",
        # nanoGPT's attention: heads split with view/transpose, scores and values multiplied back.
        """
        import math
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class CausalSelfAttention(nn.Module):
            def __init__(self, config):
                super().__init__()
                self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
                self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
                self.n_head = config.n_head
                self.n_embd = config.n_embd

            def forward(self, x):
                B, T, C = x.size()
                q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
                k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
                att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
                att = F.softmax(att, dim=-1)
                y = att @ v
                y = y.transpose(1, 2).contiguous().view(B, T, C)
                return self.c_proj(y)
        """,
        # pytorch/examples mnist: 28 -> conv 3 -> 26 -> conv 3 -> 24 -> pool 2 -> 12, and 64 * 12 * 12 = 9216.
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class Net(nn.Module):
            def __init__(self):
                super(Net, self).__init__()
                self.conv1 = nn.Conv2d(1, 32, 3, 1)
                self.conv2 = nn.Conv2d(32, 64, 3, 1)
                self.dropout1 = nn.Dropout(0.25)
                self.fc1 = nn.Linear(9216, 128)
                self.fc2 = nn.Linear(128, 10)

            def forward(self, x):
                x = F.relu(self.conv1(x))
                x = F.relu(self.conv2(x))
                x = F.max_pool2d(x, 2)
                x = self.dropout1(x)
                x = torch.flatten(x, 1)
                x = F.relu(self.fc1(x))
                return F.log_softmax(self.fc2(x), dim=1)

        model = Net()
        output = model(torch.randn(64, 1, 28, 28))
        """,
        # pytorch/examples mnist_rnn: rows of the image through a batch-first LSTM, the last step to the head.
        """
        import torch.nn as nn
        import torch.nn.functional as F

        class Net(nn.Module):
            def __init__(self):
                super(Net, self).__init__()
                self.rnn = nn.LSTM(input_size=28, hidden_size=64, batch_first=True)
                self.batchnorm = nn.BatchNorm1d(64)
                self.dropout1 = nn.Dropout2d(0.25)
                self.fc1 = nn.Linear(64, 32)
                self.fc2 = nn.Linear(32, 10)

            def forward(self, input):
                input = input.reshape(-1, 28, 28)
                output, hidden = self.rnn(input)
                output = output[:, -1, :]
                output = self.batchnorm(output)
                output = self.dropout1(output)
                output = F.relu(self.fc1(output))
                return F.log_softmax(self.fc2(output), dim=1)
        """,
        # pytorch/examples dcgan: channel counts written as arithmetic on one name meet.
        """
        import torch.nn as nn

        class Generator(nn.Module):
            def __init__(self, nz, ngf, nc):
                super(Generator, self).__init__()
                self.main = nn.Sequential(
                    nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False),
                    nn.BatchNorm2d(ngf * 8),
                    nn.ReLU(True),
                    nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
                    nn.BatchNorm2d(ngf * 4),
                    nn.ReLU(True),
                    nn.ConvTranspose2d(ngf * 4, nc, 4, 2, 1, bias=False),
                    nn.Tanh(),
                )

            def forward(self, input):
                return self.main(input)
        """,
        # timm's Mlp: sizes that are constructor parameters are unknown, never guessed.
        """
        from torch import nn as nn

        class Mlp(nn.Module):
            def __init__(self, in_features, hidden_features=None, out_features=None, act_layer=nn.GELU,
                         norm_layer=None):
                super().__init__()
                out_features = out_features or in_features
                hidden_features = hidden_features or in_features
                self.fc1 = nn.Linear(in_features, hidden_features)
                self.act = act_layer()
                self.norm = norm_layer(hidden_features) if norm_layer is not None else nn.Identity()
                self.fc2 = nn.Linear(hidden_features, out_features)

            def forward(self, x):
                return self.fc2(self.norm(self.act(self.fc1(x))))
        """,
        # timm's classifier heads are swapped by reset_classifier: the layer is not known for certain.
        """
        import torch.nn as nn

        class Head(nn.Module):
            def __init__(self, num_features, num_classes=1000):
                super().__init__()
                self.fc = nn.Linear(num_features, num_classes) if num_classes > 0 else nn.Identity()

            def reset_classifier(self, num_classes):
                self.fc = nn.Linear(768, num_classes)

            def forward(self, x):
                return self.fc(x)
        """,
        # The primer's own examples.
        """
        import torch
        a = torch.randn(3, 1, 4)
        b = torch.randn(2, 4)
        c = a + b
        x = torch.arange(24)
        y = x.view(2, 3, 4)
        z = x.view(-1, 4)
        s = torch.stack([torch.zeros(4), torch.zeros(4), torch.zeros(4)], dim=0)
        t = torch.cat([torch.zeros(4), torch.zeros(4)], dim=0)
        """,
        # lightning-tutorials' normalizing flows: the `else` branch would fail on this image, but the call does not
        # take it; a branch of `forward` the call may skip proves nothing
        """
        import torch
        import torch.nn as nn
        class SqueezeFlow(nn.Module):
            def forward(self, z, ldj, reverse=False):
                B, C, H, W = z.shape
                if not reverse:
                    z = z.reshape(B, C, H // 2, 2, W // 2, 2)
                    z = z.permute(0, 1, 3, 5, 2, 4)
                    z = z.reshape(B, 4 * C, H // 2, W // 2)
                else:
                    z = z.reshape(B, C // 4, 2, 2, H, W)
                    z = z.permute(0, 1, 4, 2, 5, 3)
                    z = z.reshape(B, C // 4, H * 2, W * 2)
                return z, ldj
        sq_flow = SqueezeFlow()
        rand_img = torch.arange(1, 17).view(1, 1, 4, 4)
        forward_img, _ = sq_flow(rand_img, ldj=None, reverse=False)
        """,
        # pytorch/tutorials polynomial regression: the exponents broadcast against a column, (2000, 1) ** (3,)
        """
        import math
        import torch
        x = torch.linspace(-math.pi, math.pi, 2000)
        p = torch.tensor([1, 2, 3])
        xx = x.unsqueeze(-1).pow(p)
        model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
        y_pred = model(xx)
        """,
        # blocks built into a Sequential that the file never runs: nothing to check them against
        """
        import torch.nn as nn

        class Block(nn.Module):
            def __init__(self, width=64):
                super().__init__()
                self.fc = nn.Linear(width, width)

            def forward(self, x):
                return self.fc(x)

        trunk = nn.Sequential(Block(), Block())
        """,
        # detection heads kept in a Sequential (kornia's YuNet): the code only takes them out one per level,
        # so the chain of heads, whose widths could not follow each other, is never run
        """
        import torch.nn as nn

        class ConvBlock(nn.Module):
            def __init__(self, c_in, c_out):
                super().__init__()
                self.conv = nn.Conv2d(c_in, c_out, 3, padding=1)

            def forward(self, x):
                return self.conv(x)

        class Detector(nn.Module):
            def __init__(self):
                super().__init__()
                self.stem = ConvBlock(3, 64)
                self.head = nn.Sequential(
                    ConvBlock(64, 3 * (14 + 2 + 1)),
                    ConvBlock(64, 2 * (14 + 2 + 1)),
                    ConvBlock(64, 3 * (14 + 2 + 1)),
                )

            def forward(self, x):
                feats = [self.stem(x)] * len(self.head)
                out = [head(f) for head, f in zip(self.head, feats)]
                for i, h in enumerate(self.head):
                    out[i] = out[i] + h(feats[i])
                return out, self.head[0](feats[0])
        """,
        # the sizes unpacked as the tensor has them, and a starred rest
        """
        import torch
        image = torch.randn(2, 3, 8, 8)
        B, C, H, W = image.shape
        b, *rest = image.shape
        h, w = image.shape[-2:]
        """,
        # chenyuntc/pytorch-book, chapter 6: two index tensors broadcast together to one dim, (4,) here
        """
        import torch as t
        a = t.arange(12).view(3, 4)
        rows = t.tensor([[1, 2], [0, 1]])
        cols = t.tensor([[3, 1], [2, 2]])
        a[rows.view(-1), cols.view(-1)].view(2, 2)
        """,
        # a causal mask cut to the query and key lengths, and a per-sample padding mask over the keys
        """
        import torch
        import torch.nn.functional as F
        B, H, T, S = 2, 4, 16, 20
        q, k, v = torch.randn(B, H, T, 32), torch.randn(B, H, S, 32), torch.randn(B, H, S, 32)
        causal = torch.ones(S, S, dtype=torch.bool).tril()[:T]
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(B, 1, 1, S, dtype=torch.bool))
        """,
        # an nn.Sequential subclass whose layers meet
        """
        import torch.nn as nn

        class ProjectionHead(nn.Sequential):
            def __init__(self, in_dim, hidden=512, out_dim=128):
                super().__init__(nn.Linear(in_dim, hidden), nn.BatchNorm1d(hidden), nn.ReLU(), nn.Linear(hidden, out_dim))
        """,
        # a decoding cache that starts as an empty 1-D tensor: torch.cat skips it, whatever the other ranks
        """
        import torch
        import torch.nn as nn


        def split_heads(x, dim_per_head):
            b, n, _ = x.size()
            return x.view(b, n, -1, dim_per_head).transpose(1, 2)


        class CachedSelfAttention(nn.Module):
            def __init__(self, dim, heads):
                super().__init__()
                self.dim_per_head = dim // heads
                self.to_k = nn.Linear(dim, dim)
                self.layer_cache = {"keys": torch.tensor([])}

            def forward(self, x):
                k = split_heads(self.to_k(x), self.dim_per_head)
                k = torch.cat((self.layer_cache["keys"], k), dim=2)
                self.layer_cache["keys"] = k
                return k
        """,
        # the cache is filled at the first decoding step and read at the later ones
        """
        import torch
        import torch.nn as nn


        class CachedAttention(nn.Module):
            def __init__(self, dim, heads):
                super().__init__()
                self.heads = heads
                self.to_k = nn.Linear(dim, dim)
                self.layer_cache = (False, {"keys": torch.tensor([])})

            def forward(self, x, step=0):
                b, n, d = x.shape
                k = self.to_k(x).view(b, n, self.heads, d // self.heads).transpose(1, 2)
                if step == 0:
                    self.layer_cache[1]["keys"] = k
                else:
                    k = torch.cat((self.layer_cache[1]["keys"].transpose(1, 2), k.transpose(1, 2)), dim=1)
                return k
        """,
        # a Lua port's ConcatTable: an nn.Sequential subclass whose forward feeds every branch the same input
        """
        import torch.nn as nn
        from functools import reduce


        class TableBase(nn.Sequential):
            def __init__(self, *modules):
                super().__init__(*modules)

            def branch_outputs(self, x):
                return [module(x) for module in self._modules.values()]


        class ConcatTable(TableBase):
            def forward(self, x):
                return self.branch_outputs(x)


        class CAddTable(TableBase):
            def forward(self, xs):
                return reduce(lambda a, b: a + b, xs)


        stem = nn.Sequential(
            nn.Conv2d(3, 64, 7, 2, 3, bias=False),
            nn.BatchNorm2d(64),
            nn.ReLU(),
            ConcatTable(
                nn.Sequential(nn.Conv2d(64, 128, 1, bias=False), nn.Conv2d(128, 256, 3, padding=1, bias=False)),
                nn.Conv2d(64, 256, 1, bias=False),
            ),
            CAddTable(),
            nn.ReLU(),
        )
        """,
        # Q-values of the actions taken, and the log-probabilities of sampled tokens: index of the tensor's rank
        """
        import torch
        import torch.nn as nn

        q_net = nn.Linear(4, 2)
        actions = torch.randint(0, 2, (32,))
        q = q_net(torch.randn(32, 4)).gather(1, actions.unsqueeze(1)).squeeze(1)
        log_probs = torch.randn(8, 10, 50).log_softmax(-1)
        tokens = torch.randint(0, 50, (8, 10))
        picked = torch.gather(log_probs, -1, tokens[..., None]).squeeze(-1)
        """,
        # ParallelWaveGAN-style multi-resolution STFT loss: both spectrograms framed with the same hop, the
        # image mask built by meshgrid at the full-spectrum size
        """
        import torch
        import torch.nn.functional as F

        def stft_mag(x, fft_size, hop, win):
            window = torch.hann_window(win)
            spec = torch.stft(x, fft_size, hop, win, window, return_complex=True)
            return spec.abs().clamp(min=1e-7)

        def spectral_loss(pred, target):
            total = 0.0
            for fft_size, hop, win in ((1024, 120, 600), (2048, 240, 1200), (512, 50, 240)):
                p, t = stft_mag(pred, fft_size, hop, win), stft_mag(target, fft_size, hop, win)
                total = total + torch.norm(t - p, p="fro") / torch.norm(t, p="fro") + F.l1_loss(p.log(), t.log())
            return total

        def highpass(img, radius=8):
            b, c, h, w = img.shape
            yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            mask = (((yy - h // 2) ** 2 + (xx - w // 2) ** 2) > radius ** 2).float()
            spec = torch.fft.fftshift(torch.fft.fft2(img), dim=(-2, -1)) * mask
            return torch.fft.ifft2(torch.fft.ifftshift(spec, dim=(-2, -1))).real

        loss = spectral_loss(torch.randn(2, 16000), torch.randn(2, 16000))
        out = highpass(torch.rand(4, 3, 64, 64))
        """,
        # the same weight map given its channel dim where the channels are: (N, 1, H, W) against (N, C, H, W)
        """
        import torch

        logits = torch.randn(4, 3, 16, 16)
        weight_map = torch.rand(4, 16, 16)
        weights = weight_map.unsqueeze(1).expand_as(logits)
        context = torch.randn(4, 32).unsqueeze(1).expand(-1, 10, -1)
        """,
        # the same autoencoder with its sizes from the command line (`sys.argv`): `--hidden 20` makes them fit, so
        # two options are two sizes, whatever their defaults
        _ARGPARSE_AUTOENCODER % "parse_args()",
        # a notebook's defaults (`parse_args([])`) that fit: the encoder ends at the latent size
        """
        import argparse
        import torch
        from torch import nn

        parser = argparse.ArgumentParser(description="MNIST autoencoder")
        parser.add_argument("--batch-size", type=int, default=64)
        parser.add_argument("--hidden", type=int, default=256)
        parser.add_argument("--latent", type=int, default=20)
        args = parser.parse_args([])

        encoder = nn.Sequential(nn.Linear(784, args.hidden), nn.ReLU(), nn.Linear(args.hidden, args.latent))
        decoder = nn.Sequential(nn.Linear(args.latent, 784), nn.Sigmoid())
        recon = decoder(encoder(torch.rand(args.batch_size, 784)))
        """,
        # a residual block as torchvision writes its `downsample`: `x` itself where the block keeps the width, a 1x1
        # projection where it halves the map; the head takes what the last stage leaves of 32x32 images
        _SHORTCUT_FREE_BLOCK % "64 * 16 * 16",
        # minGPT's CharDataset: `len(data) - block_size` windows of `block_size + 1` tokens, all inside the data; the
        # causal mask is cut to the length of the batch
        _CHAR_WINDOWS % "self.causal[: idx.size(1), : idx.size(1)]",
        # one evaluation per fold, in a list comprehension over the folds' loaders, of frames moved channels-first
        _FOLD_LOADERS % ".permute(0, 3, 1, 2)",
        # DETR's `get_args_parser()` helper feeds another parser (`parents=`) that reads the command line: the
        # helper's defaults say nothing about `args.hidden_dim`
        """
        import argparse
        import torch
        from torch import nn

        def get_args_parser():
            parser = argparse.ArgumentParser("Set transformer detector", add_help=False)
            parser.add_argument("--hidden_dim", default=256, type=int)
            parser.add_argument("--num_queries", default=100, type=int)
            return parser

        parser = argparse.ArgumentParser("DETR training", parents=[get_args_parser()])
        args = parser.parse_args()
        head = nn.Linear(256, 92)
        logits = head(torch.randn(2, args.num_queries, args.hidden_dim))
        """,
        # fairseq's time-major attention: `self.scaling` is a number, the keys are transposed for the scores
        """
        import torch
        from torch import nn

        class SelfAttention(nn.Module):
            def __init__(self, embed_dim: int, num_heads: int) -> None:
                super().__init__()
                self.num_heads, self.head_dim = num_heads, embed_dim // num_heads
                self.scaling = self.head_dim ** -0.5
                self.q_proj = nn.Linear(embed_dim, embed_dim)
                self.k_proj = nn.Linear(embed_dim, embed_dim)

            def split_heads(self, x: torch.Tensor, bsz: int) -> torch.Tensor:
                return x.contiguous().view(-1, bsz * self.num_heads, self.head_dim).transpose(0, 1)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                tgt_len, bsz, _ = x.shape
                q = self.split_heads(self.q_proj(x) * self.scaling, bsz)
                k = self.split_heads(self.k_proj(x), bsz)
                return torch.softmax(torch.bmm(q, k.transpose(1, 2)), dim=-1)
        """,
        # a config handed to a helper that sets `args.input_dim` from the data it loads, then to the model: the
        # first layer takes the data's 32 columns, not the option's default 20
        _ARGPARSE_NET % ("args.input_dim", "features = torch.randn(args.n_samples, 32)  # the data's columns\n"
                         "            args.input_dim = features.shape[1]"),
        # the rows of a stacked pair handed on as a tuple and spread over `forward`'s parameters, joined along the
        # features
        _SIAMESE_PAIRS % ", dim=1",
        # a feature pyramid whose top-down upsampling by 2 undoes the last stage's stride
        _FPN_STRIDES % "2",
        # every batch full: the short last one dropped, or rows a multiple of the batch size
        _CONSTANT_BATCH_VIEW % ("1000", ", drop_last=True"),
        _CONSTANT_BATCH_VIEW % ("1024", ""),
        # per-cluster sums of point features, the (N,) cluster ids expanded over the channels to index (N, C) rows;
        # the counts scatter a (N,) vector of ones into a (clusters,) one with the same ids unexpanded
        _CLUSTER_POOLING % "cluster.unsqueeze(1).expand_as(feats)",
        # a spectrogram's n_fft // 2 + 1 bins, made with numpy by a featurizer the dataset holds, as the conv's channels
        _SPECTROGRAM_DATASET % "N_FFT // 2 + 1",
        # the flipped chips are moved to (C, H, W) before the stem
        _FLIPPED_CHIPS % "np.ascontiguousarray(chip.transpose(2, 0, 1))",
        # a key padding mask as long as the padded batch
        _PADDED_GESTURES % "frames.shape[1]",
        # a pose dataset's samples as its constructor appends them, flattened to the 51 values the first layer takes
        _POSE_LIST_DATASET % "3",
        # a lucidrains-style ViT whose width 8 heads divide: einops' patches, cls token, heads and mean pool
        _EINOPS_VIT % "512",
        # einops' layers: a patch embedding whose image the patch size divides, tokens mean-pooled to the head
        _EINOPS_PATCHES % "16 * 16 * 3",
        # einops on tensors whose shapes the code does not state, and `...` taking whatever dims there are
        """
        import einops
        import torch

        def to_sequence(feature_map, heads: int):
            tokens = einops.rearrange(feature_map, "b c h w -> b (h w) c")
            return einops.rearrange(tokens, "b n (h d) -> b h n d", h=heads)

        def merge(x):
            return einops.rearrange(x, "... h w -> ... (h w)")

        pooled = einops.reduce(torch.randn(4, 16, 7, 7), "b c ... -> b c", "max")
        flat = merge(torch.randn(4, 16, 7, 7))
        """,
        # the darknet blocks built for the grayscale frames they are fed
        _DARKNET_BLOCKS % "1",
        # run bare, `main()` parses `sys.argv`, which may set `--tile 16`: the size is unknown
        _ARGV_MAIN % "",
        # A forward hook that keeps the attention maps it sees in the enclosing function's name (`nonlocal`): the
        # model's forward pass rebinds it, so its first value is not what the loop reads.
        _ATTENTION_HOOK % "nonlocal",
        # asteroid's looking-to-listen fusion: BatchNorm1d(frames) on the (batch, frames, features) a Linear gives.
        # The rank is unknown, and a BatchNorm1d's channels are dim 1 of a 3-d input, not its last dim.
        """
        import torch.nn as nn
        import torch.nn.functional as F

        class PositionNormEncoder(nn.Module):
            def __init__(self):
                super().__init__()
                self.embed = nn.Embedding(30000, 128)
                self.fc = nn.Linear(128, 256)
                self.norm = nn.BatchNorm1d(48)  # one statistic per token position

            def forward(self, token_ids):
                states = self.embed(token_ids)
                states = F.relu(self.fc(states))
                return self.norm(states)
        """,
        # GroupNorm over the 24 code channels of (batch, 24, 96) embeddings: of a rank-unknown input, dim 1 is unknown
        """
        import torch.nn as nn

        class SeriesStem(nn.Module):
            def __init__(self):
                super().__init__()
                self.lookup = nn.Embedding(512, 96)
                self.gn = nn.GroupNorm(4, 24)

            def forward(self, codes):
                return self.gn(self.lookup(codes))
        """,
        # mamba.py's TinyHome notebook: a replay buffer's sampled dict of arrays made tensors, a column of zeros
        # joined on; `batch["obs"]` is an array (B, T, 25), not the number a config's `cfg["obs"]` would be.
        """
        import torch
        import torch.nn.functional as F
        from rl.memory import EpisodeMemory

        memory = EpisodeMemory(capacity=100_000)
        for step in range(500):
            rows, horizon = 32, 16
            sampled = memory.sample(rows, horizon)
            states = torch.tensor(sampled["states"]).float()
            padded = torch.cat([states, torch.zeros(rows, horizon, 1)], dim=2)
            actions = torch.as_tensor(sampled["actions"]).long()
        """,
        # each photo's boxes stay a list of their own: the collate stacks only the images, all 3 x 128 x 128
        _PARCEL_BOXES % "[box for _, box in samples]",
        # a window of one length at a random start: every sample is (256, 6)
        _SENSOR_CROPS % "start:start + 256",
        # one length drawn for the whole synthetic set, every clip as long; clips of drawn lengths cut to the
        # shortest of each batch; and batches of one clip, nothing to stack
        """
        import random

        import torch
        from torch.utils.data import DataLoader, Dataset


        class Phrases(Dataset):
            def __init__(self, n: int = 64):
                frames = random.randint(50, 100)
                self.clips = []
                for _ in range(n):
                    self.clips.append(torch.randn(frames, 40))

            def __len__(self):
                return len(self.clips)

            def __getitem__(self, idx):
                return self.clips[idx]


        class Utterances(Phrases):
            def __init__(self, n: int = 64):
                self.clips = [torch.randn(random.randint(50, 100), 40) for _ in range(n)]


        def shortest(batch):
            n = min(len(clip) for clip in batch)
            return torch.stack([clip[:n] for clip in batch])


        for clips in DataLoader(Phrases(), batch_size=16):
            print(clips.shape)
        for clips in DataLoader(Utterances(), batch_size=16, collate_fn=shortest):
            print(clips.shape)
        for clip in DataLoader(Utterances(), batch_size=1):
            print(clip.shape)
        """,
        # A graph network's virtual node: zeros cast to the edge indices' dtype (int64), whatever the analysis
        # knows of it, index the embedding.
        """
        import torch
        import torch.nn as nn


        class GraphReadout(nn.Module):
            def __init__(self, dim):
                super().__init__()
                self.virtual = nn.Embedding(1, dim)

            def forward(self, h, edge_index, graph_of_node):
                n_graphs = int(graph_of_node.max()) + 1
                ids = torch.zeros(n_graphs).to(edge_index.dtype).to(edge_index.device)
                return h + self.virtual(ids)[graph_of_node]
        """,
    ]
    INVALID = [
        # a class-level padding block no method sets again, 512 wide against activations annotated 768 wide
        # ("Sizes of tensors must match except in dimension 0. Expected size 768 but got size 512")
        """
        import torch
        from jaxtyping import Float
        from torch import Tensor

        class Padder:
            pad = torch.zeros(1, 128, 512)

            def padded(self, acts: Float[Tensor, "batch 128 768"]) -> Tensor:
                return torch.cat([acts, self.pad])
        """,
        # kathrinse/TabSurvey's SAINT attribution: the hook declares the name `global`, so it binds a module
        # global and the function's own `my_attention` stays `torch.zeros(0)`: `sum(dim=1)` raises.
        _ATTENTION_HOOK % "global",
        # a regression head one output too wide for its targets: (64, 3) against (64, 2) can't broadcast, so each
        # loss raises ("The size of tensor a (3) must match the size of tensor b (2) at non-singleton dimension 1")
        Invalid(_REGRESSION_HEAD % "3", count=2),
        # the same switchable normalization with the weights left at 2 under the flag too: both branches agree, and
        # the third is out of range ("IndexError: index 2 is out of bounds for dimension 0 with size 2")
        _SWITCHABLE_MIX % "2",
        # the same ViT 500 wide: 8 heads don't divide it ("Shape mismatch, can't divide axis of length 500 in chunks
        # of 8")
        _EINOPS_VIT % "500",
        # the same patch embedding sized for the pixels of a patch without its 3 channels ("mat1 and mat2 shapes
        # cannot be multiplied (1568x768 and 256x256)")
        _EINOPS_PATCHES % "16 * 16",
        # a (B, N, D) token sequence rearranged as if it were still the (B, C, H, W) image ("Wrong shape: expected 4
        # dims. Received 3-dim tensor")
        """
        import torch
        from einops import rearrange

        tokens = torch.randn(2, 64, 192)
        grid = rearrange(tokens, "b c h w -> b (h w) c")
        """,
        # the same, joined along the batch: (8, 8) into a head of 16 features ("mat1 and mat2 shapes cannot be
        # multiplied (8x8 and 16x1)")
        _SIAMESE_PAIRS % "",
        # the last stage strides by 4: upsampled by 2 it is (2, 64, 8, 8) against the stage before's 16 x 16 ("The
        # size of tensor a (8) must match the size of tensor b (16) at non-singleton dimension 3")
        _FPN_STRIDES % "4",
        # the batch size written into `forward`: the last batch of 40 rows becomes (64, 490) ("mat1 and mat2 shapes
        # cannot be multiplied (64x490 and 784x128)")
        _CONSTANT_BATCH_VIEW % ("1000", ""),
        # the (N,) cluster ids handed to scatter_add as they are, for (clusters, C) sums ("Index tensor must have the
        # same number of dimensions as self tensor")
        _CLUSTER_POOLING % "cluster",
        # the conv takes n_fft // 2 channels, one bin fewer than the numpy featurizer's rfft makes ("expected
        # input[16, 257, 97] to have 256 channels, but got 257 channels instead")
        _SPECTROGRAM_DATASET % "N_FFT // 2",
        # chips kept (H, W, C), flipped or not: the stem reads the 48 rows of each chip as its channels
        # ("expected input[16, 48, 48, 4] to have 4 channels, but got 48 channels instead")
        _FLIPPED_CHIPS % "chip.copy()",
        # a key padding mask as long as the longest sequence allowed (64), the batch padded to its longest (at most
        # 60: "Expected key_padded_mask.shape[1] to be 60, but got 64")
        _PADDED_GESTURES % "MAX_FRAMES",
        # the first layer sized for (x, y) per joint; the samples the dataset's constructor appends carry a
        # confidence too ("mat1 and mat2 shapes cannot be multiplied (32x51 and 34x128)")
        _POSE_LIST_DATASET % "2",
        # tabular data made with numpy with one column fewer than the first layer takes ("mat1 and mat2 shapes
        # cannot be multiplied (200x3 and 4x16)")
        _NUMPY_FEATURES % "3",
        # windows of a (time, axes) recording handed to Conv1d time-major: each batch is (32, 100, 3) ("Given
        # groups=1, weight of size [32, 3, 5], expected input[32, 100, 3] to have 3 channels, but got 100 channels
        # instead")
        _HAR_WINDOWS % "self.signal[start:start + self.window]",
        # the color counted as one column, where its one-hot encoding is three ("mat1 and mat2 shapes cannot be
        # multiplied (500x4 and 2x8)")
        _ONEHOT_TABLE % "2",
        # the first graph layer sized by the junction count where the feature width belongs ("mat1 and mat2 shapes
        # cannot be multiplied (120x6 and 120x32)")
        _JUNCTION_GRAPH % "x.shape[0]",
        _JUNCTION_GRAPH % "len(x)",
        # the head sized for one direction of a bidirectional LSTM, fed by a loop over a torchvision loader ("mat1
        # and mat2 shapes cannot be multiplied (100x256 and 128x10)")
        _LOADER_BIRNN % "hidden_size",
        # the decoder attends over both directions of the encoder with hidden-sized queries ("Expected size for first
        # two dimensions of batch2 tensor to be: [3, 64] but got: [3, 32]")
        _GREEDY_TRANSLATOR % "encoded",
        # LeNet-5 on MNIST's own 28x28 images: the third 5x5 convolution gets 4x4 ("Calculated padded input size per
        # channel: (4 x 4). Kernel size: (5 x 5). Kernel size can't be greater than actual input size")
        _LENET_MNIST % "",
        # the first linear layer sized for 28x28 MNIST images, fed 32x32 CIFAR-10 ones ("mat1 and mat2 shapes cannot
        # be multiplied (4x400 and 256x120)")
        _CIFAR_CNN % "16 * 4 * 4",
        # the config gives the first layer 16 features, the data has 20: the classmethod builds the model, DataParallel
        # runs its forward on each batch of the tqdm bar ("mat1 and mat2 shapes cannot be multiplied (32x20 and
        # 16x64)")
        _FROM_CONFIG_PARALLEL % "16",
        # the SimpleNamespace config gives the GRU 80 mel bins, the spectrograms have 64 ("input.size(-1) must be equal
        # to input_size. Expected 80, got 64")
        _NAMESPACE_CONFIG % "80",
        # the same item split along dim 3 of the dataset's 4-d tensor, one more than an item has ("IndexError:
        # Dimension out of range (expected to be in range of [-3, 2], but got 3)")
        _STEREO_DATASET % "3",
        # the helper told to cut 16 + 32 features from the 32 ("split_with_sizes expects split_sizes to sum exactly to
        # 32 (input tensor's size at dimension 1), but got split_sizes=[16, 32]")
        _VAE_SECTIONS % "(16, 32)",
        # the equation kept a third operand the call no longer passes ("einsum(): fewer operands were provided than
        # specified in the equation")
        _PAIR_SCORER % "bid,bjd,bk->bij",
        # token ids drawn from a larger vocabulary than the model's table ("IndexError: index out of range in self")
        """
        import torch
        import torch.nn as nn

        class CharModel(nn.Module):
            def __init__(self, vocab_size, n_embd=32):
                super().__init__()
                self.embed = nn.Embedding(vocab_size, n_embd)
                self.head = nn.Linear(n_embd, vocab_size)

            def forward(self, idx):
                return self.head(self.embed(idx))

        model = CharModel(vocab_size=65)
        data = torch.randint(0, 100, (1000,))
        logits = model(data[:32].view(4, 8))
        """,
        # Luong attention: `bmm` of 2-D weights (one row per batch item) with the (B, T, H) encoder outputs
        """
        import torch
        import torch.nn.functional as F

        encoder_outputs = torch.randn(4, 9, 32)
        weights = F.softmax(torch.randn(4, 9), dim=1)
        context = weights.bmm(encoder_outputs)
        """,
        # `bmm` does not broadcast a batch of one
        """
        import torch

        queries, memory = torch.randn(8, 5, 16), torch.randn(1, 16, 7)
        scores = torch.bmm(queries, memory)
        """,
        # the (B, T) padding mask against the (B, H, T, T) scores: B lines up with the query dim
        _MASKED_SCORES % "mask",
        # per-head weights (B, H, T, T) times the (B, T, D) tokens
        _ATTENTION_POOLING % ", average_attn_weights=False",
        # batch-first features as the memory of a sequence-first decoder: a batch of 49 against 4 captions
        _CAPTION_MEMORY % "",
        # a Dataset class of the project giving RGB samples to a grayscale model
        _PROJECT_DATASET % "3",
        # learned queries of batch 1 against 4 images: attention pairs them up, it does not broadcast
        _LEARNED_QUERIES % "",
        # a bottleneck widening 256 channels to 512 with no downsample for the shortcut
        _BOTTLENECK % "128",
        # the hidden size a config's property computes, fed to a layer built for the model width
        _CONFIG_PROPERTY % "args.d_model",
        # a position table for the constructor's default 100 frames, batches of the config's 200 from a generator that
        # certainly yields, so the loop over it runs ("The size of tensor a (48) must match ... (24)")
        _GENERATED_SPECTROGRAMS % "",
        # the batches of a project's iterator class, (32, 128, 6) windows time first, reach a Conv1d over 6 channels
        # ("expected input[32, 128, 6] to have 6 channels, but got 128 channels instead")
        _WINDOW_BATCHES % "yield self.windows[idx], self.labels[idx]",
        # the same GRU state laid out batch first: the nested config's defaults size the model
        _NESTED_CONFIG % "x.size(0), self.layers",
        # the same head built on the embedding width: the parsed defaults (64, 256) tell them apart
        _SPREAD_ARGS % "emb",
        # an `init_hidden` whose cell state is twice the LSTM's hidden size ("Expected hidden[1] size (2, 10, 48),
        # got [2, 10, 96]"), seen through the config `main()` takes by default and the parameter `next()` gives
        _INIT_HIDDEN % "self.nhid * 2",
        # the target mask sized by the source ("the shape of the 2D attn_mask is torch.Size([15, 15]), but should be
        # (10, 10)"), made by the static method the transformer instance offers
        _TGT_MASK % "src",
        # a U-Net block that joins its skip connection and runs its layers with `super().forward`: the convolution
        # is built for the upsampled input alone ("expected input[2, 64, 16, 16] to have 32 channels")
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class UpBlock(nn.Sequential):
            def __init__(self, in_ch, out_ch):
                super().__init__(nn.Conv2d(in_ch, out_ch, 3, padding=1), nn.BatchNorm2d(out_ch), nn.ReLU())

            def forward(self, x, skip):
                return super().forward(torch.cat([F.interpolate(x, scale_factor=2), skip], dim=1))

        up = UpBlock(32, 16)
        y = up(torch.randn(2, 32, 8, 8), torch.randn(2, 32, 16, 16))
        """,
        # a GRUCell's default state of another width than the cell keeps
        _DECODER_CELL % "128",
        # a waveform of one spatial dim given an image's (height, width) size
        _RESAMPLER % "(self.length, self.length)",
        # the image size a config states with its channels, given as the (height, width) to upsample to
        _SEGMENTATION_RESIZE % "(3, 512, 512)",
        # a projection built for grayscale patches, given the patches of RGB images
        _UNFOLD_PATCHES % "1",
        # a decoder upsampling 2-d feature maps to a size with a depth
        _UPSAMPLING_DECODER % "(1, 128, 128)",
        # the same with a one-direction GRU: its h_n is (1, batch, hidden), so h_n[1] is past its end
        _RNN_LAST_STATE % "False",
        """
        from jaxtyping import Float
        from torch import Tensor

        def logits(h: Float[Tensor, "B T D"], w: Float[Tensor, "V D"]) -> Tensor:
            return h @ w
        """,
        # a model moved to its device where it is built, as the primer writes it
        """
        import torch
        import torch.nn as nn

        class Net(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc = nn.Linear(20, 1)

            def forward(self, x):
                return self.fc(x)

        device = "cuda" if torch.cuda.is_available() else "cpu"
        model = Net().to(device).eval()
        out = model(torch.randn(8, 10, device=device))
        """,
        """
        import torch
        a = torch.randn(3, 4)
        b = torch.randn(3,)
        c = a + b
        """,
        """
        import torch
        rows = torch.cat([torch.zeros(4, 3), torch.zeros(5, 2)], dim=0)
        """,
        """
        import torch
        pair = torch.stack([torch.zeros(8, 16), torch.zeros(8, 32)])
        """,
        """
        import torch
        grid = torch.arange(24).view(5, 5)
        """,
        """
        import torch
        import torch.nn as nn

        class TwoLayer(nn.Module):
            def __init__(self):
                super().__init__()
                self.fc1 = nn.Linear(784, 64)
                self.fc2 = nn.Linear(32, 10)

            def forward(self, x):
                return self.fc2(torch.relu(self.fc1(x)))
        """,
        """
        import torch.nn as nn
        classifier = nn.Sequential(nn.Flatten(), nn.Linear(784, 128), nn.ReLU(), nn.Linear(256, 10))
        """,
        """
        import torch.nn as nn
        features = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.BatchNorm2d(32), nn.ReLU())
        """,
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class ConvNet(nn.Module):
            def __init__(self):
                super().__init__()
                self.conv1 = nn.Conv2d(1, 32, 3, 1)
                self.conv2 = nn.Conv2d(32, 64, 3, 1)
                self.pool = nn.MaxPool2d(2)
                self.fc1 = nn.Linear(64 * 14 * 14, 128)

            def forward(self, x):
                x = self.pool(F.relu(self.conv2(F.relu(self.conv1(x)))))
                return self.fc1(torch.flatten(x, 1))

        model = ConvNet()
        out = model(torch.randn(64, 1, 28, 28))
        """,
        """
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor

        class SequenceClassifier(nn.Module):
            def __init__(self, n_classes):
                super().__init__()
                self.rnn = nn.LSTM(28, 64, batch_first=True, bidirectional=True)
                self.fc = nn.Linear(64, n_classes)

            def forward(self, x: Float[Tensor, "B 28 28"]):
                output, (h, c) = self.rnn(x)
                return self.fc(output[:, -1, :])
        """,
        """
        import torch
        import torch.nn as nn

        class Encoder(nn.Module):
            def __init__(self, d_model, vocab):
                super().__init__()
                self.embed = nn.Embedding(vocab, d_model)
                self.norm = nn.LayerNorm(512)

            def forward(self, tokens):
                return self.norm(self.embed(tokens))

        encoder = Encoder(256, 1000)
        z = encoder(torch.randint(0, 1000, (8, 32)))
        """,
        """
        import torch
        from jaxtyping import Bool, Float
        from torch import Tensor

        def masked(scores: Float[Tensor, "B T S"], mask: Bool[Tensor, "B S T"]) -> Tensor:
            return scores.masked_fill(mask, float("-inf"))
        """,
        # the exponents applied without the column: (2000,) ** (3,)
        """
        import math
        import torch
        x = torch.linspace(-math.pi, math.pi, 2000)
        p = torch.tensor([1, 2, 3])
        xx = x.pow(p)
        """,
        # tokens (B, N, D) read as an image
        """
        import torch
        tokens = torch.randn(2, 64, 32)
        B, C, H, W = tokens.shape
        """,
        # a fused projection cut along a dim it doesn't have
        """
        import torch
        import torch.nn as nn
        qkv = nn.Linear(64, 192)
        q, k, v = qkv(torch.randn(2, 16, 64)).chunk(3, dim=3)
        """,
        # a (T, T) causal mask where the keys are longer than the queries (a KV cache)
        """
        import torch
        import torch.nn.functional as F
        B, H, T, S = 2, 4, 16, 20
        q, k, v = torch.randn(B, H, T, 32), torch.randn(B, H, S, 32), torch.randn(B, H, S, 32)
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=torch.ones(T, T, dtype=torch.bool).tril())
        """,
        # an nn.Sequential subclass whose last layer expects the hidden size, not the doubled one
        """
        import torch.nn as nn

        class Head(nn.Sequential):
            def __init__(self, d, hidden):
                super().__init__(nn.Linear(d, hidden), nn.GELU(), nn.Linear(hidden, hidden * 2), nn.Linear(hidden, d))
        """,
        # a projector whose BatchNorm1d reads the wrong field of its config: the class alone doesn't know the
        # sizes, the model built with Config() does
        """
        from dataclasses import dataclass

        import torch
        import torch.nn as nn


        @dataclass
        class ProjectorConfig:
            hidden: int = 2048
            proj: int = 128


        class Projector(nn.Module):
            def __init__(self, cfg: ProjectorConfig):
                super().__init__()
                self.net = nn.Sequential(nn.Linear(512, cfg.proj), nn.BatchNorm1d(cfg.hidden), nn.ReLU())

            def forward(self, x):
                return self.net(x)


        z = Projector(ProjectorConfig())(torch.randn(8, 512))
        """,
        # an MLP gathered in a loop whose BatchNorm1d takes the width before the Linear, not after it, run on a
        # (batch, features) table (of an input of unknown rank it would be a BatchNorm1d over dim 1 of 3)
        """
        import torch
        import torch.nn as nn

        blocks = []
        prev = 20
        for width in [128, 64]:
            blocks += [nn.Linear(prev, width), nn.BatchNorm1d(prev), nn.ReLU()]
            prev = width
        net = nn.Sequential(*blocks)
        scores = net(torch.randn(256, 20))
        """,
        # a DQN's Q-values of the actions taken: (B,) actions into (B, A) values, never unsqueezed
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        q_net = nn.Linear(4, 2)
        states, actions, targets = torch.randn(32, 4), torch.randint(0, 2, (32,)), torch.randn(32)
        q = q_net(states).gather(1, actions)
        loss = F.mse_loss(q, targets)
        """,
        # a Linear-BatchNorm block whose norm takes the block's input width: wrong only for the widths it is built with
        """
        import torch
        import torch.nn as nn

        class LinearBNAct(nn.Sequential):
            def __init__(self, in_dim, out_dim):
                super().__init__(nn.Linear(in_dim, out_dim), nn.BatchNorm1d(in_dim), nn.ReLU())

        block = LinearBNAct(64, 32)
        y = block(torch.randn(16, 64))
        """,
        # token ids a dataset hands back as floats, looked up in an embedding
        """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, Dataset

        class Sentences(Dataset):
            def __len__(self):
                return 10

            def __getitem__(self, i):
                return torch.randint(0, 100, (12,)).float()

        emb = nn.Embedding(100, 8)
        for batch in DataLoader(Sentences(), batch_size=5):
            vectors = emb(batch)
        """,
        # a spectral loss whose target is framed at half the hop: twice the frames of the prediction's
        """
        import torch

        def stft_mag(x, n_fft=512, hop=128):
            return torch.stft(x, n_fft, hop, window=torch.hann_window(n_fft), return_complex=True).abs()

        def spectral_convergence(pred, target):
            p = stft_mag(pred)
            t = stft_mag(target, hop=64)
            return torch.norm(t - p, p="fro") / torch.norm(t, p="fro")

        loss = spectral_convergence(torch.randn(2, 16000), torch.randn(2, 16000))
        """,
        # a frequency mask sized for the full spectrum on `rfft2`'s half spectrum: 33 columns against 64
        """
        import torch

        def highpass(img, radius=8):
            b, c, h, w = img.shape
            yy, xx = torch.meshgrid(torch.arange(h), torch.arange(w), indexing="ij")
            mask = (((yy - h // 2) ** 2 + (xx - w // 2) ** 2) > radius ** 2).float()
            return torch.fft.irfft2(torch.fft.rfft2(img) * mask, s=(h, w))

        out = highpass(torch.rand(4, 3, 64, 64))
        """,
        # a per-pixel weight map expanded over the channels from the wrong end: (1, N, H, W) against (N, C, H, W)
        """
        import torch

        logits = torch.randn(4, 3, 16, 16)
        weight_map = torch.rand(4, 16, 16)
        weights = weight_map.unsqueeze(0).expand_as(logits)
        """,
        # a notebook parses no command line (`parse_args([])`), so each option is its default: the encoder ends at
        # 256 features, the decoder takes the 20 of `--latent`
        _ARGPARSE_AUTOENCODER % "parse_args([])",
        # a block without a projection passes `x` on; the second stage halves 32x32 maps to 16x16, not the 8x8 the
        # head was sized for ("mat1 and mat2 shapes cannot be multiplied (2x16384 and 4096x10)")
        _SHORTCUT_FREE_BLOCK % "64 * 8 * 8",
        # windows of 64 tokens (every one inside the data, as `__len__` keeps them) against a causal mask built for
        # 128 ("The shape of the 2D attn_mask is torch.Size([128, 128]), but should be (64, 64).")
        _CHAR_WINDOWS % "self.causal",
        # the same folds of channels-last frames: each pass of the comprehension runs the conv on (20, 48, 48, 3)
        # ("expected input[20, 48, 48, 3] to have 3 channels, but got 48 channels instead")
        _FOLD_LOADERS % "",
        # the same defaults from a helper that builds and parses the parser: the second layer takes the 30 input
        # features where the first gives 64
        """
        import argparse
        import torch
        from torch import nn

        def get_config():
            parser = argparse.ArgumentParser(description="tabular MLP")
            parser.add_argument("--n-features", type=int, default=30)
            parser.add_argument("--hidden", type=int, default=64)
            return parser.parse_args([])

        config = get_config()
        net = nn.Sequential(nn.Linear(config.n_features, config.hidden), nn.ReLU(), nn.Linear(config.n_features, 1))
        scores = net(torch.randn(16, config.n_features))
        """,
        # attention scores with the keys untransposed, after a scale `heads: int` makes a number, so the queries
        # keep their shape: (b, n, 64) @ (b, n, 64)
        """
        import torch
        from jaxtyping import Float
        from torch import nn

        class Attention(nn.Module):
            def __init__(self, dim: int, heads: int = 8) -> None:
                super().__init__()
                self.scale = (64 // heads) ** -0.5
                self.to_q = nn.Linear(dim, 64, bias=False)
                self.to_k = nn.Linear(dim, 64, bias=False)

            def forward(self, x: Float[torch.Tensor, "b n 32"]) -> torch.Tensor:
                q = self.to_q(x) * self.scale
                k = self.to_k(x)
                return (q @ k).softmax(dim=-1)
        """,
        # the options handed to the model, whose first layer is sized by the wrong one: `--hidden` (64), where the
        # data has `--input-dim` (20) columns ("mat1 and mat2 shapes cannot be multiplied (128x20 and 64x64)")
        _ARGPARSE_NET % ("args.hidden", "features = torch.randn(args.n_samples, args.input_dim)"),
        # the darknet blocks built for RGB, fed grayscale frames ("weight of size [16, 3, 3, 3], expected input[4, 1,
        # 64, 64] to have 3 channels, but got 1 channels instead")
        _DARKNET_BLOCKS % "3",
        # `main([])` hands no command line on: 8x8 tiles flatten to 192 features, the head takes 768
        _ARGV_MAIN % "[]",
        # each photo's boxes stacked as if every photo held as many parcels ("stack expects each tensor to be equal
        # size, but got [3, 4] at entry 0 and [1, 4] at entry 1"): reported in the collate, run on the loader's batches
        _PARCEL_BOXES % "torch.stack([box for _, box in samples])",
        # a crop of a random length for each sample, stacked by the default collation
        _SENSOR_CROPS % ":random.randint(200, 400)",
        # speech clips of 1 to 4 seconds drawn one by one, batched without a collate_fn that pads them
        """
        import random

        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        from torch.utils.data import DataLoader, Dataset


        class Utterances(Dataset):
            # read speech at 16 kHz, one speaker label each
            def __init__(self, n: int = 64, sample_rate: int = 16000):
                self.clips = []
                for _ in range(n):
                    seconds = random.uniform(1.0, 4.0)
                    self.clips.append((torch.randn(1, int(seconds * sample_rate)), random.randrange(10)))

            def __len__(self):
                return len(self.clips)

            def __getitem__(self, idx):
                return self.clips[idx]


        model = nn.Sequential(nn.Conv1d(1, 32, 400, stride=160), nn.ReLU(), nn.AdaptiveAvgPool1d(1), nn.Flatten(),
                              nn.Linear(32, 10))
        for waves, speakers in DataLoader(Utterances(), batch_size=8, shuffle=True):
            loss = F.cross_entropy(model(waves), speakers)
        """,
        # graphs of 5 to 29 nodes from a numpy generator, batched as if they were images of one size
        """
        import numpy as np
        import torch
        from torch.utils.data import DataLoader


        def random_graphs(count: int, features: int = 16, seed: int = 0):
            rng = np.random.default_rng(seed)
            graphs = []
            for _ in range(count):
                nodes = int(rng.integers(5, 30))
                graphs.append(torch.randn(nodes, features))
            return graphs


        encoder = torch.nn.Linear(16, 64)
        for nodes in DataLoader(random_graphs(100), batch_size=10, shuffle=True):
            pooled = encoder(nodes).mean(dim=1)
        """,
        # The same zeros cast to the dtype of float features: the embedding is handed float indices.
        """
        import torch
        import torch.nn as nn

        virtual = nn.Embedding(1, 16)
        h = torch.randn(10, 16)
        ids = torch.zeros(3).to(h.dtype)
        pooled = virtual(ids)
        """,
    ]

    def visit_Call(self, node: cst.Call) -> None:
        self._check(node)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._check(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._check(node)  # `B, C, H, W = x.shape` on a tensor of another rank

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._check(node)  # `out += residual`

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if literal_index(node) is not None:  # `h_n[1]` of a (1, B, H) state
            self._check(node)

    def visit_For(self, node: cst.For) -> None:
        self._check(node)  # a loop over a loader whose batches can't be collated

    def _check(self, node: cst.BaseExpression) -> None:
        conflict = shape_conflict(self.ctx, node)
        if conflict is None and type(node) is cst.Call:
            conflict = construction_conflict(evaluator(self.ctx), node)
        if conflict is None:
            return
        message = conflict.message
        if not message.startswith("`"):  # say which operation, as the layer messages do
            code = " ".join(self.ctx.code(conflict.node).split())
            if len(code) <= MAX_CODE:
                message = f"`{code}`: {message}"
        self.report(*runs.reported_at(self.ctx, conflict.node, message, conflict.path))
