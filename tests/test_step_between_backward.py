"""SC209 reads a loss that a same-file helper returns through the helper's `return`, the element a name unpacks."""

from __future__ import annotations

import textwrap

from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
from tests.helpers import project_rows

AGENT = """
    import torch
    class Agent:
        def __init__(self, actor, critic):
            self.actor, self.critic = actor, critic
            self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
            self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)
        def losses(self, obs, act, target):
            loss_q = ((self.critic(obs, act) - target) ** 2).mean()
            loss_pi = -self.critic(obs, self.actor(obs)).mean()
            return loss_q, loss_pi
"""


def rows(update: str) -> list[int]:
    source = textwrap.dedent(AGENT) + textwrap.indent(textwrap.dedent(update), " " * 4)
    return [finding.location.row for finding in lint_text(source, "agent.py", resolve(["SC209"])).findings]


def test_a_loss_a_helper_returned_before_the_step_of_a_module_it_goes_through() -> None:
    assert rows("""
        def update(self, batch):
            loss_q, loss_pi = self.losses(*batch)
            self.critic_opt.zero_grad()
            loss_q.backward()
            self.critic_opt.step()
            self.actor_opt.zero_grad()
            loss_pi.backward()
            self.actor_opt.step()
    """) == [19]


def test_the_element_unpacked_decides_and_a_helper_called_after_the_step_is_fresh() -> None:
    # the critic's loss goes through no actor: the actor's step leaves its graph alone
    assert rows("""
        def update(self, batch):
            loss_q, loss_pi = self.losses(*batch)
            self.actor_opt.zero_grad()
            loss_pi.backward()
            self.actor_opt.step()
            self.critic_opt.zero_grad()
            loss_q.backward()
            self.critic_opt.step()
    """) == []
    assert rows("""
        def update(self, batch):
            loss_q, _ = self.losses(*batch)
            self.critic_opt.zero_grad()
            loss_q.backward()
            self.critic_opt.step()
            _, loss_pi = self.losses(*batch)
            self.actor_opt.zero_grad()
            loss_pi.backward()
            self.actor_opt.step()
    """) == []


def messages(source: str) -> list[str]:
    return [finding.message for finding in lint_text(textwrap.dedent(source), "a2c.py", resolve(["SC209"])).findings]


def test_the_message_names_the_error_torch_raises() -> None:
    """Two critic calls: the step's in-place update is what the second pass trips on. One critic call that the
    first pass went through without `retain_graph`: the freed graph is (torch checks it first)."""
    separate, = messages(textwrap.dedent(AGENT) + textwrap.indent(textwrap.dedent("""
        def update(self, batch):
            loss_q, loss_pi = self.losses(*batch)
            loss_q.backward()
            self.critic_opt.step()
            loss_pi.backward()
    """), " " * 4))
    assert "modified by an inplace operation" in separate and "second time" not in separate
    shared, = messages("""
        import torch
        import torch.nn as nn
        critic = nn.Linear(8, 1)
        critic_opt = torch.optim.SGD(critic.parameters(), lr=0.1)
        obs, returns = torch.randn(4, 8), torch.randn(4, 1)
        values = critic(obs)
        value_loss = ((values - returns) ** 2).mean()
        spread_loss = (returns - values).abs().mean()
        value_loss.backward()
        critic_opt.step()
        spread_loss.backward()
    """)
    assert "Trying to backward through the graph a second time" in shared and "value_loss.backward()" in shared


def test_a_loss_a_dict_holds_is_read_through_the_key_the_backward_pass_names() -> None:
    agent = AGENT.replace("return loss_q, loss_pi", 'return {"q": loss_q, "pi": loss_pi}')
    update = """
        def update(self, batch):
            out = self.losses(*batch)
            out["q"].backward()
            self.critic_opt.step()
            out[KEY].backward()
    """
    source = textwrap.dedent(agent) + textwrap.indent(textwrap.dedent(update), " " * 4)
    found = messages(source.replace("KEY", '"pi"'))
    assert len(found) == 1 and found[0].startswith('`out["pi"]` goes through `self.critic(obs, self.actor(obs))`')
    # the critic's own loss again: through the graph the first pass freed
    again, = messages(source.replace("KEY", '"q"'))
    assert "second time" in again


