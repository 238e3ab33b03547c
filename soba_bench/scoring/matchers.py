"""The matcher registry: how a fact is recognised in what the scorer sees.

``verdict-embedding-nli`` (the default) judges entailed / contradicted / absent with the
state-aware rules of ``verdict`` (soba_bench.scoring.verdict) and a local sentence-embedding
model for rewordings the rules miss (``verdict-embedding``, soba_bench.scoring.hybrid), and
checks each prose fact that reads as stated with a cross-encoder trained for this project
(soba_bench.scoring.nli): a negation written without a negation word is a contradiction, not
the fact kept. ``verdict-nli`` lets the cross-encoder judge prose on its own. ``fuzzy`` is
the earlier bag-of-words matcher (content-word containment, then rapidfuzz) and ``embedding``
the same with MiniLM sentence embeddings; both only ever say entailed or absent for a fact
that is current, and judge a stale fact by whether a current capsule section carries its
words. They stay for comparison: ``benchmarks/matcher_calibration.py`` prints every matcher
on the calibration set.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any, Protocol

from soba_bench.registry import Registry
from soba_bench.scoring import embeddings, nli
from soba_bench.scoring.context import CURRENT, Context
from soba_bench.scoring.hybrid import HybridConfig, entails_hybrid, judge_hybrid
from soba_bench.scoring.match import MatchConfig, TextIndex, normalize_path
from soba_bench.scoring.nli import NliConfig, check_stated, judge_nli
from soba_bench.scoring.verdict import (
    ABSENT,
    CONTRADICTED,
    ENTAILED,
    STATE_JUDGES,
    Claim,
    Verdict,
    and_clauses,
    judge,
    parse,
)

# The model files a matcher's verdicts rest on, by pinned sha256 prefix: one matcher name
# can ship with another model (verdict-nli's model 2 replaced model 1), and its scores are
# then not comparable with the earlier ones.
EMBEDDING_MODEL = f"embedding:{embeddings.MODEL_SHA256[:12]}"
NLI_MODEL = f"nli:{nli.MODEL_SHA256[:12]}"


class Matcher(Protocol):
    name: str
    models: str | None  # the model files its verdicts rest on (None: rules alone)

    def judge(self, claim: Claim, context: Context) -> Verdict: ...

    def label(self, claim: Claim, context: Context) -> str:
        """The verdict's label alone (what the scorers count): a matcher may skip work
        that only explains it."""
        ...

    def entails(self, claim: Claim, context: Context) -> bool:
        """Is the label entailed (presence, all some scorers ask)? A matcher may skip work
        that only tells contradicted from absent."""
        ...


MATCHERS: Registry[type] = Registry("matcher")


# ── a fact made of clauses ────────────────────────────────────────────────────────────────
# A goal refined during a session reads "A, and B, and C" (each refinement adds a clause).
# Judged whole, one reworded word in each clause leaves the statement too far from the fact
# for every reader: the rules' one-run substitution check sees another subject ("behind" ->
# "gated by"), the embeddings' nearest statement falls below its threshold, and the
# cross-encoder, trained on single sentences, reads "..., and retain backwards compatibility
# ..." as contradicting "..., and keep backwards compatibility ..." 0.99 likely. Each clause
# is a fact of its own: the whole is stated when every clause is, contradicted when one is,
# and otherwise not (a statement of "A" alone leaves "B" unsaid).
_CLAUSE_WORDS = 3  # a clause shorter than this in content words is not a fact on its own

One = Callable[[Claim, Context], Any]


def clauses(claim: Claim) -> list[Claim]:
    """The clauses a current prose fact is judged by: ``[claim]`` itself unless its text joins
    clauses of at least ``_CLAUSE_WORDS`` content words each with ", and ". A clause drops
    ``replaces``: the fact a refined goal replaced is its own first clauses, which the
    replacement check would otherwise read as the old fact restated."""
    if claim.kind in STATE_JUDGES or claim.state != "current":
        return [claim]
    parts = and_clauses(claim.text)
    if len(parts) < 2 or any(len(parse(p).content) < _CLAUSE_WORDS for p in parts):
        return [claim]
    return [replace(claim, text=p, replaces=None) for p in parts]


def by_clause(claim: Claim, context: Context, whole: One, part: One | None = None) -> Verdict:
    """The verdict on a fact: ``whole``'s if it is one clause (:func:`clauses`), else from
    each clause's verdict by ``part`` (default ``whole``): a contradicted clause contradicts
    the fact, every clause entailed entails it, otherwise it is absent."""
    parts = clauses(claim)
    if len(parts) == 1:
        return whole(claim, context)
    verdicts = [(part or whole)(p, context) for p in parts]
    for n, verdict in enumerate(verdicts, 1):
        if verdict.label == CONTRADICTED:
            reason = f"clause {n} of {len(parts)}: {verdict.reason}"
            return Verdict(CONTRADICTED, reason, verdict.evidence)
    for n, verdict in enumerate(verdicts, 1):
        if verdict.label != ENTAILED:
            return Verdict(ABSENT, f"clause {n} of {len(parts)}: {verdict.reason}")
    first = verdicts[0]
    return Verdict(ENTAILED, f"{len(parts)} clauses: {first.reason}", first.evidence)


def label_by_clause(claim: Claim, context: Context, whole: One, part: One | None = None) -> str:
    """:func:`by_clause`'s label from label functions (stops at a contradicted clause)."""
    parts = clauses(claim)
    if len(parts) == 1:
        return whole(claim, context)
    labels = []
    for p in parts:
        label = (part or whole)(p, context)
        if label == CONTRADICTED:
            return label
        labels.append(label)
    return ENTAILED if all(label == ENTAILED for label in labels) else ABSENT


