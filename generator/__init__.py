"""egoscene: scenario spec, floor-plan layout, object placement and the egocentric walk."""