INPAINTER = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Inpainter(nn.Module):
        def __init__(self):
            super().__init__()
            self.gen = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, 3, 3, padding=1))
            self.disc = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.LeakyReLU(0.2), nn.Conv2d(8, 1, 4))

        def compute_losses(self, masked, mask, target):
            filled = self.gen(torch.cat([masked, mask], 1))
            realism = self.disc(filled)
            gen_loss = F.l1_loss(filled, target) + 0.01 * F.softplus(-realism).mean()
            disc_loss = F.softplus(-self.disc(target)).mean() + F.softplus(self.disc(filled.detach())).mean()
            return gen_loss, disc_loss
"""

# The training script of the same project, with the two updates in the order `%s` gives.
INPAINT_TRAIN = """
    import torch

    from nets.inpainter import Inpainter


    def main(batches):
        net = Inpainter()
        opt_gen = torch.optim.Adam(net.gen.parameters(), lr=2e-4)
        opt_disc = torch.optim.Adam(net.disc.parameters(), lr=2e-4)
        for masked, mask, target in batches:
            gen_loss, disc_loss = net.compute_losses(masked, mask, target)
%s
"""
DISC_FIRST = """
            opt_disc.zero_grad()
            disc_loss.backward()
            opt_disc.step()
            opt_gen.zero_grad()
            gen_loss.backward()
            opt_gen.step()"""
GEN_FIRST = """
            opt_gen.zero_grad()
            gen_loss.backward()
            opt_gen.step()
            opt_disc.zero_grad()
            disc_loss.backward()
            opt_disc.step()"""


def inpaint_rows(folder, updates: str) -> list[int]:
    from shapecheck.objects.project import PROJECT

    for name, text in {"setup.py": "", "nets/__init__.py": "", "nets/inpainter.py": INPAINTER,
                       "train.py": INPAINT_TRAIN % textwrap.indent(textwrap.dedent(updates), " " * 8)}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
    PROJECT.forget()
    path = folder / "train.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC209"])).findings]


def test_a_loss_a_method_of_another_module_computes_through_the_critic_stepped_before(tmp_path) -> None:
    assert inpaint_rows(tmp_path, DISC_FIRST) == [18]


def test_the_generator_updated_first_is_clean(tmp_path) -> None:
    assert inpaint_rows(tmp_path, GEN_FIRST) == []


# A GAN vocoder whose module computes both losses (the generator's summed term by term) and whose `update` method,
# called from the project's training script, runs the two backward passes in the order `%s` gives.
VOCODER = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Vocoder(nn.Module):
        def __init__(self):
            super().__init__()
            self.generator = nn.Sequential(nn.Conv1d(80, 64, 7, padding=3), nn.Tanh(), nn.Conv1d(64, 1, 7, padding=3))
            self.period_disc = nn.Sequential(nn.Conv1d(1, 16, 5, 3), nn.LeakyReLU(0.1), nn.Conv1d(16, 1, 3))
            self.opt_g = torch.optim.AdamW(self.generator.parameters(), lr=2e-4)
            self.opt_d = torch.optim.AdamW(self.period_disc.parameters(), lr=2e-4)

        def losses(self, mel, wav):
            audio = self.generator(mel)
            score_real = self.period_disc(wav)
            score_fake = self.period_disc(audio.detach())
            d_total = F.mse_loss(score_real, torch.ones_like(score_real)) + (score_fake ** 2).mean()
            g_total = 45 * F.l1_loss(audio, wav)
            %s
            return audio, g_total, d_total

        def update(self, g_total, d_total):
%s
"""
VOCODER_TRAIN = """
    from vocoder.model import Vocoder


    def fit(pairs):
        vocoder = Vocoder()
        for mel, wav in pairs:
            audio, g_total, d_total = vocoder.losses(mel, wav)
            vocoder.update(g_total, d_total)
"""
ADVERSARIAL = "g_total += ((self.period_disc(audio) - 1) ** 2).mean()"
D_FIRST = """
            self.opt_d.zero_grad()
            d_total.backward()
            self.opt_d.step()
            self.opt_g.zero_grad()
            g_total.backward()
            self.opt_g.step()"""


def vocoder_rows(folder, adversarial: str, updates: str) -> list[int]:
    from shapecheck.objects.project import PROJECT

    model = textwrap.dedent(VOCODER % (adversarial, textwrap.indent(textwrap.dedent(updates).strip("\n"), " " * 12)))
    for name, text in {"setup.py": "", "vocoder/__init__.py": "", "vocoder/model.py": model,
                       "train.py": textwrap.dedent(VOCODER_TRAIN)}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    PROJECT.forget()
    path = folder / "vocoder/model.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC209"])).findings]


