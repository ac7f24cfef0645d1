"""SC104 broadcast-surprise: broadcasting that silently multiplies out a (N, 1) against a (N,), in an operator or a
regression loss."""

from __future__ import annotations

import libcst as cst

from shapecheck.engine import Rule
from shapecheck.shapes.messages import quoted
from shapecheck.objects.dims import same
from shapecheck.shapes.broadcast import broadcast
from shapecheck.shapes.dropped_dim import DroppedDim, dropped_against
from shapecheck.shapes.intent import operands_spell_broadcast, spells_broadcast
from shapecheck.shapes.losses import computes_loss, loss_arguments, loss_call
from shapecheck.shapes.shape import Shape
from shapecheck.shapes.surprise import surprise
from shapecheck.shapes import runs
from shapecheck.shapes.evaluator import ShapeEvaluator, evaluator

OPERATORS = (cst.Add, cst.Subtract, cst.Multiply, cst.Divide, cst.FloorDivide, cst.Modulo, cst.Power)
COMPARISONS = (cst.Equal, cst.NotEqual, cst.LessThan, cst.GreaterThan, cst.LessThanEqual, cst.GreaterThanEqual)


_EDGE_MAPS = """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset


        class EdgeMaps(Dataset):
            def __init__(self, n: int = 16, size: int = 64) -> None:
                rng = np.random.default_rng(0)
                self.images = rng.random((n, size, size, 3), dtype=np.float32)
                self.edges = (rng.random((n, size, size)) > 0.9).astype(np.float32)

            def __len__(self) -> int:
                return len(self.images)

            def __getitem__(self, i: int):
                image = torch.from_numpy(self.images[i]).permute(2, 0, 1)
                return image, torch.from_numpy(self.edges[i])%s


        class EdgeNet(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.body = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU())
                self.head = nn.Conv2d(16, 1, 1)

            def forward(self, x: torch.Tensor) -> torch.Tensor:
                return self.head(self.body(x))


        model = EdgeNet()
        criterion = nn.BCEWithLogitsLoss() if model.head.out_channels == 1 else nn.CrossEntropyLoss()
        for images, edges in DataLoader(EdgeMaps(), batch_size=4, shuffle=True):
            loss = criterion(model(images), edges)
"""


_CHURN_ROWS = """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, Dataset, random_split


        class ChurnRows(Dataset):
            def __init__(self, features, labels) -> None:
                self.features = torch.as_tensor(features, dtype=torch.float32).reshape(-1, 12)
                self.churned = [float(label) for label in labels]

            def __len__(self) -> int:
                return len(self.churned)

            def __getitem__(self, i: int):
                return self.features[i], %s


        @torch.no_grad()
        def evaluate(model, loader) -> float:
            criterion, total = nn.BCEWithLogitsLoss(), 0.0
            for x, y in loader:
                total += criterion(model(x), y).item()
            return total / len(loader)


        def run(features, labels) -> float:
            train_set, val_set = random_split(ChurnRows(features, labels), [800, 200])
            model = nn.Sequential(nn.Linear(12, 16), nn.ReLU(), nn.Linear(16, 1))
            return evaluate(model, DataLoader(val_set, batch_size=50))
"""


_NEXT_VALUE = """
        import torch
        import torch.nn.functional as F
        from torch import nn
        from torch.utils.data import DataLoader, Dataset, random_split


        class SlidingWindows(Dataset):
            \"\"\"`lookback` readings of every meter in, the next `horizon` readings of the first one out.\"\"\"

            def __init__(self, readings: torch.Tensor, lookback: int = 48, horizon: int = 1) -> None:
                self.readings = readings
                self.lookback = lookback
                self.horizon = horizon

            def __len__(self) -> int:
                return self.readings.shape[0] - self.lookback - self.horizon + 1

            def __getitem__(self, idx: int):
                end = idx + self.lookback
                return self.readings[idx:end], self.readings[end:end + self.horizon, 0]


        class GRUForecaster(nn.Module):
            def __init__(self, n_meters: int = 3, hidden: int = 64) -> None:
                super().__init__()
                self.gru = nn.GRU(n_meters, hidden, batch_first=True)
                self.out = nn.Linear(hidden, 1)

            def forward(self, window: torch.Tensor) -> torch.Tensor:
                states, _ = self.gru(window)
                return %s


        def fit(model: nn.Module, loader: DataLoader, epochs: int = 2) -> None:
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            for _ in range(epochs):
                for window, target in loader:
                    loss = F.mse_loss(model(window), target)
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()


        meters = torch.randn(1000, 3).cumsum(0)
        train_part, test_part = random_split(SlidingWindows(meters), [760, 192])
        fit(GRUForecaster(), DataLoader(train_part, batch_size=64, shuffle=True))
"""


