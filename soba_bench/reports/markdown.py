"""report.md: the sections as GitHub-flavoured Markdown, figures linked as PNG files."""

from __future__ import annotations

import math

import pandas as pd

from soba_bench.reports.sections import FigureItem, Section, TableItem

MISSING_CELL = "–"
# Markdown that would turn a name into markup: links and images, code spans, emphasis.
_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*[]!"})


def html_text(text: str) -> str:
    """``&``, ``<`` and ``>`` as entities: a name like ``<script>`` or ``<img onerror=...>``
    read from a run record must show as text, not run as HTML in a Markdown viewer.
    Entities render as the characters themselves, so the harness's own text is unchanged."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def md_escape(text: str) -> str:
    """A name the report did not write itself (corpus, session, job, strategy, folder), as
    Markdown text: HTML escaped, and the characters that start links, images, code spans and
    emphasis backslash-escaped."""
    return html_text(text.translate(_MD_SPECIAL))


def cell(value: object, markdown: bool = True) -> str:
    """One table cell as text: NaN/None as a dash, floats without noise; for Markdown, pipes
    escaped and newlines flattened."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return MISSING_CELL
    if value is pd.NA or value is pd.NaT:
        return MISSING_CELL
    if isinstance(value, float):
        if value.is_integer():
            text = f"{value:.0f}"
        else:
            text = f"{value:.4g}" if abs(value) < 1000 else f"{value:.1f}"
    else:
        text = str(value)
    if not markdown:
        return text
    return md_escape(text).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def table_markdown(frame: pd.DataFrame) -> str:
    """A DataFrame as a pipe table (index not shown)."""
    header = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def _item(item: TableItem | FigureItem, figure_dir: str) -> str:
    if isinstance(item, TableItem):
        if item.frame.empty:
            return f"**{html_text(item.caption)}:** {html_text(item.missing)}."
        return f"**{html_text(item.caption)}**\n\n{table_markdown(item.frame)}"
    if item.png is None:
        return f"**{html_text(item.caption)}:** {html_text(item.missing)}."
    return f"![{md_escape(item.caption)}]({figure_dir}/{item.name}.png)"


def render_markdown(title: str, sections: list[Section], figure_dir: str = "figures") -> str:
    """The whole report as Markdown; figures are referenced as ``figure_dir/<name>.png``."""
    parts = [f"# {md_escape(title)}", ""]
    parts += [f"- [{md_escape(s.title)}](#{s.anchor})" for s in sections]
    for section in sections:
        parts += ["", f'<a id="{section.anchor}"></a>', f"## {html_text(section.title)}", ""]
        # Section text is the harness's Markdown with names in it: HTML escaped only.
        for text in section.text:  # one paragraph each
            parts += [html_text(text), ""]
        for item in section.items:
            parts += [_item(item, figure_dir), ""]
    return "\n".join(parts).rstrip() + "\n"
