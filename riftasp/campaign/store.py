"""A campaign's folder (`--out DIR`): what it has done so far, so that `--resume` goes on after
an interruption without repeating finished work.

Two JSON-lines files, appended and flushed as the work is done:
- `chunks.jsonl`: each compared chunk's outcomes (riftasp/campaign/evaluate.py `ChunkResult`),
  with the failing and erring boards;
- `shrunk.jsonl`: each failing board's shrunk board and its findings, keyed by the failing board.
and `campaign.json`: the parameters the work depends on (engine, seed, count, ruleset, profile,
riftasp's side, the checker). A resumed run must have the same parameters; it replays the stored
results in order (a line cut short by the interruption is dropped), so its findings are the ones
an uninterrupted run gives.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from .evaluate import ChunkResult, Outcome, found_from_json, found_to_json

CAMPAIGN_FILE, CHUNKS_FILE, SHRUNK_FILE = "campaign.json", "chunks.jsonl", "shrunk.jsonl"


class StoreError(Exception):
    """A campaign folder that cannot be resumed; str() is one line."""


class CampaignStore:
    def __init__(self, folder: Path, parameters: dict[str, Any], resume: bool = False) -> None:
        self.folder = folder
        self.chunks: dict[int, ChunkResult] = {}
        self.shrunk_boards: dict[str, tuple[dict[str, Any], list[Any]]] = {}
        folder.mkdir(parents=True, exist_ok=True)
        described = folder / CAMPAIGN_FILE
        if resume:
            self._resume(described, parameters)
        else:
            for name in (CHUNKS_FILE, SHRUNK_FILE):
                (folder / name).unlink(missing_ok=True)
        described.write_text(json.dumps(parameters, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        self._chunks: IO[str] = (folder / CHUNKS_FILE).open("a", encoding="utf-8")
        self._shrunk: IO[str] = (folder / SHRUNK_FILE).open("a", encoding="utf-8")

    def _resume(self, described: Path, parameters: dict[str, Any]) -> None:
        if not described.is_file():
            raise StoreError(f"{self.folder}: --resume: no campaign here ({CAMPAIGN_FILE} is missing)")
        try:
            before = json.loads(described.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise StoreError(f"{described}: --resume: cannot read it: {err}") from None
        changed = sorted(k for k in set(before) | set(parameters) if before.get(k) != parameters.get(k))
        if changed:
            raise StoreError(f"{described}: --resume: the campaign had other parameters "
                             f"({', '.join(f'{k}: {before.get(k)!r} then, {parameters.get(k)!r} now' for k in changed)})")
        for record in _complete(self.folder / CHUNKS_FILE):
            result = _chunk_from_json(record)
            self.chunks[result.chunk] = result
        for record in _complete(self.folder / SHRUNK_FILE):
            self.shrunk_boards[record["key"]] = (record["board"], found_from_json(record["found"]))

    def chunk(self, chunk: int) -> ChunkResult | None:
        return self.chunks.get(chunk)

    def save_chunk(self, result: ChunkResult) -> None:
        self.chunks[result.chunk] = result
        _append(self._chunks, _chunk_to_json(result))

    def shrunk(self, key: str) -> tuple[dict[str, Any], list[Any]] | None:
        return self.shrunk_boards.get(key)

    def save_shrunk(self, key: str, board: dict[str, Any], found: list[Any]) -> None:
        self.shrunk_boards[key] = (board, found)
        _append(self._shrunk, {"key": key, "board": board, "found": found_to_json(found)})

    def close(self) -> None:
        self._chunks.close()
        self._shrunk.close()


def _append(stream: IO[str], record: dict[str, Any]) -> None:
    stream.write(json.dumps(record, separators=(",", ":")) + "\n")
    stream.flush()


def _complete(path: Path) -> list[dict[str, Any]]:
    """The complete records of a JSON-lines file; the file is written back without the line an
    interruption cut short, so what is appended next starts on a line of its own."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break
    path.write_text("".join(json.dumps(r, separators=(",", ":")) + "\n" for r in out), encoding="utf-8")
    return out


def _chunk_to_json(result: ChunkResult) -> dict[str, Any]:
    return {
        "chunk": result.chunk,
        "outcomes": [{"status": o.status, "reason": o.reason, "found": found_to_json(o.found)} for o in result.outcomes],
        "boards": result.boards,
    }


def _chunk_from_json(record: dict[str, Any]) -> ChunkResult:
    outcomes = [Outcome(o["status"], found_from_json(o["found"]), o["reason"]) for o in record["outcomes"]]
    return ChunkResult(record["chunk"], outcomes, record["boards"])
