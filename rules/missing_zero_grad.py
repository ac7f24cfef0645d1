"""SC201 missing-zero-grad: a training loop that steps an optimizer without resetting the gradients each iteration."""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from shapecheck.engine import Context, Invalid, Rule
from shapecheck.engine.syntax import dotted_name
from shapecheck.loops.training_loop import Event, TrainingLoop, is_backward, is_step_call, related, training_loop
from shapecheck.loops.surroundings import in_test, is_test_file, lightning_module, statements_around
from shapecheck.engine.walker import walk
from shapecheck.objects.callers import imported_method_callers, inherited_self_callers


# MixMatch's `WeightEMA`: a class of the project with a `step()` that averages weights, no torch optimizer
_WEIGHT_EMA = """
        class WeightEMA(object):
            def __init__(self, model, ema_model, alpha=0.999):
                self.params = list(model.state_dict().values())
                self.ema_params = list(ema_model.state_dict().values())
                self.alpha = alpha

            def step(self):
                for param, ema_param in zip(self.params, self.ema_params):
                    ema_param.mul_(self.alpha).add_(param * (1.0 - self.alpha))
"""


class MissingZeroGrad(Rule):
    code = "SC201"
    name = "missing-zero-grad"
    severity = "error"  # summed gradients silently train the wrong model
    message = "gradients are never reset in this training loop: they accumulate across iterations"
    triggers = ("backward",)
    docs = """
        ## What it does
        Finds a loop that runs `backward()` (also `scaler.scale(loss).backward()`, `accelerator.backward(loss)`,
        `fabric.backward(loss)`) and steps an optimizer (`optimizer.step()`, `scaler.step(optimizer)`, or a
        manual update such as `p -= lr * p.grad`) but never resets the gradients in its body: no
        `optimizer.zero_grad()` / `model.zero_grad()`, no `p.grad = None`, no `p.grad.zero_()`. A reset placed only
        before the loop, or only in an outer loop, is reported too: it runs once, the steps run many times.

        A reset counts for the optimizer it clears: its own `zero_grad()`, `model.zero_grad()` of a module whose
        `.parameters()` it was built on (also through parameter groups built beforehand: `params = [{"params":
        self.model.parameters()}, {"params": self.head.parameters()}]`, then `SGD(params)`), or any reset whose reach
        can't be told. An optimizer built on several
        modules (`Adam(itertools.chain(encoder.parameters(), decoder.parameters()))`) is cleared by resets that
        reach each of them: an autoencoder trainer's `self.encoder.zero_grad()` alone leaves the decoder's
        gradients adding up. Another optimizer's `zero_grad()`
        does not: a GAN that resets `optimizer_D` but never `optimizer_G` is reported at `optimizer_G.step()`. A
        trainer handed its optimizers (`Trainer(G, D, g_opt, d_opt)`) knows what each holds from its constructions:
        `self.D.zero_grad()` does not reset `self.g_opt` of `Adam(G.parameters())`.

        It also finds `optimizer.zero_grad()`, or `model.zero_grad()` of the module the optimizer is built on,
        placed between `backward()` and `optimizer.step()`: the step then sees all-zero gradients and the model
        never learns. The reset, and the backward pass, may be in a helper the step's body calls there (a
        trainer's `self._backward(loss)`, a callback hook `for cb in self.callbacks: cb.on_after_backward(self)`
        whose method resets `trainer.optimizer` on every call; of this file or imported from the project): it is
        reported at that call.

        A reset that runs once every k iterations (under `if step % k == 0:`) while the step runs on every one is
        reported as well: the steps in between apply the gradients summed since that reset.

        Not reported: a reset under another `if` (gradient accumulation resets every few iterations on purpose,
        stepping under its own modulo test), a reset
        in a helper the loop calls or in the closure passed to `optimizer.step(closure)`, DeepSpeed-style
        `engine.backward(loss)` + `engine.step()` and optimizers returned by `deepspeed.initialize` (the engine
        frees the gradients), `dist_autograd` (gradients live in a fresh context), a fresh optimizer or fresh leaf
        tensor created in each iteration, a single step outside any loop (a function that runs `backward()` and steps
        once is reported when a loop of the file, or of a script importing its class, calls it and neither resets:
        a policy-gradient agent's `finish_episode()`, or a GAN's `generator_step()` that resets the critic before
        stepping the generator's optimizer), LightningModules (the trainer resets), and tests (`test_*` functions and test files: an optimizer
        test may accumulate on purpose).

        ## Why is this bad?
        `backward()` adds into `.grad`; it never overwrites it. The primer: "Forgetting optimizer.zero_grad().
        PyTorch accumulates gradients across .backward() calls. Without zeroing, every step compounds the previous
        step's gradient. Symptom: training is stable for a few steps, then explodes." The cheat sheet's rule:
        "zero_grad() must call before backward() — gradients accumulate by default".

        ## Example
        ```python
        optimizer.zero_grad()
        for x, y in loader:
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()  # steps on the sum of all gradients so far
        ```

        ## Use instead
        ```python
        for x, y in loader:
            optimizer.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            optimizer.step()
        ```

        This rule has no fix: where the reset belongs (every iteration, or every `k` for accumulation) is the
        author's call.
    """
    VALID = [
        # An optimizer over two modules, each reset by its own `zero_grad()`, or both through the model holding them.
        """
        import itertools
        import torch
        import torch.nn.functional as F
        class AETrainer:
            def __init__(self, encoder, decoder, lr=1e-3):
                self.encoder = encoder
                self.decoder = decoder
                self.optimizer = torch.optim.Adam(itertools.chain(encoder.parameters(), decoder.parameters()), lr=lr)
            def fit(self, loader):
                for (batch,) in loader:
                    self.encoder.zero_grad()
                    self.decoder.zero_grad()
                    F.mse_loss(self.decoder(self.encoder(batch)), batch).backward()
                    self.optimizer.step()
        def finetune(model, loader):
            opt = torch.optim.SGD(list(model.backbone.parameters()) + list(model.head.parameters()), lr=0.01)
            for x, y in loader:
                model.zero_grad()
                F.cross_entropy(model(x), y).backward()
                opt.step()
        """,
        # Callback hooks between `backward()` and the step that only read the gradients, reset one under a test
        # (skipping a step on a non-finite norm), or reset another optimizer; the reset hook runs after the step.
        """
        import torch
        class GradNormLogger:
            def on_after_backward(self, trainer):
                trainer.norms.append(torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), float("inf")))
        class SkipNonFinite:
            def on_after_backward(self, trainer):
                if not torch.isfinite(trainer.norms[-1]):
                    trainer.optimizer.zero_grad()
        class DiscriminatorReset:
            def on_after_backward(self, trainer):
                trainer.opt_d.zero_grad()
        class ZeroGradHook:
            def on_step_end(self, trainer):
                trainer.opt_g.zero_grad()
        class Trainer:
            def __init__(self, G, D, callbacks):
                self.G, self.D, self.callbacks, self.norms = G, D, callbacks, []
                self.opt_g = torch.optim.Adam(G.parameters())
                self.opt_d = torch.optim.Adam(D.parameters())
            def generator_step(self, z):
                loss = -self.D(self.G(z)).mean()
                loss.backward()
                for callback in self.callbacks:
                    callback.on_after_backward(self)
                self.opt_g.step()
                for callback in self.callbacks:
                    callback.on_step_end(self)
        """,
        # The trainer is handed one optimizer over both models, and resets both before each step.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, generator, discriminator, optimizer, loader):
                self.G, self.D, self.opt, self.loader = generator, discriminator, optimizer, loader
            def train_epoch(self):
                for real, z in self.loader:
                    self.G.zero_grad()
                    self.D.zero_grad()
                    (-self.D(self.G(z)).mean()).backward()
                    self.opt.step()
        G, D = nn.Linear(8, 4), nn.Linear(4, 1)
        Trainer(G, D, torch.optim.Adam(list(G.parameters()) + list(D.parameters())), []).train_epoch()
        """,
        # Each step method resets what it steps (a WGAN's critic and generator updates); the loop resets nothing.
        """
        import torch
        class WGAN:
            def __init__(self, gen, critic):
                self.gen, self.critic = gen, critic
                self.opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4)
                self.opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4)
            def critic_step(self, real, z):
                loss = self.critic(self.gen(z).detach()).mean() - self.critic(real).mean()
                self.opt_c.zero_grad()
                loss.backward()
                self.opt_c.step()
            def generator_step(self, z):
                loss = -self.critic(self.gen(z)).mean()
                self.gen.zero_grad()
                loss.backward()
                self.opt_g.step()
            def train(self, loader):
                for real, z in loader:
                    self.critic_step(real, z)
                    self.generator_step(z)
        """,
        # A CycleGAN's updates written one per line: the discriminators' reset comes before the backward pass on
        # the step's own line, and wipes only what the generators' loss left in them.
        """
        import torch
        import torch.nn as nn
        G, D = nn.Linear(8, 8), nn.Linear(8, 1)
        opt_G = torch.optim.Adam(G.parameters())
        opt_D = torch.optim.Adam(D.parameters())
        for real in loader:
            opt_G.zero_grad()
            fake = G(real)
            loss_G = D(fake).mean()
            loss_G.backward(); opt_G.step()
            opt_D.zero_grad()
            loss_D = D(fake.detach()).mean() - D(real).mean()
            loss_D.backward(); opt_D.step()
        """,
        # The loop calling the update method resets the gradients before each call.
        """
        import torch
        class Learner:
            def __init__(self, model):
                self.model = model
                self.optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
            def update(self, x, y):
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                self.optimizer.step()
        def fit(learner, loader):
            for x, y in loader:
                learner.optimizer.zero_grad()
                learner.update(x, y)
        """,
        # A fine-tuning function called once, outside any loop.
        """
        import torch
        def calibrate(model, x, y, optimizer):
            torch.nn.functional.mse_loss(model(x), y).backward()
            optimizer.step()
        def main(model, x, y):
            calibrate(model, x, y, torch.optim.SGD(model.parameters(), lr=0.1))
        """,
        # InfoGAN: the information loss's optimizer holds G and D, whose optimizers reset them every iteration.
        """
        import itertools
        import torch
        G_optimizer = torch.optim.Adam(G.parameters())
        D_optimizer = torch.optim.Adam(D.parameters())
        info_optimizer = torch.optim.Adam(itertools.chain(G.parameters(), D.parameters()))
        for x_, z_ in loader:
            D_optimizer.zero_grad()
            D_loss = bce(D(x_), real) + bce(D(G(z_)), fake)
            D_loss.backward(retain_graph=True)
            D_optimizer.step()
            G_optimizer.zero_grad()
            D_fake, D_cont = D(G(z_))
            G_loss = bce(D_fake, real)
            G_loss.backward(retain_graph=True)
            G_optimizer.step()
            info_loss = mse(D_cont, c_)
            info_loss.backward()
            info_optimizer.step()
        """,
        # pytorch/examples mnist: the five-line loop.
        """
        import torch.nn.functional as F
        def train(model, device, train_loader, optimizer):
            model.train()
            for data, target in train_loader:
                optimizer.zero_grad()
                loss = F.nll_loss(model(data), target)
                loss.backward()
                optimizer.step()
        """,
        # nanoGPT: gradient accumulation with GradScaler, reset after the step.
        """
        import torch
        scaler = torch.cuda.amp.GradScaler(enabled=True)
        while True:
            for micro_step in range(gradient_accumulation_steps):
                loss = model(X, Y) / gradient_accumulation_steps
                scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
            optimizer.zero_grad(set_to_none=True)
        """,
        # Accumulation with the reset under an `if`.
        """
        import torch
        for i, (x, y) in enumerate(loader):
            loss = criterion(model(x), y) / accum
            loss.backward()
            if (i + 1) % accum == 0:
                optimizer.step()
                optimizer.zero_grad()
        """,
        # pytorch/examples dcgan: two optimizers, each model reset before its own backward.
        """
        import torch
        for i, data in enumerate(dataloader):
            netD.zero_grad()
            errD_real = criterion(netD(real), label)
            errD_real.backward()
            errD_fake = criterion(netD(fake.detach()), label)
            errD_fake.backward()
            optimizerD.step()
            netG.zero_grad()
            errG = criterion(netD(fake), label)
            errG.backward()
            optimizerG.step()
        """,
        # HF Accelerate.
        """
        import torch
        for batch in train_dataloader:
            outputs = model(**batch)
            accelerator.backward(outputs.loss)
            optimizer.step()
            lr_scheduler.step()
            optimizer.zero_grad()
        """,
        # DeepSpeed: the engine owns the reset.
        """
        import torch
        import deepspeed
        model_engine, optimizer, _, _ = deepspeed.initialize(model=net, model_parameters=params)
        for step, batch in enumerate(loader):
            loss = model_engine(batch)
            model_engine.backward(loss)
            model_engine.step()
        """,
        # pytorch/examples time_sequence_prediction: LBFGS resets in its closure.
        """
        import torch.optim as optim
        optimizer = optim.LBFGS(seq.parameters(), lr=0.8)
        for i in range(steps):
            def closure():
                optimizer.zero_grad()
                loss = criterion(seq(input), target)
                loss.backward()
                return loss
            optimizer.step(closure)
        """,
        # pytorch/examples regression: manual update through `.data`, model reset.
        """
        import torch
        import torch.nn.functional as F
        fc = torch.nn.Linear(4, 1)
        for batch_idx in range(100):
            fc.zero_grad()
            output = F.smooth_l1_loss(fc(batch_x), batch_y)
            output.backward()
            for param in fc.parameters():
                param.data.add_(-0.1 * param.grad)
        """,
        # A hand-written loop resetting the leaves after the update.
        """
        import torch
        w = torch.randn(3, requires_grad=True)
        for epoch in range(100):
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                w -= lr * w.grad
                w.grad.zero_()
        """,
        # The reset lives in a helper the loop calls.
        """
        import torch
        def reset(model):
            for p in model.parameters():
                p.grad = None
        for x, y in loader:
            reset(model)
            criterion(model(x), y).backward()
            optimizer.step()
        """,
        # RPC: dist_autograd keeps gradients per context.
        """
        import torch.distributed.autograd as dist_autograd
        for epoch in range(10):
            for x, y in data:
                with dist_autograd.context() as context_id:
                    loss = criterion(model(x), y)
                    dist_autograd.backward(context_id, [loss])
                    opt.step(context_id)
        """,
        # A fresh optimizer (and model) each iteration: a hyper-parameter sweep.
        """
        import torch
        for lr in (0.1, 0.01):
            model = Net()
            optimizer = torch.optim.SGD(model.parameters(), lr=lr)
            criterion(model(x), y).backward()
            optimizer.step()
        """,
        # A fresh leaf each iteration: an attack step on a new input.
        """
        import torch
        for x, y in loader:
            x_adv = x.clone().requires_grad_(True)
            loss = criterion(model(x_adv), y)
            loss.backward()
            with torch.no_grad():
                x_adv += eps * x_adv.grad.sign()
        """,
        # The profiler and the scheduler step too; neither is an optimizer.
        """
        import torch
        for epoch in range(epochs):
            loss = criterion(model(x), y)
            loss.backward()
            scheduler.step()
            prof.step()
        """,
        # A LightningModule with manual optimization: Lightning resets.
        """
        import torch
        import lightning.pytorch as pl
        class Model(pl.LightningModule):
            def fit_batches(self, batches):
                opt = self.optimizers()
                for batch in batches:
                    loss = self.compute_loss(batch)
                    loss.backward()
                    opt.step()
        """,
        # DeepSpeed's own optimizer, stepped after the engine's backward: the engine frees the gradients.
        """
        import torch
        import deepspeed
        engine, optimizer, _, _ = deepspeed.initialize(config=config, model=model, model_parameters=params)
        for x, y in zip(xs, ys):
            loss = engine(x, y)
            engine.backward(loss)
            optimizer.step()
        """,
        # pyro's optimizer tests: the test checks the learning-rate decay, accumulation does not matter.
        """
        import torch
        def test_clipped_adam_lr_decay():
            x = torch.tensor(0.0, requires_grad=True)
            opt = ClippedAdam(params=[x], lr=1.0, lrd=0.5)
            for step in range(3):
                x.backward(torch.tensor(1.0))
                opt.step()
                assert opt.param_groups[0]["lr"] == 0.5 ** (step + 1)
        """,
        # pytorch/examples dcgan with the constructions in view: each optimizer's model is reset.
        """
        import torch
        optimizerD = torch.optim.Adam(netD.parameters(), lr=2e-4)
        optimizerG = torch.optim.Adam(netG.parameters(), lr=2e-4)
        for i, data in enumerate(dataloader):
            netD.zero_grad()
            errD = criterion(netD(real), label) + criterion(netD(fake.detach()), label)
            errD.backward()
            optimizerD.step()
            netG.zero_grad()
            errG = criterion(netD(fake), label)
            errG.backward()
            optimizerG.step()
        """,
        # One optimizer per parameter group, all reset through a list.
        """
        import torch
        for x, y in loader:
            for opt in optimizers:
                opt.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
            optimizers[0].step()
            optimizers[1].step()
        """,
        # Dive-into-DL: a hand-written update, gradients cleared with `fill_(0)`.
        """
        import torch
        for i in range(20):
            l = ((conv2d(X) - Y) ** 2).sum()
            l.backward()
            conv2d.weight.data -= lr * conv2d.weight.grad
            conv2d.weight.grad.fill_(0)
        """,
        # Zeroing another model's gradients between D's backward and D's step is fine.
        """
        import torch
        for real in loader:
            optimizerD.zero_grad()
            lossD = criterion(netD(real), ones)
            lossD.backward()
            netG.zero_grad()
            optimizerD.step()
        """,
        # A trainer that keeps the model it is given and resets it through its own attribute: `self.model` is the
        # module whose parameters `self.opt` holds.
        """
        import torch
        class Trainer:
            def __init__(self, model, loader, lr=0.01):
                self.model = model
                self.loader = loader
                self.opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)
                self.criterion = torch.nn.CrossEntropyLoss()
            def run_epoch(self):
                for images, labels in self.loader:
                    self.model.zero_grad()
                    loss = self.criterion(self.model(images), labels)
                    loss.backward()
                    self.opt.step()
        """,

        # Gradient accumulation: the reset and the step both once every k micro-batches.
        """
        import torch
        for step, (x, y) in enumerate(loader):
            if step % accum_steps == 0:
                optimizer.zero_grad()
            loss = criterion(model(x), y) / accum_steps
            loss.backward()
            if (step + 1) % accum_steps == 0:
                optimizer.step()
        """,
        # MixMatch's `ema_optimizer`: an object of the project's own class, no torch optimizer, whose `step()`
        # averages the weights, handed to the training function (the class defined below its callers).
        """
        import torch.nn as nn
        import torch.optim as optim

        def train(loader, model, optimizer, ema_optimizer, criterion):
            for x, y in loader:
                loss = criterion(model(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                ema_optimizer.step()

        def main(loader):
            model, ema_model = nn.Linear(4, 2), nn.Linear(4, 2)
            optimizer = optim.Adam(model.parameters(), lr=1e-3)
            ema_optimizer = WeightEMA(model, ema_model, alpha=0.99)
            train(loader, model, optimizer, ema_optimizer, nn.CrossEntropyLoss())

        """ + _WEIGHT_EMA,
        # The same object built in the training function itself.
        """
        import torch.optim as optim

        """ + _WEIGHT_EMA + """
        def finetune(loader, model, ema_model, criterion):
            optimizer = optim.SGD(model.parameters(), lr=1e-2)
            ema_optimizer = WeightEMA(model, ema_model)
            for x, y in loader:
                optimizer.zero_grad()
                criterion(model(x), y).backward()
                optimizer.step()
                ema_optimizer.step()
        """,
    ]
    INVALID = [
        # The project's own optimizer class, torch's `Optimizer` its base, handed to the training function, which
        # never resets the gradients it steps on.
        """
        import torch

        def train(loader, model, criterion, optimizer):
            for x, y in loader:
                criterion(model(x), y).backward()
                optimizer.step()

        def main(loader, model):
            train(loader, model, torch.nn.CrossEntropyLoss(), SignSGD(model.parameters()))

        class SignSGD(torch.optim.Optimizer):
            def __init__(self, params, lr=1e-3):
                super().__init__(params, dict(lr=lr))

            @torch.no_grad()
            def step(self):
                for group in self.param_groups:
                    for p in group["params"]:
                        if p.grad is not None:
                            p.add_(p.grad.sign(), alpha=-group["lr"])
        """,
        # An autoencoder trainer resets the encoder alone; its optimizer also steps the decoder, whose gradients
        # keep adding up, in the loop and in a step method a loop calls.
        Invalid("""
        import itertools
        import torch
        import torch.nn.functional as F
        class AETrainer:
            def __init__(self, encoder, decoder, lr=1e-3):
                self.encoder = encoder
                self.decoder = decoder
                self.optimizer = torch.optim.Adam(itertools.chain(encoder.parameters(), decoder.parameters()), lr=lr)
            def train_step(self, batch):
                self.encoder.zero_grad()
                loss = F.mse_loss(self.decoder(self.encoder(batch)), batch)
                loss.backward()
                self.optimizer.step()
                return loss.item()
            def fit(self, loader, epochs):
                for epoch in range(epochs):
                    losses = [self.train_step(batch) for (batch,) in loader]
        def train_probe(backbone, head, loader):
            opt = torch.optim.SGD(list(backbone.parameters()) + list(head.parameters()), lr=0.01)
            for x, y in loader:
                head.zero_grad()
                F.cross_entropy(head(backbone(x)), y).backward()
                opt.step()
        """, count=2),
        # A callback hook the trainer runs after `backward()` resets the optimizer before it steps.
        """
        import torch
        class GradNormLogger:
            def __init__(self):
                self.norms = []
            def on_after_backward(self, trainer):
                self.norms.append(torch.nn.utils.clip_grad_norm_(trainer.model.parameters(), float("inf")).item())
                trainer.optimizer.zero_grad()
        class Trainer:
            def __init__(self, model, optimizer, callbacks):
                self.model, self.optimizer, self.callbacks = model, optimizer, callbacks
            def training_step(self, x, y):
                self.optimizer.zero_grad()
                loss = torch.nn.functional.mse_loss(self.model(x), y)
                loss.backward()
                for callback in self.callbacks:
                    callback.on_after_backward(self)
                self.optimizer.step()
        """,
        # The backward pass is a method of the trainer; the reset sits between its call and the step.
        """
        import torch
        class Trainer:
            def _backward(self, loss):
                self.scaler.scale(loss).backward()
            def train_step(self, batch):
                self._backward(self.model(batch).mean())
                self.optimizer.zero_grad()
                self.scaler.step(self.optimizer)
                self.scaler.update()
        """,
        # A GAN trainer handed its optimizers: the discriminator is reset twice, the generator's gradients never.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, generator, discriminator, g_optimizer, d_optimizer, loader):
                self.G, self.D = generator, discriminator
                self.g_opt, self.d_opt = g_optimizer, d_optimizer
                self.loader = loader
            def train_epoch(self):
                for real, z in self.loader:
                    fake = self.G(z)
                    self.D.zero_grad()
                    (self.D(fake.detach()).mean() - self.D(real).mean()).backward()
                    self.d_opt.step()
                    self.D.zero_grad()
                    (-self.D(fake).mean()).backward()
                    self.g_opt.step()
        G, D = nn.Linear(8, 4), nn.Linear(4, 1)
        trainer = Trainer(G, D, torch.optim.Adam(G.parameters()), torch.optim.Adam(D.parameters()), [])
        """,
        # An actor-critic `update()`, called once per environment step: the critic's step after the actor's reset.
        """
        import torch
        class A2C:
            def __init__(self, actor, critic):
                self.actor, self.critic = actor, critic
                self.actor_optim = torch.optim.Adam(actor.parameters(), lr=3e-4)
                self.critic_optim = torch.optim.Adam(critic.parameters(), lr=1e-3)
            def update(self, s, a, target):
                critic_loss = (target - self.critic(s)).pow(2).mean()
                self.actor_optim.zero_grad()
                critic_loss.backward()
                self.critic_optim.step()
                actor_loss = -self.actor(s).log_prob(a).mean()
                self.actor_optim.zero_grad()
                actor_loss.backward()
                self.actor_optim.step()
            def run(self, env):
                for s, a, target in env:
                    self.update(s, a, target)
        """,
        # REINFORCE: the agent's update method runs once per episode and never resets the gradients.
        """
        import torch
        import torch.nn as nn
        class Agent:
            def __init__(self, obs_dim, n_actions):
                self.policy = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))
                self.optimizer = torch.optim.Adam(self.policy.parameters(), lr=1e-2)
                self.log_probs, self.rewards = [], []
            def finish_episode(self):
                returns = torch.tensor(self.rewards)
                loss = -(torch.stack(self.log_probs) * returns).sum()
                loss.backward()
                self.optimizer.step()
                del self.log_probs[:], self.rewards[:]
        def run(env, agent, episodes):
            for episode in range(episodes):
                agent.rewards.append(env.play(agent))
                agent.finish_episode()
        """,
        # Reset only before the loop.
        """
        import torch
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        optimizer.zero_grad()
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
        """,
        # The learner's hand-written gradient descent, never resetting `w.grad`.
        """
        import torch
        w = torch.randn(3, requires_grad=True)
        for epoch in range(100):
            loss = ((x @ w - y) ** 2).mean()
            loss.backward()
            with torch.no_grad():
                w -= lr * w.grad
        """,
        # Reset only in the outer loop.
        """
        import torch
        for epoch in range(epochs):
            optimizer.zero_grad()
            for x, y in loader:
                loss = criterion(model(x), y)
                loss.backward()
                optimizer.step()
        """,
        # Mixed precision without a reset.
        """
        import torch
        scaler = torch.amp.GradScaler()
        for x, y in loader:
            with torch.autocast("cuda"):
                loss = criterion(model(x), y)
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        """,
        # The reset between backward() and step() wipes the gradients.
        """
        import torch
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.zero_grad()
            optimizer.step()
        """,
        # A GAN whose generator optimizer is never reset: the discriminator's reset does not clear G's gradients.
        """
        import torch
        for i, (imgs, _) in enumerate(dataloader):
            gen_imgs = generator(z)
            g_loss = adversarial_loss(discriminator(gen_imgs), valid)
            g_loss.backward()
            optimizer_G.step()
            optimizer_D.zero_grad()
            d_loss = adversarial_loss(discriminator(gen_imgs.detach()), fake)
            d_loss.backward()
            optimizer_D.step()
        """,
        # `model.zero_grad()` between backward() and the step of the optimizer built on its parameters.
        """
        import torch
        optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward()
            model.zero_grad()
            optimizer.step()
        """,
        # Accelerate without a reset.
        """
        import torch
        for batch in train_dataloader:
            outputs = model(**batch)
            accelerator.backward(outputs.loss)
            optimizer.step()
            lr_scheduler.step()
        """,
        # A trainer's step method: no loop around it, the reset still wipes what the step needs.
        """
        import torch
        class VAETrainer:
            def __init__(self, model, lr=1e-3):
                self.model = model
                self.optimizer = torch.optim.Adam(self.model.parameters(), lr=lr)
            def train_step(self, batch):
                recon, mu, logvar = self.model(batch)
                loss = vae_loss(recon, batch, mu, logvar)
                loss.backward()
                self.optimizer.zero_grad()
                self.optimizer.step()
                return loss.item()
        """,
        # The trainer resets another module than the one its optimizer holds.
        """
        import torch
        class Trainer:
            def __init__(self, model, teacher, loader):
                self.model = model
                self.teacher = teacher
                self.loader = loader
                self.opt = torch.optim.SGD(model.parameters(), lr=0.01)
            def run_epoch(self):
                for images, labels in self.loader:
                    self.teacher.zero_grad()
                    loss = distill(self.model(images), self.teacher(images), labels)
                    loss.backward()
                    self.opt.step()
        """,
        # The reset slipped into the logging block: it runs every tenth step.
        """
        import torch
        for step, (x, y) in enumerate(loader):
            loss = criterion(model(x), y)
            loss.backward()
            optimizer.step()
            if step % log_interval == 0:
                print(step, loss.item())
                optimizer.zero_grad()
        """,
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # Step event -> the loop its optimizer or tensor was created in, when it was created by a call in a loop.
        self._created_in: dict[cst.CSTNode, cst.CSTNode] = {}
        # Steps not to report: in tests (an optimizer test accumulates on purpose, or checks only the learning
        # rate), in LightningModules and of optimizers a DeepSpeed engine manages (both reset for the author).
        self._exempt: set[cst.CSTNode] = set()
        # Steps in a function's body outside any loop of it: an update method a loop elsewhere calls once per
        # episode or batch (`agent.finish_episode()`).
        self._loopless: list[Event] = []
        # Each optimizer step with the statements before it in its block, nearest first, as far as the first that
        # runs a backward pass itself, each with what it does itself (runs backward; the reset it is): helpers'
        # events are all known only in `finish()`.
        self._before_step: list[tuple[cst.Call, Event, list[tuple[cst.BaseStatement, bool, cst.Call | None]]]] = []

    def visit_Call(self, node: cst.Call) -> None:
        self._step(node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._step(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        self._step(node)

    def _step(self, node: cst.CSTNode) -> None:
        event = training_loop(self.ctx).event_at(node)
        if event is None or event.kind != "step":
            return
        if not event.loops:
            # A trainer's `training_step(batch)` is the loop's body without the loop: a reset between its backward
            # pass and its step wipes the gradients all the same.
            if is_step_call(node) and not is_test_file(self.ctx) and not lightning_module(self.ctx):
                self._check_reset_before_step(node, event)
                if not in_test(self.ctx) and not self._made_here(node):
                    self._loopless.append(event)
            return
        root = event.target
        while type(root) is cst.Attribute or type(root) is cst.Subscript:
            root = root.value
        binding = self.ctx.binding(root) if type(root) is cst.Name else None
        created_by = binding.value if binding is not None and type(binding.value) is cst.Call else None
        by_deepspeed = created_by is not None and (self.ctx.qualname(created_by.func) or "").startswith("deepspeed.")
        if by_deepspeed or in_test(self.ctx) or lightning_module(self.ctx):
            self._exempt.add(node)
            return
        # `opt = SGD(...)` or `x = x.detach().requires_grad_()` inside the loop: nothing carries over an iteration.
        if created_by is not None and binding.loop is not None and binding.kind in ("assign", "walrus", "with"):
            self._created_in[node] = binding.loop
        if is_step_call(node) and not is_test_file(self.ctx):
            self._check_reset_before_step(node, event)

    def _made_here(self, step: cst.Call) -> bool:
        """The stepped optimizer is built in the function itself (`opt = SGD(...)`, a fresh one per call) or by
        DeepSpeed, whose engine frees the gradients."""
        receiver = step.func.value if type(step.func) is cst.Attribute else None
        if type(receiver) is not cst.Name:
            return False
        binding = self.ctx.binding(receiver)
        if binding is None or binding.kind == "param":
            return False
        function = self.ctx.function
        made = type(binding.value) is cst.Call and (self.ctx.qualname(binding.value.func) or "").startswith("deepspeed.")
        return made or function is not None and any(node is binding.statement for node in self.ctx.walk(function))

    def _check_reset_before_step(self, step: cst.Call, event: Event) -> None:
        """Note the statements before this step in its block, for `finish()` to look for `optimizer.zero_grad()`
        between the last `backward()` and the step (`_reset_before_step`)."""
        around = statements_around(self.ctx)
        if around is None or self._backward_on_its_line(step):
            return
        earlier = []
        for statement in reversed(around[0]):
            backward = self._contains_backward(statement)
            earlier.append((statement, backward, None if backward else _reset_of(statement, event)))
            if backward:
                break
        self._before_step.append((step, event, earlier))

    def _reset_before_step(self, step: cst.Call, event: Event,
                           earlier: list[tuple[cst.BaseStatement, bool, cst.Call | None]]) -> None:
        """Report a reset of what `step` applies sitting, in the step's block, between the last `backward()` and
        the step; either may be in a helper called there, whose reset must run on every call."""
        training = training_loop(self.ctx)
        owners = training.owners_of(event) or ()
        reset: tuple[cst.Call, str] | None = None
        for statement, backward, own_reset in earlier:
            placed = [(node, inner) for node in self.ctx.walk(statement) if type(node) is cst.Call
                      for inner in training.helper_events(node)] \
                if type(statement) in (cst.SimpleStatementLine, cst.With, cst.For) else []
            if backward or any(inner.kind == "backward" for _, inner in placed):
                if reset is not None and type(statement) in (cst.SimpleStatementLine, cst.With):
                    self.report(reset[0], f"{reset[1]} between `backward()` and `{self.ctx.code(step)}` wipes the "
                                          "gradients the step needs: reset before `backward()` or after the step")
                return
            if reset is not None:
                continue
            if own_reset is None and event.owners is None and owners:  # the optimizer's modules known only now
                own_reset = _reset_of(statement, replace(event, owners=frozenset(owners)))
            if own_reset is not None:
                reset = own_reset, f"`{self.ctx.code(own_reset)}`"
                continue
            found = next(((node, inner.subject) for node, inner in placed if inner.kind == "reset"
                          and not inner.guards and not inner.skipped_by and inner.subject is not None
                          and (inner.subject == event.subject or any(related(inner.subject, owner)
                                                                     for owner in owners))), None)
            if found is not None:
                reset = found[0], f"`{self.ctx.code(found[0])}` (which resets `{found[1]}`)"

    def _backward_on_its_line(self, step: cst.Call) -> bool:
        """`loss_D.backward(); opt_D.step()`: the step's own line runs a backward pass before it, which is the one
        the step applies, after any reset on the lines above."""
        line = next((node for node in reversed(self.ctx.ancestors) if type(node) is cst.SimpleStatementLine), None)
        for small in line.body if line is not None else ():
            if any(node is step for node in self.ctx.walk(small)):
                return False
            if self._contains_backward(small):
                return True
        return False

    def _contains_backward(self, statement: cst.CSTNode) -> bool:
        return any(type(node) is cst.Call and is_backward(self.ctx, node) for node in self.ctx.walk(statement))

    def finish(self) -> None:
        if is_test_file(self.ctx):
            return
        for step, event, earlier in self._before_step:
            self._reset_before_step(step, event, earlier)
        facts = training_loop(self.ctx)
        reported: set[cst.CSTNode] = set()
        for event in facts.events:
            if event.kind != "step":
                continue
            # The training loop: the innermost loop around the step that also runs backward().
            loop = next((loop for loop in reversed(event.loops)
                         if any(e.kind == "backward" for e in facts.in_loop(loop))), None)
            if loop is None or loop in reported or event.node in self._exempt or facts.handed_own_object(event):
                continue  # `handed_own_object`: a project object's `step()` (an EMA of the weights) is no update
            created_in = self._created_in.get(event.node)
            if created_in is not None and loop in facts.enclosing(created_in):
                continue
            if self._resets(loop, event):
                continue
            reported.add(loop)
            self.report(event.node, self._message(event, loop))
        for event in self._loopless:
            if event.function is not None and self._called_in_loop_without_reset(event, event.function):
                wrong = next((e for e in facts.body_events(event.function) if e.kind == "reset"), None)
                aside = "" if wrong is None else f" (`{self.ctx.code(wrong.node)}` {_reach(facts, wrong, event)})"
                self.report(event.node, f"`{self.ctx.code(event.node)}` runs on every call of "
                                        f"`{event.function.name.value}()`, which a loop calls, but nothing resets "
                                        f"the gradients between the calls{aside}: `backward()` adds into `.grad`, "
                                        "so each step applies the sum of all gradients so far; call "
                                        f"`{event.subject}.zero_grad()` before `backward()`")

    def _called_in_loop_without_reset(self, step: Event, function: cst.FunctionDef) -> bool:
        """A loop of the file calls `function`, which runs backward before `step`, and neither the function (with
        its helpers) nor that loop's iteration resets the gradients `step` applies."""
        training = training_loop(self.ctx)
        body = training.body_events(function)
        if not any(event.kind == "backward" and event.order < step.order for event in body):
            return False

        def resets(events: list[Event]) -> bool:
            # another optimizer's reset, or one of a module the step's optimizer does not hold, is none (an
            # actor-critic `update()` resetting the actor's optimizer before the critic's step); a loop sees the
            # helper's step as its caller spells it
            stepped = {event.subject for event in events if event.kind == "step" and event.subject is not None}
            seen = next((event for event in events if event.kind == "step" and event.node is step.node), step)
            return training.resets_all([event for event in events if event.kind == "reset"], seen, stepped)

        if resets(body):
            return False
        if any(site.loop is not None and function in training.definitions_of(site.node)
               and not resets(training.loop_events(site.loop, site.function)) for site in self.ctx.calls_of(function)):
            return True
        # an agent's `learn()` called in the loop of a script of another module (`agent = DQNAgent(...)`), whose
        # record places the method's events at the call, spelled as that script spells them
        for caller in imported_method_callers(self.ctx, function):
            site = caller.site
            if site.loop is None:
                continue
            theirs = training_loop(caller.ctx)
            events = theirs.loop_events(site.loop, site.function)
            # that record parses this file on its own: the step is known by its code
            seen = next((event for event in events if event.kind == "step" and event.origin is not None
                         and caller.ctx.code(event.origin) == self.ctx.code(step.node)), None)
            stepped = {event.subject for event in events if event.kind == "step" and event.subject is not None}
            if seen is not None and not theirs.resets_all([event for event in events if event.kind == "reset"],
                                                          seen, stepped):
                return True
        # a base trainer of another module whose loop calls `self.train_step(batch)`, which this class overrides:
        # that module's record cannot see the override's events, so its loop must reset nothing, nor call another
        # method this class overrides
        owner = self.ctx.class_of_method(function)
        overridden = {statement.name.value for statement in owner.body.body
                      if type(statement) is cst.FunctionDef} if owner is not None else set()
        for caller in inherited_self_callers(self.ctx, function):
            site = caller.site
            if site.loop is None or any(
                    event.kind == "reset" for event in training_loop(caller.ctx).loop_events(site.loop, site.function)):
                continue
            if not any(type(call) is cst.Call and type(call.func) is cst.Attribute and call is not site.node
                       and call.func.attr.value in overridden for call in walk(site.loop)):
                return True
        return False

    def _resets(self, loop: cst.CSTNode, step: Event) -> bool:
        """The loop resets the gradients `step` applies: a reset of its optimizer, of a module it holds or of
        anything unsure, itself or in a helper; a reset of another optimizer stepped in the same loop is none."""
        training = training_loop(self.ctx)
        events = training.loop_events(loop, step.function)
        stepped = {event.subject for event in events if event.kind == "step" and event.subject is not None}
        resets = [event for event in events if event.kind == "reset" and not _less_often(event, step)]
        return training.resets_all(resets, step, stepped)

    def _message(self, event: Event, loop: cst.CSTNode) -> str:
        training = training_loop(self.ctx)
        outer = set(training.enclosing(loop)[:-1])
        stepped = {e.subject for e in training.in_loop(loop) if e.kind == "step" and e.subject is not None}
        resets = [e for e in training.events if e.kind == "reset" and e.function is event.function]
        mine = [e for e in resets if training.covers(e, event, stepped)]
        others = [e for e in resets if loop in e.loops and e not in mine]
        rare = next((e.accumulation_guard for e in mine if loop in e.loops and _less_often(e, event)), None)
        if rare is not None:
            where = f"only under `if {self.ctx.code(rare.test)}:`"
        elif any(e.loops and e.loops[-1] in outer for e in mine):
            where = "only in an outer loop"
        elif partial := [e for e in mine if loop in e.loops]:
            reset = partial[0]
            where = f"only in part in this loop (`{self.ctx.code(reset.node)}` {_reach(training, reset, event)})"
        elif mine:
            where = "only outside this loop"
        elif others:
            where = f"nowhere in this loop (`{self.ctx.code(others[0].node)}` does not reset these)"
        else:
            where = "nowhere in this loop"
        if is_step_call(event.node):
            what, reset = f"`{self.ctx.code(event.node)}`", f"{event.subject}.zero_grad()"
        else:
            what, reset = f"the update of `{event.subject}`", f"{event.subject}.grad.zero_()"
        return (f"{what} runs every iteration but the gradients are reset {where}: `backward()` adds into `.grad`, "
                f"so each step applies the sum of all gradients so far; call `{reset}` in the loop body before "
                "`backward()`")


def _reach(training: TrainingLoop, reset: Event, step: Event) -> str:
    """What a reset that does not clear all the gradients `step` applies leaves, for a message."""
    if training.covers(reset, step, set()):
        return "clears one of the modules the optimizer holds, not all of them"
    return "does not reset these"


def _less_often(reset: Event, step: Event) -> bool:
    """The reset runs once every k iterations (`if step % log_every == 0:` around it) and the step every one: the
    steps in between apply gradients summed since the last reset."""
    return reset.accumulation_guard is not None and step.accumulation_guard is None


def _reset_of(statement: cst.CSTNode, step: Event) -> cst.Call | None:
    """The `zero_grad(...)` call when `statement` is one that clears what `step` applies: `optimizer.zero_grad()`
    of this very optimizer, or `model.zero_grad()` of a module the optimizer is built on."""
    if type(statement) is not cst.SimpleStatementLine or len(statement.body) != 1:
        return None
    expr = statement.body[0]
    if type(expr) is not cst.Expr or type(expr.value) is not cst.Call:
        return None
    call = expr.value
    func = call.func
    if type(func) is not cst.Attribute or func.attr.value != "zero_grad":
        return None
    owner = dotted_name(func.value)
    if owner is not None and (owner == step.subject or any(related(owner, module) for module in step.owners or ())):
        return call
    return None

