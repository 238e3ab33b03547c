"""Turns -> SOBA entries. A turn opens with a user message and runs several model iterations,
each recorded as SOBA's recorder does (engine.md a.4): reasoning (optional), the visible
assistant message, every ``function_call`` of the batch, then the outputs in the order the
tools finish; the turn ends with a ``final_answer`` message.

Entry count: the session has exactly ``target`` tree entries whenever the plan fits. Once no
planted beat is left and the remaining room is small, the last turn is closed with filler
sized to land on the target. Only when the target is too small for the planted facts does the
session run past it (every planted fact is always written).
"""

from __future__ import annotations

import json
from typing import Any

from soba_bench.corpora.synthetic import pieces as P
from soba_bench.corpora.synthetic.facts import CALL, SKILL, TEXT, USER, Beat
from soba_bench.corpora.synthetic.ledger import is_verification
from soba_bench.corpora.synthetic.render import render
from soba_bench.corpora.synthetic.writer import SessionWriter, clip

_UNLIMITED = 1 << 30


def _args_json(args: dict[str, Any]) -> str:
    return json.dumps(args, ensure_ascii=False, separators=(",", ":"))


def _output_text(output: Any) -> str:
    if isinstance(output, str):
        return output
    return "\n".join(block.get("text", "") for block in output)


