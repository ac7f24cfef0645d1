"""Pre-training a tiny BERT with the masked-LM objective (pytorch-pretrained-BERT layout, one file)."""
import math
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class BertConfig:
    vocab_size: int = 120
    hidden_size: int = 32
    num_attention_heads: int = 4
    intermediate_size: int = 64
    num_hidden_layers: int = 2
    max_position_embeddings: int = 32
    hidden_dropout_prob: float = 0.1


class BertEmbeddings(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.word_embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.position_embeddings = nn.Embedding(config.max_position_embeddings, config.hidden_size)
        self.LayerNorm = nn.LayerNorm(config.hidden_size, eps=1e-12)
        self.dropout = nn.Dropout(config.hidden_dropout_prob)

    def forward(self, input_ids):
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        x = self.word_embeddings(input_ids) + self.position_embeddings(positions)
        return self.dropout(self.LayerNorm(x))


class BertLMPredictionHead(nn.Module):
    def __init__(self, config, embedding_weights):
        super().__init__()
        self.transform = nn.Sequential(nn.Linear(config.hidden_size, config.hidden_size), nn.GELU(),
                                       nn.LayerNorm(config.hidden_size, eps=1e-12))
        self.decoder = nn.Linear(config.hidden_size, config.vocab_size, bias=False)
        self.decoder.weight = embedding_weights
        self.bias = nn.Parameter(torch.zeros(config.vocab_size))

    def forward(self, hidden_states):
        return self.decoder(self.transform(hidden_states)) + self.bias


class BertForMaskedLM(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = BertEmbeddings(config)
        layer = nn.TransformerEncoderLayer(config.hidden_size, config.num_attention_heads,
                                           config.intermediate_size, config.hidden_dropout_prob,
                                           activation="gelu", batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, config.num_hidden_layers)
        self.cls = BertLMPredictionHead(config, self.embeddings.word_embeddings.weight)

    def forward(self, input_ids, attention_mask=None, masked_lm_labels=None):
        pad_mask = None if attention_mask is None else attention_mask.eq(0)
        sequence_output = self.encoder(self.embeddings(input_ids), src_key_padding_mask=pad_mask)
        prediction_scores = self.cls(sequence_output)
        if masked_lm_labels is not None:
            loss_fct = nn.CrossEntropyLoss(ignore_index=-1)
            masked_lm_loss = loss_fct(prediction_scores.view(-1, self.config.vocab_size), masked_lm_labels.view(-1))
            return masked_lm_loss
        return prediction_scores


def mask_tokens(input_ids, mask_token_id, vocab_size, generator, prob=0.15):
    labels = input_ids.clone()
    chosen = torch.rand(input_ids.shape, generator=generator) < prob
    labels[~chosen] = -1
    inputs = input_ids.clone()
    inputs[chosen] = mask_token_id
    return inputs, labels


def main():
    torch.manual_seed(0)
    config = BertConfig()
    model = BertForMaskedLM(config)
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.01)
    g = torch.Generator().manual_seed(0)
    total_steps = 3
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda s: min(1.0, (s + 1) / total_steps))
    for step in range(total_steps):
        input_ids = torch.randint(5, config.vocab_size, (4, 11), generator=g)
        inputs, labels = mask_tokens(input_ids, mask_token_id=4, vocab_size=config.vocab_size, generator=g)
        loss = model(inputs, attention_mask=torch.ones_like(inputs), masked_lm_labels=labels)
        loss.backward()
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        print(f"step {step} loss {loss.item():.3f} ppl {math.exp(loss.item()):.1f}")


if __name__ == "__main__":
    main()
