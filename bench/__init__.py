"""The benchmark scripts, grouped by the question each answers (``bench/README.md`` maps them).

A package so a script in one group imports another group's module by its full name
(``from bench.corpora.docs_qa_sets import load_sets``): each script puts the repository root on
``sys.path`` and runs as ``python bench/GROUP/SCRIPT.py`` from there."""
