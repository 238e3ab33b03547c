"""report.html: one self-contained page (inline CSS, figures as base64 PNG data URIs, no
scripts, no external requests), so it opens anywhere, offline, as a single file."""

from __future__ import annotations

import base64
import html
import re

import pandas as pd

from soba_bench.reports.markdown import cell
from soba_bench.reports.sections import FigureItem, Section, TableItem

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1200px;
       padding: 0 1rem; color: #1a1a1a; line-height: 1.45; }
h1 { border-bottom: 2px solid #1565c0; padding-bottom: .3rem; }
h2 { margin-top: 2.5rem; border-bottom: 1px solid #ccc; }
nav ul { columns: 2; }
.table-wrap { overflow-x: auto; margin: .5rem 0 1.5rem; }
table { border-collapse: collapse; font-size: .85rem; }
th, td { border: 1px solid #ddd; padding: .25rem .5rem; text-align: right; }
th { background: #f0f4fa; position: sticky; top: 0; }
td:first-child, th:first-child { text-align: left; }
caption { caption-side: top; text-align: left; font-weight: 600; padding: .3rem 0; }
figure { margin: 1rem 0 2rem; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: .9rem; color: #444; }
.missing { color: #8a6d00; background: #fff8e1; padding: .3rem .6rem; display: inline-block; }
"""


def table_html(caption: str, frame: pd.DataFrame) -> str:
    """A DataFrame as an HTML table, every cell escaped."""
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in frame.columns)
    rows = []
    for row in frame.itertuples(index=False):
        cells = "".join(f"<td>{html.escape(cell(v, markdown=False))}</td>" for v in row)
        rows.append(f"<tr>{cells}</tr>")
    return (
        f'<div class="table-wrap"><table><caption>{html.escape(caption)}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _item(item: TableItem | FigureItem) -> str:
    if isinstance(item, TableItem):
        if item.frame.empty:
            return _missing(item.caption, item.missing)
        return table_html(item.caption, item.frame)
    if item.png is None:
        return _missing(item.caption, item.missing)
    data = base64.b64encode(item.png).decode("ascii")
    alt = html.escape(item.caption)
    return (
        f'<figure id="fig-{html.escape(item.name)}"><img alt="{alt}" '
        f'src="data:image/png;base64,{data}"><figcaption>{alt}</figcaption></figure>'
    )


def _missing(caption: str, text: str) -> str:
    return (
        f"<p><strong>{html.escape(caption)}:</strong> "
        f'<span class="missing">{html.escape(text)}</span></p>'
    )


def _inline(text: str) -> str:
    """Escaped text with Markdown's `code` spans as <code> and **strong** as <strong>."""
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text))
    return re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", text)


def render_html(title: str, sections: list[Section]) -> str:
    """The whole report as one HTML page."""
    nav = "".join(f'<li><a href="#{s.anchor}">{html.escape(s.title)}</a></li>' for s in sections)
    body = []
    for section in sections:
        body.append(f'<section id="{section.anchor}"><h2>{html.escape(section.title)}</h2>')
        body += [f"<p>{_inline(t)}</p>" for t in section.text]
        body += [_item(item) for item in section.items]
        body.append("</section>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # No favicon request: the page must load without a single network access.
        '<link rel="icon" href="data:,">'
        f"<title>{html.escape(title)}</title><style>{STYLE}</style></head><body>"
        f"<h1>{html.escape(title)}</h1><nav><ul>{nav}</ul></nav>"
        f"{''.join(body)}</body></html>\n"
    )
