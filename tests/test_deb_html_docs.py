"""Page selection and the manifest pin of ``bench/corpora/deb_html_docs.py``, on a folder built here.

No network and no ``apt-get``: only the parts that decide what lands in the folder and
what its pin is.
"""

from __future__ import annotations

import hashlib
import importlib.util
import shutil
import sys
import tempfile
import unittest
from pathlib import Path, PurePosixPath

MODULE_PATH = Path(__file__).resolve().parents[1] / "bench" / "corpora" / "deb_html_docs.py"


def _load_module():
    spec = importlib.util.spec_from_file_location("deb_html_docs_under_test", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # dataclasses looks the defining module up in sys.modules while the class is built
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


class DebHtmlDocsTest(unittest.TestCase):
    def setUp(self) -> None:
        self.module = _load_module()
        self.root = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.root)
        files = {
            "index.html": b"<p>top</p>", "library/os.html": b"<p>os</p>",
            "_static/basic.html": b"x", "_sources/os.rst.html": b"x", "style.css": b"x",
            "whatsnew/changelog.html.gz": b"x", "library/os.html.txt": b"x",
        }
        for name, data in files.items():
            path = self.root / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        (self.root / "link.html").symlink_to(self.root / "index.html")

    def test_only_regular_html_pages_outside_underscore_folders_are_kept(self) -> None:
        self.assertEqual(self.module.select_pages(self.root),
                         [PurePosixPath("index.html"), PurePosixPath("library/os.html")])

    def test_manifest_is_the_sha256_of_sorted_path_and_digest_lines(self) -> None:
        folder = self.root / "kept"
        (folder / "b").mkdir(parents=True)
        (folder / "b" / "z.html").write_bytes(b"z")
        (folder / "a.html").write_bytes(b"a")
        lines = "".join(f"{name}\t{hashlib.sha256(data).hexdigest()}\n"
                        for name, data in (("a.html", b"a"), ("b/z.html", b"z")))
        expected = hashlib.sha256(lines.encode("utf-8")).hexdigest()
        self.assertEqual(self.module.manifest_sha256(folder), (2, expected))
        (folder / "a.html").write_bytes(b"A")
        self.assertNotEqual(self.module.manifest_sha256(folder)[1], expected)


if __name__ == "__main__":
    unittest.main()
