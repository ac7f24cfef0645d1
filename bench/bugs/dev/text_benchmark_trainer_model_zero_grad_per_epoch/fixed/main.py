import logging

import torch
from torch.utils.data import DataLoader, TensorDataset

import models
from opts import parse_opt
from trainer import ClassifierTrainer


def load_data(opt, n, seed):
    g = torch.Generator().manual_seed(seed)
    tokens = torch.randint(1, opt.vocab_size, (n, opt.max_seq_len), generator=g)
    labels = (tokens[:, :3].sum(1) % opt.label_size).long()
    return TensorDataset(tokens, labels)


def main():
    logging.basicConfig(level=logging.INFO)
    opt = parse_opt()
    torch.manual_seed(7)
    train_iter = DataLoader(load_data(opt, 128, seed=0), batch_size=opt.batch_size, shuffle=True)
    test_iter = DataLoader(load_data(opt, 48, seed=1), batch_size=opt.batch_size)
    model = models.setup(opt)
    trainer = ClassifierTrainer(model, opt)
    for epoch in range(opt.max_epoch):
        trainer.train_epoch(train_iter, epoch)
        logging.info("epoch %d test acc %.3f", epoch, trainer.evaluate(test_iter))


if __name__ == "__main__":
    main()
