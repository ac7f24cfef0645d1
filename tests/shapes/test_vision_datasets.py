"""What a loop over a `DataLoader` of a torchvision dataset binds: images of the size the dataset and its transform
state, stacked by the batch size, and int labels; nothing where a transform, a custom loader or the lack of a
`ToTensor` leaves the image unknown. A command-line size is one size, whatever its default."""

from __future__ import annotations

from tests.shapes.probe import probe

HEADER = '''
import argparse
import torch
from torch.utils.data import DataLoader
from torchvision import datasets, transforms
import torchvision.transforms as T
'''


def seen(body: str) -> list:
    return probe(HEADER + body)


def first_batches(datasets: str, keep: str = "x") -> list:
    """What a loop over batches of 2 of each dataset (one a line) binds to `keep`."""
    return seen("".join(f"""
for x, y in DataLoader({dataset.strip()}, batch_size=2, drop_last=True):
    probe({keep})
""" for dataset in datasets.strip().splitlines()))


def test_images_and_labels_of_the_datasets_of_one_size() -> None:
    assert seen('''
mnist = datasets.MNIST("data", train=True, download=True, transform=transforms.ToTensor())
for x, y in DataLoader(mnist, batch_size=64, drop_last=True):
    probe(x)
    probe(y)
tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.5, 0.5, 0.5), (0.5, 0.5, 0.5))])
cifar = datasets.CIFAR10(root="./data", train=False, transform=tf)
images, labels = next(iter(DataLoader(cifar, batch_size=4, shuffle=True)))
probe(images)
for i, (x, y) in enumerate(DataLoader(datasets.STL10("data", "train", None, T.ToTensor()), batch_size=8)):
    probe(x)
''') == ["(64, 1, 28, 28)", "(64,)", "(batch, 3, 32, 32)", "(batch, 3, 96, 96)"]


def test_transforms_that_fix_or_keep_the_size() -> None:
    assert first_batches('''
datasets.FashionMNIST("d", transform=T.Compose([T.Resize(32), T.ToTensor()]))
datasets.CIFAR100("d", transform=T.Compose([T.RandomCrop(32, padding=4), T.RandomHorizontalFlip(), T.Grayscale(), T.ToTensor()]))
datasets.SVHN("d", split="train", transform=T.Compose([T.Resize((40, 48)), T.CenterCrop(36), T.ToTensor()]))
datasets.ImageFolder("train", T.Compose([T.RandomResizedCrop(224), T.ToTensor()]))
datasets.ImageFolder("train", T.Compose([T.Resize(256), T.CenterCrop(224), T.ToTensor()]))
''') == ["(2, 1, 32, 32)", "(2, 1, 32, 32)", "(2, 3, 36, 36)", "(2, 3, 224, 224)", "(2, 3, 224, 224)"]


def test_a_size_from_the_command_line_is_one_size() -> None:
    assert seen('''
parser = argparse.ArgumentParser()
parser.add_argument("--image-size", type=int, default=64)
parser.add_argument("--batch-size", type=int, default=32)
args = parser.parse_args()
tf = T.Compose([T.Resize((args.image_size, args.image_size)), T.ToTensor()])
for x, y in DataLoader(datasets.CIFAR10("d", transform=tf), batch_size=args.batch_size, drop_last=True):
    probe(x)
''') == ["(args.batch_size, 3, args.image_size, args.image_size)"]


def test_what_the_code_does_not_state_stays_unknown() -> None:
    # no transform: PIL images; a Lambda; an image folder's aspect of its own; a custom loader; Normalize on a
    # PIL image; a rotation that grows the image
    assert first_batches('''
datasets.MNIST("d", download=True)
datasets.MNIST("d", transform=T.Compose([T.ToTensor(), T.Lambda(lambda x: x.view(-1))]))
datasets.ImageFolder("train", T.Compose([T.Resize(256), T.ToTensor()]))
datasets.ImageFolder("train", T.Compose([T.Resize((64, 64)), T.ToTensor()]), loader=open)
datasets.MNIST("d", transform=T.Compose([T.Normalize((0.5,), (0.5,)), T.ToTensor()]))
datasets.CIFAR10("d", transform=T.Compose([T.RandomRotation(30, expand=True), T.ToTensor()]))
''') == ["(...)"] * 6
    assert first_batches('datasets.MNIST("d", transform=T.ToTensor(), target_transform=lambda y: [y, y])',
                         keep="y") == ["(...)"]


def test_transforms_changed_after_they_are_built_leave_the_images_unknown() -> None:
    for change in ("tf.transforms.insert(0, RandAugment(2, 14))", "tf.transforms[0] = T.Resize(64)",
                   "train_set.transform = T.Compose([T.Resize(64), T.ToTensor()])",
                   "train_set.dataset.transform = None"):
        assert seen(f'''
tf = T.Compose([T.ToTensor()])
train_set = datasets.CIFAR10("d", transform=tf)
{change}
for x, y in DataLoader(train_set, batch_size=2, drop_last=True):
    probe(x)
''') == ["(...)"], change


