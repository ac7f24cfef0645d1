import torch.nn as nn

from .base_model import BaseModel


class NBeatsLite(BaseModel):
    """A few fully connected blocks from the encoder window to the prediction horizon, with backcast residuals."""

    def __init__(self, context_length=24, prediction_length=6, widths=(64, 64), dropout=0.1, **kwargs):
        super().__init__(**kwargs)
        self.context_length = context_length
        self.prediction_length = prediction_length
        self.blocks = nn.ModuleList()
        for width in widths:
            self.blocks.append(
                nn.Sequential(
                    nn.Linear(context_length, width),
                    nn.ReLU(),
                    nn.Dropout(dropout),
                    nn.Linear(width, context_length + prediction_length),
                )
            )

    def forward(self, x):
        backcast = x["encoder_cont"]
        forecast = 0
        for block in self.blocks:
            theta = block(backcast)
            backcast = backcast - theta[:, : self.context_length]
            forecast = forecast + theta[:, self.context_length :]
        return {"prediction": forecast}
