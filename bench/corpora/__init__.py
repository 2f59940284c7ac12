"""The documentation sets the benchmarks read: the table of docs-QA sets and the scripts that fetch
the large ones (pinned PyPI and Debian packages) into ``bench/.cache/docs_sets/``."""
