"""The Python examples of docs/python.md run as shown."""

import contextlib
import io
import re

import pytest

from conftest import REPO

PAGE = REPO / "docs" / "python.md"
README = REPO / "README.md"


def python_blocks(page):
    return re.findall(r"^```python\n(.*?)^```", page.read_text(), flags=re.S | re.M)


# The README's Python block that uses the package (the others are bots).
EXAMPLES = [(PAGE, i) for i in range(len(python_blocks(PAGE)))] + [
    (README, i) for i, code in enumerate(python_blocks(README)) if "import lightcycles" in code
]


def test_the_pages_show_their_examples():
    assert len(python_blocks(PAGE)) >= 5
    assert any(p == README for p, _ in EXAMPLES)


@pytest.mark.parametrize("page,index", EXAMPLES, ids=lambda x: getattr(x, "name", str(x)))
def test_every_python_example_of_the_docs_runs(page, index, tmp_path, monkeypatch):
    pytest.importorskip("pettingzoo")
    monkeypatch.chdir(tmp_path)
    code = python_blocks(page)[index]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, f"{page.name}, block {index}", "exec"), {"__name__": "__docs__"})
    assert out.getvalue(), "an example shows what it does"
