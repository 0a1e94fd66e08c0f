"""semantic_similarity over many rows against the loopback OpenAI server (no internet needed).

    .venv/bin/python benchmarks/bench_embeddings.py [--rows 10000] [--distinct 2000] [--dims 1536]

Scores ROWS rows built from DISTINCT distinct texts twice, with a private, empty disk cache:
the first run embeds every distinct text once in as few requests as the batch limits allow,
the second finds them all in the cache and sends nothing. Prints requests, texts sent, time
and rows/s for each run, for a local endpoint's limits and for OpenAI's.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for tests.embeddings.openai_server

from tests.embeddings.openai_server import FakeOpenAI  # noqa: E402

WORDS = ["refund", "order", "customer", "invoice", "shipped", "delayed", "account", "password", "reset", "billing", "address", "card", "declined", "warranty", "return", "label", "package", "tracking", "support", "agent", "escalate", "priority", "ticket", "resolved", "pending", "cancelled", "subscription", "renewal"]


def make_rows(rows: int, distinct: int, seed: int = 1) -> tuple[list[str], list[str]]:
    rng = random.Random(seed)
    pool = [" ".join(rng.choices(WORDS, k=rng.randint(6, 24))) + f" #{i}" for i in range(distinct)]
    half = distinct // 2
    expected = [pool[rng.randrange(half)] for _ in range(rows)]
    actual = [pool[half + rng.randrange(distinct - half)] for _ in range(rows)]
    return expected, actual


def run_once(spec, expected, actual, options, server) -> tuple[float, int, int]:
    before_requests, before_inputs = server.request_count, len(server.inputs_sent)
    started = time.perf_counter()
    out = spec.many(expected, actual, options)
    elapsed = time.perf_counter() - started
    failed = int((out.status != 0).sum())
    if failed:
        raise SystemExit(f"{failed} rows failed: {next(iter(out.messages.values()))}")
    return elapsed, server.request_count - before_requests, len(server.inputs_sent) - before_inputs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000)
    parser.add_argument("--distinct", type=int, default=2_000)
    parser.add_argument("--dims", type=int, default=1536, help="text-embedding-3-small: 1536")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = tmp  # a private, empty cache; the user's is untouched
        for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
            os.environ.pop(var, None)
        from matchlens.embeddings import client as client_module
        from matchlens.embeddings.metric import SPEC

        started = time.perf_counter()
        import openai  # noqa: F401  (once per process, on first use in the app)

        import_s = time.perf_counter() - started

        expected, actual = make_rows(args.rows, args.distinct)
        n_distinct = len(set(expected) | set(actual))
        print(f"{args.rows:,} rows, {n_distinct:,} distinct texts, {args.dims}-dim vectors, "
              f"openai client against {FakeOpenAI.__name__} on 127.0.0.1 "
              f"(importing openai took {import_s:.2f} s, not counted below)")
        for name, limits in (("local-endpoint limits", client_module.OTHER_LIMITS),
                             ("OpenAI limits", client_module.OPENAI_LIMITS)):
            client_module.OTHER_LIMITS = limits
            with FakeOpenAI(dimensions=args.dims) as server:
                options = SPEC.resolve_options({"base_url": server.base_url})
                t1, req1, sent1 = run_once(SPEC, expected, actual, options, server)
                t2, req2, sent2 = run_once(SPEC, expected, actual, options, server)
            print(f"\n{name} ({limits.max_inputs} inputs, ~{limits.max_tokens:,} tokens a request)")
            print(f"  first run : {req1} requests, {sent1:,} texts sent, {t1:.2f} s, "
                  f"{args.rows / t1:,.0f} rows/s")
            print(f"  cached run: {req2} requests, {sent2:,} texts sent, {t2:.2f} s, "
                  f"{args.rows / t2:,.0f} rows/s")
            # The next pass must start cold again.
            for path in Path(tmp).rglob("embeddings.sqlite3*"):
                path.unlink()


if __name__ == "__main__":
    main()