class Builder:
    def __init__(
        self, ctx: P.Context, writer: SessionWriter, beats: list[Beat], target: int
    ) -> None:
        self.ctx, self.w, self.target = ctx, writer, target
        self.pending = list(beats)
        self.cfg = ctx.config
        self.tail = 2 * self.cfg.max_parallel_calls + 4
        self.turn = 0
        self.iteration = 0
        self.counters = {"msg": 0, "call": 0, "resp": 0, "rs": 0}
        self.edited: list[str] = []
        self.checks: dict[str, bool] = {}

    def _next(self, kind: str) -> int:
        self.counters[kind] += 1
        return self.counters[kind]

    # ── beats ────────────────────────────────────────────────────────────────
    def take(self, limits: dict[str, int]) -> list[Beat]:
        """Due beats for one iteration: per-slot limits, at most one beat per chain, and a
        chain whose earlier beat waits blocks its later beats."""
        taken: list[Beat] = []
        blocked: set[str] = set()
        used = dict.fromkeys(limits, 0)
        count = self.w.count
        for beat in self.pending:
            if beat.position > count:
                break
            if beat.chain is not None and beat.chain in blocked:
                continue
            if beat.slot in limits and used[beat.slot] < limits[beat.slot]:
                taken.append(beat)
                used[beat.slot] += 1
            if beat.chain is not None:
                blocked.add(beat.chain)
        for beat in taken:
            self.pending.remove(beat)
        return taken

    def user_due(self) -> bool:
        count = self.w.count
        for beat in self.pending:
            if beat.position > count:
                return False
            if beat.slot == USER:
                return True
        return False

    # ── the walk ─────────────────────────────────────────────────────────────
    def run(self) -> None:
        while True:
            self.open_turn()
            if self.run_turn():
                return

    def open_turn(self) -> None:
        ctx, w = self.ctx, self.w
        pieces: list[P.UserPiece | P.TextPiece] = []
        for beat in self.take({USER: _UNLIMITED}):
            piece = render(ctx, beat)
            if piece is None:
                continue
            if not isinstance(piece, P.UserPiece | P.TextPiece):
                raise TypeError(f"a user beat rendered {type(piece).__name__}, not text")
            pieces.append(piece)
        if pieces:
            text = "\n\n".join(p.text for p in pieces)
            if ctx.rng.random() < 0.5:
                size = ctx.pools.size(self.cfg.user_tokens)
                if size > len(text) + 40:
                    text += "\n\nContext:\n" + ctx.pools.log(size - len(text))
        else:
            text = P.filler_user(ctx)
        self.turn += 1
        self.iteration = 0
        w.tick(5_000, 120_000)
        w.flight(
            "runtime_event",
            {
                "type": "turn_start",
                "timestamp": w.now_ms,
                "turnIndex": self.turn,
                "userInput": clip(text, ctx.secrets),
            },
            self.turn,
        )
        eid = w.item(
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}
        )
        for piece in pieces:
            if piece.on_emit is not None:
                piece.on_emit(eid)

    def run_turn(self) -> bool:
        """Iterations until the turn ends; True when the session is complete."""
        rng = self.ctx.rng
        n_iterations = rng.randint(self.cfg.min_iterations, self.cfg.max_iterations)
        done = 0
        while True:
            room = self.target - self.w.count
            if not self.pending and room <= self.tail:
                self.finish_exact(room)
                return True
            if done >= 1 and (done >= n_iterations or self.user_due()):
                break
            beats = self.take({SKILL: _UNLIMITED, TEXT: 1, CALL: self.cfg.max_parallel_calls})
            self.step(beats)
            done += 1
        room_after = self.target - self.w.count - 1
        if not self.pending and 0 < room_after <= self.tail:
            self.finish_exact(room_after + 1)
            return True
        self.final()
        return not self.pending and self.w.count >= self.target

    def step(
        self, beats: list[Beat], *, filler_calls: int | None = None, text: bool | None = None
    ) -> None:
        """One model iteration. Normally the beats decide and filler fills in at random; the
        closing filler passes exact ``filler_calls`` and ``text`` (and never reasoning) so the
        entry count comes out exact."""
        ctx, rng, cfg = self.ctx, self.ctx.rng, self.cfg
        skills: list[P.SkillPiece] = []
        texts: list[P.TextPiece] = []
        calls: list[P.CallPiece] = []
        for beat in beats:
            piece = render(ctx, beat)
            if isinstance(piece, P.SkillPiece):
                skills.append(piece)
            elif isinstance(piece, P.TextPiece):
                texts.append(piece)
            elif isinstance(piece, P.CallPiece):
                calls.append(piece)
        for piece in skills:
            eid = self.w.skill(piece.action, piece.skill)
            if piece.on_emit is not None:
                piece.on_emit(eid)
        if filler_calls is None:
            filler_calls = 0
            if not calls:
                parallel = rng.random() < cfg.parallel_share and cfg.max_parallel_calls > 1
                filler_calls = rng.randint(2, cfg.max_parallel_calls) if parallel else 1
        calls += P.filler_calls(ctx, filler_calls)
        if not texts and (text if text is not None else rng.random() < cfg.commentary_share):
            texts.append(P.TextPiece(P.filler_commentary(ctx, calls)))
        reasoning = text is None and cfg.reasoning_chars > 0 and rng.random() < cfg.reasoning_share
        self.model_request()
        if reasoning:
            blob = ctx.pools.blob(max(16, int(cfg.reasoning_chars * rng.uniform(0.5, 1.5))))
            item = {"type": "reasoning", "id": f"rs_{self._next('rs')}", "summary": []}
            item["encrypted_content"] = blob
            self.w.item(item)
        for piece in texts:
            eid = self.assistant(piece.text, "commentary")
            if piece.on_emit is not None:
                piece.on_emit(eid)
        self.tool_batch(calls)
        self.iteration += 1

    def tool_batch(self, calls: list[P.CallPiece]) -> None:
        ctx, w, rng = self.ctx, self.w, self.ctx.rng
        call_ids: list[tuple[str, str]] = []
        for call in calls:
            n = self._next("call")
            item = {
                "type": "function_call",
                "call_id": f"call_{n}",
                "name": call.name,
                "arguments": _args_json(call.args),
                "id": f"fc_{n}",
                "status": "completed",
            }
            call_ids.append((f"call_{n}", w.item(item)))
        order = list(range(len(calls)))
        if len(order) > 1:
            rng.shuffle(order)  # outputs arrive as tools finish
        for i in order:
            call, (call_id, call_eid) = calls[i], call_ids[i]
            payload = {"toolCallId": call_id, "toolName": call.name, "args": call.args}
            w.flight("tool_call", payload, self.turn, self.iteration)
            w.tick(20, 8_000)
            text = _output_text(call.output)
            result: dict[str, Any] = {
                "content": [{"type": "text", "text": clip(text, ctx.secrets)}]
            }
            result["isError"] = call.failed
            payload = {"toolCallId": call_id, "toolName": call.name, "result": result}
            w.flight("tool_result", payload, self.turn, self.iteration)
            out_eid = w.item(self.output_item(call, call_id))
            ctx.ledger.observe_call(call.name, call.args, call_eid, out_eid, call.failed)
            if call.name in ("write", "edit") and not call.failed:
                self.edited.append(call.args["path"])
            elif call.name == "bash" and is_verification(call.args["command"]):
                self.checks[call.args["command"]] = not call.failed
            if call.on_emit is not None:
                call.on_emit(call_eid, out_eid)

    def output_item(self, call: P.CallPiece, call_id: str) -> dict[str, Any]:
        rng, cfg = self.ctx.rng, self.cfg
        status = "failed" if call.failed else "completed"
        if call.shell:
            item: dict[str, Any] = {
                "type": "local_shell_call_output",
                "call_id": call_id,
                "output": call.output,
            }
            item["status"] = status
            if rng.random() < cfg.exit_code_share:
                item["exit_code"] = 1 if call.failed else 0
            return item
        item = {"type": "function_call_output", "call_id": call_id, "output": call.output}
        legacy_ok = not call.failed or str(call.output).startswith("Error: ")
        if not (legacy_ok and rng.random() < cfg.legacy_output_share):
            item["status"] = status  # legacy outputs carry no status; failures read "Error:"
        return item

    def model_request(self) -> None:
        w, rng = self.w, self.ctx.rng
        latency = rng.randint(300, 15_000)
        w.now_ms += latency
        n = self._next("resp")
        payload = {
            "provider": "synthetic",
            "endpointOrigin": "local://synthetic",
            "model": "synthetic-coder",
            "reasoningRequested": {"mode": "provider_default"},
            "reasoningEffective": {"mode": "provider_default"},
            "inputTokens": 0,
            "outputTokens": 0,
            "reasoningTokens": 0,
            "latencyMs": latency,
            "responseId": f"resp_{n}",
            "responseStatus": "completed",
        }
        w.flight("model_request", payload, self.turn, self.iteration)

    def assistant(self, text: str, phase: str) -> str:
        n = self._next("msg")
        block = {"type": "output_text", "text": text, "annotations": []}
        item = {"type": "message", "role": "assistant", "content": [block]}
        item.update({"id": f"msg_{n}", "status": "completed", "phase": phase})
        return self.w.item(item)

    def final(self) -> None:
        self.model_request()
        entry = self.assistant(P.final_answer(self.ctx, self.edited, self.checks), "final_answer")
        self.ctx.ledger.observe_summary(self.edited, self.checks, entry)
        self.w.flight(
            "runtime_event",
            {"type": "turn_end", "timestamp": self.w.now_ms, "turnIndex": self.turn},
            self.turn,
        )
        self.edited, self.checks = [], {}

    def finish_exact(self, room: int) -> None:
        """Close the session with exactly ``room`` more entries (the last a final answer)."""
        left = room - 1
        while left > 0:
            k = min(self.cfg.max_parallel_calls, left // 2)
            text = left - 2 * k >= 1
            self.step([], filler_calls=k, text=text)
            left -= 2 * k + (1 if text else 0)
        self.final()
