#!/bin/sh
# semver-tool: parse, compare and bump Semantic Versions 2.0.0 (the Skilldex script protocol).
#
# stdin : {"action": "parse"|"compare"|"bump"|"sort", "params": {...}, "context": {...}}
# stdout: exactly one JSON envelope; logs go to stderr (SKILL_DEBUG=1 for more).
#
# The version logic is POSIX sh. python3 (standard library) is used only to decode the request
# JSON into tab-separated fields, because sh has no JSON parser.
set -u

SKILL_NAME="semver-tool"
# The version SKILL.md declares, read at run time: a number copied here went stale at the next release.
SKILL_VERSION=$(sed -n 's/^version:[[:space:]]*//p' "${SKILL_DIR:-$(dirname "$0")/..}/SKILL.md" 2>/dev/null | head -n 1)
ACTIONS='["parse","compare","bump","sort"]'
TAB=$(printf '\t')

log() { printf '[%s] %s\n' "$SKILL_NAME" "$*" >&2; }
debug() { if [ "${SKILL_DEBUG:-}" = "1" ]; then log "debug: $*"; fi; }

# JSON string literal for arbitrary text: escape backslash and quote, drop control characters.
json_str() {
  printf '"%s"' "$(printf '%s' "$1" | tr -d '\000-\037' | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g')"
}

ACTION=""
fail() { # code message [details-json]
  if [ -n "$ACTION" ]; then act=",\"action\":$(json_str "$ACTION")"; else act=""; fi
  if [ $# -ge 3 ]; then det=",\"details\":$3"; else det=""; fi
  printf '{"success":false%s,"error":{"code":"%s","message":%s%s}}\n' "$act" "$1" "$(json_str "$2")" "$det"
  debug "$1: $2"
}
ok() { # data-json message
  printf '{"success":true,"action":%s,"data":%s,"message":%s,"metadata":{"skill":"%s","version":"%s"}}\n' \
    "$(json_str "$ACTION")" "$1" "$(json_str "$2")" "$SKILL_NAME" "$SKILL_VERSION"
}

# ------------------------------------------------------------------ decode the request
REQUEST=$(cat)
debug "request: $REQUEST"
DECODED=$(printf '%s' "$REQUEST" | python3 -c '
import json, sys
try:
    req = json.loads(sys.stdin.read())
except Exception as e:
    print("!INVALID_JSON\t" + " ".join(str(e).split())); sys.exit(0)
if not isinstance(req, dict):
    print("!INVALID_JSON\trequest must be a JSON object"); sys.exit(0)
def clean(v):
    if isinstance(v, str): return " ".join(v.replace("\t", " ").splitlines()) if v else ""
    return json.dumps(v)
act = req.get("action")
print("action\t" + ("1" if isinstance(act, str) and act else "0") + "\t" + (clean(act) if isinstance(act, str) else ""))
params = req.get("params")
if params is None: params = {}
if not isinstance(params, dict):
    print("!INVALID_PARAM\tparams must be an object"); sys.exit(0)
for key in ("version", "a", "b", "part", "preid"):
    if key in params and params[key] is not None:
        v = params[key]
        print(key + "\t" + ("1" if isinstance(v, str) else "2") + "\t" + clean(v))
vs = params.get("versions")
if isinstance(vs, list) and all(isinstance(v, str) for v in vs):
    print("versions\t1\t" + " ".join(clean(v).replace(" ", "") for v in vs))
elif vs is not None:
    print("versions\t2\t")
')
if [ -z "$DECODED" ]; then
  fail INTERNAL_ERROR "python3 failed to decode the request"
  exit 1
fi

P_action=""; H_action=0
H_version=0; P_version=""; H_a=0; P_a=""; H_b=0; P_b=""; H_part=0; P_part=""; H_preid=0; P_preid=""
H_versions=0; P_versions=""
while IFS="$TAB" read -r key flag value; do
  case "$key" in
    '!INVALID_JSON') fail INVALID_JSON "Failed to parse input JSON: $flag"; exit 1 ;;
    '!INVALID_PARAM') ACTION=$P_action; fail INVALID_PARAM "$flag" '{"param":"params"}'; exit 0 ;;
    action) H_action=$flag; P_action=$value ;;
    version) H_version=$flag; P_version=$value ;;
    a) H_a=$flag; P_a=$value ;;
    b) H_b=$flag; P_b=$value ;;
    part) H_part=$flag; P_part=$value ;;
    preid) H_preid=$flag; P_preid=$value ;;
    versions) H_versions=$flag; P_versions=$value ;;
  esac
