"""The window of ``render_mode="human"``: each rendered frame (the
``rgb_array`` image, drawn in Rust) shown by pygame, as Gymnasium's and
PettingZoo's own environments show theirs.

A window needs pygame (``pip install "lightcycles[render]"``) and a
display: ``DISPLAY`` or ``WAYLAND_DISPLAY`` on Linux, always on Windows and
macOS, or whatever ``SDL_VIDEODRIVER`` names. Without either, ``human``
prints the board as text instead, so a script written for a desktop still
runs on a server.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from typing import Any, Dict, Optional, Sequence

import numpy as np


def display_exists() -> bool:
    """Whether a window can be shown here (not whether pygame is installed)."""
    if os.environ.get("SDL_VIDEODRIVER"):
        return True
    if sys.platform in ("win32", "darwin"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def available() -> bool:
    """Whether ``human`` renders to a window: pygame and a display."""
    return display_exists() and importlib.util.find_spec("pygame") is not None


def tile(frames: Sequence[np.ndarray], columns: int = 4, gap: int = 4) -> np.ndarray:
    """Images of one size side by side, ``columns`` to a row, ``gap``
    pixels of black between them: the many boards of a vector env in one
    window."""
    h, w, _ = frames[0].shape
    columns = max(1, min(columns, len(frames)))
    rows = -(-len(frames) // columns)
    out = np.zeros((rows * h + (rows - 1) * gap, columns * w + (columns - 1) * gap, 3), dtype=np.uint8)
    for k, frame in enumerate(frames):
        r, c = divmod(k, columns)
        out[r * (h + gap) : r * (h + gap) + h, c * (w + gap) : c * (w + gap) + w] = frame
    return out


class Window:
    """A pygame window that shows frames at most ``fps`` a second, opened
    on the first frame and sized to it."""

    def __init__(self, title: str, fps: int) -> None:
        self.title = title
        self.fps = fps
        self._screen: Optional[Any] = None
        self._clock: Optional[Any] = None

    def show(self, frame: np.ndarray) -> None:
        """Shows ``frame`` (height, width, 3) uint8, waiting as long as the
        frame rate asks."""
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        h, w, _ = frame.shape
        if self._screen is None or self._screen.get_size() != (w, h):
            pygame.display.init()
            pygame.display.set_caption(self.title)
            self._screen = pygame.display.set_mode((w, h))
            self._clock = pygame.time.Clock()
        # Keeps the window answering its desktop between frames.
        pygame.event.pump()
        pygame.surfarray.blit_array(self._screen, np.ascontiguousarray(frame.transpose(1, 0, 2)))
        pygame.display.flip()
        assert self._clock is not None
        self._clock.tick(self.fps)

    def pixels(self) -> Optional[np.ndarray]:
        """What the window shows (height, width, 3), None before a frame."""
        if self._screen is None:
            return None
        import pygame

        return np.asarray(pygame.surfarray.array3d(self._screen)).transpose(1, 0, 2)

    def __getstate__(self) -> Dict[str, Any]:
        # A pickled env (shipped to a worker) opens its own window there.
        return {"title": self.title, "fps": self.fps}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self.__init__(state["title"], state["fps"])  # type: ignore[misc]

    def close(self) -> None:
        """Closes the window (a later frame opens a new one)."""
        if self._screen is not None:
            import pygame

            pygame.display.quit()
            self._screen = None
            self._clock = None
