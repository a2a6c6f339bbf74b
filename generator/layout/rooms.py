"""Realistic room sizes by type (m^2), used when the spec gives no area."""

from __future__ import annotations

# type -> (typical area, smallest sensible side). Unknown types get DEFAULT_SIZE.
ROOM_SIZES: dict[str, tuple[float, float]] = {
    "kitchen": (13.0, 2.6),
    "living room": (22.0, 3.4),
    "bedroom": (14.0, 3.0),
    "master bedroom": (18.0, 3.4),
    "bathroom": (6.5, 2.0),
    "toilet": (3.0, 1.4),
    "study": (10.0, 2.6),
    "dining room": (14.0, 3.0),
    "piano room": (12.0, 3.0),
    "dressroom": (8.0, 2.2),
    "dressing room": (8.0, 2.2),
    "homegym": (14.0, 3.0),
    "home gym": (14.0, 3.0),
    "laundry": (6.0, 2.0),
    "storage": (5.0, 1.8),
    "garage": (20.0, 3.4),
    "office": (14.0, 3.0),
    "main office": (36.0, 4.4),
    "file room": (12.0, 2.8),
    "locker room": (10.0, 2.6),
    "lounge": (18.0, 3.4),
    "ceo room": (18.0, 3.4),
    "conference room": (22.0, 3.6),
    "meeting room": (16.0, 3.2),
    "reception": (16.0, 3.2),
    "kids room": (12.0, 3.0),
    "guest room": (12.0, 3.0),
    "library": (16.0, 3.2),
}
DEFAULT_SIZE = (12.0, 2.6)


def room_size(room_type: str) -> tuple[float, float]:
    return ROOM_SIZES.get(room_type.lower(), DEFAULT_SIZE)
