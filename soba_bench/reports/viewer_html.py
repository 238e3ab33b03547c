"""Static HTML for the drill-down viewer: ``index.html`` plus one page per compaction moment
(or per pair of moments when two runs are compared). Self-contained (inline CSS, no script,
no network), every text from a run or a corpus escaped, files written atomically."""

from __future__ import annotations

import hashlib
import re
from html import escape
from pathlib import Path

from soba_bench.jsonio import atomic_write_bytes
from soba_bench.reports.viewer import IN_TAIL, Moment, Pair, RunView, pair_moments
from soba_bench.scoring.retention import CONTRADICTED, KEPT, MISSED, STALE, SUPERSEDED_DROPPED

# Outcome -> (label, css class); the order is the order of the fact list on a page.
OUTCOMES = {
    MISSED: ("missed", "missed"),
    CONTRADICTED: ("contradicted", "contradicted"),
    STALE: ("stale", "stale"),
    KEPT: ("kept", "kept"),
    SUPERSEDED_DROPPED: ("superseded, not shown", "dropped"),
    IN_TAIL: ("in the tail", "tail"),
}

CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1500px;padding:1em 2em;color:#222}
h1{font-size:1.4em}h2{font-size:1.15em;margin-top:1.4em}h3{font-size:1em;margin:.8em 0 .3em}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f6f6;padding:.6em;margin:0}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1.5em}
.side{min-width:0}
.fact{padding:1px 6px;margin:2px 0;border-left:5px solid #999}
.fact .tag{font-weight:600;display:inline-block;min-width:9em}
.kept{border-color:#2a8a2a;background:#eef8ee}
.missed{border-color:#c62828;background:#fdeeee}
.contradicted{border-color:#8e24aa;background:#f6eefa}
.stale{border-color:#ef6c00;background:#fff4e8}
.dropped{border-color:#bbb;color:#666}
.tail{border-color:#1e88e5;color:#444}
.item{margin:.3em 0}.item .role{font-weight:600}
.meta td:first-child{color:#555}
.note{color:#666}
nav{margin:.5em 0}
"""


def _slug(session: str) -> str:
    """A file-name-safe, collision-free name for a session (names may hold '/')."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "-", session).strip("-")[:60] or "session"
    return f"{safe}-{hashlib.sha256(session.encode()).hexdigest()[:8]}"


def page_name(session: str, index: int) -> str:
    return f"{_slug(session)}-{index:03d}.html"


def _num(value: object) -> str:
    return f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else "-"


def _page(title: str, body: str) -> str:
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{CSS}</style></head>"
        f"<body>{body}</body></html>\n"
    )


def _meta(moment: Moment) -> str:
    rows = [
        ("trigger", moment.trigger),
        ("outcome", moment.outcome),
        ("reason", moment.reason),
        ("capsule strategy / quality", f"{moment.strategy or '-'} / {moment.quality or '-'}"),
        ("hard limit / soft limit", f"{_num(moment.hard_limit)} / {_num(moment.soft_limit)}"),
        (
            "tokens before / after (reclaimed)",
            f"{_num(moment.tokens_before)} / {_num(moment.tokens_after)} "
            f"({_num(moment.reclaimed)})",
        ),
        ("turn / position", f"{_num(moment.turn)} / entry {_num(moment.point)}"),
        ("checkpoint", moment.checkpoint_id),
    ]
    cells = "".join(
        f"<tr><td>{escape(k)}</td><td>{escape(str(v) if v is not None else '-')}</td></tr>"
        for k, v in rows
    )
    return f'<table class="meta">{cells}</table>'


def _facts(moment: Moment, has_truth: bool) -> str:
    if not has_truth:
        return '<p class="note">This session has no ground truth: no facts to mark.</p>'
    if not moment.facts:
        return '<p class="note">No ground-truth fact is live at this moment.</p>'
    counts = ", ".join(
        f"{label} {moment.count(key)}" for key, (label, _) in OUTCOMES.items() if moment.count(key)
    )
    out = [f'<p class="counts">{escape(counts)}</p>']
    for key, (label, css) in OUTCOMES.items():
        for fact in (f for f in moment.facts if f.outcome == key):
            out.append(
                f'<div class="fact {css}" data-outcome="{escape(key)}">'
                f'<span class="tag">{escape(label)}</span> '
                f"<code>{escape(fact.kind)}</code> {escape(fact.text)}</div>"
            )
    return "".join(out)


def _tail(moment: Moment) -> str:
    if not moment.tail_items:
        return '<p class="note">No retained tail: the capsule stands alone.</p>'
    shown = len(moment.tail)
    head = f"{moment.tail_items} items, {_num(moment.tail_tokens)} tokens (SOBA estimate)" + (
        f"; the first and last {shown} shown" if shown < moment.tail_items else ""
    )
    parts = [f'<p class="note">{escape(head)}</p>']
    for item in moment.tail:
        cut = " [...]" if item.truncated else ""
        parts.append(
            f'<div class="item"><span class="role">{escape(item.role)}</span> '
            f'<span class="note">({_num(item.tokens)} tokens)</span>'
            f"<pre>{escape(item.text)}{cut}</pre></div>"
        )
    return "".join(parts)


def _moment_block(moment: Moment | None, has_truth: bool, heading: str, note: str = "") -> str:
    if moment is None:
        return (
            f'<div class="side"><h2>{escape(heading)}</h2>'
            '<p class="note">No compaction in this session.</p></div>'
        )
    extra = f'<p class="note">{escape(note)}</p>' if note else ""
    return (
        f'<div class="side"><h2>{escape(heading)}</h2>{extra}{_meta(moment)}'
        f'<h3>Capsule</h3><pre class="capsule">{escape(moment.capsule_text)}</pre>'
        f"<h3>Ground-truth facts at this moment</h3>{_facts(moment, has_truth)}"
        f"<h3>Retained tail</h3>{_tail(moment)}</div>"
    )


def _nav(session: str, index: int, total: int) -> str:
    links = ['<a href="index.html">index</a>']
    if index > 1:
        links.append(f'<a href="{page_name(session, index - 1)}">previous</a>')
    if index < total:
        links.append(f'<a href="{page_name(session, index + 1)}">next</a>')
    return f"<nav>{' | '.join(links)}</nav>"


def _single_pages(run: RunView) -> dict[str, str]:
    pages: dict[str, str] = {}
    rows = []
    for session in run.sessions:
        total = len(session.moments)
        for m in session.moments:
            name = page_name(session.session, m.index)
            title = f"{session.session}: capsule {m.index} of {total}"
            body = (
                f"<h1>{escape(title)}</h1><p>run: {escape(run.label)}</p>"
                + _nav(session.session, m.index, total)
                + _moment_block(m, session.has_truth, f"Capsule {m.index}")
            )
            pages[name] = _page(title, body)
            rows.append(
                f"<tr><td>{escape(session.session)}</td>"
                f'<td><a href="{name}">capsule {m.index}</a></td>'
                f'<td>{escape(m.trigger or "-")}</td><td class="n">{_num(m.tokens_before)}</td>'
                f'<td class="n">{_num(m.tokens_after)}</td>'
                + "".join(
                    f'<td class="n">{m.count(k) if session.has_truth else "-"}</td>'
                    for k in (KEPT, MISSED, CONTRADICTED, STALE)
                )
                + "</tr>"
            )
        if not session.moments:
            rows.append(
                f"<tr><td>{escape(session.session)}</td>"
                '<td colspan="8" class="note">no compaction</td></tr>'
            )
    head = (
        "<tr><th>session</th><th>moment</th><th>trigger</th><th>tokens before</th>"
        "<th>after</th><th>kept</th><th>missed</th><th>contradicted</th><th>stale</th></tr>"
    )
    body = (
        f"<h1>soba-bench viewer</h1><p>run: {escape(run.label)}<br>"
        f'<span class="note">{escape(str(run.path))}</span></p>'
        f"<table>{head}{''.join(rows)}</table>"
    )
    pages["index.html"] = _page("soba-bench viewer", body)
    return pages


def _pair_pages(a: RunView, b: RunView) -> dict[str, str]:
    pages: dict[str, str] = {}
    rows = []
    names = [s.session for s in a.sessions] + [
        s.session for s in b.sessions if a.session(s.session) is None
    ]
    for session in names:
        sa, sb = a.session(session), b.session(session)
        pairs = pair_moments(sa, sb)
        truth_a = bool(sa and sa.has_truth)
        truth_b = bool(sb and sb.has_truth)
        for p in pairs:
            name = page_name(session, p.index)
            title = f"{session}: moment {p.index} of {len(pairs)}"
            note_a = "nearest capsule of A (A has fewer)" if p.nearest == "a" else ""
            note_b = "nearest capsule of B (B has fewer)" if p.nearest == "b" else ""
            body = (
                f"<h1>{escape(title)}</h1>"
                + _nav(session, p.index, len(pairs))
                + '<div class="cols">'
                + _moment_block(p.a, truth_a, f"A: {a.label}", note_a)
                + _moment_block(p.b, truth_b, f"B: {b.label}", note_b)
                + "</div>"
            )
            pages[name] = _page(title, body)
            rows.append(_pair_row(session, p, name, truth_a, truth_b))
        if not pairs:
            rows.append(
                f"<tr><td>{escape(session)}</td>"
                '<td colspan="5" class="note">no compaction in either run</td></tr>'
            )
    head = (
        "<tr><th>session</th><th>moment</th><th>A kept / missed / contradicted / stale</th>"
        "<th>B kept / missed / contradicted / stale</th><th>tokens after A / B</th></tr>"
    )
    body = (
        "<h1>soba-bench viewer: A vs B</h1>"
        f'<p>A: {escape(a.label)} <span class="note">{escape(str(a.path))}</span><br>'
        f'B: {escape(b.label)} <span class="note">{escape(str(b.path))}</span></p>'
        f"<table>{head}{''.join(rows)}</table>"
    )
    pages["index.html"] = _page("soba-bench viewer: A vs B", body)
    return pages


def _counts(m: Moment | None, has_truth: bool) -> str:
    if m is None:
        return "-"
    if not has_truth:
        return "(no truth)"
    return " / ".join(str(m.count(k)) for k in (KEPT, MISSED, CONTRADICTED, STALE))


def _pair_row(session: str, p: Pair, name: str, truth_a: bool, truth_b: bool) -> str:
    after = f"{_num(p.a.tokens_after if p.a else None)} / {_num(p.b.tokens_after if p.b else None)}"
    return (
        f'<tr><td>{escape(session)}</td><td><a href="{name}">moment {p.index}</a></td>'
        f"<td>{escape(_counts(p.a, truth_a))}</td><td>{escape(_counts(p.b, truth_b))}</td>"
        f'<td class="n">{escape(after)}</td></tr>'
    )


def render_pages(a: RunView, b: RunView | None = None) -> dict[str, str]:
    """File name -> HTML text: the index and one page per moment (or per pair)."""
    return _single_pages(a) if b is None else _pair_pages(a, b)


def write_viewer(a: RunView, out: Path, b: RunView | None = None) -> Path:
    """Write the pages into ``out`` (each file atomically); return the index path."""
    out.mkdir(parents=True, exist_ok=True)
    for name, text in render_pages(a, b).items():
        atomic_write_bytes(out / name, text.encode("utf-8"))
    return out / "index.html"
