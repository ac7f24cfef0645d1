import torch
import torch.nn as nn


class NeuMF(nn.Module):
    def __init__(self, user_num, item_num, factor_num=8, num_layers=2, dropout=0.1, model_name="NeuMF-end"):
        super().__init__()
        self.model_name = model_name
        self.embed_user_GMF = nn.Embedding(user_num, factor_num)
        self.embed_item_GMF = nn.Embedding(item_num, factor_num)
        mlp_dim = factor_num * (2 ** (num_layers - 1))
        self.embed_user_MLP = nn.Embedding(user_num, mlp_dim)
        self.embed_item_MLP = nn.Embedding(item_num, mlp_dim)
        layers = []
        for i in range(num_layers):
            input_size = factor_num * (2 ** (num_layers - i))
            layers += [nn.Dropout(p=dropout), nn.Linear(input_size, input_size // 2), nn.ReLU()]
        self.MLP_layers = nn.Sequential(*layers)
        self.predict_layer = nn.Linear(factor_num * 2, 1)
        for emb in (self.embed_user_GMF, self.embed_item_GMF, self.embed_user_MLP, self.embed_item_MLP):
            nn.init.normal_(emb.weight, std=0.01)

    def forward(self, user, item):
        output_GMF = self.embed_user_GMF(user) * self.embed_item_GMF(item)
        interaction = torch.cat((self.embed_user_MLP(user), self.embed_item_MLP(item)), -1)
        output_MLP = self.MLP_layers(interaction)
        prediction = self.predict_layer(torch.cat((output_GMF, output_MLP), -1))
        return torch.sigmoid(prediction.view(-1))

    def predict(self, u, i):
        return self.forward(u, i).cpu()
