"""Procedural object library: categories, aliases, placement rules, affordances, meshes."""
