import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class FeatureRichEncoder(nn.Module):
    """Word embeddings plus answer-position and POS features, through a bidirectional LSTM (time-major)."""

    def __init__(self, vocab, emb_dim, feat_vocab, feat_dim, hidden):
        super().__init__()
        self.word_lut = nn.Embedding(vocab, emb_dim, padding_idx=0)
        self.feat_lut = nn.Embedding(feat_vocab, feat_dim)
        self.rnn = nn.LSTM(emb_dim + feat_dim, hidden // 2, bidirectional=True)

    def forward(self, src, feats):
        emb = torch.cat([self.word_lut(src), self.feat_lut(feats)], dim=-1)
        outputs, (h, c) = self.rnn(emb)
        return outputs, (h, c)


class CopyGenerator(nn.Module):
    def __init__(self, hidden, vocab):
        super().__init__()
        self.linear = nn.Linear(hidden, vocab)
        self.linear_copy = nn.Linear(hidden, 1)

    def forward(self, hidden_flat):
        return F.log_softmax(self.linear(hidden_flat), dim=-1), torch.sigmoid(self.linear_copy(hidden_flat))


def encode_for_copy(encoder, generator, src, feats, hidden):
    outputs, _ = encoder(src, feats)
    batch_major = outputs.transpose(0, 1)
    flat = batch_major.reshape(-1, hidden)
    return generator(flat)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-rnn_size", type=int, default=32)
    parser.add_argument("-word_vec_size", type=int, default=24)
    parser.add_argument("-feat_vec_size", type=int, default=8)
    opt = parser.parse_args([])
    torch.manual_seed(0)
    encoder = FeatureRichEncoder(90, opt.word_vec_size, 10, opt.feat_vec_size, opt.rnn_size)
    generator = CopyGenerator(opt.rnn_size, 90)
    optimizer = torch.optim.Adam(list(encoder.parameters()) + list(generator.parameters()), lr=1e-3)
    src = torch.randint(1, 90, (11, 4))
    feats = torch.randint(0, 10, (11, 4))
    tgt = torch.randint(1, 90, (4 * 11,))
    for step in range(2):
        logp, p_copy = encode_for_copy(encoder, generator, src, feats, opt.rnn_size)
        loss = F.nll_loss(logp, tgt) + p_copy.mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
