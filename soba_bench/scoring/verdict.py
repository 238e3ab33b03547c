"""Verdicts: is a fact entailed by, contradicted by, or absent from what the scorer sees?

State facts are judged by their state, read from where they stand in the capsule's layout or
in the history (soba_bench.scoring.context): an open blocker shown as "Fixed: ..." is
contradicted, a failing check under "Verification status: passed" is contradicted, a modified
file listed only under Read is contradicted. Paths and commands match exactly (a near miss is
another path). Prose facts are aligned with the statement that shares most of their weighted
content words (after stemming and a small synonym table), then checked for what a bag of words
cannot see: a flipped polarity (not / never / no longer), a role swap ("X instead of Y" read as
"Y instead of X", the same words in another order), a substituted subject (the same sentence
about another component), and stale-state cues (replaced, reverted, superseded).

The rules are deterministic and cheap (no model, no network): the scorer runs them for every
fact at every evaluation point. Their accuracy is measured on the labelled calibration set
(tests/data/calibration, ``benchmarks/matcher_calibration.py``), including a held-out split
written after the rules were frozen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import lru_cache

from soba_bench.scoring.context import CURRENT, Context, Statement
from soba_bench.scoring.match import PATH_TOKEN, STOPWORDS, normalize_command, normalize_path

ENTAILED, CONTRADICTED, ABSENT = "entailed", "contradicted", "absent"
LABELS = (ENTAILED, CONTRADICTED, ABSENT)


@dataclass(frozen=True)
class Verdict:
    label: str  # one of LABELS
    reason: str  # the rule that decided, for reports and for debugging a calibration case
    evidence: str = ""  # the statement that decided ("" when absent)


@dataclass(frozen=True)
class Claim:
    """What is checked: a fact's kind and text, and the state it should be shown in.

    ``state`` is "current" (live: an open blocker, a current decision) or "stale" (resolved or
    superseded: shown as current it is contradicted). ``result`` is a verification's expected
    result ("passed" / "failed"), ``path`` a file fact's path, ``command`` a check's command
    (``aliases`` their other spellings), ``replaces`` the text of the fact this one
    superseded."""

    kind: str
    text: str
    state: str = "current"
    result: str | None = None
    path: str | None = None
    # Other spellings of the path or the command (normalised): the same file relative to, or
    # under, the session's working folder; the same check without a ``cd`` before it or the
    # plumbing of its output. Any of them names it.
    aliases: tuple[str, ...] = ()
    command: str | None = None
    # The text states the problem the task is to solve (an issue's title, an imported goal):
    # a statement of its fix negates it and keeps the goal (retention.label_of).
    problem: bool = False
    # The text of the fact this one superseded: it reads much like its successor ("memcached"
    # then "sqlite instead of memcached"), so a statement of it must not count as this one.
    replaces: str | None = None


# --- words ----------------------------------------------------------------------------------

# Multi-word phrases rewritten before tokenising, so each reads as one idea. Each comes with
# literals one of which every match holds (lower case): most statements hold none of them, and
# a phrase is looked for only in a text that holds one (see _rewrite).
_PHRASES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    # Stopping or avoiding an action negates it: "stop exporting X" is "not exporting X".
    (
        r"\b(?:stop(?:s|ped|ping)?|ceas(?:e|es|ed|ing)|quit(?:s|ting)?|avoid(?:s|ed|ing)?|"
        r"refrain(?:s|ed|ing)?\s+from)\s+(?!being\b)(?=\w+ing\b)",
        " not ",
        ("stop", "ceas", "quit", "avoid", "refrain"),
    ),
    # Leaving an act out, or a verdict against it, negates it: "skip X", "omit X", "X was
    # ruled out", "we decided against X", "X was turned down / rejected".
    (
        r"\b(?:skip(?:s|ped|ping)?|omit(?:s|ted|ting)?|forgo(?:es|ing)?)\b|"
        r"\b(?:rule|rules|ruled|ruling)\s+out\b|\bdecid(?:e|es|ed|ing)\s+against\b|"
        r"\b(?:turn|turns|turned|turning)\s+down\b|\b(?:was|were|is|are|been|got)\s+rejected\b",
        " not ",
        ("skip", "omit", "forgo", "out", "against", "down", "rejected"),
    ),
    # "X must stay out of Y", "keep X away from Y": X is not in / not near Y.
    (
        r"\b((?:stay|stays|stayed|staying|keep|keeps|kept|keeping)\b(?:\s+[\w'-]+){0,5}?)"
        r"\s+(?:out\s+of|away\s+from)\b",
        r"\1 not ",
        ("out", "away"),
    ),
    # A limit said with a negative: "no later than N", "good for N minutes and no longer".
    (
        r"\bno later than\b|\band no (?:longer|more)\b(?=\s*$|\s*[,.;:)])",
        " capped ",
        ("no later", "and no"),
    ),
    # "off" / "on" as a state ("stays off in release builds", "turned on", "switch off the
    # cache"), not as a preposition ("on the server"): the antonyms disabled / enabled.
    (
        r"\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+off\b",
        " disable ",
        ("off",),
    ),
    (
        r"\b(?:turn|turns|turned|turning|switch|switches|switched|switching)\s+on\b",
        " enable ",
        ("turn", "switch"),
    ),
    (
        r"\boff\b(?=\s*$|\s*[,.;:)]|\s+(?:in|for|during|when|until|by|at|unless|except)\b)",
        " disable ",
        ("off",),
    ),
    (
        r"\bon\b(?=\s*$|\s*[,.;:)]|\s+(?:in|for|during|when|until|by|at|unless|except)\b)",
        " enable ",
        ("on",),
    ),
    (
        r"\bno more than\b|\bat most\b|\bup to\b|\bat the most\b",
        " capped ",
        ("no more than", "at most", "up to", "at the most"),
    ),
    # Comparatives: "under 60 lines" is a cap, "longer than 60 lines" goes above it, and a
    # negated "above" ("no function may be longer than", "must not exceed") is a cap again
    # (parse() turns it over), so the cap and its negation are told apart by their words.
    (
        r"\b(?:longer|larger|bigger|greater|more|higher|heavier|slower|older)\s+than\b|"
        r"\bexceed(?:s|ed|ing)?\b|\b(?:over|above)\s+(?=\d)",
        " above ",
        ("than", "exceed", "over", "above"),
    ),
    (
        r"\b(?:shorter|smaller|fewer|less|lower|lighter|faster|newer)\s+than\b|"
        r"\b(?:under|below|within)\s+(?=\d)",
        " capped ",
        ("than", "under", "below", "within"),
    ),
    # "X and nothing else" / "X and no other Y" restrict X; they negate nothing.
    (
        r"\band (?:nothing|nobody|no one|none) else\b|\bnothing but\b|\band no other\b",
        " only ",
        ("else", "nothing but", "and no other"),
    ),
    # "no service other than billing" is "only the billing service".
    (
        r"\bno\s+((?:[\w-]+\s+){0,2}?)other\s+than\s+(?:the\s+|a\s+|an\s+)?([\w-]+)",
        r" only \2 \1",
        ("other",),
    ),
    (r"\bleast recently used\b|\blru-first\b|\blru\b", " lru ", ("least recently used", "lru")),
    (
        r"\bat once\b|\bsimultaneously\b|\bconcurrently\b|\bin parallel\b",
        " concurrent ",
        ("at once", "simultaneously", "concurrently", "in parallel"),
    ),
    (r"\bno longer\b", " nolonger ", ("no longer",)),
    (r"\b(\d+)-([A-Za-z]+)\b", r"\1 \2", ("-",)),  # "a 30-second timeout": 30 seconds
    (r"\bshut(?:s|ting)?\s+down\b", " retire ", ("shut",)),
    (
        r"\bbacking off\b|\bback off\b|\bback-off\b",
        " backoff ",
        ("backing off", "back off", "back-off"),
    ),
    (r"\bwall[- ]clock\b", " wallclock ", ("wall-clock", "wall clock")),
    (r"\boff[- ]limits\b", " not allowed ", ("off-limits", "off limits")),
    (r",\s*not\s+", " instead of ", ("not",)),  # "X, not Y" is a contrast, not a negation
    (
        r"\brather than\b|\binstead of\b|\bin place of\b",
        " insteadof ",
        ("rather than", "instead of", "in place of"),
    ),
    (r"n't\b", " not", ("n't",)),
    (r"\bcannot\b", "can not", ("cannot",)),
    # "must not go out until X is verified" is "go out only after X is verified".
    (r"\bnot\b([^.;]{0,60}?)\buntil\b", r"\1 only after", ("until",)),
    # "drop / end support for X" and "stop supporting X" say the same: not supporting X.
    (
        r"\b(?:drop|drops|dropped|dropping|remove|removes|removed|removing|end|ends|ended|"
        r"ending)\s+(?:the\s+|its\s+|their\s+)?support\s+for\b",
        " not support ",
        ("support",),
    ),
    # "X is banned from Y": X is not allowed in Y.
    (
        r"\b(?:is|are|be|been|was|were|stay|stays)\s+(?:banned|prohibited|forbidden)\b",
        " not allowed ",
        ("banned", "prohibited", "forbidden"),
    ),
    # "At no point / at no time X" is "never X" (the paraphrase control's "never" -> "at no
    # point" read "At no point modify any file under X" as "Never touch anything under X"
    # negated: the rule below made the fact "keep" and left the statement's "no" standing).
    (r"\bat no (?:point|time)\b", " never ", ("at no point", "at no time")),
    # "do not change X" and "keep X" say the same: one positive form for both.
    (r"\b(not|never)\s+(change|modify|alter|touch|edit)\b", " keep ", ("not", "never")),
)
_PHRASE_RES = tuple((re.compile(p, re.IGNORECASE), r, lits) for p, r, lits in _PHRASES)
_TOKEN = re.compile(r"[^\W_][\w./@~+-]*[\w/]|[^\W_]")
NEGATIONS = frozenset({"not", "no", "never", "none", "nothing", "neither", "nor", "without"})
CONTRAST = "insteadof"
# A line that reports a fact as over: a superseded decision or a resolved blocker.
# "Orders are resolved by one resolver": a mechanism (GraphQL, DNS, a promise), not a report
# that something was fixed; cut before looking for cues.
_MECHANISM = re.compile(
    r"\b(?:is|are|be|being|gets?)\s+resolved\s+(?:by|through|via|with|using|from|at)\b",
    re.IGNORECASE,
)
_TRANSITION_VERBS = (
    r"(?:moved|migrated|switched|changed|converted|raised|lowered|increased|decreased|"
    r"reduced|bumped|went)"
)
_LEFT_BEHIND = r"(?:moved|migrated|switched)\s+(?:out\s+of|away\s+from|off)"
STALE_CUES = re.compile(
    r"\b(fixed|resolved|replaced|reverted|superseded|dropped|abandoned|withdrawn|obsolete|"
    r"nolonger|(?<!and )no longer|undone|rolled back|"
    # A state left behind: "moved off the app server into S3", "migrated away from cookies".
    + _LEFT_BEHIND
    + r"|"
    # A change reported with what it was and what it is: "switched X from A to B", "raised
    # from N to M" (_is_report tells the old side from the new).
    + _TRANSITION_VERBS
    + r"\b[^.;]{0,80}?\bfrom\b[^.;]{1,80}?\b(?:to|into)|"
    # "X is not in localStorage anymore".
    r"\bnot\b[^.;]{0,80}?\banymore)\b",
    re.IGNORECASE,
)
# The matcher's stop words, less the negations (they carry meaning here), plus words that
# say nothing about a fact's content.
_STOP = (STOPWORDS - NEGATIONS) | frozenset(
    [
        "about",
        "all",
        "also",
        "any",
        "anything",
        "been",
        "can",
        "could",
        "did",
        "each",
        "every",
        "everything",
        "exactly",
        "go",
        "goes",
        "going",
        "inside",
        "just",
        "may",
        "must",
        "need",
        "needs",
        "one",
        "only",
        "over",
        "per",
        "so",
        "something",
        "than",
        "their",
        "them",
        "then",
        "there",
        "they",
        "through",
        "under",
        "used",
        "via",
        "what",
        "when",
        "which",
        "while",
        "who",
        "within",
        "would",
    ]
)
# Words that carry little of a fact's meaning: they weigh half.
_LIGHT = frozenset(
    [
        "add",
        "make",
        "get",
        "set",
        "keep",
        "stop",
        "fix",
        "two",
        "same",
        "new",
        "old",
        "instead",
        "case",
        "way",
        "thing",
        "today",
        "now",
        "change",
        "time",
        "times",
        "give",
    ]
)
# Stemmed word -> canonical word. Groups of everyday software synonyms (not case-specific).
_SYNONYMS_GROUPS = (
    ("add", "introduce", "create", "implement", "write", "gain"),
    ("remove", "delete", "drop", "strip", "eliminate"),
    ("change", "modify", "edit", "alter", "touch", "update"),
    ("document", "describe", "explain", "doc", "docs"),
    ("store", "persist", "save", "go into", "goes into"),
    ("cap", "capped", "limit", "bound", "max", "maximum", "hold"),
    ("above", "exceed"),
    ("replace", "swap", "substitute"),
    ("retry", "reattempt", "retri"),
    ("fail", "failure", "error"),
    ("test", "spec"),
    ("evict", "eviction"),
    ("fix", "repair", "resolve", "correct"),
    ("migrate", "convert", "port", "move", "rewrite"),
    ("dependency", "package", "dep"),
    ("allow", "permit", "fine", "ok", "okay", "free"),
    ("keep", "leave", "preserve", "retain", "stay", "maintain"),
    ("retire", "decommission", "sunset"),
    ("show", "display"),
    ("reject", "refuse"),
    ("require", "need", "needs"),
    ("measure", "time", "timing"),
    ("key", "keyed"),
    ("callback", "callback-style"),
    ("exponential", "exponentially", "exponentially-growing"),
    ("run", "call", "invoke", "execute"),
    ("behind", "wrapped", "wrap", "accessed", "access"),
    ("database", "db"),
    ("delivery", "call", "request", "talk", "communicate", "contact"),
)
_SYNONYMS = {w: group[0] for group in _SYNONYMS_GROUPS for w in group}
# Participles whose "un-" form negates them ("unchanged"); "unified" is not "not ified".
_NEGATABLE = frozenset(
    ["change", "fix", "test", "check", "verify", "handl", "used", "support", "document"]
)
# A fact's word and its antonym in the other statement: a contradiction when the fact's word
# is missing there.
_ANTONYMS = {
    "add": ("remove",),
    "remove": ("keep", "add"),
    "keep": ("remove", "change", "replace", "retire"),
    "retire": ("keep",),
    "replace": ("keep",),
    "allow": ("forbid",),
    "cap": ("above",),
    "above": ("cap",),
    "enable": ("disable",),
    "disable": ("enable",),
    "show": ("hide",),
    "hide": ("show",),
    "include": ("exclude",),
    "exclude": ("include",),
    "accept": ("reject",),
    "reject": ("accept",),
    "lock": ("unlock",),
    "unlock": ("lock",),
    "pass": ("fail",),
    "fail": ("pass",),
}
# The same, keyed by canonical words (stems: "enable" is read as "enabl").
_ANTONYMS_CANON: dict[str, tuple[str, ...]] = {}


def _stem(word: str) -> str:
    if any(c in word for c in "/.@~+") or any(c.isdigit() for c in word):
        return word  # paths, versions, numbers: exact
    for suffix, repl, min_len in (
        ("ation", "ate", 8),  # "rotation" / "rotate", "pagination" / "paginate"
        ("ies", "y", 5),
        ("ied", "y", 5),
        ("ing", "", 6),
        ("ed", "", 5),
        ("es", "", 5),
        ("s", "", 4),
        ("ly", "", 6),
    ):
        if word.endswith(suffix) and len(word) >= min_len and not word.endswith("ss"):
            word = word[: len(word) - len(suffix)] + repl
            break
    if word.endswith("e") and len(word) > 4 and word[:-1] + "ing" != word:
        word = word[:-1]  # "store"/"stor(ed)" and "move"/"mov(ing)" meet
    return word


@lru_cache(maxsize=65536)
def _canon(word: str) -> str:
    lowered = word.lower()
    if lowered in _SYNONYMS:
        return _SYNONYMS[lowered]
    stem = _stem(lowered)
    return _SYNONYMS.get(stem, _SYNONYMS.get(stem + "e", stem))


for _word, _opposites in _ANTONYMS.items():
    _ANTONYMS_CANON[_canon(_word)] = tuple(_canon(a) for a in _opposites)


@lru_cache(maxsize=65536)  # per word: parse asks once per token of every statement
def _is_key(word: str) -> bool:
    """Paths, identifiers and numbers: a fact keeps its meaning only if they match exactly."""
    return (
        any(c in word for c in "/.@")
        or any(c.isdigit() for c in word)
        or (any(c.isupper() for c in word[1:]) and word[0].isalpha())
    )


_ACRONYM_PLURAL = re.compile(r"[A-Z]{2,}s")
# A count written as a word is the same key as its digits ("three times" / "3 times"; "five
# times" is not "three times"). "one" and "two" stay words: "one resolver", "the two of them".
_NUMBER_WORDS = {
    w: str(n)
    for n, w in enumerate(
        ("three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"),
        start=3,
    )
} | {"twenty": "20", "thirty": "30", "forty": "40", "fifty": "50", "sixty": "60", "ninety": "90"}
_RESTRICTING = frozenset({"only", "solely", "exclusively"})
_UNIVERSAL = frozenset({"any", "anyone", "anybody", "everyone", "everybody"})


@dataclass(frozen=True)
class Parsed:
    """A statement reduced to what the rules compare."""

    words: tuple[str, ...]  # the text's own lower-cased words, in order (shuffle check)
    content: tuple[str, ...]  # canonical content words, in order
    keys: frozenset[str]  # exact paths / identifiers / numbers (lower-cased)
    polarity: int  # number of negations, mod 2
    rejected: frozenset[str]  # content words after "instead of" (the rejected option)
    negated: frozenset[str]  # content words in a negation's scope
    chosen: frozenset[str] = frozenset()  # content words outside a contrast's scope
    restricted: bool = False  # "only X may", "X and nobody else"
    universal: bool = False  # "anyone may", "any service is free to"


def _rewrite(text: str, guarded: bool = True) -> str:
    """The text with its phrases rewritten, in order (a rewrite can make the next phrase).

    A phrase is looked for only when the text holds one of its literals: in a sweep job's
    history about a third of the statements hold one and a few hundredths of a percent match
    a phrase, and the twenty searches were half of what parsing a statement cost (issue 18).
    Literals are compared in lower case, which is what matching case-insensitively means for
    ASCII text only (``re.IGNORECASE`` also matches "s" with "ſ" and "i" with "ı"): any
    other text is searched for every phrase. ``guarded=False``: every phrase, every time."""
    if not guarded or not text.isascii():
        for pattern, repl, _ in _PHRASE_RES:
            text = pattern.sub(repl, text)
        return text
    lowered = text.lower()
    for pattern, repl, literals in _PHRASE_RES:
        for literal in literals:
            if literal in lowered:
                rewritten = pattern.sub(repl, text)
                if rewritten != text:
                    text, lowered = rewritten, rewritten.lower()
                break
    return text


_CLAUSE = re.compile(r"[;:,()]|\.\s|\.$")
_AND_CLAUSE = re.compile(r",\s+and\s+")


_CLAUSE_WORDS = 3  # a clause shorter than this in content words is not a fact on its own


def and_clauses(text: str) -> list[str]:
    """The text's clauses joined by ", and " (a refined goal: "A, and B, and C")."""
    return [part.strip() for part in _AND_CLAUSE.split(text)]


