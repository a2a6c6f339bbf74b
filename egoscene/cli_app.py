"""The `egoscene` typer app and what its verbs share: the console, exit statuses, one-line
messages, Ctrl-C handling and the extras checks. Verbs live in egoscene/cli.py and
egoscene/cli_dataset.py."""

from __future__ import annotations

import functools

import typer
from rich.console import Console
from rich.markup import escape

console = Console(stderr=True, soft_wrap=True)  # error lines stay whole in logs
app = typer.Typer(name="egoscene", help="Synthetic egocentric scenarios with exactly known answers.",
                  add_completion=False, no_args_is_help=True, pretty_exceptions_enable=False)

# exit status: 0 done; 2 input refused (spec, layout, --out; nothing written); 1 anything else (a bug, a failed render);
# 130 interrupted (Ctrl-C)
REFUSED, FAILED = 2, 1


INTERRUPTED = "egoscene: interrupted; run the same command again to resume (finished work is kept)"


class _Interrupted(Exception):
    """Ctrl-C inside a verb. typer turns a KeyboardInterrupt into a silent exit 130; this one
    passes through it to main(), which says so in one line."""


def _command(*args, **kwargs):
    """app.command, with Ctrl-C in the verb carried out as _Interrupted (the signature is kept)."""
    def register(verb):
        @functools.wraps(verb)
        def run(*a, **k):
            try:
                return verb(*a, **k)
            except KeyboardInterrupt:
                raise _Interrupted() from None
        return app.command(*args, **kwargs)(run)
    return register


def _say(text: str, label: str = "error", style: str = "red") -> None:
    """One line on stderr: a coloured label, then `text` as is. Messages quote user files, paths
    and patterns whose [brackets] rich would otherwise read as markup and drop ('^[a-z0-9_-]+$')."""
    console.print(f"[{style}]{label}[/{style}] {escape(str(text))}" if label else escape(str(text)), highlight=False)


RENDER_EXTRA = ("bpy", "ortools", "trimesh", "cv2", "matplotlib", "scipy", "av")


def _require_render_extra(verb: str) -> None:
    """Generation needs the [render] extra; say so instead of failing on an import deep inside."""
    from importlib.util import find_spec

    missing = [name for name in RENDER_EXTRA if find_spec(name) is None]
    if missing:
        console.print(f"[red]error[/red] 'egoscene {verb}' needs the render extra; missing: {', '.join(missing)} "
                      "(fix: pip install 'egoscene\\[all]' on Python 3.11)", highlight=False)
        raise typer.Exit(2)


def _refuse(message: str) -> int:
    _say(message)
    return REFUSED


def _input_error(message: str) -> int:
    """release/eval: input refused (exit status 2), the message names the file and the fix."""
    _say(message)
    return 2


def _require_release_extra(verb: str, modules: tuple[str, ...]) -> None:
    from importlib.util import find_spec

    missing = [name for name in modules if find_spec(name) is None]
    if missing:
        console.print(f"[red]error[/red] 'egoscene {verb}' needs the release extra; missing: {', '.join(missing)} "
                      "(fix: pip install 'egoscene\\[release]')", highlight=False)
        raise typer.Exit(2)
