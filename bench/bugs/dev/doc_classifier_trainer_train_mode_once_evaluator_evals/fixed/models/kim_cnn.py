import torch
import torch.nn as nn
import torch.nn.functional as F


class KimCNN(nn.Module):
    def __init__(self, config):
        super().__init__()
        words_num = config.words_num
        words_dim = config.words_dim
        output_channel = config.output_channel
        target_class = config.target_class
        ks = 3

        self.embed = nn.Embedding(words_num, words_dim)
        self.conv1 = nn.Conv2d(1, output_channel, (3, words_dim), padding=(2, 0))
        self.conv2 = nn.Conv2d(1, output_channel, (4, words_dim), padding=(3, 0))
        self.conv3 = nn.Conv2d(1, output_channel, (5, words_dim), padding=(4, 0))
        self.dropout = nn.Dropout(config.dropout)
        self.fc1 = nn.Linear(ks * output_channel, target_class)

    def forward(self, x):
        x = self.embed(x).unsqueeze(1)
        x = [F.relu(conv(x)).squeeze(3) for conv in (self.conv1, self.conv2, self.conv3)]
        x = [F.max_pool1d(i, i.size(2)).squeeze(2) for i in x]
        x = torch.cat(x, 1)
        x = self.dropout(x)
        return self.fc1(x)