def clauses(claim: Claim) -> list[Claim]:
    """The clauses of a current prose fact that joins clauses of at least ``_CLAUSE_WORDS``
    content words each with ", and " (a goal refined during a session), else ``[claim]``. A
    clause drops ``replaces``: the fact a refined goal replaced is its own first clauses, which
    the replacement check would otherwise read as the old fact restated."""
    if claim.kind in STATE_JUDGES or claim.state != "current":
        return [claim]
    parts = and_clauses(claim.text)
    if len(parts) < 2 or any(len(parse(p).content) < _CLAUSE_WORDS for p in parts):
        return [claim]
    return [replace(claim, text=p, replaces=None) for p in parts]


_WORD_RUN = re.compile(r"[\w./@~+-]+")


@lru_cache(maxsize=65536)
def parse(text: str) -> Parsed:
    rewritten = _rewrite(text)
    words: list[str] = []
    content: list[str] = []
    keys: set[str] = set()
    negations = 0
    rejected: set[str] = set()
    negated: set[str] = set()
    chosen: set[str] = set()
    restricted = universal = False
    scope: str | None = None
    for clause in _CLAUSE.split(rewritten):
        scope = None
        keeps = False
        for raw in _TOKEN.findall(clause):
            word = raw.lower().rstrip(".")
            if word in _NUMBER_WORDS:
                raw = word = _NUMBER_WORDS[word]
            words.append(word)
            restricted = restricted or word in _RESTRICTING
            universal = universal or word in _UNIVERSAL
            if word in NEGATIONS or word == "nolonger":
                negations += 1
                scope = "neg"
                continue
            if word == CONTRAST:
                scope = "contrast"
                continue
            if word.startswith("un") and _canon(word[2:]) in _NEGATABLE:
                # "unchanged", "untouched": a negated participle, except after keep/leave,
                # where "keep X unchanged" is just "keep X".
                if not keeps:
                    negations += 1
                    word = word[2:]
                else:
                    continue
            if _canon(word) == "keep":
                keeps = True
            if word in _STOP:
                continue
            if _is_key(raw):
                if _ACRONYM_PLURAL.fullmatch(raw):
                    word = word[:-1]  # "PDFs" names what "PDF" names
                keys.add(normalize_path(word) if "/" in word else word)
            canon = _canon(word)
            if canon == "above" and scope == "neg":
                # "no X may be longer than N", "must not exceed N": a cap, not a negation.
                negations -= 1
                canon, scope = "cap", None
            content.append(canon)
            if scope == "contrast":
                rejected.add(canon)
            else:
                chosen.add(canon)
                if scope == "neg":
                    negated.add(canon)
    return Parsed(
        tuple(w.lower() for w in _WORD_RUN.findall(text)),
        tuple(content),
        frozenset(keys),
        negations % 2,
        frozenset(rejected),
        frozenset(negated),
        frozenset(chosen),
        restricted,
        universal,
    )


