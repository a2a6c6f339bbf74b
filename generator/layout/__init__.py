"""Layout stage: Scenario -> floor plan (CP-SAT), relation check, grid ground truth."""
