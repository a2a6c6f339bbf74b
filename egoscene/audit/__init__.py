"""`egoscene audit OUT/<scenario>`: a page for checking a scenario's answers by eye.

run.py reads the finished folder and gathers the frames, frames.py decodes the video and
outlines the evidence from a fresh instance-ID pass, draw.py makes one PNG per question and
page.py the HTML index.
"""