@lru_cache(maxsize=65536)
def _weight(word: str) -> float:
    if _is_key(word):
        return 2.0
    return 0.5 if word in _LIGHT else 1.0


def coverage(fact: Parsed, other: Parsed) -> tuple[float, float]:
    """(recall, precision): weighted share of the fact's content words found in the other
    statement, and share of the other's content words found in the fact."""
    fact_set, other_set = set(fact.content), set(other.content)
    total = sum(_weight(w) for w in fact_set)
    recall = sum(_weight(w) for w in fact_set & other_set) / total if total else 0.0
    precision = len(other_set & fact_set) / len(other_set) if other_set else 0.0
    return recall, precision


def _shuffled(fact: Parsed, other: Parsed) -> bool | None:
    """The same words in another order? True: a role swap (two phrases exchanged, the rest in
    place: "from A to B" as "from B to A", a contradiction); False: word salad (absent); None:
    not a reordering at all."""
    if sorted(fact.words) != sorted(other.words) or fact.words == other.words:
        return None
    return _block_swap(fact.words, other.words)


def _block_swap(a: tuple[str, ...], b: tuple[str, ...]) -> bool:
    """Is ``b`` ``a`` with two runs of words exchanged (A M B -> B M A, everything else in
    place)? How many words stay in order does not tell: a random shuffle of a short sentence
    can keep most of them, and a swap of two long phrases keeps few."""
    start = 0
    while a[start] == b[start]:
        start += 1
    end = len(a)
    while a[end - 1] == b[end - 1]:
        end -= 1
    if start == 0 and end == len(a):
        # Nothing stays in place: no frame ("migrate X from") whose roles were exchanged;
        # a shuffle that happens to split in three runs.
        return False
    mid_a, mid_b = a[start:end], b[start:end]
    n = len(mid_a)
    for i in range(1, n):
        for j in range(1, n - i + 1):
            first, middle, last = mid_a[:i], mid_a[i : n - j], mid_a[n - j :]
            if mid_b == last + middle + first:
                return True
    return False


