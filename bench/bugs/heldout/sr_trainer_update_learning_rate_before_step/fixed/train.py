import torch

from models import SRModel


def create_dataloader(n_batches=3, batch_size=2, lq_size=12):
    for _ in range(n_batches):
        gt = torch.rand(batch_size, 3, lq_size * 2, lq_size * 2)
        yield {"LQ": torch.nn.functional.avg_pool2d(gt, 2), "GT": gt}


def main():
    opt = {"lr_G": 2e-4, "lr_steps": [4, 8], "niter": 6, "warmup_iter": -1, "print_freq": 2}
    model = SRModel(opt)
    current_step, total_iters = 0, opt["niter"]
    epoch = 0
    while current_step < total_iters:
        for train_data in create_dataloader():
            current_step += 1
            if current_step > total_iters:
                break
            #### training
            model.feed_data(train_data)
            model.optimize_parameters(current_step)
            #### update learning rate
            model.update_learning_rate(current_step, warmup_iter=opt["warmup_iter"])
            if current_step % opt["print_freq"] == 0:
                print(f"<epoch:{epoch}, iter:{current_step}, lr:{model.get_current_learning_rate():.3e}> {model.log_dict}")
        epoch += 1


if __name__ == "__main__":
    main()
