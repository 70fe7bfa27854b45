"""One version: the package's (as pip installed it) is the extension's crate
version, and both are the workspace's, so that nobody writes it by hand."""

import importlib.metadata
import re

import lightcycles as lc
from conftest import REPO


def cargo_version(path, table):
    """The `version = "…"` line of `table` in a Cargo.toml."""
    text = path.read_text()
    section = re.search(r"^\[" + re.escape(table) + r"\]\n(.*?)(?=^\[|\Z)", text, flags=re.S | re.M)
    assert section, f"no [{table}] in {path}"
    version = re.search(r'^version = "([^"]+)"', section.group(1), flags=re.M)
    assert version, f"no version in [{table}] of {path}"
    return version.group(1)


def test_the_package_version_is_the_extension_crate_version():
    assert lc.__version__ == importlib.metadata.version("lightcycles")
    assert lc.__version__ == cargo_version(REPO / "lightcycles-py" / "Cargo.toml", "package")


def test_the_crate_version_is_the_workspace_version():
    assert lc.__version__ == cargo_version(REPO / "Cargo.toml", "workspace.package")