def _substituted(fact: Parsed, other: Parsed) -> bool:
    """The same sentence with one short run of words replaced by others: another subject."""
    return _one_run_replaced(fact.content, other.content)


def substituted(fact_text: str, statement: str) -> bool:
    """Is the statement the fact's sentence with one short run of words replaced, and no path,
    identifier or number of one missing from the other? What :func:`compare` reads as
    another subject by words alone: "add a migration walkthrough for X" for "add a migration
    guide for X" reads exactly like "add a migration guide for Y"."""
    fact, other = parse(fact_text), parse(statement)
    return _substituted(fact, other) and not (fact.keys - other.keys and other.keys - fact.keys)


def _after_lead(fact: Sequence[str], other: Sequence[str]) -> Sequence[str] | None:
    """The statement's words from the fact's first word on, less what follows the fact's
    last (a reason, an addition); None when the fact's first word is not there."""
    if not fact or fact[0] not in other:
        return None
    rest = other[other.index(fact[0]) :]
    ops = SequenceMatcher(None, fact, rest, autojunk=False).get_opcodes()
    if ops and ops[-1][0] == "insert" and ops[-1][1] == len(fact):
        rest = rest[: ops[-1][3]]
    return rest


def replaced_after_lead(fact_text: str, statement: str) -> bool:
    """:func:`_substituted` for the statement's words after a lead-in (:func:`_after_lead`):
    "User: the outcome I want: let beekeepers log each honey extraction ..." is the fact's
    sentence with one run replaced, as "let beekeepers log each hive inspection ..." said in
    a capsule section is. Not one of :func:`compare`'s rules: a rewording behind a lead-in
    ("the chosen approach is to store the rows gated by a repository class") reads the same,
    and the rules cannot tell a synonym from another subject; asked only of a statement the
    model reads as saying neither (``matchers._another_subject``)."""
    fact, other = parse(fact_text).content, parse(statement).content
    rest = _after_lead(fact, other)
    return rest is not None and _one_run_replaced(fact, rest)


