"""Checks a tool call's arguments against the tool's own JSON Schema, with messages for a model.

The tool definitions in `memfold.agents.tools` are what a model sees; this module holds them to
it, so there is one source of truth for what a call may pass.  It knows the small subset of
JSON Schema those definitions use (`KEYWORDS`) and follows the specification where it matters
to a model: an integer is any number with no fractional part (2.0 is the integer 2), a boolean
is not a number, string lengths count code points.  `jsonschema` is only a test dependency,
and its messages are written for programmers; these name the argument as the tool calls it
("recall: k must be between 1 and 200, not 1000000").

`check_object` returns a cleaned copy: integers given as 2.0 become 2, and an explicit null
or an empty string for an optional argument means "not given" and is dropped — a model held to
a strict schema (OpenAI's strict mode, the OpenAI Agents SDK's strict conversion) must send
every argument and fills the ones it means to leave out with null or "" (`since: ""`).  A
required argument keeps its empty string (core_replace's `new: ""` deletes).  Nothing is run
before it passes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from memfold.errors import BadInput

__all__ = ["KEYWORDS", "check_object", "check_value", "strict_schema"]

# every keyword the validator understands; annotations (description, default, title) included
KEYWORDS = frozenset({
    "type", "properties", "required", "additionalProperties", "items", "enum",
    "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems",
    "description", "default", "title",
})


def _number(value: Any) -> bool:
    # an int is always finite, and may be too large for a float (math.isfinite would raise)
    if isinstance(value, int):
        return not isinstance(value, bool)
    return isinstance(value, float) and math.isfinite(value)


_TYPES: dict[str, Callable[[Any], bool]] = {
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: _number(v) and (isinstance(v, int) or v.is_integer()),
    "number": _number,
    "boolean": lambda v: isinstance(v, bool),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict),
    "null": lambda v: v is None,
}


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def check_object(label: str, schema: Mapping[str, Any], value: Any, *,
                 what: str = "argument") -> dict[str, Any]:
    """A cleaned copy of the object `value`, or BadInput naming the first problem.

    `label` prefixes every message (the tool's name); `what` is the word for a property.
    """
    if not isinstance(value, dict):
        raise BadInput(f"{label}: the {what}s must be a JSON object, not {_shown(value)}")
    properties: Mapping[str, Any] = schema.get("properties", {})
    if schema.get("additionalProperties") is False:
        unknown = sorted(set(value) - set(properties))
        if unknown:
            known = ", ".join(properties) or "none"
            raise BadInput(f"{label}: unknown {what} {unknown[0]!r} "
                           f"(the {what}s are: {known})")
    required = schema.get("required", [])
    for key in required:
        if value.get(key) is None:
            raise BadInput(f"{label}: {what} {key!r} is required")
    cleaned: dict[str, Any] = {}
    for key, item in value.items():
        if (item is None or item == "") and key not in required:
            continue  # an explicit null or "" means "not given"
        cleaned[key] = check_value(f"{label}: {key}", properties.get(key, {}), item)
    return cleaned


def check_value(label: str, schema: Mapping[str, Any], value: Any) -> Any:
    """`value` checked against `schema` (cleaned: 2.0 becomes 2 for an integer)."""
    kinds = schema.get("type")
    if kinds is not None:
        value = _check_type(label, [kinds] if isinstance(kinds, str) else list(kinds), value)
    if "enum" in schema and value not in schema["enum"]:
        choices = ", ".join(_shown(choice) for choice in schema["enum"])
        raise BadInput(f"{label} must be one of {choices}, not {_shown(value)}")
    if isinstance(value, str):
        _check_length(label, schema, len(value), "character")
    elif isinstance(value, list):
        _check_length(label, schema, len(value), "item")
        items = schema.get("items", {})
        value = [check_value(f"{label}[{n}]", items, item) for n, item in enumerate(value)]
    elif isinstance(value, dict) and ("properties" in schema or "required" in schema):
        value = check_object(label, schema, value, what="key")
    elif _number(value):
        _check_bounds(label, schema, value)
    return value


def _check_type(label: str, kinds: list[str], value: Any) -> Any:
    for kind in kinds:
        if _TYPES[kind](value):
            return int(value) if kind == "integer" else value
    names = " or ".join(f"{'an' if kind[0] in 'aeiou' else 'a'} {kind}" for kind in kinds)
    raise BadInput(f"{label} must be {names}, not {_shown(value)}")


def _check_bounds(label: str, schema: Mapping[str, Any], value: float) -> None:
    low, high = schema.get("minimum"), schema.get("maximum")
    if (low is None or value >= low) and (high is None or value <= high):
        return
    if low is not None and high is not None:
        raise BadInput(f"{label} must be between {low} and {high}, not {_shown(value)}")
    if low is not None:
        raise BadInput(f"{label} must be at least {low}, not {_shown(value)}")
    raise BadInput(f"{label} must be at most {high}, not {_shown(value)}")


def _check_length(label: str, schema: Mapping[str, Any], size: int, unit: str) -> None:
    low_key, high_key = ("minLength", "maxLength") if unit == "character" else \
        ("minItems", "maxItems")
    low, high = schema.get(low_key), schema.get(high_key)
    if low is not None and size < low:
        if low == 1:
            raise BadInput(f"{label} must not be empty")
        raise BadInput(f"{label} must have at least {low} {unit}s, not {size}")
    if high is not None and size > high:
        raise BadInput(f"{label} must have at most {high} {unit}s, not {size}")


# what OpenAI's strict mode does not take; the checks above still hold each call to them
_NOT_STRICT = ("default", "minLength", "maxLength", "minItems", "maxItems", "minimum",
               "maximum")


def strict_schema(schema: Mapping[str, Any]) -> dict[str, Any]:
    """`schema` as OpenAI's strict mode takes it: every property required, an optional one
    nullable (null means "not given", as `check_object` reads it), no defaults or bounds
    (said in the description instead), additionalProperties false on every object."""
    out: dict[str, Any] = {k: v for k, v in schema.items() if k not in _NOT_STRICT}
    bounds = _bounds_note(schema)
    if bounds:
        out["description"] = f"{out.get('description', '')} ({bounds})".lstrip()
    if "items" in schema:
        out["items"] = strict_schema(schema["items"])
    if schema.get("type") == "object":
        required = set(schema.get("required", ()))
        properties = {}
        for name, sub in schema.get("properties", {}).items():
            prop = strict_schema(sub)
            if name not in required:
                prop = _nullable(prop)
            properties[name] = prop
        out.update(properties=properties, required=list(properties),
                   additionalProperties=False)
    return out


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    kinds = list(kind) if isinstance(kind, list) else [kind]
    out = {**schema, "type": [*kinds, "null"]}
    if "enum" in schema:
        out["enum"] = [*schema["enum"], None]
    return out


def _bounds_note(schema: Mapping[str, Any]) -> str:
    """The dropped keywords in words, e.g. "default 10; 1 to 200"."""
    notes = []
    if "default" in schema:
        notes.append(f"default {json.dumps(schema['default'])}")
    for low, high, unit in (("minimum", "maximum", ""), ("minLength", "maxLength", " char"),
                            ("minItems", "maxItems", " item")):
        if low in schema and high in schema:
            notes.append(f"{schema[low]} to {_count(schema[high], unit)}")
        elif low in schema:
            notes.append("not empty" if unit and schema[low] == 1
                         else f"at least {_count(schema[low], unit)}")
        elif high in schema:
            notes.append(f"at most {_count(schema[high], unit)}")
    return "; ".join(notes)


def _count(number: Any, unit: str) -> str:
    return f"{number}{unit}{'s' if unit and number != 1 else ''}"
