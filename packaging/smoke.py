"""Smoke-test the built standalone app (dist/matchlens/) against the installed one (.venv).

    packaging/smoke.sh [--app dist/matchlens] [--installed .venv/bin/matchlens]

Each check prints one line (`ok` or `FAIL`, its name, what it saw); the exit status is 1 when
any check failed. Every run of either app gets a fresh HOME and XDG folders in one temporary
directory, so the checks see where the frozen app writes (its numba cache must land in the
user's cache folder, never beside the binary) and nothing of the user's own settings leaks in.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "resources" / "samples" / "qa_extraction_sample.csv"
PAIR = (ROOT / "resources" / "samples" / "pair_expected.txt",
        ROOT / "resources" / "samples" / "pair_actual.txt")
SCORE_ARGS = [str(SAMPLE), "--expected", "expected", "--actual", "output_a", "--actual", "output_b"]
# A fake key: the check proves it reaches the server and never shows up in what the app writes.
FAKE_KEY = "sk-smoke-0123456789abcdefXYZ"
TIMEOUT_S = 300


class Failed(Exception):
    pass


class Smoke:
    def __init__(self, app: Path, installed: Path, work: Path) -> None:
        self.app = app
        self.frozen = app / "matchlens"
        self.installed = installed
        self.work = work
        self.failures = 0
        self.passed = 0
        self.cache = work / "xdg-cache"

    # -- running ---------------------------------------------------------------------------
    def env(self, **extra: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("OPENAI_", "NUMBA_", "MATCHLENS_"))}
        env.update(HOME=str(self.work / "home"), XDG_CACHE_HOME=str(self.cache),
                   XDG_CONFIG_HOME=str(self.work / "xdg-config"),
                   XDG_DATA_HOME=str(self.work / "xdg-data"),
                   QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        env.update(extra)
        return env

    def run(self, exe: Path, args: list[str], cwd: Path, **env: str
            ) -> subprocess.CompletedProcess[bytes]:
        cwd.mkdir(parents=True, exist_ok=True)
        return subprocess.run([str(exe), *args], cwd=cwd, env=self.env(**env),
                              capture_output=True, timeout=TIMEOUT_S, check=False)

    def both(self, name: str, args: list[str], **env: str
             ) -> tuple[subprocess.CompletedProcess[bytes], subprocess.CompletedProcess[bytes],
                        Path, Path]:
        """Run `args` with the installed app, then the frozen one, each in its own folder."""
        here, there = self.work / name / "installed", self.work / name / "frozen"
        ref = self.run(self.installed, args, here, **env)
        got = self.run(self.frozen, args, there, **env)
        return ref, got, here, there

    def check(self, name: str, fn: Callable[[], str]) -> None:
        start = time.perf_counter()
        try:
            detail = fn()
        except Failed as err:
            self.failures += 1
            print(f"FAIL {name}: {err}", flush=True)
            return
        except Exception as err:  # noqa: BLE001 - a broken check is a failed check
            self.failures += 1
            print(f"FAIL {name}: {type(err).__name__}: {err}", flush=True)
            return
        self.passed += 1
        print(f"ok   {name}: {detail} ({time.perf_counter() - start:.1f} s)", flush=True)

    # -- comparing -------------------------------------------------------------------------
    @staticmethod
    def same_run(ref: subprocess.CompletedProcess[bytes],
                 got: subprocess.CompletedProcess[bytes], here: Path, there: Path) -> int:
        """The frozen run equals the installed one: exit code, stdout, stderr and every file
        written, byte for byte (paths to the run's own folder and the sidecar's `created`
        time aside). Returns how many bytes of files were compared."""
        if got.returncode != ref.returncode:
            raise Failed(f"exit {got.returncode}, installed {ref.returncode}; "
                         f"stderr: {tail(got.stderr)}")
        for stream in ("stdout", "stderr"):
            a, b = getattr(ref, stream), getattr(got, stream)
            if a.replace(bytes(here), b"@") != b.replace(bytes(there), b"@"):
                raise Failed(f"{stream} differs:\n--- installed\n{tail(a)}\n--- frozen\n{tail(b)}")
        names = sorted(p.name for p in here.iterdir())
        if names != sorted(p.name for p in there.iterdir()):
            raise Failed(f"files {sorted(p.name for p in there.iterdir())}, installed {names}")
        compared = 0
        for name in names:
            a, b = (here / name).read_bytes(), (there / name).read_bytes()
            if name.endswith(".toml"):
                a, b = (re.sub(rb'(?m)^created = .*$', b"", x) for x in (a, b))
            if a != b:
                raise Failed(f"{name} differs from the installed app's")
            compared += len(a)
        return compared

    # -- the checks ------------------------------------------------------------------------
    def score_equal(self) -> str:
        args = ["score", *SCORE_ARGS, "--set", "levenshtein_similarity.threshold=0.8",
                "-o", "scored.csv", "--fail-under", "0.6"]
        ref, got, here, there = self.both("score", args)
        size = self.same_run(ref, got, here, there)
        return f"scored.csv, sidecar, summary and exit {got.returncode} equal the installed " \
               f"app's ({size} bytes)"

    def metrics_all(self) -> str:
        """`--metrics all` equals the installed app's. With the kernels compiled ahead of time
        (no numba in the bundle), every kernel call must find its compiled overload
        (MATCHLENS_KERNELS_STRICT=1: no Python fallback) and nothing is compiled or cached;
        with numba in the bundle, its cache lands in the user's cache folder."""
        before = files_under(self.app)
        args = ["score", *SCORE_ARGS, "--metrics", "all", "-o", "all.csv", "--quiet"]
        here, there = self.work / "all" / "installed", self.work / "all" / "frozen"
        ref = self.run(self.installed, args, here)
        aot = any((self.app / "_internal").glob("matchlens_aot.*"))
        strict = {"MATCHLENS_KERNELS_STRICT": "1"} if aot else {}
        start = time.perf_counter()
        got = self.run(self.frozen, args, there, **strict)
        first = time.perf_counter() - start
        self.same_run(ref, got, here, there)
        cache = self.cache / "matchlens"
        cached = [p for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc")]
        jit = (self.app / "_internal" / "numba").exists()
        if jit and not cached:
            raise Failed(f"no numba cache files under {cache}")
        if not jit and cached:
            raise Failed(f"numba cache files without numba in the bundle: {cached[:3]}")
        start = time.perf_counter()
        again = self.run(self.frozen, args, self.work / "all" / "again", **strict)
        second = time.perf_counter() - start
        if again.returncode != ref.returncode:
            raise Failed(f"second run exited {again.returncode}: {tail(again.stderr)}")
        added = files_under(self.app) - before
        if added:
            raise Failed(f"the frozen app wrote beside its binary: {sorted(added)[:5]}")
        if aot:
            return (f"every metric equals the installed app's, every kernel call compiled "
                    f"ahead of time (strict: no Python fallback), nothing compiled, cached or "
                    f"written beside the binary; {first:.1f} s, again {second:.1f} s")
        if not jit:
            return (f"every metric equals the installed (compiled) app's through the pure-Python "
                    f"paths (numba left out), nothing written beside the binary; "
                    f"{first:.1f} s, again {second:.1f} s")
        return (f"every metric equals the installed app's; {len(cached)} numba cache files in "
                f"$XDG_CACHE_HOME/matchlens/numba, none beside the binary; first run "
                f"{first:.1f} s (compiles), second {second:.1f} s")

    def parquet(self) -> str:
        """A Parquet file (pyarrow inside the frozen app), made from the sample by the venv."""
        data = self.work / "sample.parquet"
        made = subprocess.run([sys.executable, "-c", (
            "import sys, pyarrow.csv as c, pyarrow.parquet as q; "
            "q.write_table(c.read_csv(sys.argv[1]), sys.argv[2], row_group_size=64)"),
            str(SAMPLE), str(data)], capture_output=True, text=True, check=False)
        if made.returncode != 0:
            raise Failed(f"could not write the Parquet file: {made.stderr[-500:]}")
        args = ["score", str(data), "--expected", "expected", "--actual", "output_b",
                "--metrics", "exact_match,jaccard,bleu", "-o", "scored.jsonl"]
        ref, got, here, there = self.both("parquet", args)
        self.same_run(ref, got, here, there)
        return "scored.jsonl from a 4-row-group Parquet file equals the installed app's"

    def json_unordered(self) -> str:
        """json_distance pairing array items out of order: scipy's assignment solver, the one
        part of scipy the frozen app carries (packaging/frozen/scipy_lsap)."""
        data = self.work / "arrays.jsonl"
        rows = [({"items": [{"sku": "a", "n": 1}, {"sku": "b", "n": 2}, {"sku": "c", "n": 3}]},
                 {"items": [{"sku": "c", "n": 3}, {"sku": "a", "n": 1}, {"sku": "b", "n": 5}]}),
                ([1, 2, 3], [3, 2, 1, 4]), ([[1, 2], [3]], [[3], [2, 1]])]
        data.write_text("".join(json.dumps({"id": i, "expected": json.dumps(e),
                                            "actual": json.dumps(a)}) + "\n"
                                for i, (e, a) in enumerate(rows, 1)), encoding="utf-8")
        args = ["score", str(data), "--expected", "expected", "--actual", "actual",
                "--metrics", "json_distance", "--set", "json_distance.array_match=unordered",
                "-o", "arrays.csv"]
        ref, got, here, there = self.both("json-unordered", args)
        self.same_run(ref, got, here, there)
        with (there / "arrays.csv").open(encoding="utf-8", newline="") as f:
            scores = [r["json_distance"] for r in csv.DictReader(f)]
        if not all(scores):
            raise Failed(f"rows left unscored: {scores}")
        return f"json_distance with unordered arrays equals the installed app's ({scores})"

    def diff(self) -> str:
        ref, got, here, there = self.both("diff", ["diff", str(PAIR[0]), str(PAIR[1])],
                                          NO_COLOR="1")
        self.same_run(ref, got, here, there)
        ref, got, here, there = self.both("diff-json", ["diff", "--json", "--words",
                                                        str(PAIR[0]), str(PAIR[1])])
        self.same_run(ref, got, here, there)
        return f"plain and --json --words output equal the installed app's ({len(got.stdout)} bytes)"

    def calibrate(self) -> str:
        args = ["calibrate", *SCORE_ARGS, "--label", "label", "-o", "thresholds.toml"]
        ref, got, here, there = self.both("calibrate", args)
        self.same_run(ref, got, here, there)
        if not (there / "thresholds.toml").exists():
            raise Failed("no thresholds.toml written")
        return "thresholds.toml and report equal the installed app's"

    def window(self, name: str, args: list[str]) -> str:
        shot = self.work / "shots" / f"{name}.png"
        got = self.run(self.frozen, [*args, "--screenshot", str(shot)], self.work / "shots")
        if got.returncode != 0:
            raise Failed(f"exit {got.returncode}: {tail(got.stderr)}")
        width, height, colours = png_facts(shot)
        if (width, height) != (1440, 900) or colours < 8:
            raise Failed(f"{shot}: {width}x{height}, {colours} colours in the sampled pixels")
        return f"{shot.relative_to(self.work)} {width}x{height}, {colours} colours sampled"

    def semantic(self) -> str:
        sys.path.insert(0, str(ROOT))
        from tests.embeddings.openai_server import FakeOpenAI

        with FakeOpenAI() as server:
            args = ["score", *SCORE_ARGS, "--metrics", "semantic_similarity,exact_match",
                    "--base-url", server.base_url, "-o", "semantic.csv"]
            here, there = self.work / "semantic" / "installed", self.work / "semantic" / "frozen"
            # Each its own embeddings cache: the frozen run must send its own requests.
            ref = self.run(self.installed, args, here, OPENAI_API_KEY=FAKE_KEY,
                           XDG_CACHE_HOME=str(self.work / "semantic" / "cache-installed"))
            before = server.request_count
            got = self.run(self.frozen, args, there, OPENAI_API_KEY=FAKE_KEY,
                           XDG_CACHE_HOME=str(self.work / "semantic" / "cache-frozen"))
            sent = server.request_count - before
            auth = {r.authorization for r in server.requests}
        self.same_run(ref, got, here, there)
        if not sent:
            raise Failed("the frozen app sent no request")
        if auth != {f"Bearer {FAKE_KEY}"}:
            raise Failed(f"the server saw authorization {sorted(map(str, auth))}")
        written = b"".join(p.read_bytes() for p in there.iterdir())
        for blob in (got.stdout, got.stderr, written):
            if FAKE_KEY.encode() in blob or FAKE_KEY[-8:].encode() in blob:
                raise Failed("the API key shows up in the app's output")
        with (there / "semantic.csv").open(encoding="utf-8", newline="") as f:
            rows = list(csv.DictReader(f))
        scored = sum(1 for r in rows if r.get("semantic_similarity@output_a"))
        if scored < len(rows) // 2:
            raise Failed(f"only {scored} of {len(rows)} rows scored by semantic_similarity")
        return (f"{sent} requests to a loopback server, key from OPENAI_API_KEY (no keyring "
                f"here), never printed; {scored} of {len(rows)} rows scored, table equal to the "
                f"installed app's")

    def no_pandas(self) -> str:
        """pandas is left out of the frozen app: nothing it runs may import it."""
        internal = self.app / "_internal"
        carried = {name for name in LEFT_OUT if (internal / name).exists()}
        # Pure-Python packages live in the PYZ archive inside the executable, not in folders.
        from PyInstaller.archive.readers import CArchiveReader

        package = CArchiveReader(str(self.frozen))
        pyz = package.open_embedded_archive(next(n for n in package.toc if "PYZ" in n))
        modules = set(pyz.toc)
        carried |= {name for name in LEFT_OUT if name in {m.split(".")[0] for m in modules}}
        carried |= {m for m in modules if m.startswith(("matchlens.api", "matchlens.dask"))}
        if carried:
            raise Failed(f"the bundle carries {sorted(carried)}")
        return (f"{', '.join(LEFT_OUT)} and the Python API are not in the bundle "
                f"({len(modules)} modules): the checks above ran without them")

    def size(self) -> str:
        mib = folder_bytes(self.app) / 2**20
        if mib > LIMIT_MIB:
            raise Failed(f"{mib:.0f} MiB unpacked, over the {LIMIT_MIB} MiB limit")
        return f"{mib:.0f} MiB unpacked (limit {LIMIT_MIB} MiB)"


LIMIT_MIB = int((ROOT / "packaging" / "SIZE_LIMIT_MIB").read_text(encoding="utf-8"))


# Left out of the standalone app (README: "Standalone app"); pandas: the Python API's.
LEFT_OUT = ("llvmlite", "pandas", "dask", "distributed", "toolz", "cloudpickle", "tornado", "pytest",
            "_pytest", "pytestqt", "hypothesis", "jiwer", "polars", "rouge_score", "nltk",
            "Levenshtein", "xlsxwriter")


def folder_bytes(folder: Path) -> int:
    return sum(p.lstat().st_size for p in folder.rglob("*") if p.is_file() or p.is_symlink())


def files_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def tail(blob: bytes, n: int = 1200) -> str:
    return blob.decode("utf-8", "replace")[-n:]


def png_facts(path: Path) -> tuple[int, int, int]:
    """Width, height and the number of distinct colours on a sparse grid of pixels (a blank
    or single-colour window has 1-2). Plain zlib: no Qt or Pillow in this script."""
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failed(f"{path} is not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    channels = {2: 3, 6: 4, 0: 1, 4: 2}.get(colour, 0)
    if depth != 8 or not channels:
        return width, height, 99  # not worth decoding: trust the size
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up, ul = prev[i], prev[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - ul
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - ul)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else ul)) & 255
        rows.append(bytes(line))
        prev = line
    seen = {rows[y][x * channels:(x + 1) * channels]
            for y in range(0, height, 23) for x in range(0, width, 17)}
    return width, height, len(seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--app", type=Path, default=ROOT / "dist" / "matchlens")
    parser.add_argument("--installed", type=Path, default=ROOT / ".venv" / "bin" / "matchlens")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()
    if not (args.app / "matchlens").exists():
        print(f"FAIL build: no {args.app / 'matchlens'}; run packaging/build.sh first")
        return 1
    work = Path(tempfile.mkdtemp(prefix="matchlens-smoke-"))
    smoke = Smoke(args.app.resolve(), args.installed, work)
    smoke.check("size", smoke.size)
    smoke.check("score equals the installed app", smoke.score_equal)
    smoke.check("score --metrics all", smoke.metrics_all)
    smoke.check("score a Parquet file", smoke.parquet)
    smoke.check("json_distance on unordered arrays", smoke.json_unordered)
    smoke.check("diff", smoke.diff)
    smoke.check("calibrate", smoke.calibrate)
    smoke.check("window: compare tab on the sample pair",
                lambda: smoke.window("compare", []))
    smoke.check("window: batch tab on a batch file",
                lambda: smoke.window("batch", ["batch", str(SAMPLE)]))
    smoke.check("semantic_similarity against a loopback server", smoke.semantic)
    smoke.check("left out: LLVM, pandas, dask, test tools", smoke.no_pandas)
    if args.keep or smoke.failures:
        print(f"screenshots and runs kept in {work}")
    else:
        import shutil

        shutil.rmtree(work, ignore_errors=True)
    print(f"smoke: {smoke.passed} passed, {smoke.failures} failed")
    return 1 if smoke.failures else 0


if __name__ == "__main__":
    sys.exit(main())
