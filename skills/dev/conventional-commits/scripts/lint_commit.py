#!/usr/bin/env python3
"""
lint_commit.py: check commit messages against Conventional Commits 1.0.0.

Two ways to run it:

1. The Skilldex script protocol (no arguments): a JSON request on stdin, one JSON envelope on stdout.
       {"action": "lint" | "parse" | "types", "params": {"message": "...", ...}}
2. Git commit-msg hook: `python3 lint_commit.py .git/COMMIT_EDITMSG`
   prints a readable report on stderr and exits 1 when the message has errors.

Standard library only. Logs go to stderr; SKILL_DEBUG=1 logs more.
"""

import json
import os
import re
import sys
from typing import Any, Dict, List, Optional, Tuple

SKILL_NAME = "conventional-commits"
DEBUG = os.getenv("SKILL_DEBUG") == "1"
ACTIONS = ["lint", "parse", "types"]

TYPES: Dict[str, str] = {
    "feat": "A new feature (bumps minor)",
    "fix": "A bug fix (bumps patch)",
    "docs": "Documentation only",
    "style": "Formatting, white space; no change in meaning",
    "refactor": "A code change that neither fixes a bug nor adds a feature",
    "perf": "A code change that improves performance",
    "test": "Adding or correcting tests",
    "build": "Build system or external dependencies",
    "ci": "CI configuration and scripts",
    "chore": "Other changes that don't modify source or tests",
    "revert": "Reverts a previous commit",
}

NON_IMPERATIVE: Dict[str, str] = {
    "added": "add", "adds": "add", "fixed": "fix", "fixes": "fix", "changed": "change",
    "changes": "change", "updated": "update", "updates": "update", "removed": "remove",
    "removes": "remove", "improved": "improve", "improves": "improve", "renamed": "rename",
    "renames": "rename", "moved": "move", "moves": "move", "deleted": "delete", "deletes": "delete",
}

HEADER = re.compile(r"^(?P<type>[A-Za-z][\w-]*)(?:\((?P<scope>[^()\r\n]*)\))?(?P<bang>!)?: (?P<description>.*)$")
FOOTER = re.compile(r"^(?P<token>BREAKING CHANGE|BREAKING-CHANGE|[A-Za-z][\w-]*)(?P<sep>: | #)(?P<value>.*)$")


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


def strip_comments(message: str) -> str:
    """Drop git's '#' comment lines and the scissors section, normalise line endings."""
    lines = message.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: List[str] = []
    for line in lines:
        if line.startswith("# ------------------------ >8 ------------------------"):
            break
        if line.startswith("#"):
            continue
        kept.append(line.rstrip())
    while kept and not kept[-1]:
        kept.pop()
    while kept and not kept[0]:
        kept.pop(0)
    return "\n".join(kept)


def parse_message(message: str) -> Dict[str, Any]:
    text = strip_comments(message)
    lines = text.split("\n") if text else []
    header = lines[0] if lines else ""
    m = HEADER.match(header)
    parsed: Dict[str, Any] = {
        "header": header,
        "type": None,
        "scope": None,
        "breaking": False,
        "description": None,
        "body": None,
        "footers": [],
        "conventional": m is not None,
    }
    if m:
        parsed["type"] = m.group("type")
        parsed["scope"] = m.group("scope")
        parsed["description"] = m.group("description")
        parsed["breaking"] = m.group("bang") is not None

    # Footers: the last paragraph, when every line of it is a footer (or a continuation).
    rest = lines[1:]
    paragraphs: List[List[str]] = []
    for line in rest:
        if not line:
            if paragraphs and paragraphs[-1]:
                paragraphs.append([])
            continue
        if not paragraphs:
            paragraphs.append([])
        paragraphs[-1].append(line)
    paragraphs = [p for p in paragraphs if p]
    footers: List[Dict[str, str]] = []
    if paragraphs:
        last = paragraphs[-1]
        if FOOTER.match(last[0]):
            current: Optional[Dict[str, str]] = None
            for line in last:
                fm = FOOTER.match(line)
                if fm:
                    current = {"token": fm.group("token"), "value": fm.group("value")}
                    footers.append(current)
                elif current is not None:
                    current["value"] += "\n" + line
            paragraphs = paragraphs[:-1]
    parsed["footers"] = footers
    parsed["body"] = "\n\n".join("\n".join(p) for p in paragraphs) or None
    if any(f["token"] in ("BREAKING CHANGE", "BREAKING-CHANGE") for f in footers):
        parsed["breaking"] = True
    return parsed