def substituted_after_lead(fact_text: str, statement: str) -> bool:
    """:func:`replaced_after_lead` for one word replaced by one: "Since profiling s, changing
    approach: the chosen approach is to key the store lock by tenant id ..." is another
    subject for "key the counter lock by tenant id ...". Asked of a statement a model reads
    as contradicting the fact too, so narrower: a wider change is as often the fact negated."""
    fact, other = parse(fact_text).content, parse(statement).content
    rest = _after_lead(fact, other)
    if rest is None:
        return False
    # One word for one, nothing else changed, and not a word of order or amount ("send the
    # welcome e-mail before the address is verified" for "only after" negates the fact).
    ops = SequenceMatcher(None, fact, rest, autojunk=False).get_opcodes()
    changed = [op for op in ops if op[0] != "equal"]
    if len(changed) != 1:
        return False
    _, i1, i2, j1, j2 = changed[0]
    if i2 - i1 != 1 or j2 - j1 != 1 or fact[i1] in _RELATION or rest[j1] in _RELATION:
        return False
    return _one_run_replaced(fact, rest)


# Words of order, place and amount (as parse stems them): one replaced by another changes
# what the fact says of its subject, not the subject.
_RELATION = frozenset(
    stem
    for word in (
        "before", "after", "above", "below", "more", "less", "fewer", "earlier", "later",
        "first", "last", "higher", "lower", "longer", "shorter", "outside", "beyond",
        "minimum", "maximum",
    )
    for stem in parse(word).content
)  # fmt: skip


def _one_run_replaced(fact: Sequence[str], other: Sequence[str]) -> bool:
    """Are the two word lists one another with one run of at most three words replaced, a
    word that says something on both sides and two or more words of the fact left?"""
    matcher = SequenceMatcher(None, fact, other, autojunk=False)
    changes = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if len(changes) != 1 or changes[0][0] != "replace":
        return False
    _, i1, i2, j1, j2 = changes[0]
    if i2 - i1 > 3 or j2 - j1 > 3:
        return False
    replaced, replacement = fact[i1:i2], other[j1:j2]
    # A light verb in place of the fact's ("get the image under 300 MB" for "shrink the image
    # below 300 MB") rewords the act; another subject needs a word that says something.
    return (
        any(w not in _LIGHT for w in replaced)
        and any(w not in _LIGHT for w in replacement)
        and len(fact) - (i2 - i1) >= 2
    )


def _substituted_moved(fact: Parsed, other: Parsed) -> bool:
    """One short run of words replaced by others beside a word both share, the rest reordered:
    "keep the jobs partitioned by customer region" / "partition the jobs by customer tier"
    (light words set aside). Asked only of a superseded fact against a statement that seems
    to state it, because that is how its successor reads; in general a reworded verb looks
    the same ("record X" / "write an entry for X")."""
    a = [w for w in fact.content if w not in _LIGHT]
    b = [w for w in other.content if w not in _LIGHT]
    only_a = [i for i, w in enumerate(a) if w not in b]
    only_b = [j for j, w in enumerate(b) if w not in a]
    if not (0 < len(only_a) <= 3 and 0 < len(only_b) <= 3) or len(a) - len(only_a) < 2:
        return False
    if only_a[-1] - only_a[0] + 1 != len(only_a) or only_b[-1] - only_b[0] + 1 != len(only_b):
        return False
    (i, i_end), (j, j_end) = (only_a[0], only_a[-1]), (only_b[0], only_b[-1])
    before = i > 0 and j > 0 and a[i - 1] == b[j - 1]
    after = i_end + 1 < len(a) and j_end + 1 < len(b) and a[i_end + 1] == b[j_end + 1]
    return before or after


def _swapped_roles(fact: Parsed, other: Parsed) -> bool:
    """ "A instead of B" against "B instead of A" (or "A, not B" against "not A, B")."""
    if not fact.rejected:
        return False
    chosen_fact = set(fact.content) - fact.rejected
    # A word the other statement also chooses is not turned over ("one resolver rather than
    # per-field resolvers" still chooses a resolver).
    flipped = (other.rejected | other.negated) - other.chosen - fact.rejected
    return bool(flipped & chosen_fact) and bool(fact.rejected - other.rejected - other.negated)


def _rejected(fact: Parsed, other: Parsed) -> bool:
    """Does the other statement name the fact's act (its first content word: "shrink the
    image") only as the option it turns down ("leave the image as it is instead of shrinking
    it")? Other words of the fact may well be turned down in a correct rewording: "migrate X
    from callbacks to async/await" is "X uses async/await instead of callbacks"."""
    act = fact.content[0]
    return act not in _LIGHT and act in other.rejected and act not in other.chosen


def _antonym_weight(fact: Parsed, other: Parsed) -> float:
    """Weighted share of the fact's words absent from the other statement but opposed there by
    an antonym ("disable" against "enable")."""
    other_set, fact_set = set(other.content), set(fact.content)
    total = sum(_weight(w) for w in fact_set)
    opposed = [
        w
        for w in fact_set
        if w not in other_set and any(a in other_set for a in _ANTONYMS_CANON.get(w, ()))
    ]
    return sum(_weight(w) for w in opposed) / total if total else 0.0


def _antonym(fact: Parsed, other: Parsed, unnegated: bool = False) -> bool:
    """Does the other statement use an antonym of one of the fact's words (and not the word
    itself)? ``unnegated``: only an antonym outside a negation's scope counts."""
    other_set = set(other.content)
    found = other_set - other.negated if unnegated else other_set
    return any(
        w not in other_set and any(a in found for a in _ANTONYMS_CANON.get(w, ()))
        for w in fact.content
    )


@dataclass(frozen=True)
class Thresholds:
    entail: float = 0.7  # weighted recall for a statement to state the fact
    contradict: float = 0.6  # weighted recall for a statement to be about the fact
    contradict_precise: float = 0.9  # ... or: precision, with recall at least `loose`
    loose: float = 0.4
    report: float = 0.5  # recall for a "replaced / reverted ..." line to report the fact


DEFAULT_THRESHOLDS = Thresholds()


