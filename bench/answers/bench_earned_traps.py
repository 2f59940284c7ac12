"""Whether ``answered`` can be talked into: generated traps against the earned check.

A seeded generator fills templates of entities (companies, people, places), attributes
(founded, created, launched, born, founded by) and values (years, cities, names) with the
sentences that hold the asked-for value without stating it about the asked subject: a quoted
question, a denial, a supposition, a claim reported as false, an example, another entity's
value (an appositive rival, a relative clause about another person, a possessive, an "of"
phrase) and a heading over an unrelated sentence. Controls state the value plainly (with an
opening adverbial, an appositive of the subject's own, a pronoun under the subject's
heading, the passive and the active voice). Every case is one file of one store, so every
question competes with all the others' passages; each question is asked in both workflows.

A trap answered is a false answer; a control answered with its value is a right one.
Precision of ``answered`` = right / all answered.

Usage::

    python bench/answers/bench_earned_traps.py [--seed N] [--traps N] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime
import platform
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "src")]  # the bench package (repository root) and the library

from bench.benchmark_doc import replace_section  # noqa: E402

from agentic_rag._interfaces.store_service import StoreService  # noqa: E402
from agentic_rag._store import KnowledgeStore  # noqa: E402

DOC = ROOT / "docs" / "benchmarks.md"
START, END = "<!-- bench:earned-traps -->", "<!-- /bench:earned-traps -->"
_SYLLABLES = "ka zor vel mir tan qua lix dor bren sol fen gar hul nim pex rud".split()
_SUFFIXES = ("Robotics", "Labs", "Systems", "Dynamics", "Works", "Foundry")
_FIRST = "Jane Omar Lena Ravi Ines Tomas Mei Karl Aisha Hugo Nora Felix Ada Bruno Chloe Dmitri Elif Farid Greta Ivo".split()
_LAST = "Doe Okafor Lindqvist Patel Moreau Novak Tanaka Brandt Haddad Silva Quinn Weber Abara Costa Dahl Eriksen Fontaine Grund Horvat Ito".split()
_OTHER_SUFFIXES = ("Corp", "Group", "Holdings")
_OTHER_LAST = "Achterberg Bianchi Castell Duarte Engel Ferreira".split()
_CITIES = "Lyon Oslo Porto Kyoto Quito Tunis Gdansk Dakar Leeds Perth Austin Malmo".split()
_VERBS = ("founded", "created", "launched", "established")

# Date questions ("When was E V?"): (family, template); E the subject, O another company,
# P a person, C a city, Y the year asked about, Z another year.
DATE_TRAPS = (
    ("quoted question", "When was {E} {V}? Nobody here knows yet."),
    ("negated", "{E} was not {V} in {Y}."),
    ("negated", "{E} was never {V} in {Y}, whatever the brochure says."),
    ("hypothetical", "If {E} had been {V} in {Y}, it would be older than {O}."),
    ("reported as false", "Some blogs claim {E} was {V} in {Y}, which is false."),
    ("reported as false", "It is a myth that {E} was {V} in {Y}."),
    ("example", "For example, {E} was {V} in {Y}."),
    ("another entity", "{O}, a rival of {E}, was {V} in {Y}."),
    ("another entity", "{E} was {V} by {P}, who was born in {Y}."),
    ("another entity", "{E}'s parent company was {V} in {Y}."),
    ("another entity", "The first office of {E} was {V} in {Y}."),
    ("heading", "# {E}\n\nThe {C} warehouse was {V} in {Y}."),
)
DATE_CONTROLS = (
    "{E} was {V} in {Y}.",
    "In {Y}, {E} was {V} in {C}.",
    "{E}, a maker of sensors, was {V} in {Y}.",
    "# {E}\n\nIt was {V} in {Y} by {P}.",
)
PLACE_TRAPS = (
    ("another entity", "{P} works with {Q}, who was born in {C}."),
    ("another entity", "{P}'s sister was born in {C}."),
    ("another entity", "{Q}, a friend of {P}, was born in {C}."),
    ("negated", "{P} was not born in {C}."),
    ("heading", "# {P}\n\n{Q} was born in {C}."),
    ("quoted question", "Where was {P} born? The records were lost."),
)
PLACE_CONTROLS = ("{P} was born in {C} in {Z}.", "# {P}\n\nShe was born in {C}.")
PERSON_TRAPS = (
    ("another entity", "{P} founded {O}, a rival of {E}."),
    ("negated", "{E} was not founded by {P}."),
    ("heading", "# {E}\n\n{O} was founded by {P}."),
    ("reported as false", "Some say {E} was founded by {P}, but that is wrong."),
)
PERSON_CONTROLS = ("{E} was founded by {P} in {Y}.", "{P} founded {E} in {Y}.")


def _company(rng: random.Random, used: set[str]) -> str:
    while True:
        name = f"{rng.choice(_SYLLABLES).title()}{rng.choice(_SYLLABLES)} {rng.choice(_SUFFIXES)}"
        if name not in used:
            used.add(name)
            return name


def _person(rng: random.Random, used: set[str]) -> str:
    while True:
        name = f"{rng.choice(_FIRST)} {rng.choice(_LAST)}"
        if name not in used:
            used.add(name)
            return name


def generate(seed: int, traps: int) -> list[dict[str, str]]:
    """Seeded cases: ``{family, kind ("trap"/"control"), text, question, key}``; about one
    control for every three traps."""
    rng = random.Random(seed)
    used: set[str] = set()
    cases: list[dict[str, str]] = []
    families = [("date", t) for t in DATE_TRAPS] + [("place", t) for t in PLACE_TRAPS] + [("person", t) for t in PERSON_TRAPS]
    controls = [("date", c) for c in DATE_CONTROLS] + [("place", c) for c in PLACE_CONTROLS] + [("person", c) for c in PERSON_CONTROLS]
    for n in range(traps + traps // 3):
        if n < traps:
            kind, (shape, (family, template)) = "trap", families[n % len(families)]
        else:
            kind, (shape, template) = "control", controls[n % len(controls)]
            family = shape
        # The asked subjects (E, P) are never reused; the entities beside them (O, Q) come from
        # other name pools, so no sentence about them answers another case's question.
        values = {"E": _company(rng, used), "O": f"{rng.choice(_SYLLABLES).title()}{rng.choice(_SYLLABLES)} {rng.choice(_OTHER_SUFFIXES)}",
                  "P": _person(rng, used), "Q": f"{rng.choice(_FIRST)} {rng.choice(_OTHER_LAST)}",
                  "C": rng.choice(_CITIES), "Y": str(rng.randint(1850, 2020)), "Z": str(rng.randint(1900, 2000)), "V": rng.choice(_VERBS)}
        if shape == "date":
            question, key = f"When was {values['E']} {values['V']}?", values["Y"]
        elif shape == "place":
            question, key = f"Where was {values['P']} born?", values["C"]
        else:
            values["V"] = "founded"
            question, key = f"Who founded {values['E']}?", values["P"]
        body = template.format(**values)
        text = body if body.startswith("#") else f"# Notes {n}\n\n{body}"
        cases.append({"family": family, "kind": kind, "text": text + "\n", "question": question, "key": key})
    return cases


def run(cases: list[dict[str, str]]) -> dict[str, Counter]:
    """Ask every case in both workflows over one store of all the cases' files."""
    tally: dict[str, Counter] = {"agentic": Counter(), "parallel": Counter()}
    with tempfile.TemporaryDirectory(prefix="earned-traps-") as tmp:
        root = Path(tmp) / "docs"
        root.mkdir()
        for n, case in enumerate(cases):
            (root / f"case{n:04d}.md").write_text(case["text"], encoding="utf-8")
        store = KnowledgeStore(Path(tmp) / "store", base=root)
        store.index(root, corpus="docs", description="company and people notes")
        service = StoreService(store)
        for case in cases:
            for mode, counts in tally.items():
                payload = service.ask(case["question"], mode).payload
                answered = payload["status"] == "answered"
                counts[(case["kind"], case["family"], "n")] += 1
                if answered:
                    right = case["kind"] == "control" and case["key"] in payload["answer"]
                    counts[(case["kind"], case["family"], "answered")] += 1
                    counts["right" if right else "wrong"] += 1
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--traps", type=int, default=240, help="how many traps (a third as many controls are added)")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/benchmarks.md")
    args = parser.parse_args()
    cases = generate(args.seed, args.traps)
    tally = run(cases)
    rows = sorted({(c["kind"], c["family"]) for c in cases}, key=lambda r: (r[0] != "trap", r[1]))
    lines = ["| cases | n | answered, agentic | answered, parallel |", "|---|---:|---:|---:|"]
    for kind, family in rows:
        n = tally["agentic"][(kind, family, "n")]
        lines.append(f"| {kind}: {family} | {n} | {tally['agentic'][(kind, family, 'answered')]} | {tally['parallel'][(kind, family, 'answered')]} |")
    summary = []
    for mode, counts in tally.items():
        answered = counts["right"] + counts["wrong"]
        precision = f"{counts['right'] / answered:.1%}" if answered else "n/a"
        summary.append(f"| {mode} | {counts['wrong']} of {sum(1 for c in cases if c['kind'] == 'trap')} | {counts['right']} of "
                       f"{sum(1 for c in cases if c['kind'] == 'control')} | {precision} |")
    table = "\n".join(lines)
    totals = "\n".join(["| mode | traps answered | controls answered with their value | precision of `answered` |", "|---|---:|---:|---:|", *summary])
    print(table, "\n", totals, sep="\n")
    if not args.no_write:
        date = datetime.date.today().isoformat()
        text = (f"Command: `python bench/answers/bench_earned_traps.py --seed {args.seed} --traps {args.traps}` ({date}, Python "
                f"{platform.python_version()}). {len(cases)} generated cases in one store, each asked in both workflows: "
                f"traps hold the asked value without stating it about the asked subject; controls state it.\n\n{totals}\n\n{table}\n")
        replace_section(DOC, START, END, text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
