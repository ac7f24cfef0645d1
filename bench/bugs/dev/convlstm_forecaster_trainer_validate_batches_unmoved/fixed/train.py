import logging

import torch

from core.convlstm import Seq2SeqConvLSTM
from core.trainer import Trainer
from data import get_dataloaders


def main():
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(42)
    train_loader, valid_loader = get_dataloaders(batch_size=4)
    model = Seq2SeqConvLSTM(channels=1, hidden=8, out_len=3)
    trainer = Trainer(model, train_loader, valid_loader, epochs=2)
    history = trainer.run()
    logging.info("best valid loss %.4f", min(history["valid"]))


if __name__ == "__main__":
    main()
