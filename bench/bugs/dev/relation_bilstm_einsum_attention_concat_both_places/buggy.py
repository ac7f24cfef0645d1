"""Relation classification: BiLSTM over the sentence, attention pooled by the final state, sizes from argparse."""
import argparse
import logging

import torch
import torch.nn as nn
import torch.nn.functional as F

log = logging.getLogger("relation")


class BiLSTMAttention(nn.Module):
    def __init__(self, vocab_size, emb_dim, n_hidden, n_relations, num_layers=1):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_dim)
        self.lstm = nn.LSTM(emb_dim, n_hidden, num_layers=num_layers, bidirectional=True, batch_first=True)
        self.out = nn.Linear(n_hidden * 2, n_relations)

    def attention_net(self, lstm_output, final_state):
        # lstm_output: [batch, len_seq, n_hidden * num_directions(=2)]
        # final_state: [num_layers * num_directions, batch, n_hidden] -> last layer, both directions
        hidden = torch.cat((final_state[-2], final_state[-1]), dim=1)
        attn_weights = torch.einsum("bsh,bh->bs", lstm_output, hidden)
        soft_attn_weights = F.softmax(attn_weights, dim=1)
        context = torch.einsum("bsh,bs->bh", lstm_output, soft_attn_weights)
        return context, soft_attn_weights

    def forward(self, tokens):
        emb = self.embedding(tokens)
        output, (final_hidden_state, _) = self.lstm(emb)
        attn_output, attention = self.attention_net(output, final_hidden_state)
        return self.out(attn_output), attention


def parse():
    p = argparse.ArgumentParser()
    p.add_argument("--vocab", type=int, default=50)
    p.add_argument("--emb", type=int, default=16)
    p.add_argument("--hidden", type=int, default=12)
    p.add_argument("--layers", type=int, default=2)
    p.add_argument("--relations", type=int, default=4)
    p.add_argument("--steps", type=int, default=5)
    return p.parse_args()


def main():
    args = parse()
    logging.basicConfig(level=logging.INFO)
    torch.manual_seed(0)
    model = BiLSTMAttention(args.vocab, args.emb, args.hidden, args.relations, num_layers=args.layers)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    sentences = torch.randint(0, args.vocab, (16, 9))
    relations = torch.randint(0, args.relations, (16,))
    for step in range(args.steps):
        logits, attention = model(sentences)
        loss = F.cross_entropy(logits, relations)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.info("step %d loss %.4f", step, loss.item())
    log.info("attention of the first sentence: %s", attention[0].detach().numpy().round(2))


if __name__ == "__main__":
    main()
