"""The OpenAPI 3.1 document of the REST API (`GET /openapi.json`), built from the verbs.

Each verb's request body is its argument schema (memfold.server.verbs); its answer is the
JSON the CLI's --json prints for the same command (described in docs/server.md).
"""

from __future__ import annotations

from typing import Any

from memfold import __version__
from memfold.server.verbs import VERBS

_ERROR = {"type": "object", "properties": {"error": {"type": "string"},
                                            "type": {"type": "string"}},
          "required": ["error", "type"]}
_REFUSALS = {
    "400": "the arguments do not fit the verb's schema, or the body is not JSON",
    "401": "no token, or an unknown or revoked one",
    "403": "the token lacks the scope, or is restricted to another bank",
    "404": "no such bank in the token's tenant, an unknown verb, or an unknown fact id",
    "413": "the body is over the server's limit",
    "429": "over the token's request rate; see Retry-After",
    "503": "the database cannot answer now; retry (see Retry-After)",
}


def _responses(extra: dict[str, str] | None = None) -> dict[str, Any]:
    error = {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    found: dict[str, Any] = {"200": {"description": "the CLI's --json answer",
                                     "content": {"application/json": {"schema": {}}}}}
    for code, why in {**_REFUSALS, **(extra or {})}.items():
        found[code] = {"description": why, **error}
    return found


def document() -> dict[str, Any]:
    paths: dict[str, Any] = {}
    bank = {"name": "bank", "in": "path", "required": True, "schema": {"type": "string"}}
    for name, verb in VERBS.items():
        extra = {"409": "note lost its compare-and-set: {id, result: stale, rev}"} \
            if name == "note" else None
        paths[f"/v1/banks/{{bank}}/{name}"] = {"post": {
            "operationId": name, "summary": verb.summary, "parameters": [bank],
            "x-memfold-scope": verb.scope,
            "requestBody": {"required": False, "content": {"application/json": {
                "schema": verb.schema}}},
            "responses": _responses(extra)}}
    paths["/v1/banks"] = {"get": {"operationId": "banks", "summary": "The token's banks.",
                                  "responses": _responses()}}
    paths["/v1/banks/{bank}/export"] = {"get": {
        "operationId": "export", "summary": "The bank's files (base64) and journal lines.",
        "parameters": [bank], "responses": _responses()}}
    paths["/v1/banks/{bank}/import"] = {"post": {
        "operationId": "import", "summary": "Load a workspace, idempotent by block id.",
        "parameters": [bank], "responses": _responses()}}
    for probe, why in (("/healthz", "the process is up"),
                       ("/readyz", "the database answers with the current schema")):
        paths[probe] = {"get": {"operationId": probe.strip("/"), "summary": why, "security": [],
                                "responses": {"200": {"description": why},
                                              "503": {"description": "not ready"}}}}
    return {
        "openapi": "3.1.0",
        "info": {"title": "memfold server", "version": __version__,
                 "description": "Long-term memory for agents, shared: the verbs of `memfold` "
                                "on banks in PostgreSQL, one tenant per token."},
        "paths": paths,
        "components": {"schemas": {"Error": _ERROR},
                       "securitySchemes": {"token": {"type": "http", "scheme": "bearer"}}},
        "security": [{"token": []}],
    }
