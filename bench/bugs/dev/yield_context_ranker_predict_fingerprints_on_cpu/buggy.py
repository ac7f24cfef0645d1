import numpy as np
import torch
import torch.nn as nn

FP_SIZE = 64


def fingerprint(smiles, radius=2):
    rng = np.random.default_rng(abs(hash((smiles, radius))) % (2**32))
    return (rng.random(FP_SIZE) > 0.8).astype(np.float32)


class ReactionContextScorer(nn.Module):
    def __init__(self, fp_size, n_conditions, hidden=128, dropout=0.2):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(2 * fp_size, hidden), nn.ReLU(), nn.Dropout(dropout))
        self.heads = nn.Linear(hidden, n_conditions)

    def forward(self, x):
        return self.heads(self.encoder(x))


class MultitaskEvaluator:
    def __init__(self, condition_names, checkpoint=None):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.condition_names = condition_names
        self.model = ReactionContextScorer(FP_SIZE, len(condition_names))
        if checkpoint is not None:
            self.model.load_state_dict(torch.load(checkpoint, map_location="cpu"))
        self.model.to(self.device)
        self.model.eval()

    def featurize(self, reactions):
        feats = []
        for rxn in reactions:
            reactants, products = rxn.split(">>")
            feats.append(np.concatenate([fingerprint(reactants), fingerprint(products)]))
        return torch.from_numpy(np.stack(feats))

    def predict(self, reactions, top_k=3):
        x = self.featurize(reactions)
        with torch.no_grad():
            scores = torch.sigmoid(self.model(x))
        top = scores.topk(top_k, dim=1).indices.cpu().tolist()
        return [[self.condition_names[i] for i in row] for row in top]


if __name__ == "__main__":
    torch.manual_seed(0)
    names = ["Pd(PPh3)4", "K2CO3", "THF", "DMF", "Et3N", "CuI", "water", "toluene"]
    evaluator = MultitaskEvaluator(names)
    reactions = ["CCBr.c1ccccc1B(O)O>>CCc1ccccc1", "CC(=O)Cl.NCC>>CC(=O)NCC"]
    for rxn, preds in zip(reactions, evaluator.predict(reactions)):
        print(rxn, preds)
