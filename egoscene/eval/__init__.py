"""`egoscene eval`: score model predictions against a release (SPEC section 7).

parse (letters and numbers from messy text) -> score (per question, task, regime, overall;
MRA, Accuracy@k, paired t-test, Random baseline, grid mIoU, free-form judge) -> report
(results.json, results.md, charts/) ; blind (a text-only baseline scored the same way).
"""
