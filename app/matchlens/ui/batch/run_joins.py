"""The files joined to the batch tab's dataset by id (`matchlens batch --references/--baseline`,
"References from another file…", "Compare with a baseline run…", "Add a run…"): what was asked
(`Join`), the worker that reads the dataset and joins each file (`read_joined`, off the GUI
thread, cancellable between pieces), and the mapping a joined table opens with.

The joins travel in the read request, so reading the file again (another encoding, another
sheet) joins the same files again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from matchlens.core.datasets import Cancelled, Table, guess_columns, iter_tables, read_table
from matchlens.core.datasets.source import gc_paused
from matchlens.core.errors import ConfigError
from matchlens.core.output.baseline_file import choose_baseline
from matchlens.core.scoring.mapping import ColumnMapping, guess_mapping
from matchlens.core.scoring.run_files import answered, read_keyed
from matchlens.core.scoring.run_table import JoinedFile, JoinedRun, join_table
from matchlens.ui.batch.worker import read_dataset

WORDS = {"reference": "references", "baseline": "baseline run", "run": "run"}
# the command line's options reading each joined file: a message names `--references-records`
PREFIXES = {"reference": "references", "baseline": "baseline"}


@dataclass(frozen=True)
class Join:
    """A file joined by id: `role` "reference" / "baseline" / "run", the id SPEC of its rows
    (None: the dataset's), and the SPEC of its values (a baseline's None: its sidecar says);
    how to read it, as `score --references-records/-sheet/-format/-encoding` says (None: from
    its name; the encoding: the dataset's)."""

    role: str
    path: Path
    id_spec: str | None = None
    value_spec: str | None = None
    encoding: str | None = None
    records: str | None = None
    sheet: str | None = None
    format: str | None = None

    def reading(self, encoding: str | None) -> dict[str, str | None]:
        """`read_table`'s options for this file (`encoding`: the dataset's)."""
        return {"records": self.records, "sheet": self.sheet, "format": self.format,
                "encoding": self.encoding or encoding}


def read_joined(path: Path, joins: Sequence[Join], id_spec: str | None, expected: str | None,
                cancel: Callable[[], bool], encoding: str | None = None,
                **options: str | None) -> JoinedRun:
    """The dataset at `path` (read as `options` say) joined with `joins` on `id_spec` (each
    join's own id SPEC where it names one) by the command line's join (run_table.join_table):
    each joined file read narrow, piece by piece (run_files.read_keyed); `expected` is the
    mapping's reference SPEC, which a baseline's rows the dataset lacks read from the baseline
    file. MatchLensError (one sentence naming the file) for a bad id or SPEC; Cancelled
    between pieces."""
    run = read_dataset(path, cancel, encoding=encoding, **options)
    choices = {j: choose_baseline(j.path, j.value_spec) for j in joins if j.role == "baseline"}
    key = id_spec or next((c.recorded_id for c in choices.values() if c.recorded_id), None)
    if not key:
        raise ConfigError("joining files matches rows by a key: choose the id column (--id "
                          "SPEC on the command line)")
    with_references = any(join.role == "reference" for join in joins)
    files = []
    for join in joins:
        if cancel():
            raise Cancelled()
        reading = join.reading(encoding)
        spec, optional, fill = join.value_spec, [], None
        if join.role == "baseline":
            choice = choices[join]
            spec = choice.actual
            if not with_references and expected and not expected.startswith("$"):
                optional, fill = [expected], expected
        if not spec and join.role == "reference":  # as the mapping guesses a dataset's
            spec = guess_columns(first_piece(join.path, reading).columns)["expected"]
        if not spec:
            raise ConfigError(f"{join.path.name}: choose the column that holds its "
                              f"{WORDS[join.role]}' values")
        with gc_paused():  # as the dataset's own read: no collection walks the pieces
            keyed = read_keyed(join.path, join.id_spec or key, [spec], optional,
                               reading=reading, cancel=cancel,
                               option_prefix=PREFIXES.get(join.role))
        if join.role == "baseline" and choices[join].joined:
            keyed = answered(keyed, spec)  # a joined scored table's unanswered rows go
        files.append(JoinedFile(keyed, join.role, spec, fill))
    if cancel():
        raise Cancelled()
    return join_table(run, key, files)


def first_piece(path: Path, reading: dict) -> Table:
    """The first rows of a file (its columns, to guess which holds the references)."""
    for piece in iter_tables(path, chunk_rows=1_000, **reading):
        return piece
    return read_table(path, **reading)


def opening_mapping(table: Table, joined: JoinedRun | None, metrics: tuple[str, ...],
                    expected: str | None, actuals: Sequence[str] | None,
                    label: str | None) -> ColumnMapping:
    """The mapping a table opens with: the request's names, else the guesses; for a joined
    table, another file's references when joined, the given (else guessed) outputs, then the
    baseline's and the other runs' outputs, and the id column."""
    if joined is None:
        return guess_mapping(table, metrics, expected, list(actuals or []) or None, label)
    added = [c for c in (joined.baseline, *joined.runs) if c]
    skip = {*added, joined.reference, joined.id_column}
    columns = [c for c in table.columns if c not in skip]
    guess = guess_columns(columns)
    expected = joined.reference or expected or guess["expected"]
    own = [a for a in (actuals or table.variants or guess["actual"])
           if a not in skip and a != expected]
    mapping = guess_mapping(table, metrics, expected, [*own, *added], label)
    return replace(mapping, id=joined.id_column)


def opened_table(value: Table | JoinedRun) -> tuple[Table, JoinedRun | None]:
    """What a read returned: the table to show, and the join it came from (None: one file)."""
    if isinstance(value, JoinedRun):
        return value.table, value
    return value, None


def joins_from_args(args: object) -> dict[str, object]:
    """`matchlens batch --id --references --baseline --baseline-actual` and each file's own
    reading options (`--references-records`, `--baseline-format`...) as the batch tab's read
    options (`joins`, `id_spec`); {} without a file to join. `--expected` is read in the
    references file, as `score` reads it."""
    joins = []
    for role, option, value in (("reference", "references", getattr(args, "expected", None)),
                                ("baseline", "baseline", getattr(args, "baseline_actual", None))):
        path = getattr(args, option, None)
        if path is not None:
            own = {name: getattr(args, f"{option}_{name}", None)
                   for name in ("encoding", "records", "sheet", "format")}
            joins.append(Join(role, Path(path), None, value, **own))
    if not joins:
        return {}
    return {"joins": tuple(joins), "id_spec": getattr(args, "id_spec", None)}


def runs_order(mapping: ColumnMapping, joined: JoinedRun | None) -> ColumnMapping:
    """The variants of a joined run in the order the window shows them: the dataset's own
    outputs, the other runs', the baseline's last (the table opens on this run's outputs)."""
    if joined is None:
        return mapping
    late = [*joined.runs, joined.baseline]
    rank = {name: i + 1 for i, name in enumerate(late) if name}
    ordered = sorted(mapping.actuals, key=lambda a: rank.get(a, 0))  # a stable sort
    return replace(mapping, actuals=tuple(ordered))


def join_summary(joined: JoinedRun) -> str:
    """One sentence on what was joined: the rows, and how many each file has (the rows a file
    lacks have no value there, by design: not a reading problem to list row by row)."""
    table = joined.table
    parts = [f"{Path(table.label).name} has {int(joined.in_run.sum()):,}"]
    for column, source in joined.sources.items():
        role = "references" if column == joined.reference else \
            "baseline" if column == joined.baseline else "run"
        parts.append(f"{Path(source).name} ({role}) {int(joined.presence(column).sum()):,}")
    return (f"Joined by id ({joined.id_column}): {len(table):,} rows; {', '.join(parts)}. A row "
            "a file lacks has no value from it: no score there, and it is counted.")