# a DQN with a preallocated numpy replay memory: the actions are kept as a column, so the Q-values `gather` picks are
# (B, 1); a batch is the rows an int array of draws picks; `%s` is what becomes of the picked Q-values
_ARRAY_REPLAY_DQN = """
        import numpy as np
        import torch
        import torch.nn as nn
        import torch.nn.functional as F


        class ArrayReplay:
            def __init__(self, capacity=50_000, obs_dim=10):
                self.states = np.zeros((capacity, obs_dim), dtype=np.float32)
                self.next_states = np.zeros((capacity, obs_dim), dtype=np.float32)
                self.actions = np.zeros((capacity, 1), dtype=np.int64)
                self.rewards = np.zeros(capacity, dtype=np.float32)
                self.terminal = np.zeros(capacity, dtype=np.float32)
                self.count = 0

            def sample(self, batch_size=64):
                rows = np.random.randint(0, max(self.count, 1), size=batch_size)
                return (torch.from_numpy(self.states[rows]), torch.from_numpy(self.actions[rows]),
                        torch.from_numpy(self.rewards[rows]), torch.from_numpy(self.next_states[rows]),
                        torch.from_numpy(self.terminal[rows]))


        policy = nn.Sequential(nn.Linear(10, 128), nn.ReLU(), nn.Linear(128, 5))
        frozen = nn.Sequential(nn.Linear(10, 128), nn.ReLU(), nn.Linear(128, 5))
        optimizer = torch.optim.Adam(policy.parameters(), lr=1e-3)
        memory = ArrayReplay()
        states, actions, rewards, next_states, terminal = memory.sample()
        chosen = policy(states).gather(1, actions)%s
        with torch.no_grad():
            bootstrap = frozen(next_states).max(dim=1).values
        loss = F.smooth_l1_loss(chosen, rewards + 0.99 * bootstrap * (1.0 - terminal))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


# an actor-critic script rolling out a fixed horizon: each step's value is the critic's (1,) output, appended to a
# list stacked after the loop; the discounted returns are (HORIZON,); `%s` is the values the advantage subtracts
_ROLLOUT_SCRIPT = """
        import torch
        import torch.nn as nn
        from torch.distributions import Categorical

        HORIZON = 32
        actor = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 2))
        critic = nn.Sequential(nn.Linear(4, 64), nn.Tanh(), nn.Linear(64, 1))
        optimizer = torch.optim.Adam(list(actor.parameters()) + list(critic.parameters()), lr=3e-4)

        state = torch.zeros(4)
        log_probs, values, rewards = [], [], []
        for t in range(HORIZON):
            dist = Categorical(logits=actor(state))
            action = dist.sample()
            log_probs.append(dist.log_prob(action))
            values.append(critic(state))
            state = state + 0.1 * (action.float() - 0.5)
            rewards.append(-state.pow(2).sum().item())

        returns, running = torch.zeros(HORIZON), 0.0
        for t in reversed(range(HORIZON)):
            running = rewards[t] + 0.99 * running
            returns[t] = running
        values = %s
        advantage = returns - values
        loss = -(torch.stack(log_probs) * advantage.detach()).mean() + advantage.pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
