"""Adversarial adaptation to train the target encoder."""
import torch
from torch import nn, optim

import params


def train_tgt(src_encoder, tgt_encoder, critic, src_data_loader, tgt_data_loader):
    tgt_encoder.train()
    critic.train()
    criterion = nn.NLLLoss()
    optimizer_tgt = optim.Adam(tgt_encoder.parameters(), lr=params.c_learning_rate,
                               betas=(params.beta1, params.beta2))
    optimizer_critic = optim.Adam(critic.parameters(), lr=params.d_learning_rate,
                                  betas=(params.beta1, params.beta2))
    len_data_loader = min(len(src_data_loader), len(tgt_data_loader))

    for epoch in range(params.num_epochs):
        data_zip = enumerate(zip(src_data_loader, tgt_data_loader))
        for step, ((images_src, _), (images_tgt, _)) in data_zip:
            # 2.1 train discriminator
            optimizer_critic.zero_grad()
            feat_src = src_encoder(images_src)
            feat_tgt = tgt_encoder(images_tgt)
            feat_concat = torch.cat((feat_src, feat_tgt), 0)
            pred_concat = critic(feat_concat.detach())
            label_src = torch.ones(feat_src.size(0)).long()
            label_tgt = torch.zeros(feat_tgt.size(0)).long()
            label_concat = torch.cat((label_src, label_tgt), 0)
            loss_critic = criterion(pred_concat, label_concat)
            loss_critic.backward()
            optimizer_critic.step()
            pred_cls = torch.squeeze(pred_concat.max(1)[1])
            acc = (pred_cls == label_concat).float().mean()

            # 2.2 train target encoder
            optimizer_critic.zero_grad()
            optimizer_tgt.zero_grad()
            feat_tgt = tgt_encoder(images_tgt)
            pred_tgt = critic(feat_tgt)
            label_tgt = torch.ones(feat_tgt.size(0)).long()
            loss_tgt = criterion(pred_tgt, label_tgt)
            loss_tgt.backward()
            optimizer_tgt.step()

            if (step + 1) % params.log_step == 0:
                print("Epoch [{}/{}] Step [{}/{}]: d_loss={:.5f} g_loss={:.5f} acc={:.5f}".format(
                    epoch + 1, params.num_epochs, step + 1, len_data_loader,
                    loss_critic.item(), loss_tgt.item(), acc.item()))
    return tgt_encoder
