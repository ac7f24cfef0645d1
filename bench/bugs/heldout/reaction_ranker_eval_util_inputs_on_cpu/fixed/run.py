import torch
import torch.nn as nn

from evaluation_utils import rank_conditions

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class RelevanceModel(nn.Module):
    def __init__(self, n_in=128, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(n_in, hidden), nn.ReLU(), nn.Dropout(0.1), nn.Linear(hidden, 1))

    def forward(self, x):
        return self.net(x).squeeze(-1)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = RelevanceModel().to(device)
    model.eval()
    reactions = ["CCO.CC(=O)O>>CCOC(C)=O", "c1ccccc1Br.B(O)O>>c1ccccc1"]
    conditions = ["[Pd]", "O", "CN(C)C=O", "C1CCOC1", "[Na+].[OH-]"]
    print(rank_conditions(model, reactions, conditions))
