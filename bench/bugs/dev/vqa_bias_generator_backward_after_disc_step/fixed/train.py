import logging

import torch

from models import AnswerDiscriminator, BaseVQA, BiasGenerator
from trainer import GenBTrainer


def synthetic_vqa(n, n_obj=10, v_dim=16, q_dim=12, n_answers=8):
    v = torch.randn(n, n_obj, v_dim)
    q = torch.randn(n, q_dim)
    a = torch.zeros(n, n_answers)
    a[torch.arange(n), torch.randint(0, n_answers, (n,))] = 1.0
    return v, q, a


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    v, q, a = synthetic_vqa(48)
    trainer = GenBTrainer(BaseVQA(), BiasGenerator(), AnswerDiscriminator())
    for epoch in range(2):
        for i in range(0, len(v), 16):
            loss, g, d = trainer.train_step(v[i:i + 16], q[i:i + 16], a[i:i + 16])
        logging.info("epoch %d vqa %.3f gen %.3f dis %.3f", epoch, loss, g, d)


if __name__ == "__main__":
    main()
