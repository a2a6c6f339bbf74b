"""Generator stages: spec -> layout -> placement -> walk (no Blender)."""
