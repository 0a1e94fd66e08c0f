"""Thresholds and metric options as the TOML file the app saves and `matchlens score` reads."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from matchlens.core.atomic import atomic_writer
from matchlens.core.errors import ConfigError
from matchlens.core.metrics.registry import BASE_URL_FROM, MetricSpec, get_metric, shown

__all__ = ["BASE_URL_FROM", "Config", "MetricSettings", "config_from_dict", "config_to_dict",
           "load_config", "save_config"]

_UNSET = object()


@dataclass(frozen=True)
class MetricSettings:
    """A metric's threshold (None = no verdict) and its resolved options."""

    threshold: float | None
    options: dict[str, Any]


@dataclass(frozen=True)
class Config:
    """Per-metric overrides of the registry defaults, plus the embeddings endpoint."""

    thresholds: dict[str, float | None] = field(default_factory=dict)
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    base_url: str = ""
    model: str = ""
    # The metrics a scored table's sidecar says made it ([matchlens] metrics): `score --config
    # SIDECAR` without --metrics scores these again. The window's thresholds file has none.
    metrics: tuple[str, ...] = ()
    # Endpoint URLs that came from a config file (URL -> file), not from the user.
    url_files: dict[str, str] = field(default_factory=dict)

    def settings(self, metric_id: str) -> MetricSettings:
        spec = get_metric(metric_id)
        threshold = self.thresholds.get(metric_id, spec.default_threshold)
        options = spec.resolve_options(self._network_options(spec) | self.options.get(metric_id, {}))
        url = str(options.get("base_url") or "").strip().rstrip("/")
        if spec.network and url in self.url_files:
            options[BASE_URL_FROM] = self.url_files[url]
        return MetricSettings(threshold, options)

    def with_endpoint(self, base_url: str | None = None, model: str | None = None) -> Config:
        """The [openai] endpoint named by the user (Settings, --base-url): trusted with a key."""
        changes: dict[str, Any] = {}
        if base_url is not None:
            url = base_url.strip().rstrip("/")
            changes["base_url"] = base_url
            changes["url_files"] = {k: v for k, v in self.url_files.items() if k != url}
        if model is not None:
            changes["model"] = model
        return replace(self, **changes)

    def _network_options(self, spec: MetricSpec) -> dict[str, Any]:
        # [openai] base_url / model feed every network metric that has such options.
        names = {opt.name for opt in spec.options}
        out: dict[str, Any] = {}
        if self.base_url and "base_url" in names:
            out["base_url"] = self.base_url
        if self.model and "model" in names:
            out["model"] = self.model
        return out

    def with_threshold(self, metric_id: str, threshold: float | None) -> Config:
        spec = get_metric(metric_id)
        return replace(self, thresholds={**self.thresholds,
                                         metric_id: spec.coerce_threshold(threshold)})

    def with_option(self, metric_id: str, name: str, value: Any) -> Config:
        spec = get_metric(metric_id)
        coerced = spec.option(name).coerce(value, metric_id)
        merged = {**self.options.get(metric_id, {}), name: coerced}
        return replace(self, options={**self.options, metric_id: merged})

    def with_normalisation(self, value: Any) -> Config:
        """`normalise` set for every text metric (`--normalise`)."""
        from matchlens.core.metrics.registry import all_metrics

        config = self
        for spec in all_metrics():
            if spec.text:
                config = config.with_option(spec.id, "normalise", value)
        return config

    def with_override(self, assignment: str) -> Config:
        """Apply one `ID.OPTION=VALUE` (as `--set` gives it)."""
        key, sep, value = assignment.partition("=")
        metric_id, dot, name = key.strip().partition(".")
        if not sep or not dot or not name:
            raise ConfigError(f"--set {shown(assignment)}: expected ID.OPTION=VALUE, "
                              "e.g. levenshtein_similarity.threshold=0.8")
        value = value.strip()
        if name == "threshold":
            return self.with_threshold(metric_id, value)
        config = self.with_option(metric_id, name, _parse_value(value))
        if name == "base_url":  # typed on the command line: the user named it
            url = str(value).strip().rstrip("/")
            config = replace(config, url_files={k: v for k, v in config.url_files.items()
                                                if k != url})
        return config


