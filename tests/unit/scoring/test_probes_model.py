"""Model-backed probe answers and verdicts against a scripted OpenAI-compatible endpoint on
127.0.0.1: every call goes through the response cache, a read-only replay needs no endpoint
and gives the same scores, a miss in read-only mode is an error, and a verdict that is not
JSON is recorded as a judge error instead of stopping the scorer."""

from __future__ import annotations

import json

import pytest

from soba_bench.corpora.truth import read_truth
from soba_bench.models.cache import CacheMissError, ResponseCache
from soba_bench.scoring.match import DEFAULT_MATCH
from soba_bench.scoring.probes import ProbeConfig, Prober, parse_verdict, score_moment
from soba_bench.scoring.probes.judges import VerdictError
from soba_bench.scoring.timeline import Lifecycle, Timeline
from soba_bench.session import read_session
from soba_bench.session.build_input import build_input
from tests.builders import REPO
from tests.unit.models.fake_openai import FakeOpenAI, Step

TINY = REPO / "corpora" / "synthetic-tiny" / "sessions" / "synthetic-s11-000"


def reply(body):
    prompt = body["messages"][0]["content"]
    if prompt.startswith("You grade an answer"):
        if "current goal" in prompt:
            return Step(text="The answer looks right to me.")  # not a verdict
        # a quote of the answer ("unknown") and a remark of the judge's own
        return Step(text=json.dumps({"covered": [1], "wrong": ["unknown", "The rubric says so"]}))
    if "modified so far" in prompt:
        return Step(text="- ./src/search/query.ts\n- src/made/up.ts")
    return Step(text="unknown")


def moment(config):
    branch = read_session(TINY.with_suffix(".jsonl.gz")).active_branch
    truth = read_truth(TINY.with_suffix(".truth.json"))
    lifecycle = Lifecycle(truth, Timeline.of(branch))
    items = list(build_input(branch).items)
    return score_moment(
        Prober(config, DEFAULT_MATCH),
        session="s",
        generation="final",
        point=len(branch),
        final=True,
        inputs={"soba": items},
        facts=truth.facts,
        lifecycle=lifecycle,
    )


def comparable(rows):
    return [
        {k: v for k, v in r.items() if k not in ("answerSource", "verdictSource")} for r in rows
    ]


def test_answers_and_verdicts_are_cached_and_replay_offline(tmp_path):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAI(default=reply) as srv:
        config = ProbeConfig(
            answerer="model",
            judge="model",
            base_url=srv.base_url,
            model="fake",
            cache_path=str(cache),
            budget=800,
        )
        rows, (summary,) = moment(config)
        calls = len(srv.requests)
    judged = [r for r in rows if r["mode"] == "judge"]
    assert calls == len(rows) + len(judged) and len(ResponseCache(cache, "read-only")) == calls
    assert {r["answerSource"] for r in rows} == {"model"}
    # the model saw the cut input and the question, nothing else
    first = srv.requests[0]["messages"][0]["content"]
    assert "tokens of the input omitted here to fit a 800-token budget" in first
    assert first.rstrip().endswith("Question: What is the current goal of this session?\nAnswer:")
    by_probe = {r["probe"]: r for r in rows}
    modified = by_probe["modified_files"]
    assert modified["score"] == 1.0 and modified["wrong"] == ["src/made/up.ts"]
    goal = by_probe["goal"]
    assert goal["score"] is None and "no JSON object" in goal["error"]
    assert any(e.startswith("goal: ") for e in summary["errors"])
    constraints = by_probe["constraints"]
    assert (
        constraints["found"] == [constraints["expected"][0]] and constraints["answer"] == "unknown"
    )
    assert constraints["wrong"] == ["unknown"] and constraints["unquotedWrong"] == 1
    # replay: no endpoint at all, read-only cache, identical scores
    offline = ProbeConfig(
        answerer="model",
        judge="model",
        base_url="http://127.0.0.1:9/v1",
        model="fake",
        cache="read-only",
        cache_path=str(cache),
        budget=800,
    )
    again, (summary_again,) = moment(offline)
    assert comparable(again) == comparable(rows) and summary_again == summary
    assert {r["answerSource"] for r in again} == {"cache"}


def test_a_read_only_cache_miss_is_an_error(tmp_path):
    cache = tmp_path / "responses.sqlite"
    with FakeOpenAI(default=reply) as srv:
        moment(
            ProbeConfig(
                answerer="model",
                base_url=srv.base_url,
                model="fake",
                cache_path=str(cache),
                budget=800,
            )
        )
    other_budget = ProbeConfig(
        answerer="model",
        base_url="http://127.0.0.1:9/v1",
        model="fake",
        cache="read-only",
        cache_path=str(cache),
        budget=900,
    )
    with pytest.raises(CacheMissError, match="read-only"):
        moment(other_budget)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "no JSON object"),
        ('{"covered": [1,}', "not valid JSON"),
        ('{"wrong": []}', "'covered' list"),
        ('{"covered": [3], "wrong": []}', "not an item number 1..2"),
        ('{"covered": [true], "wrong": []}', "not an item number"),
    ],
)
def test_unreadable_verdicts_are_verdict_errors(text, message):
    with pytest.raises(VerdictError, match=message):
        parse_verdict(text, 2)


def test_a_verdict_inside_prose_is_read():
    assert parse_verdict('Sure! {"covered": [2, 1, 2], "wrong": ["x"]} done', 2) == ([1, 2], ["x"])
