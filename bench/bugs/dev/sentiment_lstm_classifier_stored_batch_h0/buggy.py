import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

BATCH_SIZE = 16
HIDDEN = 32
N_CLASSES = 3


class LSTMClassifier(nn.Module):
    def __init__(self, batch_size, output_size, hidden_size, vocab_size=100, embedding_dim=24):
        super(LSTMClassifier, self).__init__()
        self.batch_size = batch_size
        self.output_size = output_size
        self.hidden_size = hidden_size
        self.embedding = nn.Embedding(vocab_size, embedding_dim)
        self.lstm = nn.LSTM(embedding_dim, hidden_size)
        self.label = nn.Linear(hidden_size, output_size)

    def forward(self, input_sentence):
        embedded = self.embedding(input_sentence)
        input = embedded.permute(1, 0, 2)
        h_0 = torch.zeros(1, self.batch_size, self.hidden_size)
        c_0 = torch.zeros(1, self.batch_size, self.hidden_size)
        output, (final_hidden_state, final_cell_state) = self.lstm(input, (h_0, c_0))
        return self.label(final_hidden_state[-1])


def train_epoch(model, iterator, optimizer):
    model.train()
    epoch_loss, epoch_acc = 0.0, 0.0
    for text, label in iterator:
        optimizer.zero_grad()
        prediction = model(text)
        loss = F.cross_entropy(prediction, label)
        loss.backward()
        optimizer.step()
        epoch_acc += (prediction.argmax(1) == label).float().mean().item()
        epoch_loss += loss.item()
    return epoch_loss / len(iterator), epoch_acc / len(iterator)


if __name__ == "__main__":
    train_data = TensorDataset(torch.randint(0, 100, (50, 20)), torch.randint(0, N_CLASSES, (50,)))
    train_iterator = DataLoader(train_data, batch_size=BATCH_SIZE, shuffle=True)
    model = LSTMClassifier(BATCH_SIZE, N_CLASSES, HIDDEN)
    optimizer = torch.optim.Adam(model.parameters(), lr=2e-3)
    for epoch in range(2):
        print(epoch, train_epoch(model, train_iterator, optimizer))