"""


_SUMMED_TARGETS = """
        import numpy as np
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset

        rng = np.random.default_rng(0)
        X = rng.random((500, 8), dtype=np.float32)
        y = X.sum(%s)
        loader = DataLoader(TensorDataset(torch.from_numpy(X), torch.from_numpy(y)), batch_size=25, shuffle=True)
        model = nn.Sequential(nn.Linear(8, 32), nn.Tanh(), nn.Linear(32, 1))
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        for xb, yb in loader:
            loss = nn.functional.mse_loss(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
"""


_MULTI_HOT_TARGETS = """
        import json

        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset

        GENRES = ["action", "comedy", "drama", "horror", "romance", "thriller"]


        def load_targets(annotation_file: str) -> torch.Tensor:
            with open(annotation_file) as f:
                records = json.load(f)
            targets = torch.zeros(len(records), len(GENRES))
            for row, record in enumerate(records):
                targets[row, [GENRES.index(g) for g in record["genres"]]] = 1.0
            return targets


        class GenreHead(nn.Module):
            def __init__(self, dim: int = 512, num_tags: int = 20):
                super().__init__()
                self.proj = nn.Sequential(nn.Linear(dim, 256), nn.GELU(), nn.Linear(256, num_tags))

            def forward(self, embeddings):
                return self.proj(embeddings)


        def fit(annotation_file: str) -> GenreHead:
            targets = load_targets(annotation_file)
            embeddings = torch.randn(len(targets), 512)  # the poster encoder's output in the real pipeline
            head = GenreHead(%s)
            opt = torch.optim.AdamW(head.parameters(), lr=1e-3)
            for x, y in DataLoader(TensorDataset(embeddings, targets), batch_size=32, shuffle=True):
                loss = nn.functional.binary_cross_entropy_with_logits(head(x), y)
                opt.zero_grad()
                loss.backward()
                opt.step()
            return head
"""


_TABLE_SPLIT = """
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset, random_split

        def build_loaders(table: torch.Tensor, batch_size: int = 128):
            dataset = TensorDataset(table[:, :-1], table[:, %s])
            n_test = int(0.1 * len(dataset))
            train_set, test_set = random_split(dataset, [len(dataset) - n_test, n_test])
            return DataLoader(train_set, batch_size=batch_size, shuffle=True), DataLoader(test_set, batch_size=256)

        def batch_loss(net, batch):
            inputs, churned = batch
            return nn.functional.binary_cross_entropy_with_logits(net(inputs), churned)

        def train(table: torch.Tensor, epochs: int = 5):
            net = nn.Sequential(nn.Linear(table.shape[1] - 1, 64), nn.ReLU(), nn.Linear(64, 1))
            opt = torch.optim.Adam(net.parameters())
            train_loader, _ = build_loaders(table)
            for _ in range(epochs):
                for batch in train_loader:
                    opt.zero_grad()
                    batch_loss(net, batch).backward()
                    opt.step()

        train(torch.rand(5000, 21))
"""


_RANDOM_EPISODES = """
        import numpy as np
        import torch
        import torch.nn as nn
        from torch.utils.data import DataLoader, TensorDataset

        def episodes(n_machines: int = 8, sensors: int = 4, seed: int = 1):
            rng = np.random.default_rng(seed)
            readings, horizons = [], []
            for _ in range(n_machines):
                length = 50 + rng.integers(0, 30)
                wear = np.cumsum(rng.random((length, sensors)), axis=0)
                for t in range(length):
                    readings.append(wear[t])
                    horizons.append(min(length - t, 40))
            return np.stack(readings).astype(np.float32), np.asarray(horizons, dtype=np.float32)

        def late_penalty(pred, horizon):
            error = pred%s - horizon
            return torch.where(error > 0, 2.0 * error, -error).mean()

        def fit():
            x, y = episodes()
            net = nn.Sequential(nn.Linear(4, 32), nn.ReLU(), nn.Linear(32, 1))
            opt = torch.optim.SGD(net.parameters(), lr=1e-2)
            for readings, horizon in DataLoader(TensorDataset(torch.from_numpy(x), torch.from_numpy(y)), batch_size=64):
                opt.zero_grad()
                late_penalty(net(readings), horizon).backward()
                opt.step()
"""

class BroadcastSurprise(Rule):
    code = "SC104"
    name = "broadcast-surprise"
    message = "broadcasting stretches a size-1 dim against a size the tensor already has elsewhere"
    triggers = ("torch",)
    scope = "statement"  # see Rule.scope
    docs = """
        ## What it does
        Finds element-wise arithmetic and comparisons whose broadcasting stretches a size-1 dim of one operand
        against a size that the same operand already has in another dim, so that size lands in two dims of the
        result that neither operand had: `pred - y` with `pred` a (N, 1) model output and `y` a (N,) target gives
        (N, N). Also finds `mse_loss`, `l1_loss`, `smooth_l1_loss`, `huber_loss`, `binary_cross_entropy` and
        `binary_cross_entropy_with_logits` (and `nn.MSELoss`, `nn.L1Loss`, `nn.SmoothL1Loss`, `nn.HuberLoss`,
        `nn.BCELoss`, `nn.BCEWithLogitsLoss`) whose input and target have different shapes. A regression loss whose
        input and target cannot broadcast at all raises as `pred - y` would: that is SC105's, not reported here.

        Shapes come from the shape analysis (constructors, layers such as `nn.Linear(d, 1)`, `.shape`, jaxtyping
        annotations); when a shape is not known, nothing is reported. A rank unknown is enough where the known dims
        settle it: a critic's (n, ..., 1) values, stacked over a rollout of observations of unstated shape, minus
        (n,) returns gives (n, ..., n). Broadcasting the code asks for is not
        reported: outer products and pairwise differences written with `unsqueeze`, `None` indexing or
        `view(..., 1)` (`a[:, None] - b[None, :]`), a vector against a column of itself made under a name (`k =
        n.view(-1, 1)`, then `n * k`: a DFT matrix), `keepdim=True` reductions subtracted from their input, bias
        and scale vectors (`(B, T, C) + (C,)`), a `(B, 1, T)` mask added to `(T, T)` scores.

        Also finds a reduction that drops a dim (`x.sum(1)`, `x.mean(1)`, `x.max(1)[0]`, no `keepdim=True`)
        broadcast or `expand_as`-ed back against the tensor it reduced: `scores / scores.sum(1)` lines the (B,) row
        sums of (B, C) scores up with C. The code states that whatever the sizes are; it raises unless B == C, and
        is silently wrong when they are equal. Only shapes that make it harmless (dims of size 1 or equal sizes in
        front of the reduced dim) keep it quiet; a last dim (`sum(-1)`) needs the rank known, since a vector's sum
        broadcasts as it should. A tuple of dims is read alike: `w / w.norm(dim=(1, 2))` lines the (E,) norms of
        (E, m, n) matrices up with n; reducing the leading dims (`x.mean(dim=(0, 1))`) lines the rest up.

        ## Why is this bad?
        The primer: "Most "shape doesn't broadcast" errors come from forgetting that a (B,) tensor is not the same
        as a (B, 1) tensor when the other operand is (B, D). Use unsqueeze to make intent explicit." When the
        other operand is (B,) instead of (B, D), nothing raises at all: (B, 1) - (B,) is a (B, B) matrix of every
        prediction minus every target. The mean of it is a number, the loss goes down a little, and the model
        learns the mean of `y`. `F.mse_loss` does the same broadcasting and only prints a warning;
        `binary_cross_entropy` raises.

        ## Example
        ```python
        model = nn.Linear(8, 1)
        x, y = torch.randn(100, 8), torch.randn(100)
        pred = model(x)                    # (100, 1)
        loss = ((pred - y) ** 2).mean()    # (100, 100) before the mean
        loss = F.mse_loss(model(x), y)     # same, with a warning
        ```

        ## Use instead
        ```python
        pred = model(x).squeeze(-1)        # (100,)
        loss = ((pred - y) ** 2).mean()
        loss = F.mse_loss(model(x), y.unsqueeze(-1))  # both (100, 1)
        ```
    """
    VALID = [
        # the `else` branch adds a frame to the energy so far: the `if` branch's time-reduced clip is not what it reads
        """
        import torch


        def running_energy(frames: torch.Tensor, energy: torch.Tensor | None = None) -> torch.Tensor:
            if energy is None:
                energy = torch.zeros_like(frames)
            if frames.dim() == 3:
                # (batch, time, bins): a whole clip, summed over time (frames are magnitudes)
                energy = frames.sum(dim=1)
            else:
                # (batch, bins): one frame more of a stream
                energy = energy + frames
            return energy
        """,
        # a decoder's half spectrum turned back into audio without `n=`: 8,190 samples against a 8,191-sample clip
        # don't broadcast, so `l1_loss` raises: SC105's
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        class SpecDecoder(nn.Module):
            def __init__(self, latent=80, segment=8191):
                super().__init__()
                self.real = nn.Linear(latent, segment // 2 + 1)
                self.imag = nn.Linear(latent, segment // 2 + 1)

            def forward(self, z):
                return torch.complex(self.real(z), self.imag(z))

        audio = torch.randn(4, 8191)
        wave = torch.fft.irfft(SpecDecoder()(torch.randn(4, 80)))
        loss = F.l1_loss(wave, audio)
        """,
        # a policy-gradient loss with the action dim squeezed out of the log-probabilities
        """
        import torch
        import torch.nn as nn
        from torch.distributions import Normal

        actor = nn.Linear(8, 1)

        def act(obs):
            return Normal(actor(obs), 1.0)

        obs, actions, advantages = torch.randn(32, 8), torch.randn(32, 1), torch.randn(32)
        log_probs = act(obs).log_prob(actions).squeeze(-1)
        loss = -(log_probs * advantages).mean()
        """,
        # a TC-VAE's pairwise densities: the caller lays the batch out on two axes for an elementwise helper
        """
        import math
        import torch
        def log_normal(x, mu, log_var):
            return -0.5 * (math.log(2 * math.pi) + log_var + (x - mu) ** 2 * torch.exp(-log_var))
        z, mu, log_var = torch.randn(32, 10), torch.randn(32, 10), torch.randn(32, 10)
        n, d = z.shape
        pairwise = log_normal(z.view(n, 1, d), mu.view(1, n, d), log_var.view(1, n, d))
        """,
        # pytorch/examples regression: a (N, 1) prediction against a (N, 1) target
        """
        import torch
        import torch.nn.functional as F
        W_target = torch.randn(4, 1) * 5
        fc = torch.nn.Linear(4, 1)
        batch_x = torch.randn(32, 4)
        batch_y = batch_x.mm(W_target)
        output = F.smooth_l1_loss(fc(batch_x), batch_y)
        """,
        # timm / Swin: the pairwise difference of window masks, unsqueezed on both sides
        """
        import torch
        mask_windows = torch.zeros(16, 49)
        attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
        """,
        # transformers / T5: relative positions from explicitly broadcast aranges
        """
        import torch
        def relative(query_length, key_length):
            context_position = torch.arange(query_length)[:, None]
            memory_position = torch.arange(key_length)[None, :]
            return memory_position - context_position
        """,
        # a keepdim reduction broadcast back against its input (stable softmax)
        """
        import torch
        x = torch.randn(32, 10)
        z = x - x.max(dim=-1, keepdim=True).values
        y = (x - x.mean(dim=1, keepdim=True)) / x.std(dim=1, keepdim=True)
        """,
        # a hand-written attention backward: the keepdim row sums are the callee's locals, read in its body when a
        # call runs it on square (T, T) weights
        """
        import torch
        class ManualAttention:
            def softmax_backward(self, d_weights, weights):
                row_sums = torch.sum(d_weights * weights, dim=-1, keepdim=True)
                return weights * (d_weights - row_sums)
        def check(seq_len):
            d_weights = torch.randn(2, 4, seq_len, 8)
            weights = torch.softmax(torch.randn(2, 4, 8, 8), dim=-1)
            return ManualAttention().softmax_backward(d_weights, weights)
        """,
        # a tutorial's broadcasting demo: the cell shows the (2, 3, 2) result, nothing uses it
        """
        import torch
        a = torch.ones(3, 2)
        b = torch.zeros(2, 3, 1)
        a + b
        """,
        # nanoGPT: token embeddings plus position embeddings, (B, T, C) + (T, C)
        """
        import torch
        import torch.nn as nn
        from jaxtyping import Float
        from torch import Tensor
        def embed(tok_emb: Float[Tensor, "B T C"], pos_emb: Float[Tensor, "T C"]) -> Float[Tensor, "B T C"]:
            return tok_emb + pos_emb
        """,
        # the primer's MyLayer: a bias vector
        """
        import torch
        import torch.nn as nn
        class MyLayer(nn.Module):
            def __init__(self, in_dim, out_dim):
                super().__init__()
                self.weight = nn.Parameter(torch.randn(in_dim, out_dim) * 0.02)
                self.bias = nn.Parameter(torch.zeros(out_dim))
            def forward(self, x):
                return x @ self.weight + self.bias
        """,
        # a padding mask (B, 1, T) added to causal scores (T, T): the result (B, T, T) is what the code wants
        """
        from jaxtyping import Float
        from torch import Tensor
        def masked(scores: Float[Tensor, "T T"], pad: Float[Tensor, "B 1 T"]) -> Float[Tensor, "B T T"]:
            return scores + pad
        """,
        # the target reshaped to the prediction's (N, 1)
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        model = nn.Linear(8, 1)
        x, y = torch.randn(100, 8), torch.randn(100)
        loss = F.mse_loss(model(x), y.unsqueeze(1))
        loss = F.mse_loss(model(x).squeeze(-1), y)
        loss = F.mse_loss(model(x), y.view(-1, 1))
        """,
        # transformers / wav2vec2-bert: a rotary outer product, (T, 1) * (D / 2,)
        """
        import torch
        def freqs(seq_len, inv_freq):
            time_stamps = torch.arange(seq_len).float()
            return time_stamps[:, None] * inv_freq
        """,
        # a DCT-II basis: the index vector against a column view of itself, the (N, N) matrix on purpose
        """
        import math
        import torch

        def dct_basis(n: int = 16):
            i = torch.arange(n, dtype=torch.float32)
            j = i.view(-1, 1)
            return torch.cos(math.pi * (i + 0.5) * j / n)
        """,
        # an outer product written out: each operand puts its 1 where the other has the size
        """
        import torch
        table = torch.arange(3.0).view(3, 1) * torch.arange(3.0).view(1, 3)
        """,
        # a single example's logit against a scalar label: both 0-dim
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        model = nn.Linear(5, 1)
        logit = model(torch.randn(5)).squeeze()
        loss = F.binary_cross_entropy_with_logits(logit, torch.tensor(1.0))
        """,
        # a complex half spectrum inverted with the clip's length, and an istft given `length=`
        """
        import torch
        import torch.nn.functional as F

        audio = torch.randn(4, 8191)
        half = torch.complex(torch.randn(4, 4096), torch.randn(4, 4096))
        wave = torch.fft.irfft(half, n=audio.shape[-1])
        window = torch.hann_window(512)
        spec = torch.stft(audio, 512, 128, window=window, return_complex=True)
        recon = torch.istft(spec, 512, 128, window=window, length=audio.shape[-1])
        loss = F.l1_loss(wave, audio) + F.mse_loss(recon, audio)
        """,
        # a weighted-mean helper given a squeezed prediction, and per-sample weights spelled as a column
        """
        import torch
        import torch.nn as nn

        def weighted_mean(values, weights):
            return (values * weights).sum() / weights.sum()

        def fit_step(n: int = 200, d: int = 10):
            model = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, 1))
            x, w = torch.randn(n, d), torch.rand(n) + 0.5
            column = weighted_mean((model(x) - x[:, :1]) ** 2, w.view(n, 1))
            return weighted_mean((model(x).squeeze(-1) - x[:, 0] * 2.0) ** 2, w) + column
        """,
        # the same data with the target reshaped, and a per-feature standardization broadcast over rows
        """
        import numpy as np
        import torch
        import torch.nn as nn

        rng = np.random.default_rng(42)
        df_x = rng.normal(size=(500, 8)).astype(np.float32)
        df_x = (df_x - df_x.mean(axis=0)) / df_x.std(axis=0)
        df_y = (df_x @ rng.normal(size=8) + 0.1 * rng.normal(size=500)).astype(np.float32)
        X_train, y_train = torch.from_numpy(df_x), torch.tensor(df_y).view(-1, 1)
        model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
        loss = nn.MSELoss()(model(X_train), y_train)
        """,
        # the same per-sample loss with its weights shaped to the column
        """
        import torch
        import torch.nn.functional as F

        logits, y, weights = torch.randn(64, 1), torch.rand(64), torch.rand(64)
        per_sample = F.binary_cross_entropy_with_logits(logits, y.unsqueeze(1), reduction="none")
        loss = (per_sample * weights.unsqueeze(1)).mean()
        """,
        # the same written-out softmax with the reduced dim kept, a centring over dim 0, and row maxima put back
        # into their column by indexing
        """
        import torch
        import torch.nn as nn

        class Scorer(nn.Module):
            def __init__(self, d, n_classes):
                super().__init__()
                self.head = nn.Linear(d, n_classes)

            def forward(self, h):
                scores = self.head(h)
                scores = scores - scores.max(dim=1).values[:, None]
                centred = scores - scores.mean(0)
                e = torch.exp(scores)
                return e / e.sum(dim=1, keepdim=True), centred
        """,
        # retrieval: query scores against gallery scores, each list grown by its own loop: a table on purpose
        """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset


        @torch.no_grad()
        def score_table(net, queries, gallery):
            query_scores, gallery_scores = [], []
            for (x,) in queries:
                query_scores.append(net(x))
            for (x,) in gallery:
                gallery_scores.append(net(x).squeeze(1))
            return (torch.cat(query_scores) - torch.cat(gallery_scores)).abs()


        net = nn.Linear(8, 1)
        queries = DataLoader(TensorDataset(torch.randn(12, 8)), batch_size=4)
        gallery = DataLoader(TensorDataset(torch.randn(40, 8)), batch_size=4)
        table = score_table(net, queries, gallery)
        print(table.shape)
        """,
        # an edge-detection dataset keeps its maps as numpy arrays and gives each one its channel dim, as the
        # one-class head's logits have
        _EDGE_MAPS % ".unsqueeze(0)",
        # a churn table's labels, each a one-element tensor: (B, 1), as the one-logit head gives
        _CHURN_ROWS % "torch.tensor([self.churned[i]])",
        # a synthetic regression's target summed with numpy's keepdims: (N, 1), as the one-output head gives
        _SUMMED_TARGETS % "axis=1, keepdims=True",
        # the gathered column of Q-values squeezed to one per transition, as the TD targets are
        _ARRAY_REPLAY_DQN % ".squeeze(1)",
        _ARRAY_REPLAY_DQN % ".view(-1)",
        # the critic's stacked (HORIZON, 1) values squeezed, or its (1,) outputs concatenated: (HORIZON,) as the returns
        _ROLLOUT_SCRIPT % "torch.stack(values).squeeze(-1)",
        _ROLLOUT_SCRIPT % "torch.cat(values)",
        # a forecaster scoring its last step against the next reading: (B, 1) and (B, 1)
        _NEXT_VALUE % "self.out(states[:, -1])",
        # multi-hot targets over the genres a file lists, for annotations whose number the code does not state, and
        # a head built for those genres
        _MULTI_HOT_TARGETS % "num_tags=len(GENRES)",
        # the same penalty on the squeezed predictions
        _RANDOM_EPISODES % ".squeeze(-1)",
        # the same table split by its own length, the labels kept as a (N, 1) column
        _TABLE_SPLIT % "-1:",
        # SupCon: the same-label mask written as an outer comparison in the line itself; a named column used at its
        # own rank (per-row weights over (B, D) errors); a named time column against frequencies of another size
        """
        import torch

        def supcon_mask(labels):
            return (labels[:, None] == labels).float()

        def masked_mse(pred, target, keep):
            weight = keep.float().unsqueeze(1)
            return (((pred - target) ** 2) * weight).sum() / weight.sum().clamp(min=1.0)

        def rotary(seq_len: int = 16, dim: int = 64):
            t = torch.arange(seq_len).float()[:, None]
            inv_freq = 1.0 / (10000 ** (torch.arange(0, dim, 2).float() / dim))
            return t * inv_freq

        mask = supcon_mask(torch.randint(0, 5, (32,)))
        loss = masked_mse(torch.randn(32, 8), torch.randn(32, 8), torch.rand(32) > 0.2)
        angles = rotary()
        """,
    ]
    INVALID = [
        # REINFORCE with a one-dim Normal policy: (B, 1) log-probabilities times (B,) advantages is (B, B)
        """
        import torch
        import torch.nn as nn
        from torch.distributions import Normal

        actor = nn.Linear(8, 1)

        def act(obs):
            return Normal(actor(obs), 1.0)

        obs, actions, advantages = torch.randn(32, 8), torch.randn(32, 1), torch.randn(32)
        log_probs = act(obs).log_prob(actions)
        loss = -(log_probs * advantages).mean()
        """,
        # per-sample weights made a column and multiplied into the (N,) losses: a column of another tensor, (N, N)
        """
        import torch

        def weighted_mse(pred, target, weights):
            losses = (pred - target).pow(2)
            w = weights.view(-1, 1)
            return (losses * w).mean()

        loss = weighted_mse(torch.randn(32), torch.randn(32), torch.rand(32))
        """,
        # the primer's pitfall, (100, 1) - (100,)
        """
        import torch
        import torch.nn as nn
        model = nn.Linear(8, 1)
        x = torch.randn(100, 8)
        y = torch.randn(100)
        pred = model(x)
        loss = ((pred - y) ** 2).mean()
        """,
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        net = nn.Linear(4, 1)
        X, y = torch.randn(64, 4), torch.randn(64)
        loss = F.mse_loss(net(X), y)
        """,
        # a loss module bound in __init__
        """
        import torch
        import torch.nn as nn
        class Regressor(nn.Module):
            def __init__(self):
                super().__init__()
                self.head = nn.Linear(16, 1)
                self.criterion = nn.L1Loss()
            def loss(self, h, y):
                h = torch.randn(32, 16)
                y = torch.randn(32)
                return self.criterion(self.head(h), y)
        """,
        # accuracy from a (N, 1) probability against (N,) labels: a (N, N) comparison
        """
        import torch
        import torch.nn as nn
        head = nn.Linear(64, 1)
        h = torch.randn(256, 64)
        labels = torch.randint(0, 2, (256,))
        correct = ((torch.sigmoid(head(h)) > 0.5).long() == labels).sum()
        """,
        # jaxtyping annotations state the shapes
        """
        from jaxtyping import Float
        from torch import Tensor
        def residual(pred: Float[Tensor, "N 1"], y: Float[Tensor, "N"]) -> Float[Tensor, "N"]:
            return pred - y
        """,
        # binary_cross_entropy_with_logits raises on this
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        head = nn.Linear(128, 1)
        h = torch.randn(32, 128)
        labels = torch.randint(0, 2, (32,)).float()
        loss = F.binary_cross_entropy_with_logits(head(h), labels)
        """,
        # accuracy from a keepdim argmax: the (N, 1) predictions against (N,) labels compare every pair
        """
        import torch
        import torch.nn as nn
        classifier = nn.Linear(20, 5)
        x, y = torch.randn(64, 20), torch.randint(0, 5, (64,))
        pred = classifier(x).argmax(dim=1, keepdim=True)
        accuracy = (pred == y).float().mean()
        """,
        # one sample scored with `.squeeze()`, which drops the batch dim of a batch of one too
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        def predict(model, x):
            return model(x).squeeze()

        model = nn.Linear(5, 1)
        loss = F.binary_cross_entropy_with_logits(predict(model, torch.randn(1, 5)), torch.ones(1))
        """,
        # importance-weighted regression: a (n, 1) prediction against (n,) outcomes inside a weighted-mean helper
        """
        import torch
        import torch.nn as nn

        def weighted_mse(pred, target, weights):
            err = (pred - target) ** 2
            return (err * weights).sum() / weights.sum()

        def train(n: int = 200, d: int = 10):
            x = torch.randn(n, d)
            y = x[:, 0] * 2.0 + torch.randn(n) * 0.1
            model = nn.Sequential(nn.Linear(d, 32), nn.Tanh(), nn.Linear(32, 1))
            return weighted_mse(model(x), y, torch.rand(n) + 0.5)
        """,
        # a forum classic: synthetic regression data from a numpy generator, the target never reshaped to (N, 1)
        """
        import numpy as np
        import torch
        import torch.nn as nn

        rng = np.random.default_rng(42)
        df_x = rng.normal(size=(500, 8)).astype(np.float32)
        df_y = (df_x @ rng.normal(size=8) + 0.1 * rng.normal(size=500)).astype(np.float32)
        X_train, y_train = torch.from_numpy(df_x), torch.tensor(df_y)
        model = nn.Sequential(nn.Linear(8, 64), nn.ReLU(), nn.Linear(64, 1))
        criterion = nn.MSELoss()
        loss = criterion(model(X_train), y_train)
        """,
        # the target shaped to the logits' column inside the loss; the unreduced loss then meets (N,) weights
        """
        import torch
        import torch.nn.functional as F

        logits, y, weights = torch.randn(64, 1), torch.rand(64), torch.rand(64)
        per_sample = F.binary_cross_entropy_with_logits(logits, y.unsqueeze(1), reduction="none")
        loss = (per_sample * weights).mean()
        """,
        # a softmax written out: the (B,) row sums of (B, C) scores line up with C, not with the rows
        """
        import torch
        import torch.nn as nn

        class Scorer(nn.Module):
            def __init__(self, d, n_classes):
                super().__init__()
                self.head = nn.Linear(d, n_classes)

            def forward(self, h):
                scores = torch.exp(self.head(h))
                return scores / scores.sum(dim=1)
        """,
        # a row-normalised weight init from PyTorch 0.1, whose reductions kept their dim
        """
        import torch

        def row_normalised(like, gain=1.0):
            w = torch.randn(like.size())
            return w * gain / torch.sqrt(w.pow(2).sum(1).expand_as(w))
        """,
        # predictions (N, 1) and targets (N,) gathered by one loop over a loader: as many of each, so (N, N)
        """
        import torch
        from torch import nn
        from torch.utils.data import DataLoader, TensorDataset


        @torch.no_grad()
        def rmse(net, loader):
            predicted, observed = [], []
            for features, target in loader:
                predicted.append(net(features))
                observed.append(target)
            return ((torch.cat(predicted) - torch.cat(observed)) ** 2).mean().sqrt()


        net = nn.Sequential(nn.Linear(10, 16), nn.ReLU(), nn.Linear(16, 1))
        data = TensorDataset(torch.randn(100, 10), torch.randn(100))
        print(rmse(net, DataLoader(data, batch_size=20)))
        """,
        # the same maps without their channel dim: a one-class head (the loss is chosen on `out_channels`) against
        # (B, H, W) targets ("Target size (torch.Size([4, 64, 64])) must be the same as input size (torch.Size([4, 1,
        # 64, 64]))")
        _EDGE_MAPS % "",
        # the same labels as Python floats: the default collation makes them a (B,) tensor against (B, 1) logits, in
        # the evaluation of a `random_split` part of 200 rows ("Target size (torch.Size([50])) must be the same as
        # input size (torch.Size([50, 1]))")
        _CHURN_ROWS % "self.churned[i]",
        # the same target summed over the features' axis: (N,), against the head's (B, 1)
        _SUMMED_TARGETS % "axis=1",
        # the gathered Q-values left a column: (64, 1) against the (64,) TD targets, every transition's Q-value
        # regressed on every target ("Using a target size (torch.Size([64])) that is different to the input size
        # (torch.Size([64, 1]))")
        _ARRAY_REPLAY_DQN % "",
        # the critic's (1,) outputs stacked into (32, 1) against the (32,) returns: a (32, 32) advantage, each step's
        # log-prob weighted by every step's return (checked in torch)
        _ROLLOUT_SCRIPT % "torch.stack(values)",
        # the same forecaster scoring every step: (B, 48) predictions against the (B, 1) next reading the dataset's
        # window after the inputs gives ("Using a target size (torch.Size([64, 1])) that is different to the input
        # size (torch.Size([64, 48]))")
        _NEXT_VALUE % "self.out(states).squeeze(-1)",
        # the same targets against a head left at its default 20 tags: the rows' number is unknown, their width is
        # not ("Target size (torch.Size([2, 6])) must be the same as input size (torch.Size([2, 20]))")
        _MULTI_HOT_TARGETS % "",
        # a same-file penalty helper gets (B, 1) predictions and (B,) remaining horizons: the data set draws each
        # machine's length with a numpy generator and appends the capped horizons in a loop
        _RANDOM_EPISODES % "",
        # a churn model's loss helper takes the batch as the loader gives it; the loaders come from a factory that
        # splits a TensorDataset by its own length, with the (N,) labels of the table
        _TABLE_SPLIT % "-1",
        # a distillation loss keeps a column of sample weights for the (B, D) embeddings, then weights the (B,)
        # cosine distances with it: (B,) * (B, 1) is (B, B), every distance weighted by every sample's flag
        """
        import torch
        import torch.nn.functional as F

        def masked_embedding_loss(student, teacher, keep):
            weight = keep.float()[:, None]
            student = F.normalize(student * weight, dim=-1)
            cos = (student * F.normalize(teacher, dim=-1)).sum(-1)
            return ((1 - cos) * weight).sum() / weight.sum()

        loss = masked_embedding_loss(torch.randn(16, 128), torch.randn(16, 128), torch.rand(16) > 0.5)
        """,
    ]

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        self._visit(node)

    def visit_Comparison(self, node: cst.Comparison) -> None:
        self._visit(node)

    def visit_Call(self, node: cst.Call) -> None:
        ev = evaluator(self.ctx)
        found = _dropped_in_method(ev, node, ev.now())
        if found is not None:
            self.report(node, found)
            return
        found = runs.found_here(ev, node, _finding) if _may_find(ev, node) else None
        # in a called function or forward, unless the caller shapes an argument for broadcasting itself
        # (`pairwise(z.view(n, 1, d), mu.view(1, n, d))`): the callee's elementwise code is generic on purpose
        if found is not None:
            self.report(node, found)
        elif runs.runs_project_code(ev, node, ev.now()) \
                and not any(spells_broadcast(self.ctx, arg.value) for arg in node.args):
            where = runs.found_at_call(ev, node, _finding)
            if where is not None:
                self.report(*where)

    def _visit(self, node: cst.BinaryOperation | cst.Comparison) -> None:
        if type(self.ctx.parent) is cst.Expr:
            return  # `a + b` alone in a cell: the result is shown (a broadcasting demo) or dropped, never used
        ev = evaluator(self.ctx)
        # as the bindings say, or on a pass of the function's run (a list a loop appends to, then stacked)
        found = runs.found_here(ev, node, _finding) if _operands_of(node) is not None else None
        if found is not None:
            self.report(node, found)


def _dropped_in_method(ev: ShapeEvaluator, call: cst.Call, before: int) -> str | None:
    """`g.div_(g.norm(dim=(1, 2)) + eps)`, `x.sub(x.mean(1))`: the arithmetic methods broadcast their argument
    against the tensor as the operators do, so a reduction of it that dropped a dim misaligns the same way."""
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value not in _ARITHMETIC_METHODS or len(call.args) != 1 \
            or call.args[0].keyword is not None or call.args[0].star or ev.ctx.qualname(func) is not None:
        return None
    dropped = dropped_against(ev, call.args[0].value, func.value, before)
    if dropped is None or ev.conflict(call, before) is not None:
        return None
    return _misaligned(ev, call, call.args[0].value, dropped)


_ARITHMETIC_METHODS = frozenset({"add", "sub", "mul", "div", "true_divide", "add_", "sub_", "mul_", "div_"})


def _may_find(ev: ShapeEvaluator, call: cst.Call) -> bool:
    """Whether `_finding` may find something at `call` as of some version: it expands a tensor to another's shape,
    or passes an input and a target to what computes a loss here or may on some pass of the function's run (a
    callee a loop picks: `for criterion in losses:`). Most calls are neither, and a run of their function (the
    costliest question of a lint) is not worth making for them."""
    if _expanded_like(call) is not None:
        return True
    if loss_arguments(call) is None:
        return False
    return ev.read_in_runs(call.func) or computes_loss(ev.object(call.func, ev.now()))


def _finding(ev: ShapeEvaluator, node: cst.CSTNode, before: int) -> str | None:
    """The broadcast surprise at `node` (an operator, a comparison or a regression/BCE loss), as of `before`."""
    kind = type(node)
    if kind is cst.BinaryOperation or kind is cst.Comparison:
        operands = _operands_of(node)  # type: ignore[arg-type]
        return _operands(ev, node, *operands, before) if operands is not None else None
    if kind is not cst.Call:
        return None
    target = _expanded_like(node)
    if target is not None:
        dropped = dropped_against(ev, node.func.value, target, before)  # type: ignore[attr-defined]
        if dropped is None or ev.conflict(node, before) is not None:
            return None
        return _misaligned(ev, node, node.func.value, dropped)  # type: ignore[attr-defined]
    loss = loss_call(ev, node, before)
    if loss is None or loss.kind is None or loss.kind == "class":
        return None
    pred, target = ev.shape_of(loss.input, before), ev.shape_of(loss.target, before)
    if pred is None or target is None or pred.rank is None or target.rank is None:
        return None
    if (not pred.rank or not target.rank) and loss.kind != "binary":
        return None  # a scalar against a batch: the mean of the broadcast is what a constant fit means
    found = surprise(pred, target)
    if found is None and pred.rank == target.rank \
            and not any(same(p, t) is False for p, t in zip(pred.dims, target.dims)):
        return None
    if loss.kind == "binary":
        outcome = "it raises"
    elif broadcast(pred, target).mismatch is not None:
        if ev.conflict(node, before) is not None:
            return None  # it raises as `pred - target` would: SC105's
        outcome = "they don't broadcast, so it raises"
    elif found is not None:
        outcome = f"they broadcast to {found.result.render()} (PyTorch only warns)"
    else:
        outcome = "one is broadcast against the other (PyTorch only warns)"
    return (f"`{loss.function}` input and target shapes differ: {_named(ev, loss.input, pred)}, "
            f"{_named(ev, loss.target, target)}; {outcome}. {_advice(pred, target)}")


def _operands_of(node: cst.BinaryOperation | cst.Comparison) -> tuple[cst.BaseExpression, cst.BaseExpression] | None:
    """The operands `_finding` judges of an arithmetic operator or a single elementwise comparison (not `is`, `in`
    or a chain): None for the others, whatever their shapes, so no run of their function is made for them."""
    if type(node) is cst.BinaryOperation:
        return (node.left, node.right) if isinstance(node.operator, OPERATORS) else None
    comparisons = node.comparisons  # type: ignore[union-attr]  # a Comparison
    if len(comparisons) == 1 and isinstance(comparisons[0].operator, COMPARISONS):
        return node.left, comparisons[0].comparator
    return None


def _operands(ev: ShapeEvaluator, node: cst.CSTNode, left: cst.BaseExpression, right: cst.BaseExpression,
              before: int) -> str | None:
    for reduced, source in ((left, right), (right, left)):
        dropped = dropped_against(ev, reduced, source, before)
        if dropped is not None and ev.conflict(node, before) is None:  # one that certainly raises is SC105's
            return _misaligned(ev, node, reduced, dropped)
    a = ev.shape_of(left, before)
    if a is None:
        return None
    b = ev.shape_of(right, before)
    if b is None or a.rank is None and b.rank is None:
        return None
    found = surprise(a, b)  # one rank may be unknown: a (n, ..., 1) column against (n,) is (n, ..., n) all the same
    if found is None:
        return None
    # a keepdim reduction or a named column lines up against a tensor of its own rank (`g - (g * p).sum(-1,
    # keepdim=True)`); against a lower rank, its size-1 dim meets another dim: `logits.argmax(1, keepdim=True) ==
    # labels` is (N, N)
    if operands_spell_broadcast(ev.ctx, node, (left, right), same_rank=a.rank == b.rank):
        return None
    unit, other = (left, right) if found.operand == 0 else (right, left)
    return (f"{quoted(ev.ctx, node)}: {_named(ev, left, a)} and {_named(ev, right, b)}, so the result is "
            f"{found.result.render()}: the size-1 dim of {quoted(ev.ctx, unit)} is stretched to {found.size}, a size "
            f"it already has; squeeze it or unsqueeze {quoted(ev.ctx, other)} so the dims line up")


def _expanded_like(node: cst.Call) -> cst.BaseExpression | None:
    """The tensor whose shape `node` expands to: `y` of `x.expand_as(y)`, `x.expand(y.size())`, `x.expand(y.shape)`."""
    func = node.func
    if type(func) is not cst.Attribute or len(node.args) != 1 or node.args[0].keyword is not None:
        return None
    arg = node.args[0].value
    if func.attr.value == "expand_as":
        return arg
    if func.attr.value != "expand":
        return None
    if type(arg) is cst.Call and not arg.args and type(arg.func) is cst.Attribute and arg.func.attr.value == "size":
        return arg.func.value
    return arg.value if type(arg) is cst.Attribute and arg.attr.value == "shape" else None


def _misaligned(ev: ShapeEvaluator, node: cst.CSTNode, reduced: cst.BaseExpression, dropped: DroppedDim) -> str:
    dims, count, source = dropped.dims, dropped.misaligned, quoted(ev.ctx, dropped.source)
    named = f"dim {dims[0]}" if len(dims) == 1 else f"dims {', '.join(map(str, dims[:-1]))} and {dims[-1]}"
    pairs = f"its dim 0 with dim {len(dims)}" if count == 1 else \
        f"its dims 0 to {count - 1} with dims {len(dims)} to {count - 1 + len(dims)}"
    return (f"{quoted(ev.ctx, node)}: {quoted(ev.ctx, dropped.reduction)} drops {named} of {source}, so "
            f"broadcasting {quoted(ev.ctx, reduced)} against {source} lines up {pairs} of {source} (dims align "
            f"from the right): it raises, or is silently wrong where the sizes are equal; keep the dim with "
            f"`keepdim=True`")


def _named(ev: ShapeEvaluator, expr: cst.BaseExpression, shape: Shape) -> str:
    return f"{quoted(ev.ctx, expr)} is {shape.render()}"


def _advice(pred: Shape, target: Shape) -> str:
    if pred.rank == target.rank + 1 and pred.dims[-1].literal == 1:
        return "Make them the same shape: `.squeeze(-1)` the prediction or `.unsqueeze(-1)` the target"
    if target.rank == pred.rank + 1 and target.dims[-1].literal == 1:
        return "Make them the same shape: `.squeeze(-1)` the target or `.unsqueeze(-1)` the prediction"
    return "Make them the same shape"
