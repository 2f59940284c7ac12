"""The README's Python examples run as written (so the tour stays true)."""

from __future__ import annotations

import contextlib
import io
import re
import unittest
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


class ReadmeExamplesTest(unittest.TestCase):
    def test_python_blocks_run_in_order(self):
        blocks = [b for b in re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
                  if not b.startswith("# needs a model endpoint")]
        self.assertGreaterEqual(len(blocks), 2)
        namespace: dict = {}
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            for block in blocks:
                exec(compile(block, str(README), "exec"), namespace)  # noqa: S102 - our own README
        self.assertIn("answered", out.getvalue())
        self.assertIn("Lyon", out.getvalue())


if __name__ == "__main__":
    unittest.main()
