"""Bulk text for synthetic sessions: prose, source files, logs, opaque reasoning blobs, and the
noise a capsule should not carry (API-key-like secrets, prompt injections, text that breaks
JSON). Pools are drawn once per session from the session's generator and then sliced, so a
20,000-entry session costs a few hundred thousand random draws, not millions.
"""

from __future__ import annotations

import base64
import random
import string

from soba_bench.corpora.synthetic import banks
from soba_bench.corpora.synthetic.config import CHARS_PER_TOKEN

_ALNUM = string.ascii_letters + string.digits
_LOG_LEVELS = ("INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR")


def chars_for(tokens: int) -> int:
    return max(1, int(tokens * CHARS_PER_TOKEN))


class TextPools:
    """Seeded text sources for one session."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        sentences = []
        for _ in range(4000):
            words = rng.choices(banks.VOCAB, k=rng.randint(6, 14))
            sentences.append(" ".join(words).capitalize() + ".")
        self._prose = " ".join(sentences)
        self._logs = [self._log_line(i) for i in range(1500)]
        self._blob = base64.b64encode(rng.randbytes(48_000)).decode("ascii")
        self._files: dict[str, list[str]] = {}

    # ── sizes ────────────────────────────────────────────────────────────────
    def size(self, tokens: int) -> int:
        """A character count around ``tokens`` estimator tokens (0.5x..1.5x)."""
        return max(8, int(chars_for(tokens) * self.rng.uniform(0.5, 1.5)))

    # ── prose ────────────────────────────────────────────────────────────────
    def prose(self, chars: int) -> str:
        """Whole sentences of filler, about ``chars`` long (never a trigger word)."""
        pool = self._prose
        out: list[str] = []
        need = chars
        while need > 0:
            start = self.rng.randrange(0, len(pool) - 1)
            start = pool.find(". ", start)
            start = 0 if start < 0 else start + 2
            piece = pool[start : start + need]
            cut = piece.rfind(".")
            piece = piece[: cut + 1] if cut > 0 else piece
            if not piece:
                piece = pool[:need]
            out.append(piece)
            need -= len(piece) + 1
        return " ".join(out)

    def pad(self, lead: str, chars: int) -> str:
        """``lead`` followed by filler up to about ``chars`` characters."""
        room = chars - len(lead) - 1
        return lead if room < 20 else f"{lead} {self.prose(room)}"

    # ── opaque reasoning ─────────────────────────────────────────────────────
    def blob(self, chars: int) -> str:
        blob = self._blob
        if chars >= len(blob):
            return (blob * (chars // len(blob) + 1))[:chars]
        start = self.rng.randrange(0, len(blob) - chars)
        return blob[start : start + chars]

    # ── logs ─────────────────────────────────────────────────────────────────
    def _log_line(self, i: int) -> str:
        rng = self.rng
        ts = f"2026-01-01T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}.{i % 1000:03d}Z"
        level = rng.choice(_LOG_LEVELS)
        words = " ".join(rng.choices(banks.VOCAB, k=rng.randint(4, 10)))
        kind = rng.random()
        if kind < 0.08:
            # Truncated structured log lines: not valid JSON on their own.
            return f"{ts} {level} {rng.choice(banks.JSON_BREAKERS)} {words}"
        if kind < 0.3:
            req = "".join(rng.choices(_ALNUM, k=10))
            return f'{ts} {level} {{"msg": "{words}", "req": "{req}", "ms": {rng.randint(1, 900)}}}'
        return f"{ts} {level} [{rng.choice(banks.IDENTS)}] {words}"

    def log(self, chars: int) -> str:
        """Consecutive log lines, about ``chars`` long; the first line is never a failure."""
        logs = self._logs
        i = self.rng.randrange(len(logs))
        out: list[str] = []
        total = 0
        while total < chars:
            line = logs[i % len(logs)]
            out.append(line)
            total += len(line) + 1
            i += 1
        return "\n".join(out)

    # ── source files ─────────────────────────────────────────────────────────
    def _code_line(self) -> str:
        rng = self.rng
        a, b, c = rng.choice(banks.IDENTS), rng.choice(banks.IDENTS), rng.choice(banks.IDENTS)
        pick = rng.randrange(8)
        if pick == 0:
            return f"import {{ {a.capitalize()}{b.capitalize()} }} from './{c}';"
        if pick == 1:
            return f"export function {a}{b.capitalize()}({c}: {rng.choice(banks.TYPES)}) {{"
        if pick == 2:
            return f"  const {a} = await {b}.{c}({rng.choice(banks.IDENTS)});"
        if pick == 3:
            return f"  if (!{a}) return {b}.{c};"
        if pick == 4:
            return f"  // {self.prose(rng.randint(30, 70))}"
        if pick == 5:
            return "}"
        if pick == 6:
            return f"  {a}.{b} = {rng.randint(0, 5000)};"
        return f"  return {{ {a}, {b}: {c}.{rng.choice(banks.IDENTS)} }};"

    def file_lines(self, path: str) -> list[str]:
        lines = self._files.get(path)
        if lines is None:
            count = self.rng.randint(80, 260)
            if path.endswith(".md"):
                lines = [self._doc_line() for _ in range(count)]
            elif path.endswith(".json"):
                lines = ["{", *(self._json_line() for _ in range(count)), '  "private": true', "}"]
            else:
                lines = [self._code_line() for _ in range(count)]
            self._files[path] = lines
        return lines

    def _doc_line(self) -> str:
        pick = self.rng.randrange(6)
        if pick == 0:
            return "## " + self.prose(30).rstrip(".")
        if pick == 1:
            return ""
        return self.prose(self.rng.randint(40, 160))

    def _json_line(self) -> str:
        rng = self.rng
        key = f"{rng.choice(banks.IDENTS)}-{rng.choice(banks.IDENTS)}"
        return f'  "{key}": "^{rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 9)}",'

    def read(self, path: str, chars: int) -> str:
        """A ``read`` tool result: numbered lines of the file, about ``chars`` long."""
        lines = self.file_lines(path)
        start = 0 if self.rng.random() < 0.5 else self.rng.randrange(len(lines))
        out: list[str] = []
        total = 0
        i = start
        while total < chars and i < start + len(lines):
            text = f"{i % len(lines) + 1:>4}  {lines[i % len(lines)]}"
            out.append(text)
            total += len(text) + 1
            i += 1
        return "\n".join(out)

    def code(self, chars: int) -> str:
        out: list[str] = []
        total = 0
        while total < chars:
            line = self._code_line()
            out.append(line)
            total += len(line) + 1
        return "\n".join(out)

    # ── noise a capsule should not carry ─────────────────────────────────────
    def token(self, length: int) -> str:
        return "".join(self.rng.choices(_ALNUM, k=length))

    def secret(self) -> tuple[str, str, str, str]:
        """(label, value, line as it appears in a file, format) for an API-key-like secret."""
        rng = self.rng
        form = rng.randrange(4)
        if form == 0:
            value = "sk-" + self.token(40)
            return "PAYMENTS_API_KEY", value, f"PAYMENTS_API_KEY={value}", "sk"
        if form == 1:
            value = self.token(36)
            return "Authorization", value, f"authorization: Bearer {value}", "bearer"
        if form == 2:
            value = self.token(20)
            url = f"postgres://app:{value}@localhost:5432/app"
            return "DATABASE_URL", value, f"DATABASE_URL={url}", "credential-url"
        value = self.token(32)
        return "api_key", value, f'"api_key": "{value}",', "key-assignment"

    def injection(self) -> str:
        return self.rng.choice(banks.INJECTIONS)

    def json_breaker(self) -> str:
        return self.rng.choice(banks.JSON_BREAKERS)
