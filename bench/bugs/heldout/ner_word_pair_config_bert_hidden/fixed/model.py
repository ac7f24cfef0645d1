import torch
import torch.nn as nn

ENCODER_WIDTH = {"bert-base-cased": 768, "bert-large-cased": 1024}


class FakeEncoder(nn.Module):
    """Stands in for AutoModel.from_pretrained(name): token ids to contextual vectors."""

    def __init__(self, name, vocab=100):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, ENCODER_WIDTH[name])

    def forward(self, input_ids):
        return self.embeddings(input_ids)


class WordPairModel(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.bert = FakeEncoder(config.bert_name)
        self.encoder = nn.LSTM(config.bert_hid_size, config.lstm_hid_size // 2, num_layers=1,
                               batch_first=True, bidirectional=True)
        self.dis_embs = nn.Embedding(20, config.dist_emb_size)
        self.predictor = nn.Linear(2 * config.lstm_hid_size + config.dist_emb_size, config.label_num)

    def forward(self, input_ids, dist_inputs):
        word_reps, _ = self.encoder(self.bert(input_ids))
        n = word_reps.size(1)
        pairs = torch.cat([word_reps.unsqueeze(2).expand(-1, -1, n, -1),
                           word_reps.unsqueeze(1).expand(-1, n, -1, -1),
                           self.dis_embs(dist_inputs)], dim=-1)
        return self.predictor(pairs)
