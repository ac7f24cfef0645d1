pretrained = None

model = dict(
    backbone=dict(arch="base", in_chans=3, out_indices=(0, 1, 2, 3)),
    neck=dict(in_channels=[96, 192, 384, 768], out_channels=64, num_outs=4),
    head=dict(num_classes=5),
)

train = dict(batch_size=2, image_size=64, lr=1e-3, iters=2)
