#!/usr/bin/env python3
"""Standard-library self-check for the heldout16 refusal test set."""
import json
import os
import re
import sys
from collections import Counter

HERE = os.path.dirname(os.path.abspath(__file__))
FAMILIES = {'other-attribute': 'oa', 'min-max-default': 'mm', 'other-entity': 'oe', 'lifecycle': 'lc',
            'other-definition': 'od', 'no-value': 'nv', 'hedged-planned': 'hp'}
TRAP_FIELDS = ['id', 'kind', 'family', 'question', 'file', 'note']
CONTROL_FIELDS = ['id', 'kind', 'family', 'question', 'answer', 'file', 'note']
errors = []


def squash(text):
    return re.sub(r'\s+', '', text).casefold()


# corpus files
corpus = os.path.join(HERE, 'corpus')
md_files = sorted(f for f in os.listdir(corpus) if f.endswith('.md'))
if len(md_files) != 47:
    errors.append('expected 47 corpus files, found %d' % len(md_files))
for name in md_files:
    with open(os.path.join(corpus, name), encoding='utf-8') as fh:
        n = len(fh.read().splitlines())
    if not 15 <= n <= 30:
        errors.append('%s has %d lines (want 15-30)' % (name, n))

# questions
rows = []
with open(os.path.join(HERE, 'questions.jsonl'), encoding='utf-8') as fh:
    for i, line in enumerate(fh, 1):
        if not line.strip():
            errors.append('line %d is blank' % i)
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as exc:
            errors.append('line %d: invalid JSON (%s)' % (i, exc))

ids = Counter(r.get('id') for r in rows)
for k, v in ids.items():
    if v > 1:
        errors.append('duplicate id %s' % k)

used = set()
for r in rows:
    rid = r.get('id')
    kind = r.get('kind')
    want = TRAP_FIELDS if kind == 'trap' else CONTROL_FIELDS if kind == 'control' else None
    if want is None:
        errors.append('%s: bad kind %r' % (rid, kind))
        continue
    if sorted(r) != sorted(want):
        errors.append('%s: fields %s, want %s' % (rid, sorted(r), sorted(want)))
    fam = r.get('family')
    if fam not in FAMILIES:
        errors.append('%s: unknown family %r' % (rid, fam))
        continue
    prefix = ('t-' if kind == 'trap' else 'c-') + FAMILIES[fam] + '-'
    if not re.fullmatch(re.escape(prefix) + r'\d\d', rid or ''):
        errors.append('%s: id does not match %sNN' % (rid, prefix))
    for field in want:
        if not isinstance(r.get(field), str) or not r.get(field).strip():
            errors.append('%s: empty field %s' % (rid, field))
    path = os.path.join(HERE, r.get('file', ''))
    if not r.get('file', '').startswith('corpus/') or not os.path.isfile(path):
        errors.append('%s: file %r does not exist' % (rid, r.get('file')))
        continue
    used.add(os.path.basename(path))
    if kind == 'control':
        with open(path, encoding='utf-8') as fh:
            text = fh.read()
        if squash(r['answer']) not in squash(text):
            errors.append('%s: answer %r not found in %s' % (rid, r['answer'], r['file']))

traps = Counter(r['family'] for r in rows if r.get('kind') == 'trap')
controls = Counter(r['family'] for r in rows if r.get('kind') == 'control')
for fam in FAMILIES:
    if traps.get(fam, 0) != 8:
        errors.append('family %s has %d traps (want 8)' % (fam, traps.get(fam, 0)))
    if not 6 <= controls.get(fam, 0) <= 8:
        errors.append('family %s has %d controls (want 6-8)' % (fam, controls.get(fam, 0)))
if sum(traps.values()) != 56 or sum(controls.values()) != 48:
    errors.append('totals: %d traps, %d controls (want 56, 48)' % (sum(traps.values()), sum(controls.values())))

unused = [f for f in md_files if f not in used]
print('corpus files: %d; unused by any question: %d (%s)' % (len(md_files), len(unused), ', '.join(unused)))
print('traps per family:   ', dict(traps))
print('controls per family:', dict(controls))
if errors:
    print('FAIL')
    for e in errors:
        print('  -', e)
    sys.exit(1)
print('OK')
