"""Query engine, validators and scorers (grid mIoU, answer evaluation)."""
