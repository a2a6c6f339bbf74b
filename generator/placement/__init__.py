"""Placement stage: scene + Scenario -> objects in rooms."""
