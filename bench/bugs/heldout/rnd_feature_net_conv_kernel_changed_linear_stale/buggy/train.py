import logging

import torch
import torch.nn.functional as F

from config import PREDICTOR_CONVS, TARGET_CONVS, get_args
from model import RNDModel

log = logging.getLogger("rnd")


def intrinsic_reward(rnd: RNDModel, next_obs):
    with torch.no_grad():
        predict, target = rnd(next_obs)
    return (predict - target).pow(2).sum(1) / 2


def main():
    args = get_args()
    torch.manual_seed(0)
    rnd = RNDModel(args.frame_stack, TARGET_CONVS, PREDICTOR_CONVS, args.feature_dim)
    optimizer = torch.optim.Adam(rnd.predictor.parameters(), lr=args.lr)
    for update in range(args.rollout):
        next_obs = torch.rand(args.num_envs, args.frame_stack, args.frame_size, args.frame_size)
        rewards = intrinsic_reward(rnd, next_obs)
        predict, target = rnd(next_obs)
        loss = F.mse_loss(predict, target.detach())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        log.info("update %d intrinsic %.4f forward loss %.4f", update, rewards.mean().item(), loss.item())


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    main()
