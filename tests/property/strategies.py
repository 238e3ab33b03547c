"""Hypothesis strategies for SOBA model items and sessions."""

from __future__ import annotations

import json

from hypothesis import strategies as st

from tests.builders import header, item_line

# Any code point except surrogates (control characters and non-BMP included), plus strings
# with a lone surrogate, which JSON can carry ("\ud800") and SOBA can write.
_plain_text = st.text(st.characters(exclude_categories=["Cs"]), max_size=40)
_lone_surrogate = st.sampled_from(["\ud800", "\udbff", "\udc00", "\udfff"])
text = st.one_of(
    _plain_text,
    st.tuples(_plain_text, _lone_surrogate, _plain_text).map(lambda t: f"{t[0]}{t[1]}|{t[2]}"),
    st.sampled_from(["😀" * 7, "\u0000\u001f\u007f\u2028\u2029", "<|endoftext|>", "é中𝄞"]),
)
call_id = st.from_regex(r"call_[a-z0-9]{1,6}", fullmatch=True)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**53), 2**53),
    st.floats(allow_nan=False, allow_infinity=False),
    text,
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)

text_block = st.builds(
    lambda t, kind: {"type": kind, "text": t}, text, st.sampled_from(["input_text", "output_text"])
)
image_block = st.builds(
    lambda url: {"type": "input_image", "image_url": url, "detail": "auto"}, text
)


@st.composite
def message(draw) -> dict:
    item = {
        "type": "message",
        "role": draw(st.sampled_from(["user", "assistant", "system"])),
        "content": draw(st.lists(st.one_of(text_block, image_block), max_size=3)),
    }
    if item["role"] == "assistant" and draw(st.booleans()):
        item["phase"] = draw(st.sampled_from(["commentary", "final_answer"]))
        item["reasoning_content"] = draw(text)
    return item


function_call = st.builds(
    lambda cid, name, args: {
        "type": "function_call",
        "call_id": cid,
        "name": name,
        "arguments": json.dumps(args, ensure_ascii=False),
    },
    call_id,
    text,
    json_values,
)
function_call_output = st.builds(
    lambda cid, out: {
        "type": "function_call_output",
        "call_id": cid,
        "output": out,
        "status": "completed",
    },
    call_id,
    st.one_of(text, st.lists(st.one_of(text_block, image_block), max_size=3)),
)
shell_call = st.builds(
    lambda cid, cmd: {"type": "local_shell_call", "call_id": cid, "command": cmd}, call_id, text
)
shell_output = st.builds(
    lambda cid, out, code: {
        "type": "local_shell_call_output",
        "call_id": cid,
        "output": out,
        "exit_code": code,
    },
    call_id,
    text,
    st.one_of(st.none(), st.integers(-1, 255)),
)
reasoning = st.builds(
    lambda enc, extra: {"type": "reasoning", "encrypted_content": enc, "opaque": extra},
    text,
    json_values,
)
compaction = st.builds(lambda enc: {"type": "compaction", "encrypted_content": enc}, text)

model_item = st.one_of(
    message(),
    function_call,
    function_call_output,
    shell_call,
    shell_output,
    reasoning,
    compaction,
)


@st.composite
def session_lines(draw) -> list[dict]:
    """A header and a chain of item entries, with random sidecars between them."""
    lines = [header()]
    parent = None
    for n, item in enumerate(draw(st.lists(model_item, max_size=8))):
        if draw(st.booleans()):
            lines.append({"type": "debug", "timestamp": draw(text), "data": draw(json_values)})
        entry_id = f"e{n:07d}"
        lines.append(item_line(entry_id, parent, item))
        parent = entry_id
    return lines
