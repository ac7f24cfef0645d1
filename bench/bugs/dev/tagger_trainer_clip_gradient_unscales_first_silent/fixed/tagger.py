from torch import nn
from torch.nn import functional as F


class SimpleTagger(nn.Module):
    def __init__(self, vocab_size, num_tags, embedding_dim=32, hidden_dim=32):
        super().__init__()
        self.embedder = nn.Embedding(vocab_size, embedding_dim, padding_idx=0)
        self.encoder = nn.GRU(embedding_dim, hidden_dim, batch_first=True, bidirectional=True)
        self.tag_projection = nn.Linear(2 * hidden_dim, num_tags)

    def forward(self, tokens, tags=None):
        mask = tokens != 0
        encoded, _ = self.encoder(self.embedder(tokens))
        logits = self.tag_projection(encoded).float()
        output = {"logits": logits, "mask": mask}
        if tags is not None:
            flat = F.cross_entropy(logits.reshape(-1, logits.size(-1)), tags.reshape(-1), reduction="none")
            output["loss"] = (flat * mask.reshape(-1)).sum() / mask.sum()
        return output
