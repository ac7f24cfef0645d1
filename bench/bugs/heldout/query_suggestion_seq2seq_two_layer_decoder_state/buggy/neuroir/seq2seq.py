import torch.nn as nn
import torch.nn.functional as F

from .decoders import RNNDecoder
from .encoders import RNNEncoder


class Seq2seq(nn.Module):
    """Query suggestion: encode the previous query of the session, generate the next one."""

    def __init__(self, vocab_size, args):
        super().__init__()
        self.embedder = nn.Embedding(vocab_size, args["emsize"], padding_idx=0)
        self.emb_drop = nn.Dropout(args["dropout_emb"])
        self.encoder = RNNEncoder(args["emsize"], args["nhid"], args["bidirection"], args["nlayers"],
                                  args["dropout_rnn"])
        self.decoder = RNNDecoder(args["emsize"], args["nhid"], args["nlayers"], args["dropout_rnn"])
        self.generator = nn.Linear(args["nhid"], vocab_size)

    def forward(self, source, target):
        _, encoder_final = self.encoder(self.emb_drop(self.embedder(source)))
        init_state = self.decoder.init_decoder(encoder_final)
        decoder_outputs, _ = self.decoder(self.emb_drop(self.embedder(target[:, :-1])), init_state)
        scores = self.generator(decoder_outputs)
        return F.cross_entropy(scores.reshape(-1, scores.size(-1)), target[:, 1:].reshape(-1), ignore_index=0)
