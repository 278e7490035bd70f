"""Closed integer intervals: merge overlapping or touching ones, measure their union."""


def merge(intervals):
    """Sorted, disjoint intervals covering the same integer points.

    Intervals are ``(start, end)`` pairs with ``start <= end``, both ends included. Overlapping
    intervals and touching ones (``(1, 2)`` and ``(3, 4)``: no integer between them) are joined.
    """
    result = []
    for start, end in sorted(intervals):
        if start > end:
            raise ValueError(f"interval ({start}, {end}) ends before it starts")
        if result and start <= result[-1][1]:
            result[-1] = (result[-1][0], end)
        else:
            result.append((start, end))
    return result


def total_length(intervals):
    """How many integer points the intervals cover together."""
    return sum(end - start + 1 for start, end in merge(intervals))
