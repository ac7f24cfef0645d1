MODEL = dict(
    vocab_size=500,
    text_width=768,
    region_dim=64,
    embed_dim=128,
    temperature=0.07,
)

OPTIM = dict(lr=2e-4, weight_decay=0.05, steps=3, batch_size=4)
