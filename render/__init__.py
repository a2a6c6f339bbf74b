"""Blender rendering. The only package that imports bpy."""
