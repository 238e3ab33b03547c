"""Running part of a corpus: the sessions named (``corpus.select`` / ``--sessions``), then the
first N of them (``corpus.limit`` / ``--limit``). A name is a session's name (``cc4-failures``)
or its id with the corpus (``soba-conformance/cc4-failures``); an unknown one is an error that
lists the valid names, never a silently smaller run."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from soba_bench.corpora.manifest import Corpus
from soba_bench.errors import InputError


def select_sessions(
    corpora: Sequence[Corpus], names: Sequence[str] = (), limit: int | None = None
) -> tuple[Corpus, ...]:
    """The corpora holding only the chosen sessions, in corpus order; a corpus left with no
    session is dropped (its manifest still identifies the rest in the run record)."""
    wanted = [str(n) for n in names]
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 1):
        raise InputError(
            "invalid session limit",
            field="corpus.limit",
            value=limit,
            has_value=True,
            expected="a positive integer",
        )
    if wanted:
        known = {f"{c.name}/{s.name}" for c in corpora for s in c.sessions}
        known |= {s.name for c in corpora for s in c.sessions}
        unknown = [n for n in wanted if n not in known]
        if unknown:
            valid = sorted(f"{c.name}/{s.name}" for c in corpora for s in c.sessions)
            raise InputError(
                "unknown session",
                field="corpus.select",
                value=unknown[0],
                has_value=True,
                expected="one of " + ", ".join(valid),
            )
    chosen = set(wanted)
    left = limit
    out = []
    for corpus in corpora:
        items = [
            s for s in corpus.sessions if not chosen or {s.name, f"{corpus.name}/{s.name}"} & chosen
        ]
        if left is not None:
            items, left = items[:left], max(0, left - len(items))
        if items:
            out.append(replace(corpus, sessions=tuple(items)))
    return tuple(out)
