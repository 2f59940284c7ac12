#!/usr/bin/env python3
"""Standard-library self-check for the heldout14 refusal test set."""
import json, os, re, sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = {"oa": "other-attribute", "mm": "min-max-default", "oe": "other-entity", "lc": "lifecycle",
            "od": "other-definition", "nv": "no-value", "hp": "hedged-planned"}
TRAP_FIELDS = {"id", "kind", "family", "question", "file", "note"}
CONTROL_FIELDS = TRAP_FIELDS | {"answer"}
errors = []

def norm(s):
    return re.sub(r"\s+", "", s).casefold()

rows = []
with open(os.path.join(HERE, "questions.jsonl"), encoding="utf-8") as f:
    for n, line in enumerate(f, 1):
        if not line.strip():
            errors.append(f"line {n}: blank line"); continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as e:
            errors.append(f"line {n}: invalid JSON ({e})")

ids = Counter(r.get("id") for r in rows)
for i, c in ids.items():
    if c > 1:
        errors.append(f"duplicate id {i}")

traps = Counter(); controls = Counter()
for r in rows:
    rid = r.get("id")
    kind = r.get("kind")
    want = TRAP_FIELDS if kind == "trap" else CONTROL_FIELDS if kind == "control" else None
    if want is None:
        errors.append(f"{rid}: bad kind {kind!r}"); continue
    if set(r) != want:
        errors.append(f"{rid}: fields {sorted(r)} != {sorted(want)}")
    m = re.fullmatch(r"([tc])-([a-z]{2})-(\d{2})", rid or "")
    if not m or m.group(1) != kind[0] or m.group(2) not in FAMILIES or FAMILIES[m.group(2)] != r.get("family"):
        errors.append(f"{rid}: id does not match kind/family {r.get('family')!r}")
    path = os.path.join(HERE, r.get("file", ""))
    if not r.get("file", "").startswith("corpus/") or not os.path.isfile(path):
        errors.append(f"{rid}: file missing {r.get('file')}"); continue
    for k in want:
        if not isinstance(r.get(k), str) or not r[k].strip():
            errors.append(f"{rid}: empty field {k}")
    if kind == "trap":
        traps[r["family"]] += 1
    else:
        controls[r["family"]] += 1
        with open(path, encoding="utf-8") as fh:
            if norm(r["answer"]) not in norm(fh.read()):
                errors.append(f"{rid}: answer {r['answer']!r} not found in {r['file']}")

for fam in FAMILIES.values():
    if traps[fam] != 8:
        errors.append(f"family {fam}: {traps[fam]} traps, expected 8")
    if not 6 <= controls[fam] <= 8:
        errors.append(f"family {fam}: {controls[fam]} controls, expected 6-8")
if sum(traps.values()) != 56 or sum(controls.values()) != 48:
    errors.append(f"totals: {sum(traps.values())} traps, {sum(controls.values())} controls (want 56/48)")

corpus = os.path.join(HERE, "corpus")
files = sorted(f for f in os.listdir(corpus) if f.endswith(".md"))
if len(files) != 47:
    errors.append(f"corpus has {len(files)} Markdown files, expected 47")
for f in files:
    with open(os.path.join(corpus, f), encoding="utf-8") as fh:
        n = len(fh.read().splitlines())
    if not 15 <= n <= 30:
        errors.append(f"{f}: {n} lines, expected 15-30")
used = {r["file"] for r in rows if "file" in r}
unused = [f for f in files if "corpus/" + f not in used]

print("traps:", dict(traps))
print("controls:", dict(controls))
print("corpus files:", len(files), "| not used by any question:", unused)
if errors:
    print("FAIL"); [print(" -", e) for e in errors]; sys.exit(1)
print("OK")
