#!/usr/bin/env python3
"""
date_calc.py: exact calendar arithmetic (days between dates, adding days, weekdays).

The Skilldex script protocol: one JSON request on stdin, one JSON envelope on stdout, logs on stderr.
The action is the ABP tool's name:
    {"action": "daysBetween", "params": {"start": "2026-01-01", "end": "2026-03-01", "businessDays": false}}
    {"action": "addDays",     "params": {"date": "2026-11-20", "days": 3, "businessDays": true}}
    {"action": "weekday",     "params": {"date": "2026-11-23", "locale": "zh"}}
Standard library only; deterministic (no clock, no time zone); SKILL_DEBUG=1 logs the request.
"""

import datetime as dt
import json
import os
import re
import sys
from typing import Any, Dict, Optional

ACTIONS = ["daysBetween", "addDays", "weekday"]
DEBUG = os.getenv("SKILL_DEBUG") == "1"
WEEKDAYS = {
    "en": ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    "zh": ["星期一", "星期二", "星期三", "星期四", "星期五", "星期六", "星期日"],
    "ja": ["月曜日", "火曜日", "水曜日", "木曜日", "金曜日", "土曜日", "日曜日"],
}
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class SkillError(Exception):
    def __init__(self, code: str, message: str, details: Optional[Dict[str, Any]] = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details


def parse_date(params: Dict[str, Any], key: str) -> dt.date:
    value = params.get(key)
    if value is None:
        raise SkillError("MISSING_PARAM", f"'{key}' is required")
    if not isinstance(value, str) or not ISO_DATE.match(value):
        raise SkillError("INVALID_PARAM", f"'{key}' must be a date written YYYY-MM-DD, not {json.dumps(value)[:40]}",
                         {"hint": "e.g. 2026-03-01; convert relative dates first"})
    try:
        return dt.date.fromisoformat(value)
    except ValueError as e:
        raise SkillError("INVALID_PARAM", f"'{key}' is not a calendar date: {value} ({e})",
                         {"hint": "check the month length (February has 28 or 29 days)"})


def business_days_between(start: dt.date, end: dt.date) -> int:
    """Mondays to Fridays in [start, end), negative when end is earlier; O(1)."""
    if end < start:
        return -business_days_between(end, start)
    days = (end - start).days
    weeks, rest = divmod(days, 7)
    count = weeks * 5
    first = start.weekday()
    for i in range(rest):
        if (first + i) % 7 < 5:
            count += 1
    return count


def add_business_days(date: dt.date, days: int) -> dt.date:
    """The date `days` Mondays-to-Fridays later (earlier when negative); 0 returns the date itself."""
    if days == 0:
        return date
    step = 1 if days > 0 else -1
    current = date
    # From a weekend, count from the weekday just behind us: Saturday + 1 is Monday, Sunday - 1 is Friday.
    while current.weekday() >= 5:
        current -= dt.timedelta(days=step)
    weeks, rest = divmod(abs(days), 5)
    current += dt.timedelta(weeks=step * weeks)
    while rest > 0:
        current += dt.timedelta(days=step)
        if current.weekday() < 5:
            rest -= 1
    return current


def days_between(params: Dict[str, Any]) -> Dict[str, Any]:
    start, end = parse_date(params, "start"), parse_date(params, "end")
    days = (end - start).days
    out: Dict[str, Any] = {"start": start.isoformat(), "end": end.isoformat(), "days": days, "weeks": round(days / 7, 2)}
    if params.get("businessDays") is True:
        out["businessDays"] = business_days_between(start, end)
    return out


def add_days(params: Dict[str, Any]) -> Dict[str, Any]:
    date = parse_date(params, "date")
    days = params.get("days")
    if days is None:
        raise SkillError("MISSING_PARAM", "'days' is required")
    if not isinstance(days, int) or isinstance(days, bool):
        raise SkillError("INVALID_PARAM", "'days' must be a whole number")
    try:
        result = add_business_days(date, days) if params.get("businessDays") is True else date + dt.timedelta(days=days)
    except OverflowError:
        raise SkillError("INVALID_PARAM", f"{date.isoformat()} + {days} days is outside the years 1 to 9999")
    return {"date": date.isoformat(), "days": days, "result": result.isoformat(), "weekday": WEEKDAYS["en"][result.weekday()]}


def weekday(params: Dict[str, Any]) -> Dict[str, Any]:
    date = parse_date(params, "date")
    locale = params.get("locale") or "en"
    if locale not in WEEKDAYS:
        raise SkillError("INVALID_PARAM", f"locale must be one of {', '.join(WEEKDAYS)}, not {json.dumps(locale)[:20]}")
    iso = date.isocalendar()
    return {
        "date": date.isoformat(),
        "weekday": WEEKDAYS["en"][date.weekday()],
        "isoWeekday": iso[2],
        "localized": WEEKDAYS[locale][date.weekday()],
        "isoWeek": iso[1],
        "dayOfYear": date.timetuple().tm_yday,
    }


HANDLERS = {"daysBetween": days_between, "addDays": add_days, "weekday": weekday}


def respond(envelope: Dict[str, Any], status: int) -> None:
    if not isinstance(envelope.get("action"), str):
        envelope.pop("action", None)  # unknown when the request was not readable
    print(json.dumps(envelope, ensure_ascii=False))
    sys.exit(status)


def main() -> None:
    action = None
    try:
        request = json.loads(sys.stdin.read() or "null")
        if not isinstance(request, dict):
            raise SkillError("INVALID_JSON", "the request must be a JSON object")
        action = request.get("action")
        params = request.get("params") or {}
        if DEBUG:
            print(f"[date-calc] request: {json.dumps(request, ensure_ascii=False)}", file=sys.stderr)
        handler = HANDLERS.get(action)
        if handler is None:
            raise SkillError("UNKNOWN_ACTION", f"Unknown action: {action}", {"supported_actions": ACTIONS})
        if not isinstance(params, dict):
            raise SkillError("INVALID_PARAM", "params must be an object")
        respond({"success": True, "action": action, "data": handler(params), "metadata": {"calendar": "proleptic-gregorian"}}, 0)
    except json.JSONDecodeError as e:
        respond({"success": False, "action": action, "error": {"code": "INVALID_JSON", "message": f"stdin is not JSON: {e}"}}, 1)
    except SkillError as e:
        error: Dict[str, Any] = {"code": e.code, "message": e.message}
        if e.details:
            error["details"] = e.details
        respond({"success": False, "action": action, "error": error}, 1)


if __name__ == "__main__":
    main()
