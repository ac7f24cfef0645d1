from .NeuMFRecommender import NeuMF
