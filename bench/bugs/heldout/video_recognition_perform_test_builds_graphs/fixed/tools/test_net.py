"""Multi-view test a video classification model."""
import numpy as np
import torch

from slowfast.models import build_model


class TestMeter:
    def __init__(self, num_videos, num_clips, num_classes):
        self.num_clips = num_clips
        self.video_preds = torch.zeros(num_videos, num_classes)
        self.video_labels = torch.zeros(num_videos, dtype=torch.long)
        self.clip_count = torch.zeros(num_videos, dtype=torch.long)

    def update_stats(self, preds, labels, clip_ids):
        for ind in range(preds.shape[0]):
            vid_id = int(clip_ids[ind]) // self.num_clips
            self.video_labels[vid_id] = labels[ind]
            self.video_preds[vid_id] += preds[ind]
            self.clip_count[vid_id] += 1

    def finalize_metrics(self):
        top1 = (self.video_preds.argmax(1) == self.video_labels).float().mean().item()
        return {"top1_acc": 100.0 * top1, "clips_seen": int(self.clip_count.sum())}


@torch.no_grad()
def perform_test(test_loader, model, test_meter, cfg):
    model.eval()
    for cur_iter, (inputs, labels, video_idx) in enumerate(test_loader):
        preds = model(inputs)
        preds = torch.softmax(preds, dim=1)
        test_meter.update_stats(preds.detach(), labels, video_idx)
    return test_meter


def synthetic_test_loader(cfg, generator):
    n_videos, n_clips = cfg["TEST"]["NUM_VIDEOS"], cfg["TEST"]["NUM_ENSEMBLE_VIEWS"]
    labels = torch.randint(0, cfg["MODEL"]["NUM_CLASSES"], (n_videos,), generator=generator)
    batches = []
    for start in range(0, n_videos * n_clips, cfg["TEST"]["BATCH_SIZE"]):
        ids = torch.arange(start, min(start + cfg["TEST"]["BATCH_SIZE"], n_videos * n_clips))
        clips = torch.rand(len(ids), 3, 4, 32, 32, generator=generator)
        batches.append((clips, labels[ids // n_clips], ids))
    return batches


def test(cfg):
    np.random.seed(cfg["RNG_SEED"])
    torch.manual_seed(cfg["RNG_SEED"])
    model = build_model(cfg)
    loader = synthetic_test_loader(cfg, torch.Generator().manual_seed(cfg["RNG_SEED"]))
    meter = TestMeter(cfg["TEST"]["NUM_VIDEOS"], cfg["TEST"]["NUM_ENSEMBLE_VIEWS"], cfg["MODEL"]["NUM_CLASSES"])
    meter = perform_test(loader, model, meter, cfg)
    print(meter.finalize_metrics())
