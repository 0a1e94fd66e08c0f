"""core.text.redact: each credential shape is looked for only where its hint is found, so the
hint must be found in every text the shape matches — else a key would pass unmasked."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from matchlens.core.text.redact import SHAPES, scrub

# texts made of what the shapes are built from, so that they do match now and then
_PIECES = st.sampled_from([
    "sk-", "sk-proj-", "Bearer ", "bearer%20", "BEARER+", "://", "https://", "user:pw@",
    "api_key=", "token=", "&sig=", "X-Api-Key=", "=", "@", "-", "_", "*", " ", "\n", "é",
    "AbC123", "aB3dE5fG7hJ9kL1mN3pQ5rS7", "0123456789abcdef0123456789", "ZZZZ", "z", "9"])
_TEXTS = st.lists(_PIECES | st.text(max_size=8), max_size=14).map("".join)


@given(_TEXTS)
@settings(max_examples=1500, deadline=None)
def test_every_shape_matches_only_where_its_hint_is_found(text):
    for shape in SHAPES:
        if shape.pattern.search(text) is not None:
            assert shape.hint.search(text) is not None, (shape.hint.pattern, text)


def test_a_text_with_each_shape_is_still_masked():
    opaque = "aB3dE5fG7hJ9kL1mN3pQ5rS7tU"
    said = scrub(f"key sk-abcdefghijklmnop, {opaque}, https://me:pw@host/x?api_key=zzz&x=1, "
                 "Authorization: Bearer tok.en")
    for secret in ("abcdefghijklmnop", opaque, "me:pw", "zzz", "tok.en"):
        assert secret not in said
    assert "x=1" in said and "host/x" in said