done <<EOT
$DECODED
EOT

if [ "$H_action" != "1" ]; then
  fail MISSING_PARAM "Missing required field: action" "{\"param\":\"action\",\"supported_actions\":$ACTIONS}"
  exit 0
fi
ACTION=$P_action

# ------------------------------------------------------------------ semver helpers
# Sets MAJOR MINOR PATCH PRE BUILD from $1, or returns 1 when $1 is not a SemVer 2.0.0 version.
# A leading "v" or "=" is accepted and dropped ("v1.2.3" is common in git tags).
parse_semver() {
  v=$1
  case "$v" in v*|=*) v=${v#?} ;; esac
  case "$v" in ''|*[!0-9A-Za-z.+-]*) return 1 ;; esac
  core=${v%%[-+]*}
  rest=${v#"$core"}
  PRE=""; BUILD=""
  case "$rest" in
    +*) BUILD=${rest#+} ;;
    -*) rest=${rest#-}; PRE=${rest%%+*}; case "$rest" in *+*) BUILD=${rest#*+} ;; esac
        [ -n "$PRE" ] || return 1 ;;
  esac
  case "$BUILD" in *+*) return 1 ;; esac
  case "$rest" in +) return 1 ;; esac
  MAJOR=${core%%.*}; r=${core#*.}
  [ "$r" != "$core" ] || return 1
  MINOR=${r%%.*}; PATCH=${r#*.}
  [ "$PATCH" != "$r" ] || return 1
  for n in "$MAJOR" "$MINOR" "$PATCH"; do
    case "$n" in ''|*[!0-9]*) return 1 ;; 0?*) return 1 ;; esac
    [ ${#n} -le 15 ] || return 1
  done
  if [ -n "$PRE" ]; then check_idents "$PRE" 1 || return 1; fi
  if [ -n "$BUILD" ]; then check_idents "$BUILD" 0 || return 1; fi
  return 0
}

# Dot-separated identifiers: non-empty; numeric ones have no leading zero when $2 = 1.
check_idents() {
  case "$1" in .*|*.|*..*) return 1 ;; esac
  old_ifs=$IFS; IFS=.
  for id in $1; do
    case "$id" in '') IFS=$old_ifs; return 1 ;; esac
    if [ "$2" = 1 ]; then
      case "$id" in 0[0-9]*) case "$id" in *[!0-9]*) ;; *) IFS=$old_ifs; return 1 ;; esac ;; esac
    fi
  done
  IFS=$old_ifs
  return 0
}

is_num() { case "$1" in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }

# Compare numbers of up to 15 digits (fits shell arithmetic).
cmp_num() { if [ "$1" -lt "$2" ]; then echo -1; elif [ "$1" -gt "$2" ]; then echo 1; else echo 0; fi; }

