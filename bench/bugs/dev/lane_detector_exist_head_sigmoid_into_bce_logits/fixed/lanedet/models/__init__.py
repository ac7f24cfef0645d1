from lanedet.models.detector import LaneSegDetector

__all__ = ["LaneSegDetector"]
