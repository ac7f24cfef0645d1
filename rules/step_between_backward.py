"""SC209 step-between-backward: an optimizer step between two backward passes through one retained graph."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import libcst as cst

from shapecheck.engine import Binding, Context, Rule
from shapecheck.engine.context import CallSite, Point
from shapecheck.engine.walker import walk
from shapecheck.engine.syntax import keyword_arg, last_name, param_annotation, runs_at_most_once
from shapecheck.objects.arguments import passed_argument
from shapecheck.objects.callers import (
    certain_method_callers, helper_callers, imported_method_callers, project_callers,
)
from shapecheck.objects.executor import target_names
from shapecheck.objects.modules import annotation_excludes_module, is_module
from shapecheck.loops.training_loop import (
    Event, TrainingLoop, called_module, is_step_call, parameter_owners, related, runs_weights_of, training_loop,
)
from shapecheck.loops.surroundings import in_test, is_test_file
from shapecheck.shapes.activations import instance_class
from shapecheck.shapes.evaluator import evaluator
from shapecheck.shapes.ops import METHODS as TENSOR_METHODS, TUPLE_METHODS as TENSOR_TUPLE_METHODS


# Old policy-gradient code: the baseline's loss is backpropagated and stepped first, then the policy's loss is
# built on the advantage `%s` and backpropagated.
_BASELINE_FIRST = """
        import torch
        import torch.nn as nn
        from torch.autograd import Variable


        class ValueNet(nn.Module):
            def __init__(self, n_obs, hidden):
                super().__init__()
                self.body = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh(), nn.Linear(hidden, 1))

            def forward(self, obs):
                return self.body(obs)


        class GaussianPolicy(nn.Module):
            def __init__(self, n_obs, n_act, hidden):
                super().__init__()
                self.mean = nn.Sequential(nn.Linear(n_obs, hidden), nn.Tanh(), nn.Linear(hidden, n_act))
                self.log_std = nn.Parameter(torch.zeros(1, n_act))

            def log_prob(self, obs, act):
                return torch.distributions.Normal(self.mean(obs), self.log_std.exp()).log_prob(act).sum(-1, keepdim=True)


        critic = ValueNet(8, 64)
        policy = GaussianPolicy(8, 2, 64)
        critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
        policy_opt = torch.optim.Adam(policy.parameters(), lr=3e-4)


        def update(obs, act, returns, critic_iters, policy_iters):
            for _ in range(critic_iters):
                critic_opt.zero_grad()
                baseline = critic(Variable(obs))
                critic_loss = (Variable(returns) - baseline).pow(2).mean()
                critic_loss.backward()
                critic_opt.step()
            for _ in range(policy_iters):
                policy_opt.zero_grad()
                logp = policy.log_prob(Variable(obs), Variable(act))
                policy_loss = -(%s * logp).mean()
                policy_loss.backward()
                policy_opt.step()
        """


# A generator's adversarial loss backpropagated, then its L1 loss on `%s`: the same output, whose graph the first
# pass freed, or a fresh pass.
_TWO_PASSES = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        netG, netD = nn.Sequential(nn.Linear(4, 4), nn.Tanh()), nn.Linear(4, 1)
        opt_g = torch.optim.Adam(netG.parameters(), lr=2e-4)
        for real_a, real_b in [(torch.randn(3, 4), torch.randn(3, 4))]:
            fake_b = netG(real_a)
            pred_fake = netD(fake_b)
            opt_g.zero_grad()
            loss_gan = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
            loss_gan.backward()
            loss_l1 = F.l1_loss(%s, real_b)
            loss_l1.backward()
            opt_g.step()
        """


# How many assignments and helper returns a loss is followed back through to a module's output: a handed-in
# loss, the helper's tuple it is unpacked from, and two names inside the helper already take four.
_NAMES_DEEP = 6

# A DDPG agent whose updates are methods that take their loss; `%s` is the rest of the class.
_DDPG_AGENT = """
        import torch
        import torch.nn.functional as F
        class DDPGAgent:
            def __init__(self, actor, critic):
                self.actor, self.critic = actor, critic
                self.actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-4)
                self.critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
            def update_critic(self, loss):
                self.critic_opt.zero_grad()
                loss.backward()
                self.critic_opt.step()
            def update_actor(self, loss):
                self.actor_opt.zero_grad()
                loss.backward()
                self.actor_opt.step()%s
        """



# Written once for a VALID look-alike and its INVALID twin: AdvGAN's stages, each in a `for` loop; `%s` is how many
# times the generator's stage runs (once: the graph of the perturbation made in the first stage is used once).
_STAGED_GAN = """
        import torch
        import torch.nn.functional as F

        class ForgeryTrainer:
            def __init__(self, attacker, critic):
                self.attacker = attacker
                self.critic = critic
                self.opt_a = torch.optim.Adam(self.attacker.parameters(), lr=2e-4)
                self.opt_c = torch.optim.Adam(self.critic.parameters(), lr=2e-4)

            def step(self, images):
                for _ in range(1):
                    noise = self.attacker(images)
                    forged = torch.clamp(images + noise, 0.0, 1.0)
                    self.opt_c.zero_grad()
                    real = self.critic(images)
                    fake = self.critic(forged.detach())
                    c_loss = F.mse_loss(real, torch.ones_like(real)) + F.mse_loss(fake, torch.zeros_like(fake))
                    c_loss.backward()
                    self.opt_c.step()
                for _ in range(%s):
                    self.opt_a.zero_grad()
                    judged = self.critic(forged)
                    a_loss = F.mse_loss(judged, torch.ones_like(judged)) + noise.norm(2)
                    a_loss.backward()
                    self.opt_a.step()
                return c_loss.item(), a_loss.item()
        """

# A conditional GAN for super-resolution whose module computes both losses; the update function is handed the
# module and the optimizers its caller built on its generator and discriminator; `%s` is the update's body.
_SR_GAN = """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        class SRGAN(nn.Module):
            def __init__(self):
                super().__init__()
                self.generator = nn.Sequential(nn.Conv2d(3, 12, 3, padding=1), nn.PixelShuffle(2))
                self.critic = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Flatten(), nn.LazyLinear(1))
            def losses(self, low, high):
                fake = self.generator(low)
                adversarial = F.softplus(-self.critic(fake)).mean()
                gen_loss = F.l1_loss(fake, high) + 1e-3 * adversarial
                critic_loss = F.softplus(-self.critic(high)).mean() + F.softplus(self.critic(fake.detach())).mean()
                return gen_loss, critic_loss
        def update(net, low, high, opt_g, opt_c):
            gen_loss, critic_loss = net.losses(low, high)
%s
        def main(pairs):
            net = SRGAN()
            opt_g = torch.optim.Adam(net.generator.parameters(), lr=1e-4)
            opt_c = torch.optim.Adam(net.critic.parameters(), lr=1e-4)
            for low, high in pairs:
                update(net, low, high, opt_g, opt_c)
        """

