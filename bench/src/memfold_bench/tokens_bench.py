"""`memfold bench tokens`: memfold's token count beside the cl100k and o200k tokenizers, on a
corpus of memfold's own outputs.

Budgets (`recall --budget`, `context --budget`, the agent tools' `budget`) count tokens with
`memfold.values.tokens.estimate_tokens` unless MEMFOLD_TOKENIZER names an exact tokenizer.
The estimate is meant to be conservative: never below what cl100k_base or o200k_base count
for the same text by more than 2%, so that a budget is not overrun by a model's tokenizer.

The corpus is built here, deterministically, in a fresh workspace: facts, core blocks and an
entity page in English, Vietnamese and code (paths, identifiers, shell commands, JSON,
numbers, ids), then every output a caller reads — `memfold recall` text, `recall --json`,
the recall tool's compact JSON, `about --json`, `context` text and JSON, `status --json` —
for a set of queries.  Each output is one sample.  The exact counts come from a tokenizer
package that ships the vocabularies inside it (`bpe-openai`; no download at run time).

Reported: per encoding, the ratio estimate/exact over the samples (min, median, max), the
share of samples where the estimate is more than 2% below the exact count (the goal: 0),
and the same for the former estimate (four characters per token).
"""

from __future__ import annotations

import json
import statistics
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import click

from memfold.agents import tools as agent_tools
from memfold.memory import Memory
from memfold.values import render_hit
from memfold.values.tokens import ENCODINGS, estimate_tokens, exact_counter

from .index_bench import environment, output_options, save_result

Json = dict[str, Any]
NOW = "2025-11-27T09:00:00+00:00"
SLACK = 0.02  # the estimate may fall short of an exact count by at most this share

ENGLISH = [
    "W @Peter: Lives in Vienna and works as a structural engineer at Strabag.",
    "B @Peter @Dana: Met for lunch at Café Central on Tuesday; talked about the Graz move.",
    "O(c=0.8) @Dana: Prefers short, direct answers without bullet lists.",
    "W(until=2026-03-01) @Atlas: The beta runs until March; 42 testers signed up.",
    "S @Peter: Peter's week: two site visits, one delayed permit, a new bike.",
    "B @Dana: Fixed the flaky login test (#4312) by waiting for the websocket to settle.",
    "W @Acme: Acme's Q3 revenue was $4.2M, up 17% year on year; EBITDA margin 11.5%.",
    "O(c=0.6) @Peter: Thinks the new office in Floridsdorf is too far from the station.",
]
VIETNAMESE = [
    "W @Lan: Lan sống ở Hà Nội, làm kỹ sư phần mềm tại một công ty khởi nghiệp.",
    "B @Lan @Minh: Hai người gặp nhau ở quán cà phê trên phố Hàng Bạc vào thứ bảy.",
    "O(c=0.7) @Minh: Minh thích phở bò hơn bún chả, nhưng không ăn hành.",
    "W @Minh: Minh đang học tiếng Đức để chuyển sang Berlin vào tháng mười hai.",
    "S @Lan: Tuần này Lan hoàn thành báo cáo quý và đặt vé máy bay về Đà Nẵng.",
    "B @Lan: Đã sửa lỗi đồng bộ dữ liệu khi mạng chập chờn; khách hàng xác nhận ổn.",
]
CODE = [
    "W @warelay: Runs on Node 22; start it with `pnpm run dev -- --port 5173`.",
    "B @warelay: Fixed the WS crash in src/server/ws.ts:214 (null `socket.readyState`).",
    "W @infra: The deploy uses `kubectl rollout restart deploy/api -n prod-eu-1`.",
    "W @infra: config.yaml sets {\"retries\": 3, \"timeout_ms\": 2500, \"region\": \"eu-west-1\"}.",
    "B @memfold: `def estimate_tokens(text: str) -> int: return (len(text) + 3) // 4` was "
    "replaced.",
    "W @infra: The cron line is `*/15 * * * * /usr/local/bin/backup.sh >> /var/log/b.log`.",
    "W @db: SELECT id, ts FROM events WHERE seq > 1024 ORDER BY seq DESC LIMIT 50;",
    "B @infra: Commit 9f3c2ab1e7d4 bumped openssl to 3.0.13 (CVE-2024-0727).",
]
CORE = """# Core memory

## Persona

A careful assistant that answers briefly and cites its sources.

## Human

Dana is the user; she prefers short answers. Lan (Hà Nội) và Minh là đồng nghiệp của cô.

## Project

Atlas: a sailing-route planner (`atlas/` in the monorepo, Python 3.12, FastAPI).
"""
PAGE = """# Peter

Peter lives in Vienna and works at Strabag. He cycles to work.

## Notes

- Prefers email over calls; answers in the evening.
"""
QUERIES = ["where does Peter live", "Dana lunch", "Lan sống ở đâu", "Minh thích ăn gì",
           "deploy kubectl", "websocket crash", "revenue Acme", "what happened last week",
           "config retries timeout", "cron backup"]
