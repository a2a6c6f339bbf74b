"""Walk stage: scene -> 30 fps egocentric camera path, events, narration."""
