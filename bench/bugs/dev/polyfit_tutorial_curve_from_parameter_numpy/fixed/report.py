import csv
import os


def write_snapshot(out_dir, step, xs, ys_true, ys_fit):
    """One CSV per snapshot; the notebook version drew these with matplotlib."""
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, f"fit_{step:04d}.csv")
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["x", "y", "fit"])
        for row in zip(xs, ys_true, ys_fit):
            writer.writerow([f"{v:.5f}" for v in row])
    return path
