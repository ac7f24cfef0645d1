from dataclasses import dataclass


@dataclass
class Config:
    bert_name: str = "bert-large-cased"
    bert_hid_size: int = 1024
    lstm_hid_size: int = 32
    dist_emb_size: int = 8
    label_num: int = 5
    epochs: int = 1
    batch_size: int = 2
    learning_rate: float = 1e-3
