"""The exceptions of the package, in one place (each is also at the top
level of ``lightcycles``):

- ``GameOver`` (a ``RuntimeError``): ``Game.step`` or ``SearchState.step``
  on a game that is over.
- ``ReplayMismatch`` (a ``ValueError``): a replay that differs from the
  rules, with ``tick``, ``player``, ``field``, ``expected``, ``actual``.
- ``CallableTimeout`` (a ``BaseException``): raised inside a callable bot
  still running at its deadline.

Bad arguments are ``ValueError`` (a value) or ``TypeError`` (a type), with
a message that names the argument, as the CLI's errors name the flag.
"""

from lightcycles._lightcycles import CallableTimeout, GameOver, ReplayMismatch

__all__ = ["CallableTimeout", "GameOver", "ReplayMismatch"]