# Precedence of two prerelease strings (SemVer 2.0.0, rule 11); empty means "release" and ranks higher.
cmp_pre() {
  if [ -z "$1" ] && [ -z "$2" ]; then echo 0; return; fi
  if [ -z "$1" ]; then echo 1; return; fi
  if [ -z "$2" ]; then echo -1; return; fi
  x=$1; y=$2
  while :; do
    if [ -z "$x" ] && [ -z "$y" ]; then echo 0; return; fi
    if [ -z "$x" ]; then echo -1; return; fi
    if [ -z "$y" ]; then echo 1; return; fi
    xi=${x%%.*}; yi=${y%%.*}
    case "$x" in *.*) x=${x#*.} ;; *) x="" ;; esac
    case "$y" in *.*) y=${y#*.} ;; *) y="" ;; esac
    if is_num "$xi" && is_num "$yi"; then
      if [ ${#xi} -ne ${#yi} ]; then cmp_num ${#xi} ${#yi}; return; fi
      if [ "$xi" != "$yi" ]; then
        if [ "$(printf '%s\n%s\n' "$xi" "$yi" | LC_ALL=C sort | head -n 1)" = "$xi" ]; then echo -1; else echo 1; fi
        return
      fi
    elif is_num "$xi"; then echo -1; return
    elif is_num "$yi"; then echo 1; return
    elif [ "$xi" != "$yi" ]; then
      if [ "$(printf '%s\n%s\n' "$xi" "$yi" | LC_ALL=C sort | head -n 1)" = "$xi" ]; then echo -1; else echo 1; fi
      return
    fi
  done
}

# cmp_versions A B -> -1 | 0 | 1 (build metadata is ignored, as the spec says)
cmp_versions() {
  parse_semver "$1"; a1=$MAJOR; a2=$MINOR; a3=$PATCH; ap=$PRE
  parse_semver "$2"; b1=$MAJOR; b2=$MINOR; b3=$PATCH; bp=$PRE
  for pair in "$a1 $b1" "$a2 $b2" "$a3 $b3"; do
    # shellcheck disable=SC2086
    c=$(cmp_num $pair)
    if [ "$c" != 0 ]; then echo "$c"; return; fi
  done
  cmp_pre "$ap" "$bp"
}

idents_json() { # "rc.1" -> ["rc",1]
  [ -n "$1" ] || { printf '[]'; return; }
  out=""; old_ifs=$IFS; IFS=.
  for id in $1; do
    if is_num "$id"; then item=$id; else item="\"$id\""; fi
    out="${out:+$out,}$item"
  done
  IFS=$old_ifs
  printf '[%s]' "$out"
}

format_version() { # major minor patch pre build
  s="$1.$2.$3"
  [ -z "$4" ] || s="$s-$4"
  [ -z "$5" ] || s="$s+$5"
  printf '%s' "$s"
}

need_version() { # param-name has-flag value
  if [ "$2" = 0 ]; then fail MISSING_PARAM "Missing required parameter: $1" "{\"param\":\"$1\"}"; exit 0; fi
  if [ "$2" != 1 ]; then fail INVALID_PARAM "Parameter '$1' must be a string" "{\"param\":\"$1\"}"; exit 0; fi
  if ! parse_semver "$3"; then
    fail INVALID_PARAM "Parameter '$1' is not a valid semantic version: $3" "{\"param\":\"$1\",\"value\":$(json_str "$3")}"
    exit 0
  fi
}

# ------------------------------------------------------------------ actions
log "running $ACTION"
case "$ACTION" in
  parse)
    need_version version "$H_version" "$P_version"
    parse_semver "$P_version"
    norm=$(format_version "$MAJOR" "$MINOR" "$PATCH" "$PRE" "$BUILD")
    stable=false; [ -n "$PRE" ] || [ "$MAJOR" = 0 ] || stable=true
    ok "{\"version\":\"$norm\",\"major\":$MAJOR,\"minor\":$MINOR,\"patch\":$PATCH,\"prerelease\":$(idents_json "$PRE"),\"build\":$(idents_json "$BUILD"),\"isPrerelease\":$([ -n "$PRE" ] && echo true || echo false),\"isStable\":$stable}" \
      "Parsed $norm"
    ;;
  compare)
    need_version a "$H_a" "$P_a"
    need_version b "$H_b" "$P_b"
    c=$(cmp_versions "$P_a" "$P_b")
    case "$c" in -1) rel="<" ;; 0) rel="=" ;; *) rel=">" ;; esac
    ok "{\"a\":$(json_str "$P_a"),\"b\":$(json_str "$P_b"),\"result\":$c,\"relation\":\"$rel\"}" "$P_a $rel $P_b"
    ;;
  bump)
    need_version version "$H_version" "$P_version"
    if [ "$H_part" = 0 ]; then fail MISSING_PARAM "Missing required parameter: part" '{"param":"part","allowed":["major","minor","patch","prerelease","release"]}'; exit 0; fi
    if [ "$H_preid" = 2 ] || { [ "$H_preid" = 1 ] && ! check_idents "$P_preid" 1; } || { [ "$H_preid" = 1 ] && case "$P_preid" in *[!0-9A-Za-z.-]*) true ;; *) false ;; esac; }; then
      fail INVALID_PARAM "Parameter 'preid' must be a dot-separated prerelease identifier such as rc or beta" '{"param":"preid"}'; exit 0
    fi
    parse_semver "$P_version"
    M=$MAJOR; m=$MINOR; p=$PATCH; pre=$PRE
    case "$P_part" in
      major) if [ -n "$pre" ] && [ "$m" = 0 ] && [ "$p" = 0 ]; then :; else M=$((M + 1)); m=0; p=0; fi; pre="" ;;
      minor) if [ -n "$pre" ] && [ "$p" = 0 ]; then :; else m=$((m + 1)); p=0; fi; pre="" ;;
      patch) if [ -n "$pre" ]; then :; else p=$((p + 1)); fi; pre="" ;;
      release) pre="" ;;
      prerelease)
        if [ -z "$pre" ]; then
          p=$((p + 1))
          if [ "$H_preid" = 1 ]; then pre="$P_preid.0"; else pre=0; fi
        elif [ "$H_preid" = 1 ] && [ "${pre#"$P_preid".}" = "$pre" ] && [ "$pre" != "$P_preid" ]; then
          pre="$P_preid.0"
        else
          last=${pre##*.}
          if is_num "$last"; then
            case "$pre" in *.*) pre="${pre%.*}.$((last + 1))" ;; *) pre=$((last + 1)) ;; esac
          else
            pre="$pre.0"
          fi
        fi ;;
      *) fail INVALID_PARAM "Parameter 'part' must be one of major, minor, patch, prerelease, release" \
           "{\"param\":\"part\",\"value\":$(json_str "$P_part"),\"allowed\":[\"major\",\"minor\",\"patch\",\"prerelease\",\"release\"]}"
         exit 0 ;;
    esac
    new=$(format_version "$M" "$m" "$p" "$pre" "")
    ok "{\"previous\":$(json_str "$P_version"),\"version\":\"$new\",\"part\":\"$P_part\"}" "$P_version -> $new"
    ;;
  sort)
    if [ "$H_versions" = 0 ]; then fail MISSING_PARAM "Missing required parameter: versions" '{"param":"versions"}'; exit 0; fi
    if [ "$H_versions" != 1 ]; then fail INVALID_PARAM "Parameter 'versions' must be an array of strings" '{"param":"versions"}'; exit 0; fi
    sorted=""
    for v in $P_versions; do
      if ! parse_semver "$v"; then
        fail INVALID_PARAM "Not a valid semantic version: $v" "{\"param\":\"versions\",\"value\":$(json_str "$v")}"; exit 0
      fi
      # insertion sort: stable, and fine for the short lists people paste
      placed=""; out=""
      for s in $sorted; do
        if [ -z "$placed" ] && [ "$(cmp_versions "$v" "$s")" = -1 ]; then out="$out $v"; placed=1; fi
        out="$out $s"
      done
      [ -n "$placed" ] || out="$out $v"
      sorted=$out
    done
    list=""; count=0; latest=""
    for s in $sorted; do list="${list:+$list,}$(json_str "$s")"; count=$((count + 1)); latest=$s; done
    ok "{\"sorted\":[$list],\"count\":$count,\"latest\":$( [ -n "$latest" ] && json_str "$latest" || echo null )}" "Sorted $count version(s)"
    ;;
  *)
    fail UNKNOWN_ACTION "Unknown action: $ACTION" "{\"supported_actions\":$ACTIONS}"
    ;;
esac
exit 0
