"""Scenario spec: YAML -> validated Scenario (pydantic), JSON Schema."""
