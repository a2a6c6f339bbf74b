"""The object library: importing this module registers every category's mesh builder.

Imports point one way: assets.models (build_model) imports this module, this module imports
the builder modules, and they import assets.builder (the Builder they are handed and the
registry they join with `@builder(name)`); nothing imports back up.
"""

from __future__ import annotations

from assets import (builders_appliances, builders_fixtures, builders_furniture,  # noqa: F401
                    builders_small, builders_storage)
from assets.builder import BUILDERS

__all__ = ["BUILDERS"]
