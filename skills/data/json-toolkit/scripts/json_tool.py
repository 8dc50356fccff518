#!/usr/bin/env python3
"""
json-toolkit: validate, format, query and diff JSON (the Skilldex script protocol).

Input (stdin JSON):
    {"action": "validate" | "format" | "query" | "diff", "params": {...}, "context": {...}}

Output (stdout JSON, exactly one envelope):
    {"success": true, "action": "...", "data": {...}, "message": "...", "metadata": {...}}
    {"success": false, "action": "...", "error": {"code": "...", "message": "...", "details": {...}}}

Logs go to stderr; set SKILL_DEBUG=1 for verbose logging. Standard library only, no network,
no file access: every input arrives on stdin.
"""

import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Tuple

SKILL_NAME = "json-toolkit"


def declared_version() -> str:
    """The version SKILL.md declares, read at run time: a number copied here went stale at the next release."""
    folder = os.environ.get("SKILL_DIR") or os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    try:
        with open(os.path.join(folder, "SKILL.md"), encoding="utf-8") as skill_md:
            for line in skill_md:
                if line.startswith("version:"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


SKILL_VERSION = declared_version()
DEBUG = os.getenv("SKILL_DEBUG") == "1"
ACTIONS = ["validate", "format", "query", "diff"]
MAX_SCHEMA_ERRORS = 50


def log(msg: str) -> None:
    print(f"[{SKILL_NAME}] {msg}", file=sys.stderr)


def debug(msg: str) -> None:
    if DEBUG:
        log(f"debug: {msg}")


class SkillError(Exception):
    def __init__(self, code: str, message: str, details: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def require(params: Dict[str, Any], key: str) -> Any:
    if key not in params or params[key] is None:
        raise SkillError("MISSING_PARAM", f"Missing required parameter: {key}", {"param": key})
    return params[key]


def require_str(params: Dict[str, Any], key: str) -> str:
    value = require(params, key)
    if not isinstance(value, str):
        raise SkillError("INVALID_PARAM", f"Parameter '{key}' must be a string", {"param": key})
    return value


def parse_text(text: str, param: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SkillError(
            "INVALID_PARAM",
            f"Parameter '{param}' is not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})",
            {"param": param, "line": e.lineno, "column": e.colno, "position": e.pos},
        )


def value_or_text(params: Dict[str, Any], key: str) -> Any:
    """Take a JSON value from `key`, or parse it from `key_text`."""
    if key in params:
        return params[key]
    text_key = f"{key}_text"
    if text_key in params:
        text = params[text_key]
        if not isinstance(text, str):
            raise SkillError("INVALID_PARAM", f"Parameter '{text_key}' must be a string", {"param": text_key})
        return parse_text(text, text_key)
    raise SkillError(
        "MISSING_PARAM",
        f"Missing required parameter: {key} (or {text_key})",
        {"param": key, "alternatives": [key, text_key]},
    )


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def pointer(parts: List[Any]) -> str:
    """RFC 6901 JSON Pointer for a list of keys/indexes."""
    if not parts:
        return ""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


# ---------------------------------------------------------------- validate

def type_matches(value: Any, expected: str) -> bool:
    actual = json_type(value)
    if expected == "number":
        return actual in ("integer", "number")
    if expected == "integer":
        return actual == "integer" or (actual == "number" and float(value).is_integer())
    return actual == expected


def check_schema(value: Any, schema: Any, path: List[Any], errors: List[Dict[str, Any]]) -> None:
    """A deliberately small JSON Schema subset: type, enum, const, required, properties,
    additionalProperties (boolean), items, minItems, maxItems, minLength, maxLength,
    pattern, minimum, maximum."""
    if len(errors) >= MAX_SCHEMA_ERRORS or not isinstance(schema, dict):
        return

    def add(keyword: str, message: str) -> None:
        errors.append({"path": pointer(path), "keyword": keyword, "message": message})

    expected = schema.get("type")
    if expected is not None:
        options = expected if isinstance(expected, list) else [expected]
        if not any(type_matches(value, t) for t in options):
            add("type", f"expected {' or '.join(options)}, got {json_type(value)}")
            return
    if "enum" in schema and value not in schema["enum"]:
        add("enum", f"value must be one of {json.dumps(schema['enum'], ensure_ascii=False)}")
    if "const" in schema and value != schema["const"]:
        add("const", f"value must equal {json.dumps(schema['const'], ensure_ascii=False)}")

    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                add("required", f"missing required property '{key}'")
        props = schema.get("properties", {})
        for key, sub in props.items():
            if key in value:
                check_schema(value[key], sub, path + [key], errors)
        if schema.get("additionalProperties") is False:
            for key in value:
                if key not in props:
                    add("additionalProperties", f"unexpected property '{key}'")
    if isinstance(value, list):
        items = schema.get("items")
        if isinstance(items, dict):
            for i, item in enumerate(value):
                check_schema(item, items, path + [i], errors)
        if "minItems" in schema and len(value) < schema["minItems"]:
            add("minItems", f"expected at least {schema['minItems']} items, got {len(value)}")
        if "maxItems" in schema and len(value) > schema["maxItems"]:
            add("maxItems", f"expected at most {schema['maxItems']} items, got {len(value)}")
    if isinstance(value, str):
        if "minLength" in schema and len(value) < schema["minLength"]:
            add("minLength", f"expected at least {schema['minLength']} characters")
        if "maxLength" in schema and len(value) > schema["maxLength"]:
            add("maxLength", f"expected at most {schema['maxLength']} characters")
        if "pattern" in schema:
            try:
                if re.search(schema["pattern"], value) is None:
                    add("pattern", f"does not match pattern {schema['pattern']}")
            except re.error as e:
                raise SkillError("INVALID_PARAM", f"Invalid pattern in schema: {e}", {"param": "schema"})
    if json_type(value) in ("integer", "number"):
        if "minimum" in schema and value < schema["minimum"]:
            add("minimum", f"must be >= {schema['minimum']}")
        if "maximum" in schema and value > schema["maximum"]:
            add("maximum", f"must be <= {schema['maximum']}")


def handle_validate(params: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    text = require_str(params, "text")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as e:
        data = {
            "valid": False,
            "syntaxError": {"message": e.msg, "line": e.lineno, "column": e.colno, "position": e.pos},
            "schemaErrors": [],
        }
        return data, f"Invalid JSON at line {e.lineno}, column {e.colno}: {e.msg}"
    data: Dict[str, Any] = {"valid": True, "type": json_type(value), "schemaErrors": []}
    schema = params.get("schema")
    if schema is not None:
        if not isinstance(schema, dict):
            raise SkillError("INVALID_PARAM", "Parameter 'schema' must be a JSON Schema object", {"param": "schema"})
        errors: List[Dict[str, Any]] = []
        check_schema(value, schema, [], errors)
        data["schemaErrors"] = errors
        data["valid"] = not errors
        if errors:
            return data, f"JSON is well-formed but violates the schema ({len(errors)} error(s))"
    return data, "JSON is valid"


# ---------------------------------------------------------------- format

def handle_format(params: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    value = value_or_text(params, "value") if "value" in params else parse_text(require_str(params, "text"), "text")
    indent = params.get("indent", 2)
    if isinstance(indent, bool) or not isinstance(indent, int) or not 0 <= indent <= 8:
        raise SkillError("INVALID_PARAM", "Parameter 'indent' must be an integer from 0 to 8", {"param": "indent"})
    sort_keys = bool(params.get("sort_keys", False))
    compact = bool(params.get("compact", False))
    if compact:
        text = json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, separators=(",", ":"))
    else:
        text = json.dumps(value, ensure_ascii=False, sort_keys=sort_keys, indent=indent if indent > 0 else None)
    return {"text": text, "type": json_type(value), "length": len(text)}, "Formatted JSON"


# ---------------------------------------------------------------- query

TOKEN = re.compile(r'\.?([^.\[\]]+)|\[(-?\d+)\]|\[\s*"((?:[^"\\]|\\.)*)"\s*\]|\[\s*\'([^\']*)\'\s*\]')


def parse_path(path: str) -> List[Any]:
    """`a.b[0].c`, `a.b.0.c`, `items[-1]`, `["key.with.dots"]`; `$` or '' is the root."""
    path = path.strip()
    if path.startswith("$"):
        path = path[1:]
    parts: List[Any] = []
    pos = 0
    while pos < len(path):
        m = TOKEN.match(path, pos)
        if not m or m.end() == pos:
            raise SkillError("INVALID_PARAM", f"Cannot parse path at character {pos + 1}: {path[pos:]!r}", {"param": "path", "position": pos})
        if m.group(1) is not None:
            parts.append(m.group(1))
        elif m.group(2) is not None:
            parts.append(int(m.group(2)))
        elif m.group(3) is not None:
            parts.append(json.loads('"' + m.group(3) + '"'))
        else:
            parts.append(m.group(4))
        pos = m.end()
    return parts


def handle_query(params: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    path = require_str(params, "path")
    if "data" not in params and "data_text" not in params and isinstance(params.get("text"), str):
        data = parse_text(params["text"], "text")
    else:
        data = value_or_text(params, "data")
    parts = parse_path(path)
    current = data
    walked: List[Any] = []
    for part in parts:
        if isinstance(current, list):
            index: Optional[int] = None
            if isinstance(part, int):
                index = part
            elif isinstance(part, str) and re.fullmatch(r"-?\d+", part):
                index = int(part)
            if index is None or not -len(current) <= index < len(current):
                raise SkillError("DATA_NOT_FOUND", f"No element {part!r} at {pointer(walked) or '/'} (array of length {len(current)})",
                                 {"path": path, "missingAt": pointer(walked + [part])})
            walked.append(index if index >= 0 else len(current) + index)
            current = current[index]
        elif isinstance(current, dict):
            key = str(part)
            if key not in current:
                raise SkillError("DATA_NOT_FOUND", f"No key {key!r} at {pointer(walked) or '/'}",
                                 {"path": path, "missingAt": pointer(walked + [key]), "available": sorted(current.keys())[:50]})
            walked.append(key)
            current = current[key]
        else:
            raise SkillError("DATA_NOT_FOUND", f"Cannot descend into {json_type(current)} at {pointer(walked) or '/'}",
                             {"path": path, "missingAt": pointer(walked + [part])})
    return {"path": path, "pointer": pointer(walked), "value": current, "type": json_type(current)}, f"Found {json_type(current)} at {pointer(walked) or '/'}"


# ---------------------------------------------------------------- diff

def diff_values(left: Any, right: Any, path: List[Any], changes: List[Dict[str, Any]]) -> None:
    if isinstance(left, dict) and isinstance(right, dict):
        for key in left:
            if key not in right:
                changes.append({"op": "remove", "path": pointer(path + [key]), "old": left[key]})
        for key in left:
            if key in right:
                diff_values(left[key], right[key], path + [key], changes)
        for key in right:
            if key not in left:
                changes.append({"op": "add", "path": pointer(path + [key]), "new": right[key]})
        return
    if isinstance(left, list) and isinstance(right, list):
        common = min(len(left), len(right))
        for i in range(common):
            diff_values(left[i], right[i], path + [i], changes)
        for i in range(common, len(left)):
            changes.append({"op": "remove", "path": pointer(path + [i]), "old": left[i]})
        for i in range(common, len(right)):
            changes.append({"op": "add", "path": pointer(path + [i]), "new": right[i]})
        return
    if json_type(left) != json_type(right) or left != right:
        # 1 and 1.0 are equal JSON numbers; true and 1 are not.
        if json_type(left) in ("integer", "number") and json_type(right) in ("integer", "number") and left == right:
            return
        changes.append({"op": "replace", "path": pointer(path), "old": left, "new": right})


def handle_diff(params: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    left = value_or_text(params, "left")
    right = value_or_text(params, "right")
    changes: List[Dict[str, Any]] = []
    diff_values(left, right, [], changes)
    summary = {op: sum(1 for c in changes if c["op"] == op) for op in ("add", "remove", "replace")}
    data = {"equal": not changes, "changes": changes, "summary": summary}
    return data, "Documents are equal" if not changes else f"{len(changes)} difference(s)"


HANDLERS = {"validate": handle_validate, "format": handle_format, "query": handle_query, "diff": handle_diff}


def emit(envelope: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(envelope, ensure_ascii=False, indent=2) + "\n")


def error_envelope(action: Optional[str], code: str, message: str, details: Any = None) -> Dict[str, Any]:
    env: Dict[str, Any] = {"success": False}
    if isinstance(action, str):
        env["action"] = action
    env["error"] = {"code": code, "message": message}
    if details is not None:
        env["error"]["details"] = details
    return env


def main() -> int:
    raw = sys.stdin.read()
    try:
        request = json.loads(raw)
        if not isinstance(request, dict):
            raise ValueError("request must be a JSON object")
    except (json.JSONDecodeError, ValueError) as e:
        emit(error_envelope(None, "INVALID_JSON", f"Failed to parse input JSON: {e}"))
        return 1
    action = request.get("action")
    debug(f"request: {json.dumps(request, ensure_ascii=False)[:2000]}")
    try:
        if not isinstance(action, str) or not action:
            raise SkillError("MISSING_PARAM", "Missing required field: action", {"param": "action", "supported_actions": ACTIONS})
        handler = HANDLERS.get(action)
        if handler is None:
            raise SkillError("UNKNOWN_ACTION", f"Unknown action: {action}", {"supported_actions": ACTIONS})
        params = request.get("params") or {}
        if not isinstance(params, dict):
            raise SkillError("INVALID_PARAM", "Field 'params' must be an object", {"param": "params"})
        log(f"running {action}")
        data, message = handler(params)
        emit({"success": True, "action": action, "data": data, "message": message,
              "metadata": {"skill": SKILL_NAME, "version": SKILL_VERSION}})
        return 0
    except SkillError as e:
        debug(f"{e.code}: {e.message}")
        emit(error_envelope(action, e.code, e.message, e.details))
        return 0
    except Exception as e:  # noqa: BLE001 - the protocol wants every failure as an envelope
        log(f"internal error: {e!r}")
        emit(error_envelope(action, "INTERNAL_ERROR", str(e) or e.__class__.__name__))
        return 1


if __name__ == "__main__":
    sys.exit(main())