def entails_by_clause(claim: Claim, context: Context, whole: One, part: One | None = None) -> bool:
    """Is :func:`by_clause`'s label entailed? Every clause must be (stops at one that is not)."""
    parts = clauses(claim)
    if len(parts) == 1:
        return whole(claim, context)
    return all((part or whole)(p, context) for p in parts)


@MATCHERS.register("verdict")
class VerdictMatcher:
    """State-aware rules alone (no model): what the default runs before its embeddings."""

    name = "verdict"
    models = None

    def judge(self, claim: Claim, context: Context) -> Verdict:
        return by_clause(claim, context, judge)

    def label(self, claim: Claim, context: Context) -> str:
        return self.judge(claim, context).label

    def entails(self, claim: Claim, context: Context) -> bool:
        return self.label(claim, context) == ENTAILED


@MATCHERS.register("verdict-embedding")
class VerdictEmbeddingMatcher:
    """The hybrid (soba_bench.scoring.hybrid): the verdict rules, and for a prose fact they
    find absent, MiniLM sentence embeddings for "same meaning", vetoed by the rules'
    subject, polarity and stale-state checks. Needs the ``embeddings`` extra."""

    name = "verdict-embedding"
    models = EMBEDDING_MODEL

    def __init__(self, threshold: float = HybridConfig().threshold, max_chars: int = 400) -> None:
        self.config = HybridConfig(threshold=threshold, max_chars=max_chars)

    def judge(self, claim: Claim, context: Context) -> Verdict:
        return by_clause(claim, context, self._judge)

    def label(self, claim: Claim, context: Context) -> str:
        return label_by_clause(claim, context, self._label)

    def entails(self, claim: Claim, context: Context) -> bool:
        return entails_by_clause(claim, context, self._entails)

    # A fact of one clause, or one clause of a fact.
    def _judge(self, claim: Claim, context: Context) -> Verdict:
        return judge_hybrid(claim, context, self.config)

    def _label(self, claim: Claim, context: Context) -> str:
        return judge_hybrid(claim, context, self.config, explain=False).label

    def _entails(self, claim: Claim, context: Context) -> bool:
        return entails_hybrid(claim, context, self.config)


@MATCHERS.register("verdict-nli")
class VerdictNliMatcher:
    """The verdict rules for state facts and word order, and for a current prose fact a
    cross-encoder trained for this project (soba_bench.scoring.nli): it reads polarity and
    rewording together, where the hybrid splits them between rules and embeddings."""

    name = "verdict-nli"
    models = f"{NLI_MODEL} {EMBEDDING_MODEL}"  # superseded facts keep the hybrid's rules

    def __init__(
        self, threshold: float = NliConfig().threshold, top: int = NliConfig().top
    ) -> None:
        self.config = NliConfig(threshold=threshold, top=top)

    # A fact made of clauses is judged whole: the cross-encoder reads each statement whole
    # against a fact, and a clause read against a restated goal's other clauses is read as
    # contradicted (on the generated known answers, clause by clause lost 5 of 812).
    def judge(self, claim: Claim, context: Context) -> Verdict:
        return judge_nli(claim, context, self.config)

    def label(self, claim: Claim, context: Context) -> str:
        return judge_nli(claim, context, self.config).label

    def entails(self, claim: Claim, context: Context) -> bool:
        return self.label(claim, context) == ENTAILED