def test_a_loss_handed_in_by_a_script_of_another_module_through_the_discriminator_stepped_before(tmp_path) -> None:
    # the generator's loss is summed term by term in `losses()`, one term through the period discriminator
    assert vocoder_rows(tmp_path, ADVERSARIAL, D_FIRST) == [29]


def test_a_loss_handed_in_from_another_module_is_clean_stepped_last_or_without_the_discriminator(tmp_path) -> None:
    generator_first = D_FIRST.replace("opt_d", "OPT").replace("d_total", "D_TOTAL").replace("opt_g", "opt_d") \
        .replace("g_total", "d_total").replace("OPT", "opt_g").replace("D_TOTAL", "g_total")
    assert vocoder_rows(tmp_path, ADVERSARIAL, generator_first) == []
    # a generator trained on the reconstruction alone: its graph never saw the discriminator's weights
    assert vocoder_rows(tmp_path, "g_total += 0.1 * F.l1_loss(audio.abs(), wav.abs())", D_FIRST) == []


# A colorization GAN that registers its networks with `add_module` and builds the optimizers on the local names,
# driven by a runner of another module that keeps it moved to the device (`Colorizer().to(device)`).
COLORIZER = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F


    class Colorizer(nn.Module):
        def __init__(self):
            super().__init__()
            net_g = nn.Conv2d(1, 3, 3, padding=1)
            net_d = nn.Sequential(nn.Conv2d(3, 8, 4, 2, 1), nn.Flatten(), nn.LazyLinear(1))
            self.add_module("net_g", net_g)
            self.add_module("net_d", net_d)
            self.opt_g = torch.optim.Adam(net_g.parameters(), lr=1e-4)
            self.opt_d = torch.optim.Adam(net_d.parameters(), lr=4e-4)

        def step_losses(self, sketch, photo):
            colored = self.net_g(sketch)
            d_loss = F.softplus(self.net_d(colored.detach())).mean() + F.softplus(-self.net_d(photo)).mean()
            g_loss = F.softplus(-self.net_d(colored)).mean() + F.l1_loss(colored, photo)
            return d_loss, g_loss

        def optimize(self, d_loss, g_loss):
            self.opt_d.zero_grad()
            self.opt_g.zero_grad()
            d_loss.backward()
            %s
            g_loss.backward()
            %s
"""
RUNNER = """
    from colorize.net import Colorizer


    class Runner:
        def __init__(self, device):
            self.net = Colorizer().to(device)

        def epoch(self, pairs):
            for sketch, photo in pairs:
                d_loss, g_loss = self.net.step_losses(sketch, photo)
                self.net.optimize(d_loss, g_loss)
"""


def colorizer_rows(folder, between: str, after: str) -> list[int]:
    from shapecheck.objects.project import PROJECT

    for name, text in {"setup.py": "", "colorize/__init__.py": "", "colorize/net.py": COLORIZER % (between, after),
                       "colorize/runner.py": RUNNER}.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(textwrap.dedent(text))
    PROJECT.forget()
    path = folder / "colorize/net.py"
    return [finding.location.row for finding in lint_text(path.read_text(), str(path), resolve(["SC209"])).findings]


def test_a_module_registered_by_name_is_what_its_optimizer_steps_for_a_caller_holding_the_moved_model(tmp_path) -> None:
    # `self.add_module("net_d", net_d)` makes `net_d`'s optimizer the one of `self.net_d`; `Colorizer().to(device)`
    # is the Colorizer the runner's `self.net.optimize(...)` calls
    assert colorizer_rows(tmp_path, "self.opt_d.step()", "self.opt_g.step()") == [28]
    # both backward passes before both steps
    assert colorizer_rows(tmp_path, "pass", "self.opt_d.step(); self.opt_g.step()") == []


GAN = """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    class Discriminator(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(16, 32), nn.LeakyReLU(0.2))
            self.head = nn.Linear(32, 1)
        def forward(self, x):
            feats = self.body(x)
            return self.head(feats), feats
    class Pix2PixTrainer:
        def __init__(self, netG, netD):
            self.netG, self.netD = netG, netD
            self.optimizer_G = torch.optim.Adam(netG.parameters(), lr=2e-4)
