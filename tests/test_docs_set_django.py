"""The Django docs-set fetcher in ``bench/corpora/docs_set_django.py``, on small made-up archives.

No network: the download step is replaced by a function that copies a tarball built here,
and the pinned SHA-256 and file count by the ones of that tarball.
"""

from __future__ import annotations

import hashlib
import importlib.util
import io
import shutil
import sys
import tarfile
import tempfile
import unittest
from pathlib import Path
from unittest import mock

MODULE_PATH = Path(__file__).resolve().parents[1] / "bench" / "corpora" / "docs_set_django.py"


def _load_module():
    spec = importlib.util.spec_from_file_location("docs_set_django_under_test", MODULE_PATH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _tarball(path: Path, members: dict[str, bytes]) -> str:
    with tarfile.open(path, "w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return hashlib.sha256(path.read_bytes()).hexdigest()


class DocsSetDjangoTest(unittest.TestCase):
    def setUp(self) -> None:
        self.module = _load_module()
        self.tmp = Path(tempfile.mkdtemp())
        self.addCleanup(shutil.rmtree, self.tmp, True)
        self.top = f"django-{self.module.DJANGO_VERSION}"

    def _fetch_with(self, members: dict[str, bytes], *, expected_files: int) -> Path:
        source = self.tmp / "built.tar.gz"
        digest = _tarball(source, members)

        def fake_download(dest: Path) -> Path:
            out = dest / self.module.SDIST_NAME
            out.write_bytes(source.read_bytes())
            return out

        with mock.patch.object(self.module, "_download", fake_download), \
                mock.patch.object(self.module, "SDIST_SHA256", digest), \
                mock.patch.object(self.module, "EXPECTED_FILES", expected_files):
            return self.module.fetch(self.tmp / "cache")

    def _members(self) -> dict[str, bytes]:
        top = self.top
        return {
            f"{top}/LICENSE": b"BSD licence text\n",
            f"{top}/README.rst": b"not docs\n",
            f"{top}/django/__init__.py": b"code\n",
            f"{top}/docs/conf.py": b'source_suffix = {".txt": "restructuredtext"}\n',
            f"{top}/docs/Makefile": b"all:\n",
            f"{top}/docs/index.txt": b"Title\n=====\n",
            f"{top}/docs/ref/settings.txt": b"DEBUG\n-----\n",
            f"{top}/docs/README.rst": b"Readme\n",
            f"{top}/docs/_theme/t/layout.html": b"{% block body %}{% endblock %}\n",
            f"{top}/docs/intro/_images/a.png": b"\x89PNG\r\n",
            f"{top}/docs/_ext/djangodocs.py": b"pass\n",
        }

    def test_keeps_text_conf_and_licence_only(self) -> None:
        folder = self._fetch_with(self._members(), expected_files=6)
        kept = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
        self.assertEqual(kept, [
            "LICENSE", "docs/README.rst", "docs/_theme/t/layout.html", "docs/conf.py",
            "docs/index.txt", "docs/ref/settings.txt",
        ])
        self.assertEqual((folder / "docs/ref/settings.txt").read_bytes(), b"DEBUG\n-----\n")
        self.assertEqual(sorted(p.name for p in folder.parent.iterdir()), ["django"])

    def test_second_fetch_reuses_a_complete_folder(self) -> None:
        folder = self._fetch_with(self._members(), expected_files=6)
        marker = folder / "docs" / "index.txt"
        marker.write_bytes(b"kept as it is\n")

        def no_download(dest: Path) -> Path:
            raise AssertionError("a complete folder must not be downloaded again")

        with mock.patch.object(self.module, "_download", no_download), \
                mock.patch.object(self.module, "EXPECTED_FILES", 6):
            self.assertEqual(self.module.fetch(self.tmp / "cache"), folder)
        self.assertEqual(marker.read_bytes(), b"kept as it is\n")

    def test_incomplete_folder_is_rebuilt(self) -> None:
        folder = self._fetch_with(self._members(), expected_files=6)
        (folder / "docs" / "index.txt").unlink()
        again = self._fetch_with(self._members(), expected_files=6)
        self.assertTrue((again / "docs" / "index.txt").is_file())
        self.assertEqual(sorted(p.name for p in again.parent.iterdir()), ["django"])

    def test_wrong_count_raises_and_leaves_nothing(self) -> None:
        with self.assertRaisesRegex(RuntimeError, "yielded 6 documentation files, expected 7"):
            self._fetch_with(self._members(), expected_files=7)
        self.assertEqual(list((self.tmp / "cache").iterdir()), [])

    def test_sha_mismatch_raises(self) -> None:
        source = self.tmp / "built.tar.gz"
        _tarball(source, self._members())

        def fake_download(dest: Path) -> Path:
            out = dest / self.module.SDIST_NAME
            out.write_bytes(source.read_bytes())
            return out

        with mock.patch.object(self.module, "_download", fake_download), \
                mock.patch.object(self.module, "SDIST_SHA256", "0" * 64):
            with self.assertRaisesRegex(RuntimeError, "expected the pinned 0000"):
                self.module.fetch(self.tmp / "cache")
        self.assertFalse((self.tmp / "cache" / "django").exists())

    def test_member_escaping_the_archive_is_refused(self) -> None:
        members = self._members()
        members[f"{self.top}/docs/../../evil.txt"] = b"x\n"
        with self.assertRaisesRegex(RuntimeError, "unsafe member path"):
            self._fetch_with(members, expected_files=6)
        self.assertFalse((self.tmp / "evil.txt").exists())

    def test_pip_failure_is_a_runtime_error(self) -> None:
        failing = mock.Mock(returncode=1, stdout="", stderr="ERROR: No matching distribution\n")
        with mock.patch.object(self.module.subprocess, "run", return_value=failing) as run:
            with self.assertRaisesRegex(RuntimeError, "pip could not download .*No matching"):
                self.module.fetch(self.tmp / "cache")
        command = run.call_args.args[0]
        self.assertEqual(command[:4], [sys.executable, "-m", "pip", "download"])
        self.assertIn(f"django=={self.module.DJANGO_VERSION}", command)


if __name__ == "__main__":
    unittest.main()
