"""Which tier a run uses (``tier_line``, the CLI's first line), and trying the configured model
endpoint for real, as ``doctor`` does: one ``GET /models`` (the
OpenAI-compatible listing; no tokens spent) with the configured key, a short timeout, and the
answer read as one sentence: reachable and serving the tiers' models, the key refused, a model
it does not serve, or unreachable. The key is sent only to the endpoint, never shown."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..config import ModelConfig

OPENAI_URL = "https://api.openai.com/v1"
PROBE_SECONDS = 10.0


@dataclass(frozen=True)
class Probe:
    status: Literal["ok", "warning", "missing"]
    detail: str


def probe_endpoint(model: ModelConfig, *, timeout: float = PROBE_SECONDS) -> Probe:
    import httpx  # what langchain-openai talks through; loaded only when a probe runs

    base = (model.base_url or OPENAI_URL).rstrip("/")
    headers = {"Accept": "application/json"}
    if model.api_key is not None:
        headers["Authorization"] = f"Bearer {model.api_key.get_secret_value()}"
    try:
        response = httpx.get(f"{base}/models", headers=headers, timeout=timeout)
    except httpx.HTTPError as exc:
        return Probe("missing", f"cannot reach {base} ({type(exc).__name__})")
    if response.status_code in (401, 403):
        return Probe("missing", f"{base} refused the key (HTTP {response.status_code})")
    if response.status_code >= 400:
        return Probe(
            "warning",
            f"{base}/models answered HTTP {response.status_code}: the endpoint may not list "
            "its models; a run will tell",
        )
    try:
        served = {str(m.get("id")) for m in response.json().get("data", [])}
    except (ValueError, AttributeError):
        return Probe("warning", f"{base}/models answered something that is not a model list")
    wanted = [n for n in (model.tiers.nano, model.tiers.mini, model.tiers.full) if n]
    missing = [n for n in dict.fromkeys(wanted) if served and n not in served]
    if missing:
        return Probe("missing", f"{base} does not serve {', '.join(missing)}")
    return Probe("ok", f"{base} answers and serves {', '.join(dict.fromkeys(wanted))}")


def tier_line(model: ModelConfig) -> str:
    """One line saying which tier runs, and why when it is the deterministic one."""
    names = [n for n in (model.tiers.nano, model.tiers.mini, model.tiers.full) if n]
    if model.offline:
        return "deterministic tier (offline)"
    if not names:
        return "deterministic tier: no model configured (model.tiers names none)"
    if model.api_key is None and model.base_url is None:
        return (
            f"deterministic tier: no model configured (no key in {model.api_key_env} "
            "and no model.baseUrl)"
        )
    where = model.base_url or "the OpenAI API"
    return f"model tier: {', '.join(dict.fromkeys(names))} at {where}"