ENTITIES = ["Peter", "Dana", "Lan", "Minh", "infra", "warelay"]


def build_workspace(root: Path) -> None:
    """The corpus's workspace: three days of facts, core blocks and a page."""
    Memory.init(root)
    (root / "memory.md").write_text(CORE, encoding="utf-8")
    (root / "bank").mkdir(exist_ok=True)
    (root / "bank" / "peter.md").write_text(PAGE, encoding="utf-8")
    with Memory.open(root, now=NOW, source="bench") as memory:
        for day, bullets in (("2025-11-25", ENGLISH), ("2025-11-26", VIETNAMESE),
                             ("2025-11-27", CODE)):
            memory.retain(bullets, date=day)


def samples(root: Path) -> Iterator[tuple[str, str]]:
    """(kind, text) for every output in the corpus."""
    with Memory.open(root, now=NOW) as memory:
        for query in QUERIES:
            found = memory.recall(query, k=10)
            yield "recall-text", "\n".join(render_hit(h) for h in found.hits)
            yield "recall-json", json.dumps(found.to_dict(), ensure_ascii=False, indent=2)
            yield "recall-tool", _tool(memory, "recall", {"query": query})
        for name in ENTITIES:
            yield "about-json", json.dumps(memory.about(name).to_dict(), ensure_ascii=False,
                                           indent=2)
            yield "about-tool", _tool(memory, "about", {"name": name})
        for budget in (200, 800, 2000):
            context = memory.context(budget=budget)
            yield "context-text", context.render()
            yield "context-json", json.dumps(context.to_dict(), ensure_ascii=False, indent=2)
            yield "context-tool", _tool(memory, "context", {"budget": budget})
        yield "status-json", json.dumps(memory.status().to_dict(), ensure_ascii=False, indent=2)
        yield "entities-tool", _tool(memory, "entities", {})


def _tool(memory: Memory, name: str, arguments: Json) -> str:
    return json.dumps(agent_tools.call(memory, name, arguments), ensure_ascii=False)


def _ratios(rows: list[Json], encoding: str, field: str) -> Json:
    ratios = [row[field] / row[encoding] for row in rows if row[encoding]]
    short = [r for r in ratios if r < 1 - SLACK]
    return {"min": round(min(ratios), 3), "median": round(statistics.median(ratios), 3),
            "max": round(max(ratios), 3), "samples_short_by_more_than_2pct": len(short),
            "total_estimate": sum(row[field] for row in rows),
            "total_exact": sum(row[encoding] for row in rows)}


def measure(counters: dict[str, Callable[[str], int]]) -> Json:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "ws"
        build_workspace(root)
        rows: list[Json] = [{"kind": kind, "chars": len(text), "estimate": estimate_tokens(text),
                 "four_chars": (len(text) + 3) // 4,
                 **{name: count(text) for name, count in counters.items()}}
                for kind, text in samples(root) if text]
    report: Json = {"samples": len(rows), "chars": sum(r["chars"] for r in rows)}
    for name in counters:
        report[name] = {"estimate": _ratios(rows, name, "estimate"),
                        "four_chars": _ratios(rows, name, "four_chars")}
    kinds = sorted({r["kind"] for r in rows})
    report["by_kind"] = {
        kind: {name: round(min(r["estimate"] / r[name] for r in rows
                               if r["kind"] == kind and r[name]), 3) for name in counters}
        for kind in kinds}
    return report


@click.command("tokens")
@output_options("benchmarks/results/tokens.json")
def tokens_command(out: Path, as_json: bool) -> None:
    """memfold's token estimate beside the cl100k and o200k tokenizers on memfold's own
    outputs (recall, about, context, status; English, Vietnamese, code).  Needs a tokenizer
    with its vocabularies inside: pip install bpe-openai.

    \b
    Example:
      memfold bench tokens
    """
    counters = {name: exact_counter(name) for name in ENCODINGS}
    report = {"benchmark": "tokens", "environment": environment(), **measure(counters)}
    if save_result(report, out, as_json=as_json):
        return
    click.echo(f"{report['samples']} samples, {report['chars']:,} characters")
    for name in counters:
        for field in ("estimate", "four_chars"):
            r = report[name][field]
            click.echo(f"{name:12} {field:10} ratio min {r['min']:.3f} median "
                       f"{r['median']:.3f} max {r['max']:.3f}; short by >2%: "
                       f"{r['samples_short_by_more_than_2pct']}; total "
                       f"{r['total_estimate']:,} vs {r['total_exact']:,}")
