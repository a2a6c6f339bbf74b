"""Typed files between stages: models, atomic writing, per-stage seeding, the camera (the bottom layer)."""