@MATCHERS.register("verdict-embedding-nli")
class VerdictEmbeddingNliMatcher:
    """The default. The hybrid, checked by the trained judge: where the hybrid reads a prose
    fact as stated, the cross-encoder of ``verdict-nli`` reads the statement the hybrid relied
    on, and if it reads a contradiction the fact is contradicted (``nli.check_stated``). On
    blind text the hybrid's costliest error is a negation said without a negation word read as
    the fact kept (it hides a summarizer that negates facts); the check catches most of them
    and pays with some correct rewordings read as contradicted (README, "Matching")."""

    name = "verdict-embedding-nli"
    models = f"{NLI_MODEL} {EMBEDDING_MODEL}"

    def __init__(self) -> None:
        self.hybrid = VerdictEmbeddingMatcher()
        self.config = NliConfig()

    def judge(self, claim: Claim, context: Context) -> Verdict:
        return by_clause(claim, context, self._judge, self._judge_clause)

    def label(self, claim: Claim, context: Context) -> str:
        return label_by_clause(claim, context, self._label, self._label_clause)

    def entails(self, claim: Claim, context: Context) -> bool:
        return entails_by_clause(claim, context, self._entails, self._entails_clause)

    # A fact of one clause is checked against the hybrid's statement whole; one clause of a
    # fact against that statement's clause about it (nli.check_stated, ``clause``): the
    # cross-encoder reads a sentence against a sentence, as it was trained. Splitting the
    # statement for a fact of one clause would lose a negation said across its clauses
    # ("owners hear about progress by phone, and the online tracker was shelved").
    def _judge(self, claim: Claim, context: Context, clause: bool = False) -> Verdict:
        verdict = self.hybrid._judge(claim, context)
        return check_stated(claim, verdict, self.config, clause=clause)

    def _label(self, claim: Claim, context: Context, clause: bool = False) -> str:
        # The hybrid's label-only path embeds fewer candidates only for a fact that stays
        # absent: an "entailed" comes with the same statement as its full verdict's, so the
        # check reads it without a second run of the hybrid.
        verdict = judge_hybrid(claim, context, self.hybrid.config, explain=False)
        return check_stated(claim, verdict, self.config, clause=clause).label

    def _entails(self, claim: Claim, context: Context, clause: bool = False) -> bool:
        # The hybrid's cheaper presence test first; only a fact it finds stated is checked.
        return self.hybrid._entails(claim, context) and (
            self._label(claim, context, clause) == ENTAILED
        )

    def _judge_clause(self, claim: Claim, context: Context) -> Verdict:
        return self._judge(claim, context, clause=True)

    def _label_clause(self, claim: Claim, context: Context) -> str:
        return self._label(claim, context, clause=True)

    def _entails_clause(self, claim: Claim, context: Context) -> bool:
        return self._entails(claim, context, clause=True)


class _WordsMatcher:
    """The earlier matchers: presence by words, state ignored except for stale facts."""

    name = ""
    prose_matcher = "fuzzy"
    models: str | None = None

    def __init__(self) -> None:
        self.config = MatchConfig(prose_matcher=self.prose_matcher)

    def _present(self, claim: Claim, index: TextIndex, context: Context) -> bool:
        if claim.kind in ("file_read", "file_modified", "file_renamed"):
            path = normalize_path(claim.path or claim.text)
            listed = context.modified if claim.kind == "file_modified" else context.read
            return path in {normalize_path(p) for p in listed} or index.has_path(path)
        if claim.kind == "verification":
            command = claim.command or claim.text
            return command in context.commands or index.has_exact(command)
        return index.has_prose(claim.text)

    def judge(self, claim: Claim, context: Context) -> Verdict:
        index = TextIndex(context.texts, self.config)
        if claim.state == "stale" and claim.kind not in ("verification",):
            current = TextIndex(
                [s.text for s in context.lines if s.section in CURRENT], self.config
            )
            if current.has_prose(claim.text):
                return Verdict(CONTRADICTED, "words in a current section")
        if self._present(claim, index, context):
            return Verdict(ENTAILED, "words present")
        return Verdict(ABSENT, "words missing")

    def label(self, claim: Claim, context: Context) -> str:
        return self.judge(claim, context).label

    def entails(self, claim: Claim, context: Context) -> bool:
        return self.label(claim, context) == ENTAILED


@MATCHERS.register("fuzzy")
class FuzzyMatcher(_WordsMatcher):
    name = "fuzzy"
    prose_matcher = "fuzzy"


@MATCHERS.register("embedding")
class EmbeddingMatcher(_WordsMatcher):
    name = "embedding"
    prose_matcher = "embedding"
    models = EMBEDDING_MODEL


DEFAULT_MATCHER = "verdict-embedding-nli"


def get_matcher(name: str = DEFAULT_MATCHER) -> Matcher:
    """A matcher by registry name (an unknown name lists the valid ones)."""
    return MATCHERS.get(name)()
