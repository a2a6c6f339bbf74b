"""The application: command line, pipeline, bench (and batch, release, eval). Top layer."""