"""


def gan_rows(body: str) -> list[int]:
    source = textwrap.dedent(GAN) + textwrap.indent(textwrap.dedent(body), " " * 4)
    return [finding.location.row for finding in lint_text(source, "gan.py", resolve(["SC209"])).findings]


def test_a_second_backward_pass_through_a_module_s_output_the_first_freed() -> None:
    # a feature-matching loss on the discriminator pass whose adversarial loss was backpropagated: both go through
    # the generator's output, handed to the function as a parameter module
    assert gan_rows("""
    def train_generator(generator, discriminator, opt_g, noise, real):
        fake = generator(noise)
        fake_logit, fake_feats = discriminator(fake)
        _, real_feats = discriminator(real)
        opt_g.zero_grad()
        adv_loss = F.softplus(-fake_logit).mean()
        adv_loss.backward()
        fm_loss = F.l1_loss(fake_feats, real_feats.detach())
        fm_loss.backward()
        opt_g.step()
    """) == [26]
    # a trainer's generator (whose parameters its optimizer holds), through the conditional discriminator
    assert gan_rows("""
        def optimize_generator(self, real_a, real_b):
            fake_b = self.netG(real_a)
            pred_fake = self.netD(torch.cat([real_a, fake_b], 1))
            self.optimizer_G.zero_grad()
            loss_gan = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
            loss_gan.backward()
            loss_l1 = F.l1_loss(fake_b, real_b) * 100.0
            loss_l1.backward()
            self.optimizer_G.step()
    """) == [25]


def test_one_summed_pass_a_retained_graph_a_fresh_pass_or_separate_heads_are_clean() -> None:
    first = """
        def optimize_generator(self, real_a, real_b):
            fake_b = self.netG(real_a)
            pred_fake = self.netD(torch.cat([real_a, fake_b], 1))
            self.optimizer_G.zero_grad()
            loss_gan = F.binary_cross_entropy_with_logits(pred_fake, torch.ones_like(pred_fake))
            %s
            self.optimizer_G.step()
    """
    second = "\n            loss_l1 = F.l1_loss(%s, real_b)\n            loss_l1.backward()"
    assert gan_rows(first % ("loss_gan.backward()" + second % "fake_b")) == [25]
    assert gan_rows(first % ("loss_gan.backward(retain_graph=True)" + second % "fake_b")) == []
    assert gan_rows(first % "(loss_gan + F.l1_loss(fake_b, real_b)).backward()") == []
    assert gan_rows(first % ("loss_gan.backward()\n            fake_b = self.netG(real_a)" + second % "fake_b")) == []
    assert gan_rows(first % ("loss_gan.backward()" + second % "fake_b.detach()")) == []
    # two heads of one pass, read out of the dict it returns: the first pass frees only its head's graph
    assert gan_rows("""
        def update(self, batch):
            prediction = self.netG(batch)
            policy_loss = -prediction["log_pi"].mean()
            value_loss = prediction["v"].pow(2).mean()
            self.optimizer_G.zero_grad()
            policy_loss.backward()
            value_loss.backward()
            self.optimizer_G.step()
    """) == []


# An A2C agent whose networks come from another module: one method computes both losses through a shared advantage
# (`advantages = returns - values`, two names deep), and the critic's and the actor's updates are methods handed
# their loss; `%s` is how the policy's loss reads the advantage.
A2C_NETS = """
    import torch
    from torch import nn

    class Actor(nn.Module):
        def __init__(self, obs_dim, n_actions):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, n_actions))

        def forward(self, obs):
            return torch.distributions.Categorical(logits=self.body(obs))

    class Critic(nn.Module):
        def __init__(self, obs_dim):
            super().__init__()
            self.body = nn.Sequential(nn.Linear(obs_dim, 64), nn.Tanh(), nn.Linear(64, 1))

        def forward(self, obs):
            return self.body(obs).squeeze(-1)
    """

A2C_AGENT = """
    import torch

    from .nets import Actor, Critic

    class A2CAgent:
        def __init__(self, cfg):
            self.actor = Actor(cfg["obs_dim"], cfg["n_actions"])
            self.critic = Critic(cfg["obs_dim"])
            self.actor_optim = torch.optim.Adam(self.actor.parameters(), lr=cfg["actor_lr"])
            self.critic_optim = torch.optim.Adam(self.critic.parameters(), lr=cfg["critic_lr"])

        def compute_losses(self, obs, actions, returns):
            dist = self.actor(obs)
            values = self.critic(obs)
            advantages = returns - values
            policy_loss = -(dist.log_prob(actions) * %s).mean()
            value_loss = advantages.pow(2).mean()
            return policy_loss, value_loss

        def update_critic(self, value_loss):
            self.critic_optim.zero_grad()
            value_loss.backward(retain_graph=True)
            self.critic_optim.step()

        def update_actor(self, policy_loss):
            self.actor_optim.zero_grad()
            policy_loss.backward()
            self.actor_optim.step()

        def learn(self, batch):
            policy_loss, value_loss = self.compute_losses(batch["obs"], batch["actions"], batch["returns"])
            self.update_critic(value_loss)
            self.update_actor(policy_loss)
    """


def a2c_rows(folder, advantage: str) -> list[int]:
    files = {"rl/__init__.py": "", "rl/nets.py": A2C_NETS, "rl/agent.py": A2C_AGENT % advantage}
    return project_rows(folder, "rl/agent.py", files, "SC209")


def test_a_policy_loss_handed_to_its_update_reaches_the_stepped_critic_through_names_of_a_helper(tmp_path) -> None:
    assert a2c_rows(tmp_path, "advantages") == [28]


def test_the_advantage_detached_in_the_policy_loss_is_clean(tmp_path) -> None:
    assert a2c_rows(tmp_path, "advantages.detach()") == []


# A DDPG agent whose updates run through one helper handed the optimizer and the loss (`self._optimize(opt, loss)`):
# `BODY` is the order of the actor's loss and the critic's update.
OPTIMIZE_HELPER = """
    import torch
    import torch.nn.functional as F

    class DDPGAgent:
        def __init__(self, actor, critic, gamma=0.99):
            self.actor, self.critic, self.gamma = actor, critic, gamma
            self.actor_opt = torch.optim.Adam(self.actor.parameters(), lr=1e-3)
            self.critic_opt = torch.optim.Adam(self.critic.parameters(), lr=1e-3)

        @staticmethod
        def _optimize(optimizer, loss, retain_graph=False):
            optimizer.zero_grad()
            loss.backward(retain_graph=retain_graph)
            optimizer.step()

        def update(self, obs, act, target):
            critic_loss = F.mse_loss(self.critic(obs, act), target)
            BODY
            return critic_loss.item(), actor_loss.item()
    """

_ACTOR_LOSS = "        actor_loss = -self.critic(obs, self.actor(obs)).mean()\n"
_CRITIC_STEP = "        self._optimize(self.critic_opt, critic_loss, retain_graph=True)\n"
_ACTOR_STEP = "        self._optimize(self.actor_opt, actor_loss)\n"


def _optimize_rows(body: str) -> list[int]:
    source = textwrap.dedent(OPTIMIZE_HELPER).replace("        BODY\n", body)
    return [finding.location.row for finding in lint_text(source, "agent.py", resolve(["SC209"])).findings]


def test_a_loss_computed_before_the_critic_s_step_that_one_helper_runs_for_both_updates() -> None:
    assert _optimize_rows(_ACTOR_LOSS + _CRITIC_STEP + _ACTOR_STEP) == [14]


def test_the_actor_s_loss_computed_after_the_critic_s_step_or_stepped_first_is_clean() -> None:
    assert _optimize_rows(_CRITIC_STEP + _ACTOR_LOSS + _ACTOR_STEP) == []
    assert _optimize_rows(_ACTOR_LOSS + _ACTOR_STEP + _CRITIC_STEP) == []


def test_losses_a_plain_update_helper_steps_in_turn_that_share_no_stepped_module_are_clean() -> None:
    # sac-discrete's `update_params(optim, loss)`: each critic's loss goes through its own head, the policy's through
    # the critics under `no_grad`
    source = textwrap.dedent("""
        import torch
        from torch.optim import Adam

        def update_params(optim, loss, retain_graph=False):
            optim.zero_grad()
            loss.backward(retain_graph=retain_graph)
            optim.step()

        class Agent:
            def __init__(self, critic, policy):
                self.critic, self.policy = critic, policy
                self.policy_optim = Adam(self.policy.parameters(), lr=1e-3)
                self.q1_optim = Adam(self.critic.q1.parameters(), lr=1e-3)
                self.q2_optim = Adam(self.critic.q2.parameters(), lr=1e-3)

            def learn(self, states, actions, target):
                q1, q2 = self.critic(states)
                q1_loss = ((q1.gather(1, actions) - target) ** 2).mean()
                q2_loss = ((q2.gather(1, actions) - target) ** 2).mean()
                probs = self.policy(states)
                with torch.no_grad():
                    n1, n2 = self.critic(states)
                policy_loss = -(torch.min(n1, n2) * probs).sum(1).mean()
                update_params(self.q1_optim, q1_loss)
                update_params(self.q2_optim, q2_loss)
                update_params(self.policy_optim, policy_loss)
        """)
    assert lint_text(source, "agent.py", resolve(["SC209"])).findings == []
