MODEL = dict(
    vocab_size=100,
    embed_dim=64,
    num_heads=4,
    num_layers=2,
    max_len=32,
    num_classes=3,
    dropout=0.1,
)

TRAIN = dict(lr=3e-4, epochs=2, batch_size=8, seq_len=20, num_samples=32)