def _relevant_polarity(fact: Parsed, fact_text: str, statement: str) -> int:
    """The statement's polarity counting only the ";"-separated clauses that speak of the
    fact (two of its words or more): in "milestone: X; completed: ... is not assignable" the
    "not" belongs to another fact. A statement with no more clauses than the fact is whole."""
    clauses = [c for c in statement.split(";") if c.strip()]
    if len(clauses) <= fact_text.count(";") + 1:
        return parse(statement).polarity
    words = set(fact.content)
    relevant = [parse(c) for c in clauses]
    # Two clauses that each negate the fact ("skip X; Y will not be tested") negate it once.
    # A clause that speaks only of the option the fact turns down ("keep X in S3 rather than
    # on the runners" / "...; the runners are not used") agrees with it.
    return int(
        any(
            p.polarity
            for p in relevant
            if len(words & set(p.content)) >= 2
            and len((words - fact.rejected) & set(p.content)) >= 1
        )
    )


def _about(fact: Parsed, other: Parsed, recall: float, precision: float, t: Thresholds) -> bool:
    """Does the statement speak of the fact at all (what a contradiction needs)? Enough of
    the fact's weighted words, and two in common: a statement that only names the fact's file
    (or one word of it) says nothing about it."""
    # Words in common, an antonym counting as one ("keep" / "change" speak of the same act).
    shared = len(set(fact.content) & set(other.content)) + _antonym(fact, other)
    # ... and the fact's word that the antonym opposes counts as covered for "about": in a
    # short fact ("keep the profiler off in production") it is a large share of the words.
    about_recall = recall + _antonym_weight(fact, other)
    about = about_recall >= t.contradict or (
        precision >= t.contradict_precise and about_recall >= t.loose
    )
    return about and shared >= min(2, len(set(fact.content)))


def speaks_of(fact_text: str, statement: str, t: Thresholds = DEFAULT_THRESHOLDS) -> bool:
    """Is the statement about the fact by the rules' measure (:func:`_about`)?"""
    fact, other = parse(fact_text), parse(statement)
    return bool(fact.content) and _about(fact, other, *coverage(fact, other), t)


@lru_cache(maxsize=1 << 16)  # per pair: each view of a session's history asks it again
def compare(fact_text: str, statement: str, t: Thresholds = DEFAULT_THRESHOLDS) -> tuple[str, str]:
    """One fact against one statement: (label, rule)."""
    fact, other = parse(fact_text), parse(statement)
    if not fact.content:
        return ABSENT, "empty fact"
    recall, precision = coverage(fact, other)
    swap = _shuffled(fact, other)
    if swap is not None:
        return (CONTRADICTED, "roles swapped") if swap else (ABSENT, "words shuffled")
    if not _about(fact, other, recall, precision, t):
        return ABSENT, f"recall {recall:.2f}"
    if _antonym(fact, other) and (
        fact.polarity == other.polarity
        # "Keep X; no Y" against "replace X with Y": the negation is Y's, not the antonym's.
        or (not fact.polarity and _antonym(fact, other, unnegated=True))
    ):
        return CONTRADICTED, "antonym"
    if fact.restricted and other.universal and not other.restricted:
        # "Only billing may write X" against "any service is free to write X".
        return CONTRADICTED, "restriction lifted"
    if _substituted(fact, other) or (fact.keys - other.keys and other.keys - fact.keys):
        return ABSENT, "another subject"
    if fact.polarity != _relevant_polarity(fact, fact_text, statement):
        return CONTRADICTED, "negated"
    if _swapped_roles(fact, other):
        return CONTRADICTED, "roles swapped"
    if not fact.rejected and _rejected(fact, other):
        return CONTRADICTED, "rejected"
    if recall >= t.entail and fact.keys <= other.keys:
        return ENTAILED, f"recall {recall:.2f}"
    return ABSENT, f"recall {recall:.2f}"


# --- state facts ----------------------------------------------------------------------------

_PASSED = re.compile(r"\b(pass(es|ed)?|succeed(s|ed)?|green|ok)\b|exit status 0\b|✓", re.I)
_FAILED = re.compile(r"\b(fail(s|ed|ing)?|error|red)\b|\bFAIL\b|exit status [1-9]|✗", re.I)
_EDIT_CALL = re.compile(r"^(edit|write|multi_edit|apply_patch)\b|^(Edit applied|Wrote|Created)\b")
# A check reported with its pass word negated ("did not pass") failed, and the reverse.
_NOT_PASSED = re.compile(r"\b(not|never|n't)\s+(pass|succeed)", re.I)
_NOT_FAILED = re.compile(r"\b(not|never|n't)\s+(fail)", re.I)
# How a capsule's prose reports work on a file: a verb before the path (its own clause).
_EDITED_WORDS = re.compile(
    r"\b(modif(y|ied)|edit(ed)?|chang(e|ed)|wr(ote|itten)|creat(e|ed)|updated|patched|rewr(ote|itten))\b",
    re.I,
)
_READ_WORDS = re.compile(
    r"\b(read|looked (through|at|into)|inspected|opened|viewed|examined)\b", re.I
)
# Capsule sections that report the work done (a decision or a next step about a file is a plan).
_REPORT_SECTIONS = ("completed", "inProgress")


def _prose_file_state(forms: tuple[str, ...], context: Context) -> str | None:
    """How the capsule's own prose reports the file (``forms``: its path's spellings):
    "modified", "read", or None (not reported). A capsule whose prose contradicts its
    artifact list misinforms the model even though the list is right (SOBA's ledger comes
    from the engine, the prose from the model)."""
    said: set[str] = set()
    for statement in context.lines_in(_REPORT_SECTIONS):
        if statement.section not in _REPORT_SECTIONS:
            continue
        path = next((p for p in forms if _path_in(p, statement.text)), None)
        if path is None:
            continue
        head = statement.text[: statement.text.find(path)] if path in statement.text else ""
        if _EDITED_WORDS.search(head):
            said.add("modified")
        elif _READ_WORDS.search(head):
            said.add("read")
    if "modified" in said:
        return "modified"
    return "read" if said else None


@lru_cache(maxsize=65536)
def _paths_of(text: str) -> frozenset[str]:
    """Every path-like run of a text, normalised (so "./src/a.ts," is "src/a.ts")."""
    return frozenset(normalize_path(w.rstrip(".,:;)`'\"")) for w in PATH_TOKEN.findall(text))


def _path_in(path: str, text: str) -> bool:
    return path in _paths_of(text)


def _file_mentions(path: str, context: Context, edits: bool = True) -> tuple[bool, bool]:
    """Does a line mention ``path``, and (when ``edits``) does an edit line? Only the lines
    holding it as a substring are read (a normalised path is a substring of the run it was
    read from), not every line of a long history per file fact (quadratic, issue 18), and
    no more of them than the answer needs."""
    mentioned = False
    for statement in context.lines_containing(path):
        if path in _paths_of(statement.text):
            mentioned = True
            if not edits or _EDIT_CALL.search(statement.text):
                return True, edits
    return mentioned, False


