import torch
import torch.nn.functional as F


def loss_hinge_dis(dis_fake, dis_real):
    return F.relu(1.0 - dis_real).mean(), F.relu(1.0 + dis_fake).mean()


def loss_hinge_gen(dis_fake):
    return -dis_fake.mean()


def GAN_training_function(G, D, config):
    def train(x, y):
        counter = 0
        x = torch.split(x, config["batch_size"])
        y = torch.split(y, config["batch_size"])
        for step_index in range(config["num_D_steps"]):
            D.optim.zero_grad()
            for accumulation_index in range(config["num_D_accumulations"]):
                z = torch.randn(config["batch_size"], config["dim_z"])
                y_fake = torch.randint(0, config["n_classes"], (config["batch_size"],))
                with torch.no_grad():
                    fake = G(z, y_fake)
                d_real_loss, d_fake_loss = loss_hinge_dis(D(fake, y_fake), D(x[counter], y[counter]))
                D_loss = (d_real_loss + d_fake_loss) / config["num_D_accumulations"]
                D_loss.backward()
                counter += 1
            D.optim.step()

        G.optim.zero_grad()
        z = torch.randn(config["batch_size"], config["dim_z"])
        y_fake = torch.randint(0, config["n_classes"], (config["batch_size"],))
        G_loss = loss_hinge_gen(D(G(z, y_fake), y_fake))
        G_loss.backward()
        G.optim.step()
        return {"G_loss": G_loss.item(), "D_loss_real": d_real_loss.item(), "D_loss_fake": d_fake_loss.item()}

    return train
