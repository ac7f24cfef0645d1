import argparse


def get_args():
    p = argparse.ArgumentParser(description="Random Network Distillation (toy frames)")
    p.add_argument("--frame-stack", type=int, default=4)
    p.add_argument("--frame-size", type=int, default=84)
    p.add_argument("--num-envs", type=int, default=2)
    p.add_argument("--rollout", type=int, default=2)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--feature-dim", type=int, default=64)
    return p.parse_args([])


# (out_channels, kernel, stride) of each conv of the feature encoders
TARGET_CONVS = [(32, 8, 4), (64, 4, 2), (64, 3, 1)]
PREDICTOR_CONVS = [(32, 8, 4), (64, 4, 2), (64, 4, 1)]