def judge_file(claim: Claim, context: Context) -> Verdict:
    """A file fact, under any spelling of its path (:attr:`Claim.aliases`): listed in the
    right artifact list or mentioned (an edit call for a modified file) entails it; the
    other list, or the capsule's prose reporting the other kind of work, contradicts it."""
    path = normalize_path(claim.path or claim.text)
    forms = (path, *claim.aliases)
    modified = {normalize_path(p) for p in context.modified}
    read = {normalize_path(p) for p in context.read}
    wants_modified = claim.kind == "file_modified"
    same, other = (modified, read) if wants_modified else (read, modified)
    if claim.kind == "file_renamed":
        same, other = modified | read, set()  # a rename is a move: either list keeps it
    else:
        prose = _prose_file_state(forms, context)
        if prose is not None and (prose == "modified") != wants_modified:
            return Verdict(CONTRADICTED, f"capsule prose says {prose}", path)
    if listed := next((p for p in forms if p in same), None):
        return Verdict(ENTAILED, "listed", listed)
    mentioned, edited = False, False
    for form in forms:
        named, by_edit = _file_mentions(form, context, edits=wants_modified)
        mentioned, edited = mentioned or named, edited or by_edit
        if edited:
            return Verdict(ENTAILED, "edited in history", form)
    if any(p in other for p in forms):
        return Verdict(CONTRADICTED, "listed as " + ("read" if wants_modified else "modified"))
    if mentioned:
        return Verdict(ENTAILED, "mentioned", path)
    return Verdict(ABSENT, "not found")


def _command_in(command: str, text: str) -> bool:
    start = text.find(command)
    while start >= 0:
        end = start + len(command)
        before = text[start - 1] if start else " "
        rest = text[end:]
        after = rest[:1] or " "
        if not (before.isalnum() or before in "-_/.:") and not (
            after.isalnum() or after in "-_/.:" or re.match(r"\s+-", rest)
        ):
            return True
        start = text.find(command, start + 1)
    return False


def _clause_naming(commands: tuple[str, ...], text: str) -> str | None:
    """The first clause of ``text`` (cut at ``;`` and line breaks) that names one of
    ``commands``, if the text names one; the whole text when only it does (a command that
    holds a ``;`` itself, ``cd repo; npm test``: looking for its clause raised
    StopIteration and stopped the scoring)."""
    if not any(_command_in(c, text) for c in commands):
        return None
    clauses = re.split(r"[;\n]", text)
    return next((part for part in clauses if any(_command_in(c, part) for c in commands)), text)


_EXIT = re.compile(r"\bexit (?:status|code)[:= ]\s*(\d+)", re.IGNORECASE)


def _result_of(text: str) -> str | None:
    """A check's result as a text shows it: its exit status when printed (a log line saying
    "error" in a passing run does not make it fail), else one unambiguous word."""
    exits = _EXIT.findall(text)
    if exits:
        return "passed" if exits[-1] == "0" else "failed"
    if _NOT_PASSED.search(text):
        return "failed"
    if _NOT_FAILED.search(text):
        return "passed"
    failed, passed = bool(_FAILED.search(text)), bool(_PASSED.search(text))
    if failed != passed:
        return "failed" if failed else "passed"
    return None


def judge_verification(claim: Claim, context: Context) -> Verdict:
    """A check, under any spelling of its command (:attr:`Claim.aliases`): listed with the
    capsule's status, reported by its prose, or run in the history with its result."""
    command = normalize_command(claim.command or claim.text)
    forms = (command, *claim.aliases)
    listed = not {normalize_command(c) for c in context.commands}.isdisjoint(forms)
    shown: str | None = None  # the result the context shows, newest last
    evidence = ""
    # The capsule's status is one for all its commands: "passed" says each passed, "failed"
    # only that one of them failed; it agrees with a failing check but, when it lists several
    # commands, does not say that a passing one failed.
    ambiguous = (
        context.status == "failed" and len(context.commands) > 1 and claim.result == "passed"
    )
    if listed and context.status in ("passed", "failed") and not ambiguous:
        shown, evidence = context.status, f"Verification status: {context.status}"
    # The capsule's prose about this command is more specific than the status over all of them.
    for statement in context.lines_in(_REPORT_SECTIONS):
        if statement.section not in _REPORT_SECTIONS:
            continue
        said = _clause_naming(forms, statement.text)
        result = _result_of(said) if said is not None else None
        if result is not None:
            shown, evidence, listed = result, statement.text[:160], True
    # _command_in needs the substring; in order, so the newest result is the one kept
    indices = sorted({i for f in forms for i in context.history_containing(f)})
    for index in indices:
        text = context.history[index]
        # The result is in the command's own clause ("`npm test` passes; `npm run build`
        # fails" holds two), or in the output that follows it.
        clause = _clause_naming(forms, text)
        if clause is None:
            continue
        window = [clause, text, *context.history[index + 1 : index + 2]]
        for part in window:
            result = _result_of(part)
            if result is not None:
                shown, evidence = result, part[:160]
                break
        listed = True
    if shown is None or claim.result is None:
        if listed and claim.result is None:
            return Verdict(ENTAILED, "command present", command)
        return Verdict(ABSENT, "command not found" if not listed else "result not shown")
    if shown == claim.result:
        return Verdict(ENTAILED, f"shown {shown}", evidence)
    return Verdict(CONTRADICTED, f"shown {shown}, expected {claim.result}", evidence)


def _message_in(message: str, text: str) -> bool:
    """An error message matches exactly, case included ("userId" is not "userID"); only runs
    of white space may differ (a capsule may re-wrap it)."""
    return " ".join(message.split()) in " ".join(text.split())


def judge_blocker(claim: Claim, context: Context) -> Verdict:
    """A blocker's message is an exact string (an error); its state is its section."""
    state: str | None = None
    evidence = ""
    # A line holding the message holds each of its words: look at those lines only.
    needle = max(claim.text.split(), key=len, default="")
    for statement in context.lines_containing(needle):
        if not _message_in(claim.text, statement.text):
            continue
        resolved = _has_stale_cue(statement.text.replace(claim.text, " "))
        if statement.section in ("blockers", "inProgress", "pending", "history"):
            state = "stale" if resolved else "current"
        elif statement.section == "completed":
            state = "stale"
        else:
            state = "stale" if resolved else "current"
        evidence = statement.text
        if statement.section == "blockers":
            break  # a capsule's Blockers section is what it presents as open
    if state is None:
        return Verdict(ABSENT, "not found")
    if state == claim.state:
        return Verdict(ENTAILED, f"shown {'open' if state == 'current' else 'resolved'}", evidence)
    return Verdict(CONTRADICTED, "shown open" if state == "current" else "shown resolved", evidence)


