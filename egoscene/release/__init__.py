"""`egoscene release`: finished scenario folders -> one dataset folder (SPEC section 7).

collect (read the folders, balance letters over the release) -> frames (32 sampled JPEGs per
video) -> views (egoscene rows, VSI-Bench rows, VAEX CSV) -> card (README.md dataset card,
lmms-eval task yaml) -> build (write everything atomically, SHA256SUMS) ; verify (--verify).
"""