def _parse_value(text: str) -> Any:
    """A `--set` value: TOML syntax when it parses (0.8, true, ["a","b"]), else plain text."""
    import tomllib  # here and in load_config: a plain run parses no TOML (tomllib ~4 ms)

    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def load_config(path: str | Path, *, trusted: bool = False) -> Config:
    """The config in `path`. An endpoint URL in it is marked as coming from that file unless
    `trusted` (the user's own settings file, which only Settings writes)."""
    import tomllib

    path = Path(path)
    try:
        data = tomllib.loads(_read_bounded(path).removeprefix("\ufeff"))  # a BOM is no TOML
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a folder, not a config file") from None
    except (OSError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: cannot read ({err})") from None
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: not valid TOML ({err})") from None
    except RecursionError:  # tomllib recurses once per level of nesting
        raise ConfigError(f"{path}: its tables or arrays are nested too deeply to read "
                          "(a config file is a few flat tables)") from None
    config = config_from_dict(data, source=str(path))
    if trusted:
        return config
    urls = [config.base_url, *(opts.get("base_url", "") for opts in config.options.values())]
    files = {str(u).strip().rstrip("/"): str(path) for u in urls if str(u or "").strip()}
    return replace(config, url_files={**config.url_files, **files})


MAX_CONFIG_BYTES = 4 * 1024 * 1024  # the app writes a few KB; /dev/zero never ends


def _read_bounded(path: Path) -> str:
    """The file's text, refusing to read more than MAX_CONFIG_BYTES (`--config /dev/zero`)."""
    with open(path, "rb") as handle:
        data = handle.read(MAX_CONFIG_BYTES + 1)
    if len(data) > MAX_CONFIG_BYTES:
        raise ConfigError(f"{path}: is larger than {MAX_CONFIG_BYTES // (1024 * 1024)} MB, so "
                          "it is not a config file (those are a few lines of TOML)")
    return data.decode("utf-8")


def config_from_dict(data: Mapping[str, Any], source: str = "config") -> Config:
    unknown = set(data) - {"metrics", "openai", "matchlens"}
    if unknown:
        raise ConfigError(f"{source}: unknown section(s) {', '.join(sorted(unknown))}; "
                          "valid: [metrics.ID], [openai]")
    config = Config()
    metrics = data.get("metrics", {})
    if not isinstance(metrics, Mapping):
        raise ConfigError(f"{source}: [metrics] must be a table of [metrics.ID] tables")
    for metric_id, table in metrics.items():
        if not isinstance(table, Mapping):
            raise ConfigError(f"{source}: [metrics.{metric_id}] must be a table")
        config = _apply_table(config, metric_id, table, source)
    config = _apply_provenance(config, data.get("matchlens", {}), source)
    return _apply_openai(config, data.get("openai", {}), source)


def _apply_provenance(config: Config, table: Any, source: str) -> Config:
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: [matchlens] must be a table")
    metrics = table.get("metrics", [])
    if not isinstance(metrics, list) or not all(isinstance(m, str) for m in metrics):
        raise ConfigError(f"{source}: [matchlens] metrics must be a list of metric ids")
    try:
        for metric_id in metrics:
            get_metric(metric_id)
    except ConfigError as err:
        raise ConfigError(f"{source}: [matchlens] metrics: {err}") from None
    return replace(config, metrics=tuple(dict.fromkeys(metrics)))


def _apply_table(config: Config, metric_id: str, table: Mapping[str, Any], source: str) -> Config:
    try:
        for name, value in table.items():
            if name == "threshold":
                config = config.with_threshold(metric_id, value)
            else:
                config = config.with_option(metric_id, name, value)
    except ConfigError as err:
        raise ConfigError(f"{source}: {err}") from None
    return config


def _apply_openai(config: Config, table: Any, source: str) -> Config:
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: [openai] must be a table")
    allowed = {"base_url", "model"}
    extra = set(table) - allowed
    if "api_key" in extra:
        raise ConfigError(f"{source}: an API key never goes in a config file; store it in "
                          "Settings (system keyring) or OPENAI_API_KEY")
    if extra:
        raise ConfigError(f"{source}: unknown [openai] key(s) {', '.join(sorted(extra))}; "
                          "valid: base_url, model")
    for name in allowed & set(table):
        if not isinstance(table[name], str):
            raise ConfigError(f"{source}: [openai] {name} must be text")
    return replace(config, base_url=table.get("base_url", config.base_url),
                   model=table.get("model", config.model))


def config_to_dict(config: Config, metric_ids: Iterable[str]) -> dict[str, Any]:
    """Every listed metric's full settings (threshold included), so the file is self-contained."""
    metrics: dict[str, Any] = {}
    for metric_id in metric_ids:
        settings = config.settings(metric_id)
        table: dict[str, Any] = {}
        spec = get_metric(metric_id)
        if settings.threshold is not None:
            table["threshold"] = settings.threshold
        elif spec.default_threshold is not None:
            table["threshold"] = "none"  # TOML has no null; an unset threshold must survive
        for opt in spec.options:
            if spec.network and opt.name in ("base_url", "model"):
                continue  # these live in [openai]
            table[opt.name] = settings.options[opt.name]
        metrics[metric_id] = table
    data: dict[str, Any] = {"metrics": metrics}
    openai = {k: v for k, v in (("base_url", config.base_url), ("model", config.model)) if v}
    if openai:
        data["openai"] = openai
    return data


def save_config(config: Config, path: str | Path, metric_ids: Iterable[str]) -> None:
    """Write the TOML atomically; an unset threshold is simply left out (TOML has no null)."""
    import tomli_w

    text = tomli_w.dumps(config_to_dict(config, metric_ids))
    header = "# MatchLens thresholds and options — read by `matchlens score --config`.\n"
    with atomic_writer(path) as handle:
        handle.write(header + text)