def lint_message(message: str, params: Dict[str, Any]) -> Dict[str, Any]:
    max_header = params.get("max_header_length", 72)
    if isinstance(max_header, bool) or not isinstance(max_header, int) or max_header < 10:
        raise SkillError("INVALID_PARAM", "Parameter 'max_header_length' must be an integer >= 10", {"param": "max_header_length"})
    allowed = params.get("types", list(TYPES))
    if not isinstance(allowed, list) or not all(isinstance(t, str) for t in allowed) or not allowed:
        raise SkillError("INVALID_PARAM", "Parameter 'types' must be a non-empty array of strings", {"param": "types"})
    require_scope = bool(params.get("require_scope", False))

    parsed = parse_message(message)
    errors: List[Dict[str, Any]] = []
    warnings: List[Dict[str, Any]] = []

    def problem(bucket: List[Dict[str, Any]], rule: str, msg: str, line: int = 1) -> None:
        bucket.append({"rule": rule, "line": line, "message": msg})

    header = parsed["header"]
    text_lines = strip_comments(message).split("\n")
    if not header:
        problem(errors, "header-empty", "The commit message is empty")
    elif not parsed["conventional"]:
        problem(errors, "header-format", "Header must look like 'type(scope)!: description', e.g. 'fix(parser): handle empty input'")
    else:
        ctype = parsed["type"]
        if ctype != ctype.lower():
            problem(errors, "type-case", f"Type '{ctype}' must be lower case")
        if ctype.lower() not in allowed:
            problem(errors, "type-enum", f"Type '{ctype}' is not one of: {', '.join(allowed)}")
        scope = parsed["scope"]
        if scope is not None and not scope.strip():
            problem(errors, "scope-empty", "Scope parentheses are empty; remove them or name the scope")
        if require_scope and not scope:
            problem(errors, "scope-required", "A scope is required, e.g. 'feat(api): ...'")
        desc = parsed["description"] or ""
        if not desc.strip():
            problem(errors, "subject-empty", "Description after ': ' is empty")
        else:
            if desc != desc.lstrip():
                problem(errors, "subject-whitespace", "Only one space belongs after the colon")
            if desc.rstrip().endswith("."):
                problem(warnings, "subject-full-stop", "Description should not end with a full stop")
            first = desc.strip().split(" ")[0]
            if first[:1].isupper() and not first.isupper():
                problem(warnings, "subject-case", "Description usually starts lower case ('add', not 'Add')")
            imperative = NON_IMPERATIVE.get(first.lower())
            if imperative:
                problem(warnings, "subject-mood", f"Use the imperative mood: '{imperative}', not '{first}'")
    if len(header) > max_header:
        problem(errors, "header-max-length", f"Header is {len(header)} characters; the limit is {max_header}")
    if len(text_lines) > 1 and text_lines[1].strip():
        problem(errors, "body-leading-blank", "Leave a blank line between the header and the body", 2)
    for i, line in enumerate(text_lines[1:], start=2):
        if len(line) > 100 and not re.search(r"https?://", line):
            problem(warnings, "body-max-line-length", f"Line {i} is {len(line)} characters; wrap at 100", i)
    for f in parsed["footers"]:
        if f["token"] in ("BREAKING CHANGE", "BREAKING-CHANGE") and not f["value"].strip():
            problem(errors, "breaking-empty", "BREAKING CHANGE footer needs a description")

    bump = "none"
    if parsed["conventional"]:
        if parsed["breaking"]:
            bump = "major"
        elif (parsed["type"] or "").lower() == "feat":
            bump = "minor"
        elif (parsed["type"] or "").lower() in ("fix", "perf"):
            bump = "patch"
    return {"valid": not errors, "errors": errors, "warnings": warnings, "parsed": parsed, "releaseBump": bump}


