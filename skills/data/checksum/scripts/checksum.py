#!/usr/bin/env python3
"""checksum: hex digests of a UTF-8 text, and an optional comparison with an expected value."""
import hashlib
import json
import sys
import zlib

ALGORITHMS = {
    "sha256": lambda b: hashlib.sha256(b).hexdigest(),
    "sha1": lambda b: hashlib.sha1(b).hexdigest(),
    "md5": lambda b: hashlib.md5(b).hexdigest(),
    "blake2b": lambda b: hashlib.blake2b(b).hexdigest(),
    "crc32": lambda b: format(zlib.crc32(b) & 0xFFFFFFFF, "08x"),
}


def respond(payload):
    print(json.dumps(payload, ensure_ascii=False))


def main():
    try:
        request = json.loads(sys.stdin.read() or "{}")
    except json.JSONDecodeError as error:
        respond({"success": False, "error": {"code": "INVALID_JSON", "message": f"stdin is not JSON: {error}"}})
        return
    action = request.get("action", "checksum")
    params = request.get("params") or {}
    text = params.get("text")
    if not isinstance(text, str):
        respond({"success": False, "action": action, "error": {"code": "MISSING_PARAM", "message": "Missing required parameters: ['text']"}})
        return
    names = params.get("algorithms") or ["sha256"]
    unknown = [n for n in names if n not in ALGORITHMS]
    if unknown:
        respond({"success": False, "action": action, "error": {"code": "INVALID_PARAM", "message": f"unknown algorithm(s): {', '.join(map(str, unknown))}", "details": {"supported": sorted(ALGORITHMS)}}})
        return
    data = text.encode("utf-8")
    expected = params.get("expected")
    if isinstance(expected, str) and expected.strip():
        # The expected value's own algorithm is computed too, so "compare with this md5" just works.
        prefix, _, value = expected.strip().partition(":")
        guess = prefix.lower() if value and prefix.lower() in ALGORITHMS else None
        if guess and guess not in names:
            names = [*names, guess]
        for name, length in (("sha256", 64), ("sha1", 40), ("md5", 32), ("blake2b", 128), ("crc32", 8)):
            if not guess and len(expected.strip()) == length and name not in names:
                names = [*names, name]
    checksums = {name: ALGORITHMS[name](data) for name in names}
    result = {"checksums": checksums, "bytes": len(data)}
    if isinstance(expected, str) and expected.strip():
        wanted = expected.strip().lower().split(":", 1)[-1]
        matched = next((name for name, digest in checksums.items() if digest == wanted), None)
        result["matches"] = matched is not None
        if matched:
            result["matchedAlgorithm"] = matched
    respond({"success": True, "action": action, "data": result})


main()
