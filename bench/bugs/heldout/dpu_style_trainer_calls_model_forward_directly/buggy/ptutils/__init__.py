from .basemodel import BaseComponent
from .trainer import ModelTrainer