def require_message(params: Dict[str, Any]) -> str:
    if "message" not in params or params["message"] is None:
        raise SkillError("MISSING_PARAM", "Missing required parameter: message", {"param": "message"})
    if not isinstance(params["message"], str):
        raise SkillError("INVALID_PARAM", "Parameter 'message' must be a string", {"param": "message"})
    return params["message"]


def handle(action: str, params: Dict[str, Any]) -> Tuple[Any, str]:
    if action == "lint":
        result = lint_message(require_message(params), params)
        n_err, n_warn = len(result["errors"]), len(result["warnings"])
        return result, "Commit message is valid" + (f" ({n_warn} warning(s))" if n_warn else "") if not n_err else f"{n_err} error(s), {n_warn} warning(s)"
    if action == "parse":
        parsed = parse_message(require_message(params))
        return parsed, "Parsed conventional commit" if parsed["conventional"] else "Header is not a conventional commit header"
    if action == "types":
        return {"types": [{"type": t, "description": d} for t, d in TYPES.items()]}, f"{len(TYPES)} types"
    raise SkillError("UNKNOWN_ACTION", f"Unknown action: {action}", {"supported_actions": ACTIONS})


def emit(envelope: Dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(envelope, ensure_ascii=False, indent=2) + "\n")


def error_envelope(action: Any, code: str, message: str, details: Any = None) -> Dict[str, Any]:
    env: Dict[str, Any] = {"success": False}
    if isinstance(action, str):
        env["action"] = action
    env["error"] = {"code": code, "message": message}
    if details is not None:
        env["error"]["details"] = details
    return env


def protocol_main() -> int:
    try:
        request = json.loads(sys.stdin.read())
        if not isinstance(request, dict):
            raise ValueError("request must be a JSON object")
    except (json.JSONDecodeError, ValueError) as e:
        emit(error_envelope(None, "INVALID_JSON", f"Failed to parse input JSON: {e}"))
        return 1
    debug(f"request: {json.dumps(request, ensure_ascii=False)[:2000]}")
    action = request.get("action")
    try:
        if not isinstance(action, str) or not action:
            raise SkillError("MISSING_PARAM", "Missing required field: action", {"param": "action", "supported_actions": ACTIONS})
        params = request.get("params") or {}
        if not isinstance(params, dict):
            raise SkillError("INVALID_PARAM", "Field 'params' must be an object", {"param": "params"})
        log(f"running {action}")
        data, message = handle(action, params)
        emit({"success": True, "action": action, "data": data, "message": message, "metadata": {"skill": SKILL_NAME}})
        return 0
    except SkillError as e:
        debug(f"{e.code}: {e.message}")
        emit(error_envelope(action, e.code, e.message, e.details))
        return 0
    except Exception as e:  # noqa: BLE001
        log(f"internal error: {e!r}")
        emit(error_envelope(action, "INTERNAL_ERROR", str(e) or e.__class__.__name__))
        return 1


def hook_main(path: str) -> int:
    with open(path, encoding="utf-8") as fh:
        message = fh.read()
    result = lint_message(message, {})
    for p in result["errors"]:
        print(f"✖ {p['rule']}: {p['message']}", file=sys.stderr)
    for p in result["warnings"]:
        print(f"⚠ {p['rule']}: {p['message']}", file=sys.stderr)
    if result["errors"]:
        print("Commit message does not follow Conventional Commits (https://www.conventionalcommits.org/).", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] not in ("-",):
        sys.exit(hook_main(sys.argv[1]))
    sys.exit(protocol_main())