def judge_prose(
    claim: Claim,
    context: Context,
    t: Thresholds = DEFAULT_THRESHOLDS,
    skip: frozenset[str] = frozenset(),
) -> Verdict:
    """Align the fact with every statement (but those whose text is in ``skip``); the newest
    decisive one wins. A stale fact (a superseded decision) shown in a current section is
    contradicted; reported as replaced it is entailed."""
    decided: tuple[str, str, Statement] | None = None
    for statement in _candidates(claim.text, context, t):
        if statement.text in skip:
            continue
        label, rule = compare(claim.text, statement.text, t)
        if _has_stale_cue(statement.text) and _is_report(claim.text, statement.text, t):
            # The statement reports the fact as over (replaced, reverted, fixed...).
            label = ENTAILED if claim.state == "stale" else CONTRADICTED
            decided = (label, "reported as over", statement)
            continue
        if label == ABSENT:
            continue
        if claim.state == "stale" and label == CONTRADICTED and rule in _OPPOSED:
            # A superseded fact negated ("do not bundle with webpack" after "bundle with
            # webpack"): what its successor says, which agrees with it being over.
            continue
        if claim.state == "stale" and label == ENTAILED:
            if _substituted_moved(parse(claim.text), parse(statement.text)):
                # Its successor, one role changed ("by region" -> "by tier"), not the fact.
                continue
            if statement.section in CURRENT:
                decided = (CONTRADICTED, "stale fact shown as current", statement)
            continue
        decided = (label, rule, statement)
    if decided is None:
        return Verdict(ABSENT, "not found")
    label, rule, statement = decided
    return Verdict(label, rule, statement.text)


_OPPOSED = ("negated", "antonym")


@lru_cache(maxsize=65536)
def _cues(text: str) -> frozenset[str]:
    """The stale cues a text holds, as written (lower case)."""
    return frozenset(m.group(0).lower() for m in STALE_CUES.finditer(_MECHANISM.sub(" ", text)))


def _has_stale_cue(text: str) -> bool:
    return bool(_cues(text))


def _word_index(context: Context) -> dict[str, list[int]]:
    """Content word -> indices of the statements that contain it (per context, from each
    text's own index, built once per text: see ``Context.word_index``)."""
    return context.word_index(_content_set)


@lru_cache(maxsize=1 << 17)
def _content_set(text: str) -> frozenset[str]:
    """A statement's content words (cached: every view of a session's history holds it).
    The whole parse is not kept: most statements of a history are only looked up by word,
    and a worker's parse cache full of them held about a hundred megabytes (issue 18)."""
    return frozenset(parse.__wrapped__(text).content)


def _candidates(fact_text: str, context: Context, t: Thresholds) -> list[Statement]:
    """The statements that share enough of the fact's weighted words for any rule to fire
    (every rule needs a recall of at least the lowest threshold), in reading order. Only a
    speed-up: the others would all be judged absent."""
    words = set(parse(fact_text).content)
    total = sum(_weight(w) for w in words)
    if not total:
        return []
    floor = min(t.loose, t.report, t.contradict, t.entail) * total - 1e-9
    score = shared_weights(words, context)
    return [context.statements[i] for i in sorted(i for i, v in score.items() if v >= floor)]


def ranked_by_shared(words: Iterable[str], context: Context) -> list[int]:
    """Indices of the statements sharing any of ``words``, most shared weight first (newest
    first among equals): the order every matcher reads candidates for a fact in."""
    score = shared_weights(words, context)
    return sorted(score, key=lambda i: (-score[i], -i))


def shared_weights(words: Iterable[str], context: Context) -> dict[int, float]:
    """Statement index -> the summed weight of ``words`` it contains (statements sharing
    none are left out): how the matchers rank what to judge a fact against."""
    index = _word_index(context)
    score: dict[int, float] = {}
    for word in words:
        for i in index.get(word, ()):
            score[i] = score.get(i, 0.0) + _weight(word)
    return score


def _is_report(fact_text: str, statement: str, t: Thresholds) -> bool:
    """Does the statement report the fact as over? The cue must stand in the clause that
    carries the fact ("milestone: X; completed: Fixed: Y" reports Y as fixed, not X), must not
    be one of the fact's own words ("resumable after a dropped connection" is no report that
    something was dropped), and a change from one state to another reports the old side only
    ("switched codes from SMS to an app" ends SMS, not the app)."""
    fact = parse(fact_text)
    clauses = [c for c in re.split(r";\s*", statement) if c.strip()]
    best = max(clauses, key=lambda c: coverage(fact, parse(c))[0], default=statement)
    other = parse(best)
    recall, _ = coverage(fact, parse(statement))
    return (
        recall >= t.report
        and bool(_cues(best) - _cues(fact_text))
        and not _substituted(fact, parse(statement))
        and not _substituted(fact, other)
        and not _new_side(fact, best)
    )


_FROM_TO = re.compile(
    r"\b" + _TRANSITION_VERBS + r"\b.*?\bfrom\b(?P<old>.+?)\b(?:to|into)\b(?P<new>.+)$",
    re.IGNORECASE,
)
_OFF_INTO = re.compile(
    r"\b" + _LEFT_BEHIND + r"\b(?P<old>.+?)"
    r"\b(?:to|into|for)\b(?P<new>.+)$",
    re.IGNORECASE,
)


def _new_side(fact: Parsed, statement: str) -> bool:
    """Is the fact the state a reported change led to, rather than the one it left: does it
    share more of its words with the "to" side than with the "from" side?"""
    match = _FROM_TO.search(statement) or _OFF_INTO.search(statement)
    if match is None:
        return False
    words = set(fact.content)
    old = len(words & set(parse(match.group("old")).content))
    new = len(words & set(parse(match.group("new")).content))
    return new > old


STATE_JUDGES: dict[str, Callable[[Claim, Context], Verdict]] = {
    "file_read": judge_file,
    "file_modified": judge_file,
    "file_renamed": judge_file,
    "verification": judge_verification,
    "blocker": judge_blocker,
}


def judge(claim: Claim, context: Context, skip: frozenset[str] = frozenset()) -> Verdict:
    """The verdict for one claim against one context (a prose fact: not against the
    statements whose text is in ``skip``)."""
    special = STATE_JUDGES.get(claim.kind)
    if special is not None:
        return special(claim, context)
    return judge_prose(claim, context, skip=skip)


def judge_texts(claim: Claim, texts: Sequence[str]) -> Verdict:
    return judge(claim, Context.from_texts(texts))
