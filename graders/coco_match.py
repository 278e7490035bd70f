"""pycocotools' matching of one image and one category, with the original vinbigdata quirk.

``COCOeval.evaluateImg`` visits the detections by falling score (ties in the given order) and
gives each the true box it overlaps most among those not yet claimed, at IoU at or above the
threshold (on equal IoU the later true box wins). It stores the *id* of the matched true box as
the detection's match and the detection's id as the true box's claim, and later reads "matched"
as "the stored id is not 0". The original MLE-bench's vinbigdata grader numbers its true boxes
from 0, so the first true box of its answers (id 0) can be matched but never counts: the
detection that matches it is a false positive, and the box is claimed, so it is never found.
:func:`coco_matches` reproduces that; :func:`average_precision` of :mod:`.boxes` turns the
pooled matches into COCO's 101-point AP.

(The grader numbers its detections from 0 too: a true box matched by the submission's very first
box stays claimable by a second box of the same image and class. The metric sees the submission
aligned to the answers, not in its file order, so that second quirk is not reproduced;
``docs/medium-high.md`` says where it can move a score.)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.boxes import as_boxes, confidence_order, iou_matrix

BoolArray = npt.NDArray[np.bool_]


def coco_matches(
    predicted: npt.ArrayLike,
    scores: npt.ArrayLike,
    true: npt.ArrayLike,
    threshold: float,
    *,
    id_zero: int | None = None,
) -> BoolArray:
    """Which predictions (in the given order) are true positives under pycocotools' rule.

    Args:
        predicted: ``(n, 4)`` boxes of one image and category.
        scores: Their confidences.
        true: ``(m, 4)`` true boxes of that image and category, in the answers' order.
        threshold: The IoU a match needs (at or above).
        id_zero: The index in ``true`` of the box the grader numbers 0, if it is in this image
            and category: matched, it claims its detection as a false positive.
    """
    boxes, true_boxes = as_boxes(predicted), as_boxes(true)
    hits = np.zeros(boxes.shape[0], dtype=np.bool_)
    if boxes.shape[0] == 0 or true_boxes.shape[0] == 0:
        return hits
    iou = iou_matrix(boxes, true_boxes)
    claimed = np.zeros(true_boxes.shape[0], dtype=np.bool_)
    limit = min(threshold, 1 - 1e-10)  # pycocotools' own cap
    for index in confidence_order(scores):
        best, best_iou = -1, limit
        for box in range(true_boxes.shape[0]):
            if claimed[box] or iou[index, box] < best_iou:
                continue
            best, best_iou = box, float(iou[index, box])
        if best < 0:
            continue
        claimed[best] = True
        hits[index] = best != id_zero
    return hits