class StepBetweenBackward(Rule):
    code = "SC209"
    name = "step-between-backward"
    message = "an optimizer step updates in place weights that a later `backward()` through the same graph needs"
    triggers = (".backward(",)
    docs = """
        ## What it does
        Finds, in one iteration (the same loop body, or one function without a loop), a backward pass through a
        graph whose saved weights an optimizer step changed in place, which is autograd's rule:

        - a `loss_a.backward(retain_graph=True)`, then an optimizer `step()`, then `loss_b.backward()` where
          `loss_b` was computed before that step. `retain_graph=True` says both losses share one graph, typically
          a GAN computing the discriminator's and the generator's losses from one forward pass;
        - `loss.backward()` after a `step()` of an optimizer whose parameters' module (`Adam(critic.parameters())`)
          `loss` was computed through before the step, with autograd on: the actor-critic form
          (`critic_loss` and `actor_loss = -critic(s, actor(s)).mean()` both computed, then
          `critic_loss.backward(); critic_opt.step(); actor_loss.backward()`), and a loss written after the step
          from a module output computed before it (`out_fake = D(fake)` reused for the generator's loss), the
          step also in a loop that ended before the backward pass (a generator's updates, then the
          discriminator's loop on the last fake);
        - across iterations: `loss.backward()` in a loop that steps the optimizer, where `loss` goes through a
          module output computed once before the loop: from the second iteration on, the graph is the old
          weights' (with `retain_graph=True`: PPO epochs over log-probs of one rollout pass) or was freed by the
          first pass (without it: an encoder's features computed once, then trained on).

        A loss may be a parameter of the function (a trainer's `def backward(self, gen_loss, dis_loss)` that steps
        the discriminator between the two passes): a call of it in the file (`self.backward(gen_loss, dis_loss)` in
        another method, `trainer.backward(...)` on an instance of the class) or in a module of the project that
        imports it (`train.py`'s `model.backward(gen_loss, dis_loss)` on `model = Model(cfg)` or on a trainer's
        `self.model = Model(cfg).to(device)`, both losses unpacked from `model.process(images, masks)` and read
        through that method's `return`) that passes a loss computed
        through a module the step updates hands in a graph of the old weights, since the caller computed it before
        the call;
        so does a loss the caller computed before calling a same-file helper that steps such an optimizer (a DDPG
        agent's `self.update_critic(critic_loss)` before `self.update_actor(actor_loss)`, both losses from one
        `compute_losses`), unless that helper's call sits under an `if` the later call is not in.

        The optimizer may be a parameter of the function (`def td3_update(actor, q1, q2, pi_opt, q_opt, batch)`):
        every call of it in the file then says which of the modules it is handed each optimizer holds, or which
        submodules of them (`Adam(net.critic.parameters())` handed with `net`: `net.critic`). A loss a
        same-file helper returns (`loss_q, loss_pi = self.losses(batch)`, or `out = self.compute_losses(batch)`
        with `out["critic"].backward()` on a dict it returns) is read through the helper's `return`, and so is one
        a method or function of a project module this file imports returns (a GAN module's `get_losses()` in
        `models/`, read through its local assignments, a loss summed term by term with `+=` too, functions, tensor
        methods and methods of `self`). Without
        `retain_graph`, a second pass through an output the first pass already went through raises "Trying to
        backward through the graph a second time", and the message says so. So does a second pass with no step
        between, after a first one without `retain_graph` in the same iteration, when both losses go through one
        module output computed before the first (a generator's adversarial loss backpropagated, then a
        feature-matching or L1 loss on the same `fake = generator(noise)`); not where they read different entries
        of what one pass returns (`prediction["v"]`, `prediction["log_pi"]`: separate heads share no node).

        Not reported: a loss computed again after the step (a fresh forward pass), the steps placed after the
        last backward, outputs computed under `no_grad` or taken out of the graph (`.detach()`, `.item()`, a
        shape copied by `torch.ones_like(out)`, old code's `Variable(returns - values)`), what a method of an
        object not known to be a module or a tensor returns (an image pool's `fake = fake_pool.query(fake)`:
        pools hand back detached copies), what a method of a model's class of the file returns when it reads no
        layer or parameter (a sparse adjacency rebuilt from the data each epoch), an optimizer whose
        construction is not in view, a loop the code states runs once (`for _ in range(1):`, a stage kept in a
        loop), and tests.

        ## Why is this bad?
        `optimizer.step()` updates the parameters in place. The graph `loss_b` was built on saved those
        parameters for its backward pass, so `loss_b.backward()` raises "RuntimeError: one of the variables needed
        for gradient computation has been modified by an inplace operation" (or, on old releases, silently used
        the new weights). The primer: in-place ops are "risky inside autograd graphs because they can break the
        saved values needed for backward", and "Inplace ops break autograd".

        ## Example
        ```python
        d_loss = criterion(D(real), ones) + criterion(D(fake), zeros)
        g_loss = criterion(D(fake), ones)
        optimizer_D.zero_grad()
        d_loss.backward(retain_graph=True)
        optimizer_D.step()
        optimizer_G.zero_grad()
        g_loss.backward()  # D's weights were changed in place by optimizer_D.step()
        optimizer_G.step()
        ```

        ## Use instead
        ```python
        optimizer_D.zero_grad()
        d_loss = criterion(D(real), ones) + criterion(D(fake.detach()), zeros)
        d_loss.backward()
        optimizer_D.step()
        optimizer_G.zero_grad()
        g_loss = criterion(D(fake), ones)  # a fresh forward through the updated D
        g_loss.backward()
        optimizer_G.step()
        ```

        This rule has no fix: whether to recompute the loss or to step both optimizers after both backward passes
        is the author's call.
    """
    VALID = [
        # The DCGAN tutorial's step: the discriminator's loss reads a detached copy of the fake through `pred_fake`,
        # a name the generator's step binds again to a fresh discriminator pass on the fake itself; the first
        # backward pass never went through the generator's graph.
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        netG, netD = nn.Sequential(nn.Linear(4, 4), nn.Tanh()), nn.Linear(4, 1)
        opt_g = torch.optim.Adam(netG.parameters(), lr=2e-4)
        opt_d = torch.optim.Adam(netD.parameters(), lr=2e-4)
        for real_a, real_b in [(torch.randn(3, 4), torch.randn(3, 4))]:
            fake_b = netG(real_a)
            opt_d.zero_grad()
            pred_fake = netD(fake_b.detach())
            loss_d = F.binary_cross_entropy_with_logits(pred_fake, torch.zeros_like(pred_fake))
            loss_d.backward()
            opt_d.step()
            opt_g.zero_grad()
            pred_fake = netD(fake_b)
            loss_gan = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
            loss_g = loss_gan + F.l1_loss(fake_b, real_b)
            loss_g.backward()
            opt_g.step()
        """,
        # The same two losses, the second on a fresh pass of the generator.
        _TWO_PASSES % "netG(real_a)",
        # AdvGAN's generator stage in a `for _ in range(1):`: there is no second iteration
        _STAGED_GAN % "1",
        # The policy loss computed after the critics' step; and an update whose caller hands an optimizer over a
        # module the function is not handed (what it holds is unknown here).
        """
        import torch
        import torch.nn.functional as F
        def td3_update(actor, q1, q2, pi_opt, q_opt, batch):
            s, a, y = batch
            q_loss = F.mse_loss(q1(s, a), y) + F.mse_loss(q2(s, a), y)
            q_opt.zero_grad()
            q_loss.backward()
            q_opt.step()
            pi_loss = -q1(s, actor(s)).mean()
            pi_opt.zero_grad()
            pi_loss.backward()
            pi_opt.step()
        def shared_update(actor, critic, opt, s, y):
            value_loss = F.mse_loss(critic(s), y)
            policy_loss = -critic(actor(s)).mean()
            value_loss.backward()
            opt.step()
            policy_loss.backward()
        def main(actor, q1, q2, encoder, replay):
            q_opt = torch.optim.Adam(list(q1.parameters()) + list(q2.parameters()), lr=3e-4)
            pi_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
            for s, a, y in replay:
                td3_update(actor, q1, q2, pi_opt, q_opt, (s, a, y))
                shared_update(actor, q1, torch.optim.Adam(encoder.parameters()), s, y)
        """,
        # A WGAN loop with its optimizers made in one line: the critic scores a detached fake batch, and the
        # generator's loss scores it again after the critic's step.
        """
        import torch
        import torch.nn as nn
        G, D = nn.Linear(64, 784), nn.Linear(784, 1)
        opt_g, opt_d = torch.optim.RMSprop(G.parameters(), lr=5e-5), torch.optim.RMSprop(D.parameters(), lr=5e-5)
        for real in loader:
            fake = G(torch.randn(real.size(0), 64))
            d_fake = D(fake.detach())
            d_loss = d_fake.mean() - D(real).mean()
            opt_d.zero_grad()
            d_loss.backward(retain_graph=True)
            opt_d.step()
            g_loss = -D(fake).mean()
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
        """,
        # rasbt/stat453's notebooks: the model moved before the loop and an attribute of it read in the loop;
        # `model.to(DEVICE)` is the module, no output of it.
        """
        import torch
        import torch.nn.functional as F
        model = MLP(num_features=784, num_classes=10)
        model = model.to(DEVICE)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        for epoch in range(NUM_EPOCHS):
            for features, targets in train_loader:
                logits, probas = model(features.to(DEVICE))
                y_onehot = F.one_hot(targets, model.num_classes).float().to(DEVICE)
                cost = F.mse_loss(y_onehot, probas)
                optimizer.zero_grad()
                cost.backward()
                optimizer.step()
        """,
        # Several generator updates per batch, then the discriminator's loop on the last fake taken out of the
        # graph; its targets made with `ones_like` of an output copy only its shape.
        """
        import torch
        for real in loader:
            for _ in range(3):
                fake = netG(torch.randn(4, 16))
                scores = netD(fake)
                g_loss = bce(scores, torch.ones_like(scores))
                g_loss.backward()
                optG.step()
                netG.zero_grad()
            for _ in range(1):
                netD.zero_grad()
                fake_scores = netD(fake.detach())
                d_loss = bce(netD(real), torch.ones_like(scores)) + bce(fake_scores, torch.zeros_like(fake_scores))
                d_loss.backward()
                optD.step()
        """,
        # The output computed again in each epoch; a graph kept for a loop that steps another network.
        """
        import torch
        policy_opt = torch.optim.Adam(policy.parameters())
        value_opt = torch.optim.Adam(value_net.parameters())
        for _ in range(4):
            log_probs = policy(states).log_softmax(-1)[:, 0]
            loss = -(torch.exp(log_probs - old_log_probs) * advantages).mean()
            policy_opt.zero_grad()
            loss.backward(retain_graph=True)
            policy_opt.step()
        features = encoder(states)
        for _ in range(4):
            value_loss = (value_net(features.detach()) - returns).pow(2).mean()
            value_opt.zero_grad()
            value_loss.backward(retain_graph=True)
            value_opt.step()
        """,
        # A GAN whose labels take the discriminator's output shape: the labels hold no graph, and the discriminator's
        # loss sees the generator's output only detached.
        """
        import torch
        import torch.nn as nn
        G, D = nn.Linear(8, 8), nn.Sequential(nn.Linear(8, 1), nn.Sigmoid())
        adv_loss = nn.BCELoss()
        opt_G = torch.optim.Adam(G.parameters())
        opt_D = torch.optim.Adam(D.parameters())
        for real_x, real_y in loader:
            opt_G.zero_grad()
            fake_y = G(real_x)
            shape = D(fake_y).shape
            real_lbl = torch.ones(shape)
            fake_lbl = torch.zeros(shape)
            loss_G = adv_loss(D(fake_y), real_lbl)
            loss_G.backward()
            opt_G.step()
            opt_D.zero_grad()
            loss_D = 0.5 * (adv_loss(D(real_y), real_lbl) + adv_loss(D(fake_y.detach()), fake_lbl))
            loss_D.backward()
            opt_D.step()
        """,
        # A tutorial's loop that steps at the top of the next iteration: the loss a pass backpropagates is the one
        # the pass before computed (the first pass, which would read the earlier cell's loss, skips it).
        """
        import torch
        x, y = torch.randn(5, 2), torch.randn(5, 1)
        fc = torch.nn.Linear(2, 1)
        criterion = torch.nn.MSELoss()
        loss = criterion(fc(x), y)
        loss.backward()
        fc = torch.nn.Linear(2, 1)
        optimizer = torch.optim.Adam(fc.parameters())
        for step in range(1001):
            if step:
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            pred = fc(x)
            loss = criterion(pred, y)
        """,
        # REINFORCE with a baseline: the policy's backward keeps the graph of the value network's outputs, which the
        # policy's step leaves alone, so the value loss computed before that step still backpropagates.
        """
        import torch
        policy_optimizer = torch.optim.Adam(policy_network.parameters())
        value_optimizer = torch.optim.Adam(value_network.parameters())
        log_probs, values = [], []
        for state in states:
            log_probs.append(policy_network(state).log_softmax(-1)[0])
            values.append(value_network(state))
        values = torch.stack(values).squeeze()
        advantage = returns - values
        policy_loss = -(torch.stack(log_probs) * advantage).mean()
        value_loss = torch.nn.functional.mse_loss(values, returns)
        policy_optimizer.zero_grad()
        policy_loss.backward(retain_graph=True)
        policy_optimizer.step()
        value_optimizer.zero_grad()
        value_loss.backward()
        value_optimizer.step()
        """,
        # A2C: the critic's graph is kept, but the actor's loss sees the critic's values only detached.
        """
        import torch
        critic_opt = torch.optim.Adam(critic.parameters())
        actor_opt = torch.optim.Adam(actor.parameters())
        values = critic(states).squeeze(-1)
        advantage = returns - values
        critic_loss = advantage.pow(2).mean()
        log_probs = torch.log_softmax(actor(states), -1).gather(1, actions).squeeze(1)
        actor_loss = -(log_probs * advantage.detach()).mean()
        critic_opt.zero_grad()
        critic_loss.backward(retain_graph=True)
        critic_opt.step()
        actor_opt.zero_grad()
        actor_loss.backward()
        actor_opt.step()
        """,
        # pytorch/examples dcgan: G's loss is computed after D's step.
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
        # Both backward passes first, then both steps.
        """
        import torch
        for x in loader:
            fake = G(z)
            d_loss = criterion(D(fake), zeros)
            g_loss = criterion(D(fake), ones)
            optimizer_D.zero_grad()
            d_loss.backward(retain_graph=True)
            optimizer_G.zero_grad()
            g_loss.backward()
            optimizer_D.step()
            optimizer_G.step()
        """,
        # Ground-truth tensors shared by both losses carry no graph.
        """
        import torch
        optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
        for imgs, _ in dataloader:
            valid = torch.ones(imgs.size(0), 1)
            d_loss = adversarial_loss(discriminator(imgs), valid)
            d_loss.backward(retain_graph=True)
            optimizer_D.step()
            g_loss = adversarial_loss(discriminator(generator(z)), valid)
            g_loss.backward()
            optimizer_G.step()
        """,
        # Truncated BPTT: the retained graph's loss is recomputed after the step.
        """
        import torch
        for x, y in loader:
            loss = criterion(model(x), y)
            loss.backward(retain_graph=True)
            optimizer.step()
            optimizer.zero_grad()
            loss = criterion(model(x), y)
            loss.backward()
        """,
        # PyTorch-GAN bicyclegan: the second loss runs the stepped encoder afresh on the generator's output.
        """
        import torch
        optimizer_E = torch.optim.Adam(encoder.parameters(), lr=2e-4)
        for i, batch in enumerate(dataloader):
            optimizer_E.zero_grad()
            optimizer_G.zero_grad()
            mu, logvar = encoder(real_B)
            fake_B = generator(real_A, reparameterization(mu, logvar))
            _fake_B = generator(real_A, sampled_z)
            loss_GE = D_VAE.compute_loss(fake_B, valid) + D_LR.compute_loss(_fake_B, valid) + kl(mu, logvar)
            loss_GE.backward(retain_graph=True)
            optimizer_E.step()
            _mu, _ = encoder(_fake_B)
            loss_latent = lambda_latent * mae_loss(_mu, sampled_z)
            loss_latent.backward()
            optimizer_G.step()
        """,
        # TD3's delayed policy update (sfujim/TD3's form): the policy loss runs Q1 again after the critics' step.
        """
        import torch
        import torch.nn.functional as F
        class TD3:
            def __init__(self, actor, critic):
                self.actor, self.critic = actor, critic
                self.actor_optimizer = torch.optim.Adam(actor.parameters(), lr=3e-4)
                self.critic_optimizer = torch.optim.Adam(critic.parameters(), lr=3e-4)
            def train(self, replay_buffer, iterations):
                for it in range(iterations):
                    state, action, next_state, reward, not_done = replay_buffer.sample(256)
                    with torch.no_grad():
                        target_q1, target_q2 = self.critic_target(next_state, self.actor_target(next_state))
                        target_q = reward + not_done * 0.99 * torch.min(target_q1, target_q2)
                    current_q1, current_q2 = self.critic(state, action)
                    critic_loss = F.mse_loss(current_q1, target_q) + F.mse_loss(current_q2, target_q)
                    self.critic_optimizer.zero_grad()
                    critic_loss.backward()
                    self.critic_optimizer.step()
                    if it % 2 == 0:
                        actor_loss = -self.critic.Q1(state, self.actor(state)).mean()
                        self.actor_optimizer.zero_grad()
                        actor_loss.backward()
                        self.actor_optimizer.step()
        """,
        # A PPO agent (ShangtongZhang/DeepRL's form): one optimizer for a shared network, or two for separate
        # heads; the step of one branch never runs before the backward passes of the other.
        """
        import torch
        class PPOAgent:
            def __init__(self, network, shared):
                self.network = network
                self.shared = shared
                self.opt = torch.optim.Adam(network.parameters(), lr=3e-4)
            def update(self, batches):
                for batch in batches:
                    prediction = self.network(batch.state, batch.action)
                    policy_loss = -(prediction["log_pi_a"] * batch.advantage).mean()
                    value_loss = (batch.ret - prediction["v"]).pow(2).mean()
                    if self.shared:
                        self.opt.zero_grad()
                        (policy_loss + value_loss).backward()
                        self.opt.step()
                    else:
                        self.actor_opt.zero_grad()
                        policy_loss.backward()
                        self.actor_opt.step()
                        self.critic_opt.zero_grad()
                        value_loss.backward()
                        self.critic_opt.step()
        """,
        # The generator stepped first; the discriminator then sees the fake only detached.
        """
        import torch
        import torch.nn as nn
        G = nn.Linear(8, 4)
        D = nn.Linear(4, 1)
        opt_G = torch.optim.Adam(G.parameters())
        opt_D = torch.optim.Adam(D.parameters())
        for real in loader:
            fake = G(torch.randn(8, 8))
            g_loss = -D(fake).mean()
            opt_G.zero_grad()
            g_loss.backward(retain_graph=True)
            opt_G.step()
            d_loss = D(fake.detach()).mean() - D(real).mean()
            opt_D.zero_grad()
            d_loss.backward()
            opt_D.step()
        """,
        # SpinningUp's TD3: each loss is computed by its helper right before its own backward pass, the actor's
        # after the critic's step.
        """
        import torch
        def compute_loss_q(q, pi, batch):
            o, a, r, o2 = batch
            with torch.no_grad():
                target = r + 0.99 * q(o2, pi(o2))
            return ((q(o, a) - target) ** 2).mean(), target
        def compute_loss_pi(q, pi, o):
            return -q(o, pi(o)).mean()
        q, pi = QNet(), Policy()
        q_opt = torch.optim.Adam(q.parameters(), lr=1e-3)
        pi_opt = torch.optim.Adam(pi.parameters(), lr=1e-3)
        for batch in replay:
            q_opt.zero_grad()
            loss_q, _ = compute_loss_q(q, pi, batch)
            loss_q.backward()
            q_opt.step()
            pi_opt.zero_grad()
            loss_pi = compute_loss_pi(q, pi, batch[0])
            loss_pi.backward()
            pi_opt.step()
        """,
        # A DDPG update whose helper returns a dict of losses, called again after the critic's step: the actor's
        # loss goes through the updated critic.
        """
        import torch
        import torch.nn as nn
        def ddpg_losses(actor, critic, batch):
            obs, act, target_q = batch
            q_pi = critic(torch.cat([obs, actor(obs)], dim=-1))
            return {"critic": ((critic(torch.cat([obs, act], dim=-1)) - target_q) ** 2).mean(), "actor": -q_pi.mean()}
        actor, critic = nn.Linear(8, 2), nn.Linear(10, 1)
        actor_opt = torch.optim.Adam(actor.parameters())
        critic_opt = torch.optim.Adam(critic.parameters())
        batch = (torch.randn(4, 8), torch.randn(4, 2), torch.randn(4, 1))
        ddpg_losses(actor, critic, batch)["critic"].backward()
        critic_opt.step()
        losses = ddpg_losses(actor, critic, batch)
        losses["actor"].backward()
        actor_opt.step()
        """,
        # togheppi/CycleGAN: the discriminator scores what an image pool hands back for the fake. Pools return
        # detached copies (`image.data`); what a method of an object not known to be a module or a tensor returns
        # is not known to carry its argument's graph.
        """
        import torch
        import torch.nn as nn
        import utils
        from model import Discriminator, Generator
        G_A, D_A = Generator(3, 64), Discriminator(3, 64)
        G_optimizer = torch.optim.Adam(G_A.parameters(), lr=2e-4)
        D_A_optimizer = torch.optim.Adam(D_A.parameters(), lr=2e-4)
        fake_A_pool = utils.ImagePool(50)
        mse = nn.MSELoss()
        for real_A, real_B in loader:
            fake_A = G_A(real_B)
            D_A_fake = D_A(fake_A)
            G_loss = mse(D_A_fake, torch.ones_like(D_A_fake))
            G_optimizer.zero_grad()
            G_loss.backward()
            G_optimizer.step()
            fake_A = fake_A_pool.query(fake_A)
            D_A_fake = D_A(fake_A)
            D_A_real = D_A(real_A)
            D_A_loss = (mse(D_A_real, torch.ones_like(D_A_real)) + mse(D_A_fake, torch.zeros_like(D_A_fake))) * 0.5
            D_A_optimizer.zero_grad()
            D_A_loss.backward()
            D_A_optimizer.step()
        """,
        # A GAN trainer whose update method takes both losses and runs each backward pass before its step, or
        # whose generator loss reaches the discriminator only through a detached copy.
        """
        import torch
        import torch.nn.functional as F
        class GANTrainer:
            def __init__(self, generator, discriminator):
                self.G, self.D = generator, discriminator
                self.opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4)
                self.opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
            def backward(self, g_loss, d_loss):
                self.opt_g.zero_grad()
                g_loss.backward()
                self.opt_g.step()
                self.opt_d.zero_grad()
                d_loss.backward()
                self.opt_d.step()
            def update_d_first(self, d_loss, recon_loss):
                self.opt_d.zero_grad()
                d_loss.backward()
                self.opt_d.step()
                self.opt_g.zero_grad()
                recon_loss.backward()
                self.opt_g.step()
            def train_step(self, z, real):
                fake = self.G(z)
                d_real, d_fake = self.D(real), self.D(fake.detach())
                d_loss = F.softplus(-d_real).mean() + F.softplus(d_fake).mean()
                g_loss = F.softplus(-self.D(fake)).mean()
                self.backward(g_loss, d_loss)
                fake = self.G(z)
                d_loss = F.softplus(-self.D(real)).mean() + F.softplus(self.D(fake.detach())).mean()
                self.update_d_first(d_loss, F.l1_loss(fake, real))
        """,
        # A DDPG agent computing each loss when its update runs: the actor's loss sees the critic's new weights.
        _DDPG_AGENT % """
            def learn(self, obs, act, target_q):
                self.update_critic(F.mse_loss(self.critic(obs, act), target_q))
                actor_loss = -self.critic(obs, self.actor(obs)).mean()
                self.update_actor(actor_loss)""",
        # Coder-Yu/SELFRec's SGL: `graph_reconstruction()` is a method of the encoder that rebuilds a sparse
        # adjacency from the data each epoch, no layer or parameter in it; the loss's graph is made afresh.
        """
        import torch
        import torch.nn as nn
        from util import TorchGraphInterface, GraphAugmentor, bpr_loss, next_batch_pairwise


        class SGL(object):
            def __init__(self, data, emb_size):
                self.data = data
                self.model = SGL_Encoder(data, emb_size, 0.1)

            def train(self):
                model = self.model.cuda()
                optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
                for epoch in range(10):
                    dropped_adj1 = model.graph_reconstruction()
                    for n, batch in enumerate(next_batch_pairwise(self.data, 2048)):
                        user_idx, pos_idx, neg_idx = batch
                        rec_user_emb, rec_item_emb = model()
                        cl_loss = model.cal_cl_loss([user_idx, pos_idx], dropped_adj1)
                        batch_loss = bpr_loss(rec_user_emb[user_idx], rec_item_emb[pos_idx], rec_item_emb[neg_idx]) + cl_loss
                        optimizer.zero_grad()
                        batch_loss.backward()
                        optimizer.step()


        class SGL_Encoder(nn.Module):
            def __init__(self, data, emb_size, drop_rate):
                super(SGL_Encoder, self).__init__()
                self.data = data
                self.drop_rate = drop_rate
                self.embedding = nn.Embedding(data.user_num + data.item_num, emb_size)

            def graph_reconstruction(self):
                dropped_adj = self.random_graph_augment()
                return dropped_adj

            def random_graph_augment(self):
                dropped_mat = GraphAugmentor.edge_dropout(self.data.interaction_mat, self.drop_rate)
                return TorchGraphInterface.convert_sparse_mat_to_tensor(dropped_mat).cuda()

            def forward(self, perturbed_adj=None):
                emb = self.embedding.weight
                if perturbed_adj is not None:
                    emb = torch.sparse.mm(perturbed_adj, emb)
                return torch.split(emb, [self.data.user_num, self.data.item_num])

            def cal_cl_loss(self, idx, perturbed_mat1):
                user_view_1, item_view_1 = self.forward(perturbed_mat1)
                return (user_view_1[idx[0]] - item_view_1[idx[1]]).pow(2).mean()
        """,
        # Both backward passes before both steps, in a function handed the optimizers of the module's parts.
        _SR_GAN % """
            opt_g.zero_grad()
            opt_c.zero_grad()
            gen_loss.backward()
            net.critic.zero_grad()
            critic_loss.backward()
            opt_g.step()
            opt_c.step()""",
        # A text classifier's vocabulary is an attribute of the model, not a layer: the ids it looks up once
        # before the loop carry no graph, whatever `model.vocab.lookup_indices` is.
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Classifier(nn.Module):
            def __init__(self, vocab, n_classes: int = 2) -> None:
                super().__init__()
                self.vocab = vocab
                self.embed = nn.EmbeddingBag(len(vocab), 64)
                self.head = nn.Linear(64, n_classes)

            def forward(self, ids: torch.Tensor) -> torch.Tensor:
                return self.head(self.embed(ids))


        def fit(model: Classifier, texts, labels: torch.Tensor, epochs: int = 10) -> None:
            optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
            ids = model.vocab.lookup_indices(texts)
            for _ in range(epochs):
                loss = F.cross_entropy(model(ids), labels)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        """,
        # Old policy-gradient code: the baseline's loss is backpropagated and stepped first; the policy's loss
        # sees the baseline's values only through `Variable(...)`, a new leaf since torch 0.4.
        _BASELINE_FIRST % "Variable(returns - baseline)",
        # A GAN trainer (torchlake's) handed a noise generator: each loss draws its own `next(noise)`, so the
        # generator's loss shares no graph with the discriminator's through `noise`.
        """
        from typing import Generator
        import torch
        from torch import nn

        class GANTrainer:
            def train_discriminator(self, row, noise, generator, discriminator, criterion):
                x, _ = row
                with torch.no_grad():
                    fake = generator(noise)
                return criterion(discriminator(x), discriminator(fake))

            def train_generator(self, row, noise, generator, discriminator, criterion):
                return criterion(discriminator(generator(noise)))

            def run(self, data, noise_generator, generator: nn.Module, discriminator: nn.Module,
                    optimizer_g, optimizer_d, criterion_g, criterion_d):
                for row in data:
                    noise = noise_generator(len(row[0]))
                    d_loss = self.train_discriminator(row, next(noise), generator, discriminator, criterion_d)
                    d_loss.backward()
                    optimizer_d.step()
                    optimizer_d.zero_grad()
                    g_loss = self.train_generator(row, next(noise), generator, discriminator, criterion_g)
                    g_loss.backward()
                    optimizer_g.step()
                    optimizer_g.zero_grad()
        """,
        # A parameter called like a module is taken for one, unless its annotation says otherwise: an augmentation
        # function builds no graph for the first backward pass to free.
        """
        from typing import Callable
        import torch
        import torch.nn as nn
        import torch.nn.functional as F

        def train_step(model: nn.Module, head_a: nn.Module, head_b: nn.Module,
                       augment: Callable[[torch.Tensor], torch.Tensor], opt, x, y):
            view = augment(x)
            loss_a = F.mse_loss(head_a(model(view)), y)
            loss_a.backward()
            loss_b = F.mse_loss(head_b(view), y)
            loss_b.backward()
            opt.step()
        """,
    ]
    INVALID = [
        # A generator's adversarial loss backpropagated, then its L1 loss on the same output: the first pass freed
        # the generator's graph.
        _TWO_PASSES % "fake_b",
        # the same stage run twice: the second backward pass goes through the first's freed graph
        _STAGED_GAN % "2",
        # The critic steps before the generator's loss, computed through it, runs its backward pass: the function
        # is handed the optimizers its caller built on the module's submodules (`net.critic.parameters()`).
        _SR_GAN % """
            opt_c.zero_grad()
            critic_loss.backward()
            opt_c.step()
            opt_g.zero_grad()
            gen_loss.backward()
            opt_g.step()""",
        # A recommender's item table computed once an epoch by a method reading the embedding's weight: the second
        # batch's backward pass goes through the graph the first one freed.
        """
        import torch
        import torch.nn as nn


        class Encoder(nn.Module):
            def __init__(self, n, d):
                super().__init__()
                self.embedding = nn.Embedding(n, d)

            def item_embeddings(self):
                return self.embedding.weight * 2

            def forward(self, idx):
                return self.embedding(idx)


        def train(loader, n, d):
            model = Encoder(n, d)
            optimizer = torch.optim.Adam(model.parameters(), lr=0.001)
            for epoch in range(10):
                items = model.item_embeddings()
                for user_idx, pos_idx in loader:
                    loss = -(model(user_idx) * items[pos_idx]).sum(-1).sigmoid().log().mean()
                    optimizer.zero_grad()
                    loss.backward()
                    optimizer.step()
        """,
        # A DDPG agent (the actor-critic form across methods): both losses come from one `compute_losses`, and the
        # critic's update runs before the actor's loss, computed through the critic, is backpropagated.
        _DDPG_AGENT % """
            def compute_losses(self, obs, act, target_q):
                critic_loss = F.mse_loss(self.critic(obs, act), target_q)
                actor_loss = -self.critic(obs, self.actor(obs)).mean()
                return critic_loss, actor_loss
            def learn(self, obs, act, target_q):
                critic_loss, actor_loss = self.compute_losses(obs, act, target_q)
                self.update_critic(critic_loss)
                self.update_actor(actor_loss)""",
        # A debiasing GAN's trainer (genb's form): `backward(gen_loss, dis_loss)` steps the discriminator between the
        # two passes, and the caller computed the generator's loss through the discriminator before the call.
        """
        import torch
        import torch.nn.functional as F
        class GenBTrainer:
            def __init__(self, genb, discriminator):
                self.genb, self.discriminator = genb, discriminator
                self.optim_g = torch.optim.Adam(genb.parameters(), lr=1e-3)
                self.optim_d = torch.optim.Adam(discriminator.parameters(), lr=1e-3)
            def backward(self, gen_loss, dis_loss):
                self.optim_d.zero_grad()
                dis_loss.backward()
                self.optim_d.step()
                self.optim_g.zero_grad()
                gen_loss.backward()
                self.optim_g.step()
            def train_step(self, q, a):
                pred_g = self.genb(q)
                fake = self.discriminator(pred_g)
                zeros, ones = torch.zeros_like(fake), torch.ones_like(fake)
                dis_loss = F.binary_cross_entropy_with_logits(self.discriminator(pred_g.detach()), zeros)
                gen_loss = F.binary_cross_entropy_with_logits(fake, ones) + F.mse_loss(pred_g, a)
                self.backward(gen_loss, dis_loss)
        """,
        # TD3's update handed its networks and optimizers: the calls say `q_opt` holds both critics' weights.
        """
        import torch
        import torch.nn.functional as F
        def td3_update(actor, q1, q2, pi_opt, q_opt, batch, policy_step):
            s, a, y = batch
            pi_loss = -q1(s, actor(s)).mean()
            q_loss = F.mse_loss(q1(s, a), y) + F.mse_loss(q2(s, a), y)
            q_opt.zero_grad()
            q_loss.backward()
            q_opt.step()
            if policy_step:
                pi_opt.zero_grad()
                pi_loss.backward()
                pi_opt.step()
        def main(actor, q1, q2, replay):
            q_opt = torch.optim.Adam(list(q1.parameters()) + list(q2.parameters()), lr=3e-4)
            pi_opt = torch.optim.Adam(actor.parameters(), lr=3e-4)
            for it, batch in enumerate(replay):
                td3_update(actor, q1, q2, pi_opt, q_opt, batch, it % 2 == 0)
        """,
        # A WGAN loop with its optimizers made in one line: the generator's loss reuses the critic's score of the
        # fake batch, computed before the critic's step.
        """
        import torch
        import torch.nn as nn
        G, D = nn.Linear(64, 784), nn.Linear(784, 1)
        opt_g, opt_d = torch.optim.RMSprop(G.parameters(), lr=5e-5), torch.optim.RMSprop(D.parameters(), lr=5e-5)
        for real in loader:
            fake = G(torch.randn(real.size(0), 64))
            d_fake = D(fake)
            d_loss = d_fake.mean() - D(real).mean()
            opt_d.zero_grad()
            d_loss.backward(retain_graph=True)
            opt_d.step()
            g_loss = -d_fake.mean()
            opt_g.zero_grad()
            g_loss.backward()
            opt_g.step()
        """,
        # DDPG whose constructor stores the networks it is handed: the actor's loss goes through the critic's
        # output computed before the critic's step.
        """
        import torch
        import torch.nn as nn
        class DDPG:
            def __init__(self, actor, critic):
                self.actor, self.critic = actor, critic
                self.actor_opt = torch.optim.Adam(actor.parameters(), lr=1e-4)
                self.critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
            def update(self, s, a, target_q):
                critic_loss = nn.functional.mse_loss(self.critic(s, a), target_q)
                actor_loss = -self.critic(s, self.actor(s)).mean()
                self.critic_opt.zero_grad()
                critic_loss.backward()
                self.critic_opt.step()
                self.actor_opt.zero_grad()
                actor_loss.backward()
                self.actor_opt.step()
        """,
        # An encoder's features computed once, then trained on in a loop: the second pass's backward raises
        # "Trying to backward through the graph a second time".
        """
        import torch
        encoder = torch.nn.Linear(10, 16)
        head = torch.nn.Linear(16, 2)
        optimizer = torch.optim.Adam(list(encoder.parameters()) + list(head.parameters()), lr=1e-3)
        features = torch.relu(encoder(x))
        for epoch in range(5):
            loss = torch.nn.functional.cross_entropy(head(features), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        """,
        # A GAN with several generator updates per batch: the discriminator's loop then scores the last fake, whose
        # graph the generator's backward freed and whose weights `optG.step()` changed.
        """
        import torch
        netG = torch.nn.Linear(16, 784)
        netD = torch.nn.Linear(784, 1)
        optG = torch.optim.Adam(netG.parameters(), lr=2e-4)
        optD = torch.optim.Adam(netD.parameters(), lr=2e-4)
        for real in loader:
            for _ in range(3):
                fake = netG(torch.randn(4, 16))
                scores = netD(fake)
                g_loss = bce(scores, torch.ones_like(scores))
                g_loss.backward()
                optG.step()
                netG.zero_grad()
            for _ in range(1):
                netD.zero_grad()
                fake_scores = netD(fake)
                d_loss = bce(netD(real), torch.ones_like(scores)) + bce(fake_scores, torch.zeros_like(fake_scores))
                d_loss.backward()
                optD.step()
        """,
        # PPO epochs over log-probs computed once, before the loop that steps the policy.
        """
        import torch
        def update(policy, states, advantages, old_log_probs):
            optimizer = torch.optim.Adam(policy.parameters())
            log_probs = policy(states).log_softmax(-1)[:, 0]
            for _ in range(4):
                ratio = torch.exp(log_probs - old_log_probs)
                loss = -(ratio * advantages).mean()
                optimizer.zero_grad()
                loss.backward(retain_graph=True)
                optimizer.step()
        update(torch.nn.Linear(4, 2), states, advantages, old_log_probs)
        """,
        """
        import torch
        for i, (imgs, _) in enumerate(dataloader):
            fake = generator(z)
            d_loss = adversarial_loss(discriminator(imgs), valid) + adversarial_loss(discriminator(fake), fake_label)
            g_loss = adversarial_loss(discriminator(fake), valid)
            optimizer_D.zero_grad()
            d_loss.backward(retain_graph=True)
            optimizer_D.step()
            optimizer_G.zero_grad()
            g_loss.backward()
            optimizer_G.step()
        """,
        """
        import torch
        def train_step(model, x, y, optimizer):
            out = model(x)
            loss_a = criterion(out, y)
            loss_b = out.pow(2).mean()
            loss_a.backward(retain_graph=True)
            optimizer.step()
            loss_b.backward()
        """,
        # PyTorch-GAN softmax_gan: the generator's loss is written after D's step, from D's outputs before it.
        """
        import torch
        optimizer_D = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
        for epoch in range(n_epochs):
            for i, (imgs, _) in enumerate(dataloader):
                optimizer_G.zero_grad()
                optimizer_D.zero_grad()
                gen_imgs = generator(z)
                d_real = discriminator(imgs)
                d_fake = discriminator(gen_imgs)
                Z = torch.sum(torch.exp(-d_real)) + torch.sum(torch.exp(-d_fake))
                d_loss = d_target * torch.sum(d_real) + torch.log(Z)
                d_loss.backward(retain_graph=True)
                optimizer_D.step()
                g_loss = g_target * (torch.sum(d_real) + torch.sum(d_fake)) + torch.log(Z)
                g_loss.backward()
                optimizer_G.step()
        """,
        # Soft actor-critic with both losses written first: the policy loss's graph runs through the critic's
        # weights, which the critic's step has changed by the time it is backpropagated.
        """
        import torch
        q_optim = torch.optim.Adam(q_net.parameters(), lr=3e-4)
        pi_optim = torch.optim.Adam(policy.parameters(), lr=3e-4)
        for batch in buffer.batches(256):
            obs, act, backup = batch["obs"], batch["act"], batch["backup"]
            q_loss = ((q_net(obs, act) - backup) ** 2).mean()
            new_act, logp = policy(obs)
            pi_loss = (alpha * logp - q_net(obs, new_act)).mean()
            q_optim.zero_grad()
            q_loss.backward()
            q_optim.step()
            pi_optim.zero_grad()
            pi_loss.backward()
            pi_optim.step()
        """,
        # The generator's loss is written after D's step, from D's output computed before it.
        """
        import torch
        optimizer_D = torch.optim.Adam(netD.parameters(), lr=2e-4)
        for real, _ in dataloader:
            fake = netG(torch.randn(real.size(0), nz, 1, 1))
            out_fake = netD(fake)
            d_loss = criterion(netD(real), ones) + criterion(netD(fake.detach()), zeros)
            optimizer_D.zero_grad()
            d_loss.backward()
            optimizer_D.step()
            g_loss = criterion(out_fake, ones)
            optimizer_G.zero_grad()
            g_loss.backward()
            optimizer_G.step()
        """,
        # Two heads of one forward pass, each loss stepped on its own.
        """
        import torch
        import torch.nn as nn
        class Trainer:
            def __init__(self, model):
                self.model = model
                self.opt = torch.optim.SGD(self.model.parameters(), lr=0.1)
            def step(self, x, ya, yb):
                pa, pb = self.model(x)
                self.opt.zero_grad()
                loss_a = nn.functional.mse_loss(pa, ya)
                loss_a.backward(retain_graph=True)
                self.opt.step()
                loss_b = nn.functional.mse_loss(pb, yb)
                loss_b.backward()
                self.opt.step()
        """,
        # A2C with the advantage left in the critic's graph.
        """
        import torch
        import torch.nn as nn
        actor = nn.Linear(4, 2)
        critic = nn.Linear(4, 1)
        a_opt = torch.optim.Adam(actor.parameters())
        c_opt = torch.optim.Adam(critic.parameters())
        def update(states, actions, returns):
            values = critic(states).squeeze(-1)
            advantage = returns - values
            critic_loss = advantage.pow(2).mean()
            c_opt.zero_grad()
            critic_loss.backward(retain_graph=True)
            c_opt.step()
            logp = torch.log_softmax(actor(states), -1).gather(1, actions[:, None]).squeeze(1)
            actor_loss = -(logp * advantage).mean()
            a_opt.zero_grad()
            actor_loss.backward()
            a_opt.step()
        """,
        # Both losses returned by one helper, the actor's computed through the critic before the critic's step.
        """
        import torch
        def compute_losses(policy, qf, batch):
            s, a, target = batch
            return ((qf(s, a) - target) ** 2).mean(), -qf(s, policy(s)).mean()
        policy, qf = Policy(), QFunction()
        policy_optim = torch.optim.Adam(policy.parameters(), lr=1e-3)
        qf_optim = torch.optim.Adam(qf.parameters(), lr=1e-3)
        for batch in replay:
            policy_optim.zero_grad()
            qf_optim.zero_grad()
            q_loss, pi_loss = compute_losses(policy, qf, batch)
            q_loss.backward()
            qf_optim.step()
            pi_loss.backward()
            policy_optim.step()
        """,
        # An A2C-style critic update with a second loss on the same values, without `retain_graph`: the first
        # backward pass freed the critic's graph, and the second raises "Trying to backward through the graph a
        # second time" (the message says so, not "modified by an inplace operation").
        """
        import torch
        import torch.nn as nn
        import torch.nn.functional as F
        critic = nn.Sequential(nn.Linear(8, 32), nn.ReLU(), nn.Linear(32, 1))
        critic_opt = torch.optim.Adam(critic.parameters(), lr=1e-3)
        for _ in range(3):
            obs, returns = torch.randn(16, 8), torch.randn(16, 1)
            values = critic(obs)
            value_loss = F.mse_loss(values, returns)
            spread_loss = (returns - values).abs().mean()
            critic_opt.zero_grad()
            value_loss.backward()
            critic_opt.step()
            spread_loss.backward()
        """,
        # A SAC-style agent whose helper returns its losses in a dict: the actor's loss goes through the critic,
        # which `critic_opt.step()` updates in place before `out["actor"].backward()`.
        """
        import torch
        import torch.nn as nn
        class Agent:
            def __init__(self):
                self.actor = nn.Sequential(nn.Linear(8, 2), nn.Tanh())
                self.critic = nn.Linear(10, 1)
                self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
                self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
            def compute_losses(self, obs, act, target_q):
                q = self.critic(torch.cat([obs, act], dim=-1))
                q_pi = self.critic(torch.cat([obs, self.actor(obs)], dim=-1))
                return {"critic": ((q - target_q) ** 2).mean(), "actor": -q_pi.mean()}
            def update(self, obs, act, target_q):
                out = self.compute_losses(obs, act, target_q)
                self.critic_opt.zero_grad()
                out["critic"].backward()
                self.critic_opt.step()
                self.actor_opt.zero_grad()
                out["actor"].backward()
                self.actor_opt.step()
        Agent().update(torch.randn(4, 8), torch.randn(4, 2), torch.randn(4, 1))
        """,
        # A method of a module (PyTorch-GAN's `MultiDiscriminator.compute_loss`) runs it on its argument: the
        # discriminator's loss goes through the generator's graph, which the generator's backward pass freed.
        """
        import torch
        import torch.nn as nn
        class MultiDiscriminator(nn.Module):
            def __init__(self):
                super().__init__()
                self.net = nn.Linear(8, 1)
            def compute_loss(self, x, target):
                return ((self.net(x) - target) ** 2).mean()
        G = nn.Linear(8, 8)
        D = MultiDiscriminator()
        G_optimizer = torch.optim.Adam(G.parameters())
        D_optimizer = torch.optim.Adam(D.parameters())
        for real in loader:
            fake = G(torch.randn(4, 8))
            G_loss = D.compute_loss(fake, 1.0)
            G_optimizer.zero_grad()
            G_loss.backward()
            G_optimizer.step()
            D_loss = D.compute_loss(fake, 0.0) + D.compute_loss(real, 1.0)
            D_optimizer.zero_grad()
            D_loss.backward()
            D_optimizer.step()
        """,
        # Features from a method of a submodule the model builds (`self.backbone = Backbone()`, an nn.Module),
        # computed once before the loop that trains the whole model.
        """
        import torch
        import torch.nn.functional as F
        from torch import nn


        class Backbone(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.conv = nn.Conv2d(3, 8, 3)

            def features(self, images: torch.Tensor) -> torch.Tensor:
                return self.conv(images).mean((2, 3))


        class Net(nn.Module):
            def __init__(self) -> None:
                super().__init__()
                self.backbone = Backbone()
                self.fc = nn.Linear(8, 10)

            def forward(self, feats: torch.Tensor) -> torch.Tensor:
                return self.fc(feats)


        class Finetuner:
            def __init__(self, images: torch.Tensor, labels: torch.Tensor) -> None:
                self.model = Net()
                self.opt = torch.optim.Adam(self.model.parameters())
                self.images, self.labels = images, labels

            def run(self, epochs: int = 5) -> None:
                feats = self.model.backbone.features(self.images)
                for _ in range(epochs):
                    self.opt.zero_grad()
                    loss = F.cross_entropy(self.model(feats), self.labels)
                    loss.backward()
                    self.opt.step()
        """,
        # The same update with the advantage left in the baseline's graph: the policy's backward pass goes
        # through the baseline's freed graph.
        _BASELINE_FIRST % "(returns - baseline)",
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        # backward passes with `retain_graph=True` in a loop, for the loop's steps (later ones too) to judge
        self._in_loop: list[tuple[Point, cst.Call, str, Binding, Event]] = []
        # backward passes after steps of optimizers the function is handed, for their callers to tell what they hold
        self._handed: list[tuple[Point, cst.Call, str, Binding, list[Event], list[Event]]] = []
        # backward passes of a loss the function is handed (with the steps before them there): its callers say what
        # the loss went through, and which steps ran after they computed it
        self._passed: list[tuple[Point, cst.Call, Binding, list[Event], cst.FunctionDef]] = []

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        training = training_loop(ctx)
        event = training.event_at(node)
        if event is None or event.kind != "backward" or in_test(ctx) or is_test_file(ctx):
            return
        loss = _loss_name(node)
        binding = ctx.binding(loss) if loss is not None else None
        if binding is None:
            return
        retained = step = None
        steps: list[Event] = []
        earlier_events = training.in_function(event.function)[:-1]
        for earlier in earlier_events:
            if earlier.kind == "step" and is_step_call(earlier.node):
                # A step earlier in the function has run before this backward pass, in this loop's body or in a
                # loop that ended before it (the generator's updates, then the discriminator's loop).
                steps.append(earlier)
            if earlier.loops != event.loops:
                continue
            if earlier.kind == "backward" and _retains(earlier.node) and _loss_name(earlier.node) != loss:
                retained, step = earlier, None
            elif earlier.kind == "step" and is_step_call(earlier.node) and retained is not None:
                step = step or earlier
        if step is None or retained is None or _loss_key(node) is not None:
            freeing = [earlier for earlier in earlier_events
                       if earlier.kind == "backward" and not _retains(earlier.node)]
            if self._stale_graph(node, loss, binding, steps, freeing) or self._freed_twice(node, loss, binding, event,
                                                                                            freeing):
                return
            if event.loops:
                # the loop's later steps count too: judged in `finish()`, with the names read as they are here
                self._in_loop.append((ctx.point(), node, loss, binding, event))
            handed = [earlier for earlier in steps if not earlier.owners]
            if handed:
                self._handed.append((ctx.point(), node, loss, binding, handed, freeing))
            if binding.kind == "param" and event.function is not None:
                # those whose optimizer is a parameter too are read at each call (`backward(g_loss, d_loss, opt_g,
                # opt_d)` handed `opt_d = Adam(D.parameters())`)
                known = [earlier for earlier in steps if earlier.owners or type(earlier.target) is cst.Name]
                self._passed.append((ctx.point(), node, binding, known, event.function))
            return
        if binding.seq <= step.seq:  # the loss itself was computed before the step
            if self._detached_from(binding, step) or self._apart_from(binding, step, event, training):
                return
            what = f"`{loss}` was computed before `{ctx.code(step.node)}` updated the weights in place"
        else:
            # an output both losses share, or one further up (`advantage = returns - values`, `values = critic(s)`)
            output = self._bound_output(binding, step)
            shared = self._shared_before(binding, _loss_name(retained.node), step) or (
                ctx.code(output) if output is not None else None)
            if shared is None:
                return
            what = (f"`{loss}` is computed from `{shared}`, which `{_loss_name(retained.node)}` shares and which was "
                    f"computed before `{ctx.code(step.node)}` updated the weights in place")
        self.report(node, f"{what}, and `{ctx.code(retained.node)}` kept its graph: this backward pass needs the "
                          "old weights and raises \"modified by an inplace operation\"; compute the loss again after "
                          "the step, or step after both backward passes")

    def _stale_graph(self, node: cst.Call, loss: str, binding: Binding, steps: list[Event],
                     freeing: list[Event]) -> bool:
        """Autograd's rule, without `retain_graph`: a backward pass through a module's output computed before a
        step of an optimizer holding that module's parameters raises, since the step changed in place the weights
        the graph saved. The actor-critic form (`critic_loss` and `actor_loss` both computed, then
        `critic_loss.backward(); critic_opt.step(); actor_loss.backward()`), and a loss computed after the step
        from an output computed before it (`fake_out = D(fake)` reused). When an earlier backward pass without
        `retain_graph` (`freeing`) went through that same output, it freed the graph there, and autograd finds the
        freed buffers before it checks versions: the error is "Trying to backward through the graph a second
        time"."""
        ctx = self.ctx
        if _loss_key(node) is not None:
            loss = ctx.code(_loss(node))
        for step in steps:
            if not step.owners or self._other_branch(step.node):
                continue
            stale = self._bound_output(binding, step, key=_loss_key(node))
            if stale is None:
                continue
            freed = next((earlier for earlier in freeing if self._backward_through(earlier, stale, step)), None)
            if freed is not None:
                self.report(node, f"`{loss}` goes through `{ctx.code(stale)}`, which `{ctx.code(freed.node)}` "
                                  "already backpropagated through without `retain_graph=True`, freeing that graph: "
                                  "this backward pass raises \"Trying to backward through the graph a second "
                                  f"time\" (and `{ctx.code(step.node)}` has since updated its weights in place); "
                                  "compute the loss after the step, or sum the losses into one backward pass")
            else:
                self.report(node, f"`{loss}` goes through `{ctx.code(stale)}`, computed before "
                                  f"`{ctx.code(step.node)}` updated its weights in place: this backward pass needs "
                                  "the old weights and raises \"modified by an inplace operation\"; compute the "
                                  "loss after the step, or step after every backward pass through that module")
            return True
        return False

    def _freed_twice(self, node: cst.Call, loss: str, binding: Binding, event: Event, freeing: list[Event]) -> bool:
        """Without a step between: an earlier backward pass in the same iteration, without `retain_graph`, went
        through a module's output this loss goes through too, computed before it and not since (a generator's
        adversarial loss backpropagated, then a feature-matching loss on the same discriminator pass): the first
        pass freed that graph, and this one raises "Trying to backward through the graph a second time"."""
        if binding.value is None:
            return False
        mine = {id(bound.value) for bound in self._outputs_deep(binding.value, 0, binding.seq)}  # by call: one pass
        for earlier in freeing:
            if earlier.loops != event.loops or self._other_branch(earlier.node):
                continue
            other = _loss_name(earlier.node)
            bound = self.ctx.binding(other, earlier.seq + 1) if other is not None else None
            if bound is None or bound.value is None or bound is binding:
                continue
            for shared in self._outputs_deep(bound.value, 0, bound.seq):
                if id(shared.value) in mine and shared.seq <= earlier.seq \
                        and self._module_output(shared.value, shared.seq, event):  # type: ignore[arg-type]
                    self.report(node, f"`{loss}` goes through `{self.ctx.code(shared.value)}`, which `{self.ctx.code(earlier.node)}` "
                                      "already backpropagated through without `retain_graph=True`, freeing that "
                                      "graph: this backward pass raises \"Trying to backward through the graph a "
                                      "second time\"; sum the losses into one backward pass, or pass "
                                      "`retain_graph=True` to the first")
                    return True
        return False

    def _outputs_deep(self, expr: cst.BaseExpression, depth: int, before: int) -> list[Binding]:
        """The calls' results bound whole to a name that `expr`'s graph runs through, followed three assignments
        deep (into what an unpacked call is handed too): not a name read only through a subscript, nor one element
        of an unpacked result (`prediction["v"]` and `prediction["log_pi_a"]`: the heads of one pass may share no
        node of the graph). `expr` is the value of a binding made at `before`: its names are what they hold there,
        not what a later statement of the loop rebinds them to (`pred_fake = netD(fake.detach())` for the
        discriminator's loss, then `pred_fake = netD(fake)` for the generator's)."""
        subscripted = {id(node.value) for node in walk(expr) if type(node) is cst.Subscript}
        found = []
        for part in _graph_parts(expr, passes=self._carrier(None)):
            bound = self.ctx.binding(part, before) if type(part) is cst.Name and id(part) not in subscripted else None
            if bound is None or bound.value is None or bound.kind not in ("assign", "unpack"):
                continue
            if bound.kind == "assign" and type(bound.value) is cst.Call \
                    and last_name(bound.value.func) not in _LEAVES_GRAPH:
                found.append(bound)
            if depth < 3:
                found += self._outputs_deep(bound.value, depth + 1, bound.seq)
        return found

    def _module_output(self, call: cst.Call, seq: int, event: Event) -> bool:
        """`call` runs a module with autograd on: one whose parameters an optimizer the function steps or resets
        holds (`self.netG` of `Adam(netG.parameters())`), one the objects floor knows, or a parameter of a function
        that trains (`def train_generator(generator, discriminator, opt_g, ...)`)."""
        if _module_method(call) or self._grad_disabled_at(call):
            return False
        module = called_module(call)
        if module is not None and any(runs_weights_of(self.ctx, call, module, owner, seq)
                                      for earlier in training_loop(self.ctx).in_function(event.function)
                                      if earlier.kind in ("step", "reset") for owner in earlier.owners or ()):
            return True
        func = call.func
        if type(func) is cst.Attribute and func.attr.value == "forward":
            func = func.value
        if type(func) is cst.Name:
            bound = self.ctx.binding(func, seq)
            if bound is not None and bound.kind == "param":
                # a guess, which the parameter's annotation overrules (`noise_fn: Callable[[int], Tensor]`)
                annotation = param_annotation(bound.statement, bound.name) \
                    if type(bound.statement) is cst.FunctionDef else None
                return annotation is None or not annotation_excludes_module(annotation)
        return type(func) in (cst.Name, cst.Attribute) and is_module(evaluator(self.ctx).value(func, seq))

    def _backward_through(self, backward: Event, output: cst.Call, step: Event) -> bool:
        """The loss of the backward pass `backward` is computed from the module call `output`."""
        loss = _loss_name(backward.node)
        bound = self.ctx.binding(loss, backward.seq + 1) if loss is not None else None
        return bound is not None and self._bound_output(bound, step, key=_loss_key(backward.node)) is output

    def finish(self) -> None:
        for point, *found in self._in_loop:
            with self.ctx.at(point):
                self._graph_from_before_loop(*found)
        training = training_loop(self.ctx)
        for point, node, loss, binding, steps, freeing in self._handed:
            # `def update(actor, critic, actor_opt, critic_opt)`: what each call hands it says what its steps update
            known = [replace(step, owners=owners) for step in steps if (owners := training.owners_of(step))]
            if known:
                with self.ctx.at(point):
                    self._stale_graph(node, loss, binding, known, freeing)
        for point, *found in self._passed:
            with self.ctx.at(point):
                self._graph_handed_in(*found)

    def _graph_handed_in(self, node: cst.Call, binding: Binding, steps: list[Event],
                         function: cst.FunctionDef) -> None:
        """A backward pass of a loss the function is handed (`def backward(self, gen_loss, dis_loss)`), after a step
        in it: a call that passes a loss computed through a module the step updates (`fake = self.discriminator(
        pred_g)` in the caller's `gen_loss`) hands in a graph of the old weights, since the caller computed all of it
        before the call."""
        ctx = self.ctx
        is_method = ctx.class_of_method(function) is not None
        sites = certain_method_callers(ctx, function) if is_method else helper_callers(ctx, function) or []
        for site, point in sites:
            passed = passed_argument(function, site.node, binding.name)
            if passed is None:
                continue
            # the steps here, after all the caller computed; and those of helpers it ran before the call, after
            # what it computed before them (DDPG's `self.update_critic(critic_loss)` before
            # `self.update_actor(actor_loss)`, both losses from one `compute_losses`)
            made: list[tuple[Event, int | None]] = [(step, step.seq) for step in steps
                                                    if step.owners and not self._other_branch(step.node)]
            made += [(step, None) for step in self._helper_steps_before(site)]
            if not is_method:
                made += [(step, None) for step in self._handed_optimizer_steps(function, site, point, steps)]
            for step, seq in made:
                with ctx.at(point):
                    stale = self._output_before(passed, site.seq + 1, step, 0, made=seq)
                    if stale is None:
                        continue
                    handed, through = ctx.code(site.node), ctx.code(stale)
                self._report_handed(node, binding.name, handed, through, step)
                return
        self._graph_handed_from_elsewhere(node, binding, steps, function)

    def _handed_optimizer_steps(self, function: cst.FunctionDef, site: CallSite, point: Point,
                                steps: list[Event]) -> list[Event]:
        """The steps of a plain function whose optimizer is its parameter, not rebound, with the modules the
        optimizer `site` hands it holds (`opt_d = Adam(D.parameters())` in the caller: {"D"}), spelled as the
        caller spells them and placed at the call: what the caller computed before it, it computed before them."""
        found = []
        for step in steps:
            target = step.target
            if step.owners or type(target) is not cst.Name or self._other_branch(step.node) \
                    or all(param.name.value != target.value for param in function.params.params) \
                    or any(target.value in target_names(bound) for node in walk(function.body)
                           for bound in ([t.target for t in node.targets] if type(node) is cst.Assign
                                         else [node.target] if type(node) in (cst.AugAssign, cst.AnnAssign)
                                         else [])):
                continue
            optimizer = passed_argument(function, site.node, target.value)
            if optimizer is None:
                continue
            with self.ctx.at(point):
                owners = parameter_owners(self.ctx, optimizer)
            if owners:
                found.append(replace(step, owners=owners, seq=site.seq + 1))
        return found

    def _graph_handed_from_elsewhere(self, node: cst.Call, binding: Binding, steps: list[Event],
                                     function: cst.FunctionDef) -> None:
        """`_graph_handed_in` for the calls in the project's other modules (`train.py`'s `model.backward(gen_loss,
        dis_loss)` with `gen_loss` unpacked from `model.process(images, masks)`), read in their own context: the
        loss is followed there, and into what the project's functions and methods return, to a call of a module the
        step updates, spelled as the caller spells it (`model.discriminator` for the step's `self.discriminator`)."""
        ctx = self.ctx
        training = training_loop(ctx)
        if ctx.class_of_method(function) is not None:
            callers = imported_method_callers(ctx, function)
        else:
            callers = [caller for caller in project_callers(ctx, function) or () if caller.ctx is not ctx]
        for caller in callers:
            passed = passed_argument(function, caller.site.node, binding.name)
            if passed is None:
                continue
            for step in steps:
                if self._other_branch(step.node):
                    continue
                spelled = {spelling for owner in step.owners or ()
                           if (spelling := training.caller_spelling(owner, function, caller.site.node)) is not None}
                # a call of the updated module itself first (`self.discriminator(fake)`), then of one holding it
                # (`self(images)`, whose forward may run it): the message names what surely runs its weights
                matches: tuple[Callable[[str], bool], ...] = (
                    lambda module: any(module == owner or module.startswith(owner + ".") for owner in spelled),
                    lambda module: any(related(module, owner) for owner in spelled))
                with caller.ctx.at(caller.point):
                    stale = next((found for match in matches if (found := _module_call_in(
                        caller.ctx, passed, caller.site.seq + 1, 0, match)) is not None), None)
                    if stale is None:
                        continue
                    handed, through = caller.ctx.code(caller.site.node), caller.ctx.code(stale)
                self._report_handed(node, binding.name, handed, through, step)
                return

    def _report_handed(self, node: cst.Call, loss: str, handed: str, through: str, step: Event) -> None:
        self.report(node, f"`{loss}` is handed in by `{handed}` and goes through `{through}`, computed there before "
                          f"`{self.ctx.code(step.node)}` updated its weights in place: this backward pass needs the old "
                          "weights and raises \"modified by an inplace operation\"; run every backward pass before the "
                          "steps, or compute the loss after the step")

    def _helper_steps_before(self, site: CallSite) -> list[Event]:
        """The optimizer steps of the same-file helpers the function calls before `site`, with modules known, each
        at the helper's call (`seq`): a helper call under an `if` that `site` is not in may not run."""
        training = training_loop(self.ctx)
        found = []
        for other in training.calls_in(site.function):
            if other.order >= site.order:
                break
            if _conditional_apart(site.function, other.node, site.node):
                continue
            found += [replace(event, seq=other.seq) for event in training.helper_events(other.node)
                      if event.kind == "step" and event.owners and is_step_call(event.origin or event.node)]
        return found

    def _graph_from_before_loop(self, node: cst.Call, loss: str, binding: Binding, event: Event) -> None:
        """A backward pass in a loop that steps the optimizer, through a module output computed once before the
        loop: from the second iteration on it goes through weights the step changed (with `retain_graph=True`:
        PPO's epochs over log-probs computed once) or, without it, through the graph the first pass freed (an
        encoder's features computed once, then trained on)."""
        loop = event.loops[-1]
        if runs_at_most_once(loop):
            return  # no second iteration
        if loop not in binding.path and self._rebound_in(loop, loss):
            return  # `if step: loss.backward()` before `loss = criterion(fc(x), y)`: later passes get the new loss
        steps = [step for step in training_loop(self.ctx).in_loop(loop)
                 if step.kind == "step" and step.owners and is_step_call(step.node)]
        for step in steps:
            output = self._output_outside(binding, loop, step, 0)
            if output is None:
                continue
            stale = self.ctx.code(output)
            if _retains(node):
                self.report(node, f"`{loss}` goes through `{stale}`, computed once before this loop, and "
                                  f"`{self.ctx.code(step.node)}` in the loop updates its weights in place: from the "
                                  "second iteration this backward pass needs the old weights and raises \"modified by "
                                  "an inplace operation\"; compute the output again in each iteration")
            else:
                self.report(node, f"`{loss}` goes through `{stale}`, computed once before this loop: the first "
                                  "iteration's backward pass frees that graph, and the second raises \"Trying to "
                                  "backward through the graph a second time\"; compute the output again in each "
                                  "iteration (or `.detach()` it when its module should not learn from this loss)")
            return

    def _rebound_in(self, loop: cst.CSTNode, name: str) -> bool:
        """The loop's body assigns `name`: from the second iteration on, the value read is that one, not the one
        bound before the loop."""
        return any(type(node) is cst.Assign and any(name in target_names(target.target) for target in node.targets)
                   for node in self.ctx.walk(loop))

    def _output_outside(self, binding: Binding, loop: cst.CSTNode, step: Event, depth: int) -> cst.Call | None:
        """The output of a module the step updates that `binding`'s value is computed from, bound before `loop`
        (followed through names bound inside it, `depth` assignments deep)."""
        if binding.kind != "assign" or binding.value is None or depth > 4:
            return None
        if loop not in binding.path:
            return self._bound_output(binding, step)
        for part in _graph_parts(binding.value, passes=self._carrier(binding.seq)):
            if type(part) is cst.Name:
                bound = self.ctx.binding(part, binding.seq)
                found = self._output_outside(bound, loop, step, depth + 1) if bound is not None else None
                if found is not None:
                    return found
        return None

    def _other_branch(self, node: cst.CSTNode) -> bool:
        """`node` sits in the other branch of an `if` that the node being visited is in: they never run together
        (`if shared: ...; opt.step()` / `else: ...; value_loss.backward()`)."""
        ancestors = self.ctx.ancestors
        for index, ancestor in enumerate(ancestors[:-1]):
            if type(ancestor) is not cst.If:
                continue
            branch = ancestors[index + 1]
            others = [part for part in (ancestor.body, ancestor.orelse) if part is not None and part is not branch]
            if any(inner is node for other in others for inner in self.ctx.walk(other)):
                return True
        return False

    def _detached_from(self, binding: Binding, step: Event) -> bool:
        """The loss reaches the modules the step updates only through `.detach()` (`-(log_probs *
        advantage.detach())` with `advantage` from the critic): its graph never saw their weights."""
        if not step.owners or binding.value is None:
            return False
        return self._bound_output(binding, step, cut=False) is not None \
            and self._bound_output(binding, step) is None

    def _apart_from(self, binding: Binding, step: Event, event: Event, training: TrainingLoop) -> bool:
        """Between the step and this backward pass, another optimizer is reset, whose modules are known and none of
        the step's, and the loss is computed from no output of the step's modules that the names show: REINFORCE's
        `value_optimizer.zero_grad(); value_loss.backward()` after `policy_optimizer.step()`; the graph both losses
        share (`advantage = returns - values`) is the value network's, which the policy's step leaves alone."""
        if not step.owners or binding.value is None:
            return False
        resets = [between for between in training.in_function(event.function)
                  if step.order < between.order < event.order and between.kind == "reset"]
        if not resets or any(not reset.owners or any(related(mine, theirs) for mine in reset.owners
                                                      for theirs in step.owners) for reset in resets):
            return False
        return self._bound_output(binding, step, cut=False) is None

    def _bound_output(self, binding: Binding, step: Event, cut: bool = True, key: str | None = None
                      ) -> cst.Call | None:
        """`_output_before` for the value `binding` holds: the element it unpacks of a helper's result too
        (`loss_q, loss_pi = self.losses(batch)`), or the one a dict the helper returns holds under `key` (`out =
        self.compute_losses(batch)`, then `out["critic"]`)."""
        if binding.value is None or key is not None and binding.kind != "assign":
            return None
        index = key if key is not None else binding.index if binding.kind == "unpack" else None
        return self._output_before(binding.value, binding.seq, step, 0, cut, index)

    def _output_before(self, expr: cst.BaseExpression, seq: int, step: Event, depth: int, cut: bool = True,
                       index: int | str | None = None, made: int | None = None,
                       inside: tuple[tuple[cst.FunctionDef, cst.Call], ...] = ()) -> cst.Call | None:
        """A call of a module the step updates, in the graph of `expr` (bound at `seq`), made with autograd on
        before the step; followed through the names `expr` is computed from, up to `_NAMES_DEEP` assignments and
        helper returns deep (a policy loss handed to `update_actor(policy_loss)`, unpacked from what
        `compute_losses` returns, computed there from `advantages = returns - values`), and into
        the `return` of a same-file helper `expr` calls (element `index` of the tuple it returns, for a name that
        unpacks it). Inside helpers (`inside`, the calls that lead there, outermost first) a module is spelled as
        the caller spells it, and the call's binding (`made`) is what runs before the step. With `cut` False,
        through `.detach()` too: what `expr` is computed from, in the graph or not."""
        before_step = (seq if made is None else made) <= step.seq
        for part in _graph_parts(expr, cut, self._carrier(seq) if cut else None):
            if type(part) is cst.Call and not _module_method(part):
                if not before_step or self._grad_disabled_at(part):
                    continue
                module = self._caller_spelling(called_module(part), inside)
                if module is not None and any(runs_weights_of(self.ctx, part, module, owner, seq)
                                              for owner in step.owners or ()) \
                        and not self._class_method(part, seq):
                    return part
                if depth < _NAMES_DEEP:
                    found = self._returned_output(part, step, depth, cut, index if part is expr else None,
                                                  seq if made is None else made, inside)
                    if found is not None:
                        return found
            elif depth < _NAMES_DEEP:
                for value, at, element in _bound_values(self.ctx, self.ctx.binding(part, seq)):
                    found = self._output_before(value, at, step, depth + 1, cut, element, made, inside)
                    if found is not None:
                        return found
        return None

    def _class_method(self, call: cst.Call, seq: int) -> bool:
        """`model.graph_reconstruction()` is a method (not `forward`) of the instance's class of the file, or, where
        that class is not known, of every class of the file that defines it (and no class assigns it to `self`),
        whose body reads no layer or parameter: every attribute of `self` it reads, itself or through the methods it
        calls, the class assigns only plain values (`self.data = data`). SELFRec's SGL rebuilds a sparse adjacency
        from scipy each epoch; a method reading `self.embedding.weight` is a graph."""
        func = call.func
        if type(func) is not cst.Attribute or func.attr.value in ("forward", "__call__"):
            return False
        name = func.attr.value
        class_def = instance_class(self.ctx, func.value, seq)
        if class_def is not None:
            classes = [class_def]
        elif name in self.ctx.module_fact("self attributes", _self_attributes):
            return False
        else:
            classes = [owner for method, owner in self.ctx.module_fact("class methods", _methods) if method == name]
        return bool(classes) and all(_reads_plain_values_only(owner, name) for owner in classes)

    def _returned_output(self, call: cst.Call, step: Event, depth: int, cut: bool, index: int | str | None, made: int,
                         inside: tuple[tuple[cst.FunctionDef, cst.Call], ...]) -> cst.Call | None:
        """`_output_before` in what a same-file helper `call` runs returns (TD3's `loss_q, loss_pi =
        self.losses(*batch)`, whose `return` computes the actor's loss through the critic), or one of a project
        module this file imports (`_helper_output`)."""
        training = training_loop(self.ctx)
        definitions = training.definitions_of(call)
        if not definitions and not inside:
            found = _helper_output(self.ctx, call, lambda module: any(
                related(module, updated) for updated in step.owners or ()), index, 1)
            if found is not None:
                return found
        for definition in definitions:
            if any(definition is outer for outer, _ in inside):
                continue
            for node in self.ctx.walk(definition.body):
                if type(node) is not cst.Return or node.value is None:
                    continue
                value = _returned_part(node.value, index)
                if value is None:
                    continue
                point = self.ctx.point_within(node)
                if point is None:
                    continue
                with self.ctx.at(point):
                    found = self._output_before(value, point.seq, step, depth + 1, cut, None, made,
                                                (*inside, (definition, call)))
                if found is not None:
                    return found
        return None

    def _caller_spelling(self, module: str | None, inside: tuple[tuple[cst.FunctionDef, cst.Call], ...]
                         ) -> str | None:
        """How the function being visited spells a module a helper it calls (`inside`) spells `module`."""
        training = training_loop(self.ctx)
        for definition, call in reversed(inside):
            if module is None:
                return None
            module = training.caller_spelling(module, definition, call)
        return module

    def _grad_disabled_at(self, call: cst.Call) -> bool:
        name = last_name(call.func)
        return any(site.node is call and site.grad_disabled for site in self.ctx.calls_to(name)) if name else False

    def _shared_before(self, binding: Binding, retained: str | None, step: Event) -> str | None:
        """An output of a module the step updates that both losses are computed from (`d_real` in
        `d_loss = f(d_real)` and `g_loss = g(d_real)`, `d_real = discriminator(x)` before `optimizer_D.step()`):
        the retained graph runs through the old weights."""
        other = self.ctx.binding(retained) if retained is not None else None
        if binding.value is None or other is None or other.value is None or not step.owners:
            return None
        # Each output both graphs run through, by the call that made it: `pa, pb = model(x)` is one forward pass.
        mine = {id(bound.value) for bound in self._outputs(binding.value)}
        for bound in self._outputs(other.value):
            if id(bound.value) not in mine or bound.seq > step.seq:
                continue
            module = called_module(bound.value)  # type: ignore[arg-type]  # _outputs holds calls only
            if module is not None and any(runs_weights_of(self.ctx, bound.value, module, owner, bound.seq)
                                          for owner in step.owners):
                return bound.name
        return None

    def _outputs(self, expr: cst.BaseExpression) -> list[Binding]:
        """The bindings of the names in `expr`'s graph (not behind `.detach()`) that a call assigned or unpacked."""
        found = []
        for part in _graph_parts(expr, passes=self._carrier(None)):
            bound = self.ctx.binding(part) if type(part) is cst.Name else None
            if bound is not None and bound.kind in ("assign", "unpack") and type(bound.value) is cst.Call:
                found.append(bound)
        return found

    def _carrier(self, seq: int | None) -> Callable[[cst.Call], bool]:
        """`_carries` with the names read as bound before `seq` (None: as of the node being visited)."""
        return lambda call: self._carries(call, seq)

    def _carries(self, call: cst.Call, seq: int | None) -> bool:
        """What `call` returns is known to hold its arguments' graph: any call but a method of an object the analysis
        knows to be neither a module nor a tensor. A function (`criterion(out, y)`, `torch.cat`, `utils.loss(...)`),
        a method of `self`, of a same-file class, of a module or of a tensor (one of known shape, or a tensor method
        the shapes floor models: `a.mul(b)`) is; an image pool's `fake = fake_pool.query(fake)` is not known to be:
        pools hand back detached copies (`image.data`), or the argument itself when empty."""
        func = call.func
        if type(func) is not cst.Attribute or type(func.value) not in (cst.Name, cst.Attribute):
            return True
        receiver = func.value
        method = func.attr.value
        if type(receiver) is cst.Name and receiver.value in ("self", "cls") or method in TENSOR_METHODS \
                or method in TENSOR_TUPLE_METHODS or self.ctx.qualname(func) is not None \
                or training_loop(self.ctx).definitions_of(call):
            return True
        found = evaluator(self.ctx)
        return is_module(found.value(receiver, seq)) or found.tensor(receiver, seq if seq is not None else found.now())\
            is not None


# Calls whose result leaves the graph: what they are computed from is not backpropagated through. The factories
# that copy only a tensor's shape (`torch.ones_like(d_fake)`, `x.new_zeros(n)`) give a fresh tensor too.
# Calls whose result carries no graph of their arguments: detached values, and new tensors built from sizes
# (`torch.ones(ps)` with `ps = D(fake).shape`) or from another tensor's shape. `Variable(t)` of old code is a new
# leaf since torch 0.4 (no `grad_fn`, `requires_grad` only when asked): `Variable(returns - values)` detaches.
# `next(noise)` too: each call draws a new item, so two losses made of `next(...)` of one iterator share no graph
# through it (an iterator carries none).
_LEAVES_GRAPH = frozenset({"next", "detach", "detach_", "item", "tolist", "numpy", "ones_like", "zeros_like", "full_like",
                           "empty_like", "rand_like", "randn_like", "randint_like", "new_zeros", "new_ones",
                           "new_full", "new_empty", "new_tensor", "ones", "zeros", "full", "empty", "rand", "randn",
                           "randint", "arange", "eye", "size", "dim", "Variable"})
_NO_GRAPH_ATTRIBUTES = frozenset({"data", "shape", "dtype", "device", "ndim"})


def _graph_parts(expr: cst.BaseExpression, cut: bool = True, passes: Callable[[cst.Call], bool] | None = None
                 ) -> Iterator[cst.Call | cst.Name]:
    """The calls and names a tensor's graph runs through: not into `.detach()`, `.item()`, `.data`, sizes or new
    tensors (with `cut` False, into them too), nor into the arguments of a call `passes` does not know to carry
    them."""
    stack: list[cst.BaseExpression] = [expr]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is cst.Name:
            yield node  # type: ignore[misc]
        elif kind is cst.Call:
            func = node.func  # type: ignore[attr-defined]
            if cut and last_name(func) in _LEAVES_GRAPH:
                continue
            yield node  # type: ignore[misc]
            if type(func) is cst.Attribute:
                stack.append(func.value)
            if passes is None or passes(node):  # type: ignore[arg-type]
                stack.extend(arg.value for arg in node.args)  # type: ignore[attr-defined]
        elif kind is cst.Attribute:
            if not cut or node.attr.value not in _NO_GRAPH_ATTRIBUTES:  # type: ignore[attr-defined]
                stack.append(node.value)  # type: ignore[attr-defined]
        elif kind is cst.BinaryOperation:
            stack.extend((node.left, node.right))  # type: ignore[attr-defined]
        elif kind is cst.UnaryOperation:
            stack.append(node.expression)  # type: ignore[attr-defined]
        elif kind is cst.Subscript:
            stack.append(node.value)  # type: ignore[attr-defined]
        elif kind is cst.Tuple or kind is cst.List:
            stack.extend(element.value for element in node.elements)  # type: ignore[attr-defined]


# nn.Module methods that run no forward pass: `model.to(device)` is the module, not an output of it.
_MODULE_METHODS = frozenset({"to", "cuda", "cpu", "float", "half", "double", "bfloat16", "train", "eval",
                             "requires_grad_", "parameters", "named_parameters", "modules", "children",
                             "state_dict", "apply", "zero_grad", "type"})


def _returned_part(value: cst.BaseExpression, index: int | str | None) -> cst.BaseExpression | None:
    """What a `return value` gives for the key `index` of a dict it returns, or the element `index` of a tuple, or
    all of it for None; None where it holds no such part."""
    if type(index) is str:
        return _dict_value(value, index)
    if index is None:
        return value
    if type(value) is not cst.Tuple or index >= len(value.elements) \
            or any(type(element) is cst.StarredElement for element in value.elements):
        return None
    return value.elements[index].value


def _module_call_in(ctx: Context, expr: cst.BaseExpression, seq: int, depth: int, updated: Callable[[str], bool],
                    index: int | str | None = None, calls: int = 0) -> cst.Call | None:
    """A call in `expr`'s graph (read in `ctx`, names bound before `seq`) of a module `updated` accepts, made with
    autograd on; through local assignments (`loss += adv` too), four deep, and into what a function or method of
    the project returns (`_helper_output`; element `index` of it where `expr` is that call), `calls` helpers in of
    two."""
    for part in _graph_parts(expr, True, lambda call: _surely_carries(ctx, call)):
        if type(part) is cst.Call and not _module_method(part):
            module = called_module(part)
            name = last_name(part.func)
            if module is not None and updated(module) and not any(
                    site.node is part and site.grad_disabled for site in (ctx.calls_to(name) if name else ())):
                return part
            if calls < 2:
                found = _helper_output(ctx, part, updated, index if part is expr else None, calls + 1)
                if found is not None:
                    return found
        elif type(part) is cst.Name and depth < 4:
            for value, at, element in _bound_values(ctx, ctx.binding(part, seq)):
                found = _module_call_in(ctx, value, at, depth + 1, updated, element, calls)
                if found is not None:
                    return found
    return None


def _helper_output(ctx: Context, call: cst.Call, updated: Callable[[str], bool], index: int | str | None,
                   calls: int) -> cst.Call | None:
    """`_module_call_in` in what a function or method of this file or of a project module `ctx`'s file imports
    returns when `call` runs it (a GAN model's `process()` returning the generator's loss computed through
    `self.discriminator`), the module spelled as `call`'s caller spells it (`model.discriminator` for
    `model.process(...)`)."""
    training = training_loop(ctx)
    for definition in training.helpers_of(call):
        owner = training.owner_of(definition)
        other = owner.ctx
        for node in other.walk(definition.body):
            if type(node) is not cst.Return or node.value is None:
                continue
            value = _returned_part(node.value, index)
            point = other.point_within(node)
            if value is None or point is None:
                continue
            with other.at(point):
                found = _module_call_in(other, value, point.seq, 0, lambda module: (
                    spelled := owner.caller_spelling(module, definition, call)) is not None and updated(spelled),
                    calls=calls)
            if found is not None:
                return found
    return None


def _bound_values(ctx: Context, bound: Binding | None) -> list[tuple[cst.BaseExpression, int, int | None]]:
    """What a name's binding computes it from, each with the point its names are read as of and the element of it
    the name takes (an unpacking's index): the value of an assignment or an unpacking; for `loss += adv`, `adv`
    and the name as bound before (a loss summed term by term)."""
    if bound is None:
        return []
    if bound.kind in ("assign", "unpack") and bound.value is not None:
        return [(bound.value, bound.seq, bound.index if bound.kind == "unpack" else None)]
    if bound.kind == "aug" and type(bound.statement) is cst.AugAssign:
        return [(bound.statement.value, bound.seq, None), *_bound_values(ctx, ctx.binding(bound.name, bound.seq))]
    return []


def _surely_carries(ctx: Context, call: cst.Call) -> bool:
    """What `call` returns holds its arguments' graph: a function, a torch call, a tensor method or a method of
    `self`."""
    func = call.func
    if type(func) is not cst.Attribute:
        return True
    receiver = func.value
    return type(receiver) is cst.Name and receiver.value == "self" or func.attr.value in TENSOR_METHODS \
        or func.attr.value in TENSOR_TUPLE_METHODS or ctx.qualname(func) is not None


def _conditional_apart(function: cst.FunctionDef | None, earlier: cst.CSTNode, later: cst.CSTNode) -> bool:
    """`earlier` sits under an `if` of `function` that `later` is not in: it may not have run before `later`."""
    if function is None:
        return True
    path = _path_to(function.body, earlier)
    return path is None or any(type(node) is cst.If and not any(inner is later for inner in walk(node))
                               for node in path)


def _path_to(root: cst.CSTNode, target: cst.CSTNode) -> list[cst.CSTNode] | None:
    """The nodes from `root` down to `target`, `target` left out; None when it is not under `root`."""
    if root is target:
        return []
    for child in root.children:
        found = _path_to(child, target)
        if found is not None:
            return [root, *found]
    return None


def _module_method(call: cst.Call) -> bool:
    return type(call.func) is cst.Attribute and call.func.attr.value in _MODULE_METHODS


def _retains(call: cst.CSTNode) -> bool:
    arg = keyword_arg(call, "retain_graph")  # type: ignore[arg-type]
    return arg is not None and type(arg.value) is cst.Name and arg.value.value == "True"


def _loss_name(call: cst.CSTNode) -> str | None:
    """`loss` for `loss.backward()` and `scaler.scale(loss).backward()`; `out` for `out["critic"].backward()`."""
    receiver = _loss(call)
    if _loss_key(call) is not None:
        receiver = receiver.value  # type: ignore[attr-defined]
    return receiver.value if type(receiver) is cst.Name else None


def _dict_value(expr: cst.BaseExpression, key: str) -> cst.BaseExpression | None:
    """The value a dict display `expr` holds under the literal `key`."""
    if type(expr) is not cst.Dict:
        return None
    for element in expr.elements:
        if type(element) is cst.DictElement and type(element.key) is cst.SimpleString \
                and element.key.evaluated_value == key:
            return element.value
    return None


def _loss_key(call: cst.CSTNode) -> str | None:
    """`"critic"` for `out["critic"].backward()`: a loss a dict of losses holds under a literal key."""
    receiver = _loss(call)
    if type(receiver) is not cst.Subscript or type(receiver.value) is not cst.Name or len(receiver.slice) != 1:
        return None
    index = receiver.slice[0].slice
    key = index.value if type(index) is cst.Index else None
    return key.evaluated_value if type(key) is cst.SimpleString else None  # type: ignore[return-value]


def _loss(call: cst.CSTNode) -> cst.BaseExpression:
    receiver = call.func.value  # type: ignore[attr-defined]
    if type(receiver) is cst.Call and receiver.args:
        receiver = receiver.args[0].value
    return receiver


def _methods(statement: cst.CSTNode) -> frozenset[tuple[str, cst.ClassDef]]:
    """The methods a class statement defines, by name, with the class."""
    if type(statement) is not cst.ClassDef:
        return frozenset()
    return frozenset((inner.name.value, statement) for inner in statement.body.body if type(inner) is cst.FunctionDef)


def _self_attributes(statement: cst.CSTNode) -> frozenset[str]:
    """The attributes a class statement's methods assign to `self` (`self.encoder = ...`)."""
    if type(statement) is not cst.ClassDef:
        return frozenset()
    return frozenset(target.target.attr.value for node in walk(statement) if type(node) is cst.Assign
                     for target in node.targets if type(target.target) is cst.Attribute
                     and type(target.target.value) is cst.Name and target.target.value.value == "self")


def _reads_plain_values_only(class_def: cst.ClassDef, method: str, depth: int = 3) -> bool:
    """The class's `method` reads only attributes of `self` that the class assigns names or literals, and calls
    only such methods of its own (`depth` deep): nothing it computes goes through a layer or a parameter."""
    definitions = {inner.name.value: inner for inner in class_def.body.body if type(inner) is cst.FunctionDef}
    plain: dict[str, bool] = {}
    for node in walk(class_def):
        if type(node) is cst.Assign:
            for target in node.targets:
                if type(target.target) is cst.Attribute and type(target.target.value) is cst.Name \
                        and target.target.value.value == "self":
                    attribute = target.target.attr.value
                    plain[attribute] = plain.get(attribute, True) and type(node.value) in (
                        cst.Name, cst.Integer, cst.Float, cst.SimpleString)
    pending, seen = [(method, depth)], set()
    while pending:
        name, left = pending.pop()
        definition = definitions.get(name)
        if definition is None or left <= 0 or name in ("forward", "__call__"):
            return False
        seen.add(name)
        for node in walk(definition.body):
            if type(node) is not cst.Attribute or type(node.value) is not cst.Name or node.value.value != "self":
                continue
            attribute = node.attr.value
            if attribute in definitions:
                if attribute not in seen:
                    pending.append((attribute, left - 1))
            elif not plain.get(attribute, False):
                return False
    return True