def test_parts_of_a_dataset() -> None:
    assert seen('''
full = datasets.MNIST("d", train=True, download=True, transform=T.ToTensor())
train_set, val_set = torch.utils.data.random_split(full, [55000, 5000])
for x, y in DataLoader(val_set, batch_size=100):
    probe(x)
for x, y in DataLoader(torch.utils.data.Subset(full, range(1000)), batch_size=10, drop_last=True):
    probe(x)
parts = torch.utils.data.random_split(full, lengths)
for x, y in DataLoader(parts[0], batch_size=10, drop_last=True):
    probe(x)
''') == ["(batch, 1, 28, 28)", "(10, 1, 28, 28)", "(...)"]


def test_command_line_sizes_fit_where_they_are_the_same_option() -> None:
    # a default is no size: the command line sets it; two options are two sizes, each one size wherever it is read
    assert seen('''
parser = argparse.ArgumentParser()
parser.add_argument("--hidden", type=int, default=128)
parser.add_argument("--other", type=int, default=128)
args = parser.parse_args()
h = torch.randn(4, args.hidden)
probe_conflict(torch.nn.Linear(args.hidden, 10)(h))
probe_conflict(torch.nn.Linear(args.other, 10)(h))
probe_conflict(torch.nn.Linear(128, 10)(h))
probe_conflict(torch.nn.Linear(args.hidden, 10)(torch.cat([h, h], 1)))
''') == [None, None, None, "`torch.nn.Linear(args.hidden, 10)(torch.cat([h, h], 1))`: the input is (4, 2 * "
         "args.hidden): 2 * args.hidden features (last dim), but `torch.nn.Linear(args.hidden, 10)` = "
         "torch.nn.Linear(args.hidden, 10) expects args.hidden"]


# Lints SOURCE (argv[1]) with every rule and prints whether the torchvision datasets' module was loaded.
_LOADED = """\
import sys
from shapecheck.engine.linter import lint_text
from shapecheck.engine.registry import resolve
lint_text(sys.argv[1], "train.py", resolve(["ALL"]))
print("shapecheck.shapes.vision_datasets" in sys.modules)
"""


def test_the_datasets_module_is_loaded_by_a_loader_of_a_torchvision_dataset_only() -> None:
    """A lint that meets no torchvision dataset never loads its tables of datasets and transforms (some 3 million
    instructions of a one-file run)."""
    import subprocess
    import sys

    def loads(source: str) -> bool:
        printed = subprocess.run([sys.executable, "-c", _LOADED, source], capture_output=True, text=True,
                                 check=True).stdout
        return printed.strip() == "True"

    tensors = HEADER + """
data = torch.utils.data.TensorDataset(torch.randn(100, 3), torch.randn(100))
for x, y in DataLoader(data, batch_size=2):
    print(x.view(2, 3))
"""
    assert not loads(tensors)
    assert loads(tensors.replace("torch.utils.data.TensorDataset(torch.randn(100, 3), torch.randn(100))",
                                 'datasets.MNIST("data", transform=transforms.ToTensor())'))


def test_a_transform_a_project_dataset_calls_on_an_image_of_known_mode() -> None:
    """A Dataset's `__getitem__` opening files: `Image.open(path).convert("RGB")` is 3 channels of any size, which
    `Resize((h, w))` or a crop fixes; a tensor of known (C, H, W) goes through the same steps. An image of unstated
    mode (`Image.open(path)` alone), a `Resize(n)` of a non-square image or a transform of the project stay
    unknown (a tensor of unknown rank). Read alone, `__getitem__` does not know the `size` its instance was built
    with; the loader's batches do."""
    assert seen('''
import os
from PIL import Image
from torch.utils.data import Dataset


class Tiles(Dataset):
    def __init__(self, root, size=(200, 300), transform=None):
        self.files = sorted(os.listdir(root))
        self.tf = T.Compose([T.Resize(size), T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)])
        self.mask_tf = T.Compose([T.CenterCrop(64), T.ToTensor()])
        self.transform = transform

    def __len__(self):
        return len(self.files)

    def __getitem__(self, i):
        img = Image.open(self.files[i]).convert("RGB")
        mask = Image.open(self.files[i]).convert(mode="L")
        raw = Image.open(self.files[i])
        probe(self.tf(img))
        probe(self.mask_tf(mask))
        probe(self.tf(raw))
        probe(T.Resize(32)(img))
        probe(T.Compose([T.Resize(32), T.ToTensor()])(img))
        probe(T.RandomCrop(24)(torch.rand(3, 40, 40)))
        probe(self.transform(img))
        return self.tf(img), self.mask_tf(mask)


for x, m in DataLoader(Tiles("data"), batch_size=4, drop_last=True):
    probe(x)
    probe(m)
''') == ["(...)", "(1, 64, 64)", "(...)", "(...)", "(...)", "(3, 24, 24)", "(...)", "(4, 3, 200, 300)",
               "(4, 1, 64, 64)"]
