"""The hybrid matcher: the verdict rules decide state, polarity, subject and word order; sentence
embeddings decide "same meaning" where the rules only saw too few shared words.

The rules (soba_bench.scoring.verdict) judge every fact first. Only a prose fact they find
absent goes on, and only to the statements the rules set aside for sharing too few words
(never one they found about another subject, or the fact's words shuffled). Among those, the
statement closest to the fact in MiniLM cosine similarity (soba_bench.scoring.embeddings,
the ``embeddings`` extra) states the fact when it reaches ``threshold``, and then the rules'
vetoes still apply to it:

* other paths, identifiers or numbers than the fact's: another subject, absent;
* a flipped polarity (``not`` / ``never`` / ``no longer`` on one side only): contradicted,
  unless the fact is superseded (its successor may well negate it);
* a stale-state cue (replaced, reverted, dropped ...): the fact reported as over, which is
  what a superseded fact should show and contradicts a current one;
* otherwise a superseded fact stays with the rules' verdict (its successor reads much like
  it), and so does a fact whose path or number the statement does not carry;
* a current fact that replaced another (``Claim.replaces``) is not stated by a statement at
  least as close to the replaced fact: that states the old one.

Embeddings see meaning but not polarity (a negation scores as high as a paraphrase), the rules
see polarity but not rewording; each is asked only what it can answer. A speaker's lead-in
("User: the task for this session: ...") is cut before embedding: it is not the fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from soba_bench.scoring.context import Context, Statement
from soba_bench.scoring.verdict import (
    ABSENT,
    CONTRADICTED,
    ENTAILED,
    STATE_JUDGES,
    Claim,
    Verdict,
    _has_stale_cue,
    _relevant_polarity,
    _weight,
    compare,
    judge,
    parse,
    ranked_by_shared,
)

# "User: the task for this session: X", "Assistant: next I will X": a role, then an optional
# lead-in clause ending in a colon (short, so a colon inside the fact is kept).
_LEAD = re.compile(r"^(?:user|assistant|system)\s*:\s*(?:[^:]{0,48}:\s+)?", re.IGNORECASE)


def strip_lead(text: str) -> str:
    """The statement without its speaker and lead-in phrase."""
    return _LEAD.sub("", text, count=1).strip() or text


@dataclass(frozen=True)
class HybridConfig:
    threshold: float = 0.75  # cosine for "same meaning" (paraphrases ~0.75-0.95 on dev)
    max_chars: int = 400  # longer statements are tool output, not a restated fact
    top: int = 8  # statements embedded per fact, those sharing most of its words


def _candidates(
    claim: Claim, context: Context, config: HybridConfig, skip: frozenset[str] = frozenset()
) -> list[Statement]:
    """The ``top`` statements sharing most of the fact's full-weight content words (a
    rewording keeps the thing it is about; newest first among equals), less those the rules
    judged for another reason than too few shared words. Bounding them bounds what a long
    history costs to embed."""
    words = set(parse(claim.text).content)
    ranked = ranked_by_shared((w for w in words if _weight(w) >= 1.0), context)
    chosen = []
    for i in ranked:
        statement = context.statements[i]
        if len(statement.text) > config.max_chars or statement.text in skip:
            continue
        label, rule = compare(claim.text, statement.text)
        if label == ABSENT and rule.startswith("recall"):
            chosen.append(statement)
            if len(chosen) == config.top:
                break
    return chosen


def judge_hybrid(
    claim: Claim,
    context: Context,
    config: HybridConfig = HybridConfig(),
    explain: bool = True,
    skip: frozenset[str] = frozenset(),
) -> Verdict:
    """The rules' verdict, or, for a prose fact they find absent, the embeddings' nearest
    statement checked by the rules' vetoes.

    ``explain=False`` (the scorers, which read only the label): the label is the same, but
    the model embeds only what can change it. A statement states or contradicts the fact only
    if its vetoes let it (:func:`_stated`) and it is at least ``threshold`` close, so when no
    such candidate is that close the fact stays absent whichever candidate is nearest; the
    rules' verdict is returned then, with its own reason. Embedding is most of a scoring run's
    cost, and most candidates of a long history fail a veto (another path or number).
    Statements whose text is in ``skip`` are not read."""
    verdict = judge(claim, context, skip)
    if verdict.label != ABSENT or claim.kind in STATE_JUDGES:
        return verdict
    statements = _candidates(claim, context, config, skip)
    if not statements:
        return verdict
    return _by_embedding(claim, verdict, statements, config, explain)


def entails_hybrid(claim: Claim, context: Context, config: HybridConfig = HybridConfig()) -> bool:
    """Is :func:`judge_hybrid`'s label entailed? The same answer for less of the model.

    The embeddings entail a fact only through the nearest candidate, when it is at least
    ``threshold`` close and its vetoes let it entail (:func:`_stated`). So when no candidate
    that could entail is that close, the fact is not entailed, whatever a candidate that could
    only contradict it scores; those are not embedded. The lost-constraint detector asks only
    this, of every constraint at every evaluation point, and in a sweep job about 40% of the
    candidates it embedded could only contradict (issue 18). Anything else is decided by the
    full label."""
    verdict = judge(claim, context)
    if verdict.label != ABSENT or claim.kind in STATE_JUDGES:
        return verdict.label == ENTAILED
    statements = _candidates(claim, context, config)
    texts = [strip_lead(s.text) for s in statements]
    entailing = [
        text
        for statement, text in zip(statements, texts, strict=True)
        if _stated(claim, verdict, statement, text, "").label == ENTAILED
    ]
    if not entailing:
        return False
    from soba_bench.scoring.embeddings import get_embedder

    near = get_embedder().embed([claim.text, *entailing])
    # A margin, so that rounding in another product of the same vectors cannot decide here
    # what the full label decides otherwise.
    if float((near[1:] @ near[0]).max()) < config.threshold - _MARGIN:
        return False
    return _by_embedding(claim, verdict, statements, config, explain=False).label == ENTAILED


_MARGIN = 1e-6


def _by_embedding(
    claim: Claim,
    verdict: Verdict,
    statements: list[Statement],
    config: HybridConfig,
    explain: bool,
) -> Verdict:
    """The rest of :func:`judge_hybrid`: the rules found the prose fact absent and these
    candidates share too few words for them to say more."""
    from soba_bench.scoring.embeddings import get_embedder

    texts = [strip_lead(s.text) for s in statements]
    if not explain:
        able = [
            text
            for statement, text in zip(statements, texts, strict=True)
            if _stated(claim, verdict, statement, text, "").label != ABSENT
        ]
        if not able:
            return verdict
        near = get_embedder().embed([claim.text, *able])
        if float((near[1:] @ near[0]).max()) < config.threshold:
            return verdict
    previous = [claim.replaces] if claim.replaces and claim.state == "current" else []
    vectors = get_embedder().embed([claim.text, *previous, *texts])
    first = 1 + len(previous)
    scores = vectors[first:] @ vectors[0]
    best = int(scores.argmax())
    score = float(scores[best])
    if score < config.threshold:
        return verdict
    if previous and float(vectors[first + best] @ vectors[1]) >= score:
        # The statement is at least as close to the decision this one replaced: it states
        # the old one, not this (the rules' verdict stands).
        return verdict
    return _stated(claim, verdict, statements[best], texts[best], f"embedding {score:.2f}")


def _stated(
    claim: Claim, verdict: Verdict, statement: Statement, text: str, reason: str
) -> Verdict:
    """What ``statement`` (``text``: without its lead-in), taken as close enough in meaning,
    says of the fact under the rules' vetoes; ``verdict`` is the rules' own (absent)."""
    fact, other = parse(claim.text), parse(text)
    if fact.keys - other.keys and other.keys - fact.keys:
        return Verdict(ABSENT, f"{reason}, another subject", statement.text)
    if fact.polarity != _relevant_polarity(fact, claim.text, text):
        if claim.state == "stale":
            return verdict  # a superseded fact negated: its successor, not a contradiction
        return Verdict(CONTRADICTED, f"{reason}, negated", statement.text)
    if _has_stale_cue(text):
        label = ENTAILED if claim.state == "stale" else CONTRADICTED
        return Verdict(label, f"{reason}, reported as over", statement.text)
    if claim.state == "stale" or fact.keys - other.keys:
        # A superseded fact's successor reads much like it ("keep X" after "remove X"), so
        # only the rules say a stale fact is shown as current; and a statement without the
        # fact's path or number cannot be told to be about the same one.
        return verdict
    return Verdict(ENTAILED, reason, statement.text)
