"""report.md: the sections as GitHub-flavoured Markdown, figures linked as PNG files."""

from __future__ import annotations

import math

import pandas as pd

from soba_bench.reports.sections import FigureItem, Section, TableItem

MISSING_CELL = "–"


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
    return text.replace("|", "\\|").replace("\n", " ") if markdown else text


def table_markdown(frame: pd.DataFrame) -> str:
    """A DataFrame as a pipe table (index not shown)."""
    header = "| " + " | ".join(cell(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    rows = ["| " + " | ".join(cell(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([header, rule, *rows])


def _item(item: TableItem | FigureItem, figure_dir: str) -> str:
    if isinstance(item, TableItem):
        if item.frame.empty:
            return f"**{item.caption}:** {item.missing}."
        return f"**{item.caption}**\n\n{table_markdown(item.frame)}"
    if item.png is None:
        return f"**{item.caption}:** {item.missing}."
    return f"![{item.caption}]({figure_dir}/{item.name}.png)"


def render_markdown(title: str, sections: list[Section], figure_dir: str = "figures") -> str:
    """The whole report as Markdown; figures are referenced as ``figure_dir/<name>.png``."""
    parts = [f"# {title}", ""]
    parts += [f"- [{s.title}](#{s.anchor})" for s in sections]
    for section in sections:
        parts += ["", f'<a id="{section.anchor}"></a>', f"## {section.title}", ""]
        for text in section.text:  # one paragraph each
            parts += [text, ""]
        for item in section.items:
            parts += [_item(item, figure_dir), ""]
    return "\n".join(parts).rstrip() + "\n"
