#!/usr/bin/env python3
"""
punct_check.py: 中文文案的机械性排版检查与修正（标点全半角、全角数字字母、重复标点、空格等）。

The Skilldex script protocol: one JSON request on stdin, one JSON envelope on stdout, logs on stderr.
    {"action": "check", "params": {"text": "...", "check_spacing": true}}
    {"action": "fix",   "params": {"text": "...", "add_spacing": false}}
    {"action": "rules"}
Standard library only; deterministic; SKILL_DEBUG=1 logs the request on stderr.
"""

import json
import os
import re
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

SKILL_NAME = "chinese-proofreading"
DEBUG = os.getenv("SKILL_DEBUG") == "1"
ACTIONS = ["check", "fix", "rules"]

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HALF_TO_FULL = {",": "，", ";": "；", ":": "：", "?": "？", "!": "！", ".": "。"}
CLOSING = "，。！？；：、）》」』】”’"
OPENING = "（《「『【“‘"


def log(msg: str) -> None:
    print(f"[{SKILL_NAME}] {msg}", file=sys.stderr)


class SkillError(Exception):
    def __init__(self, code: str, message: str, details: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def to_halfwidth(s: str) -> str:
    return "".join(chr(ord(c) - 0xFEE0) for c in s)


# Each rule: id, severity, Chinese message, pattern, replacement (str or function).
Rule = Tuple[str, str, str, "re.Pattern[str]", Any]
RULES: List[Rule] = [
    ("fullwidth-alnum", "error", "数字和英文字母应使用半角字符",
     re.compile(r"[０-９Ａ-Ｚａ-ｚ](?:[０-９Ａ-Ｚａ-ｚ．％]*[０-９Ａ-Ｚａ-ｚ％])?"), lambda m: to_halfwidth(m.group(0))),
    ("ellipsis", "error", "中文省略号应写作“……”（两个省略号字符）",
     re.compile(rf"(?<=[{HAN}])(?:\.{{3,}}|。{{3,}}|…(?!…))"), "……"),
    ("halfwidth-punct", "error", "中文语境中应使用全角标点",
     re.compile(rf"(?<=[{HAN}])[,;:?!]+|[,;:?!]+(?=[{HAN}])|(?<=[{HAN}])\.(?![\d.])"),
     lambda m: "".join(HALF_TO_FULL[c] for c in m.group(0))),
    ("halfwidth-parens", "warning", "括号内含中文时应使用全角括号",
     re.compile(rf"\(([^()\n]*[{HAN}][^()\n]*)\)"), lambda m: f"（{m.group(1)}）"),
    ("straight-quotes", "warning", "中文引号应使用弯引号“”",
     re.compile(rf'"([^"\n]*[{HAN}][^"\n]*)"'), lambda m: f"“{m.group(1)}”"),
    ("repeated-punct", "warning", "标点符号不应重复使用",
     re.compile(r"([，。、；：？！])\1+"), lambda m: m.group(1)),
    ("space-around-fullwidth", "error", "全角标点前后不应加空格",
     re.compile(rf"[ \t\u3000]+(?=[{CLOSING}])|(?<=[{OPENING}，。！？；：、…])[ \t\u3000]+(?=\S)"), ""),
]
SPACING_RULE: Rule = (
    "cjk-latin-spacing", "info", "建议在中文与英文、数字之间加一个空格",
    re.compile(rf"(?<=[{HAN}])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[{HAN}])"), " ",
)


def line_col(text: str, index: int) -> Tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    col = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, col


def replacement_for(rule: Rule, m: "re.Match[str]") -> str:
    repl = rule[4]
    return repl(m) if callable(repl) else repl


def check(text: str, check_spacing: bool) -> List[Dict[str, Any]]:
    rules = RULES + ([SPACING_RULE] if check_spacing else [])
    issues: List[Dict[str, Any]] = []
    for rule in rules:
        rid, severity, message, pattern, _ = rule
        for m in pattern.finditer(text):
            line, col = line_col(text, m.start())
            context = text[max(0, m.start() - 6): m.end() + 6].replace("\n", " ")
            issues.append({
                "rule": rid, "severity": severity, "line": line, "column": col,
                "found": m.group(0), "suggestion": replacement_for(rule, m),
                "context": context, "message": message,
            })
    issues.sort(key=lambda i: (i["line"], i["column"], i["rule"]))
    return issues


def fix(text: str, add_spacing: bool) -> Tuple[str, Dict[str, int]]:
    rules = RULES + ([SPACING_RULE] if add_spacing else [])
    applied: Dict[str, int] = {}
    for rule in rules:
        pattern = rule[3]
        repl: Callable[["re.Match[str]"], str] = (lambda r: (lambda m: replacement_for(r, m)))(rule)
        text, n = pattern.subn(repl, text)
        if n:
            applied[rule[0]] = n
    return text, applied


def require_text(params: Dict[str, Any]) -> str:
    if "text" not in params or params["text"] is None:
        raise SkillError("MISSING_PARAM", "缺少必填参数: text", {"param": "text"})
    if not isinstance(params["text"], str):
        raise SkillError("INVALID_PARAM", "参数 text 必须是字符串", {"param": "text"})
    return params["text"]


def handle(action: str, params: Dict[str, Any]) -> Tuple[Any, str]:
    if action == "check":
        text = require_text(params)
        issues = check(text, bool(params.get("check_spacing", True)))
        counts: Dict[str, int] = {}
        for i in issues:
            counts[i["severity"]] = counts.get(i["severity"], 0) + 1
        han = len(re.findall(f"[{HAN}]", text))
        data = {"issues": issues, "counts": counts, "stats": {"characters": len(text), "hanCharacters": han, "lines": text.count("\n") + 1}}
        return data, f"发现 {len(issues)} 处问题" if issues else "未发现机械性排版问题"
    if action == "fix":
        text = require_text(params)
        fixed, applied = fix(text, bool(params.get("add_spacing", False)))
        return {"text": fixed, "changed": fixed != text, "applied": applied}, f"共修正 {sum(applied.values())} 处"
    if action == "rules":
        all_rules = RULES + [SPACING_RULE]
        return {"rules": [{"rule": r[0], "severity": r[1], "message": r[2]} for r in all_rules]}, f"{len(all_rules)} 条规则"
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


def main() -> int:
    try:
        request = json.loads(sys.stdin.read())
        if not isinstance(request, dict):
            raise ValueError("request must be a JSON object")
    except (json.JSONDecodeError, ValueError) as e:
        emit(error_envelope(None, "INVALID_JSON", f"Failed to parse input JSON: {e}"))
        return 1
    if DEBUG:
        log(f"debug: request: {json.dumps(request, ensure_ascii=False)[:2000]}")
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
        emit(error_envelope(action, e.code, e.message, e.details))
        return 0
    except Exception as e:  # noqa: BLE001
        log(f"internal error: {e!r}")
        emit(error_envelope(action, "INTERNAL_ERROR", str(e) or e.__class__.__name__))
        return 1


if __name__ == "__main__":
    sys.exit(main())
