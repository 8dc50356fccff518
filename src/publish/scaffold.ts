import { Document, parse, visit } from 'yaml';
import { codePointLabel, CONTROL_CHARS } from '../core/control-chars.ts';
import { AGENT_SKILL_NAME, discoveryName, FUNCTION_NAME, MAX_DESCRIPTION_LENGTH, MAX_NAME_LENGTH, nameKey, PLACEHOLDER_DESCRIPTION, suggestName, titleFromName, toKebab, windowsDeviceFolder } from '../core/names.ts';
import { isWindowsDeviceName, WINDOWS_DEVICE_NAMES } from '../core/paths.ts';
import type { FunctionMode } from '../core/schemas/skill-json.ts';
import { ScaffoldError } from './scaffold-error.ts';

/**
 * Templates for `skilldex new`. Pure: a scaffold is a list of files; the command writes them.
 * Every template validates and builds as generated (the tests hold it to that), so a contributor
 * starts from green and only has to keep it green.
 */

export const SCAFFOLD_FORMATS = ['skill-md', 'package', 'skill-json', 'script'] as const;
export type ScaffoldFormat = (typeof SCAFFOLD_FORMATS)[number];

/** An existing skill a composite scaffold calls, with its input schema when known. */
export interface Callee {
  name: string;
  input?: Record<string, unknown> | undefined;
}

export interface ScaffoldOptions {
  name: string;
  format: ScaffoldFormat;
  /** skill-json only; default `code`. */
  mode?: FunctionMode;
  description?: string;
  /** Category folder (and `category` field where the format has one). */
  category?: string;
  /** Composite mode: the skills the pipeline calls, in order. */
  calls?: readonly Callee[];
}

export interface ScaffoldFile {
  /** Path inside the skill folder. */
  path: string;
  content: string;
}

export interface Scaffold {
  /** The skill's declared name (snake_case for skill.json). */
  name: string;
  /** Folder relative to the skills directory: `my-skill` or `<category>/my-skill`. */
  folder: string;
  files: ScaffoldFile[];
}


/** A skill the registry already holds, as a new one is checked against it. */
export interface ExistingSkill {
  name: string;
  /** `skill-json` or the format of a SKILL.md skill: what decides its discovery name. */
  format: string;
  /** Its folder, as the caller shows it. */
  dir: string;
}

/**
 * The existing skill whose name a new skill would share, compared as the registry's rules
 * compare them: registry/duplicate-name (the same name after case-folding and NFC normalisation)
 * and registry/cross-format-collision (the same name in discovery indexes and agent folders,
 * where `code_review` of a skill.json is `code-review`). Either rule would fail both skills, so
 * the existing one would stop publishing.
 *
 * @example
 * clashingSkill('code-review', 'skill-md', [{ name: 'code_review', format: 'skill-json', dir: 'skills/code-review' }]); // that skill
 */
export function clashingSkill(name: string, format: ScaffoldFormat, existing: readonly ExistingSkill[]): ExistingSkill | undefined {
  const key = nameKey(name);
  const published = nameKey(discoveryName(name, format));
  return existing.find((s) => nameKey(s.name) === key || nameKey(discoveryName(s.name, s.format)) === published);
}

/** Checks a name for the format and returns the declared name and the folder name. */
export function scaffoldNames(raw: string, format: ScaffoldFormat): { name: string; folderName: string } {
  const names = grammaticalNames(raw, format);
  // The validator refuses these (name/windows-device): a scaffold it would reject helps nobody.
  const device = windowsDeviceFolder(names.name, format);
  if (device !== undefined) {
    throw new ScaffoldError(`'${raw.trim()}' would be installed as folder '${device}', a device name on Windows (${WINDOWS_DEVICE_NAMES}), where the skill could not be installed`, `pick another name, e.g. ${names.folderName}-skill`);
  }
  return names;
}

/** The name and folder `raw` gives in `format`'s grammar, or a ScaffoldError saying what to type instead. */
function grammaticalNames(raw: string, format: ScaffoldFormat): { name: string; folderName: string } {
  const input = raw.trim();
  if (input.length === 0 || input.length > MAX_NAME_LENGTH) throw new ScaffoldError(`a skill name is 1–${MAX_NAME_LENGTH} characters`, 'pick a short name like text-stats');
  if (format === 'skill-json') {
    // skill.json names are snake_case (docs/skill-json.md); the folder may use the kebab-case form.
    const name = input.replace(/-/g, '_');
    if (!FUNCTION_NAME.test(name)) throw new ScaffoldError(`'${input}' is not a valid skill.json name`, `use a lowercase letter followed by a-z, 0-9 and _ (e.g. ${suggestName(input, '_') || 'text_stats'})`);
    return { name, folderName: toKebab(name) };
  }
  if (!AGENT_SKILL_NAME.test(input)) {
    throw new ScaffoldError(`'${input}' is not a valid Agent Skills name`, `use lowercase letters, digits and single hyphens (e.g. ${suggestName(input, '-') || 'text-stats'}); the folder gets the same name`);
  }
  return { name: input, folderName: input };
}

/** A category becomes a folder name: one path segment, no dot-folders. */
function checkCategory(category: string): void {
  if (isWindowsDeviceName(category)) {
    throw new ScaffoldError(`'${category}' cannot be a category folder: it is a device name on Windows (${WINDOWS_DEVICE_NAMES}), where the registry could not be checked out`, `use another folder name, e.g. ${category}-skills`);
  }
  if (category === '' || /[/\\]/.test(category) || category.startsWith('.') || /[\u0000-\u001f]/.test(category)) {
    throw new ScaffoldError(`'${category}' cannot be a category folder`, 'use a single folder name such as text or 代码');
  }
}

/**
 * A description the scaffold can write: one `skilldex validate` accepts (no control characters,
 * at most 1,024 characters), so the skill it writes validates as promised.
 */
function checkDescription(description: string): void {
  const control = CONTROL_CHARS.exec(description);
  if (control) {
    throw new ScaffoldError(`the description contains the control character ${codePointLabel(control[0].codePointAt(0) as number)}`, 'write it as plain text: terminals act on control characters');
  }
  if (description.length > MAX_DESCRIPTION_LENGTH) {
    throw new ScaffoldError(`the description is ${description.length} characters; at most ${MAX_DESCRIPTION_LENGTH} are allowed`, 'one or two sentences: what the skill does and when to use it; details go in the body');
  }
}

export function scaffold(options: ScaffoldOptions): Scaffold {
  const { name, folderName } = scaffoldNames(options.name, options.format);
  if (options.category !== undefined) checkCategory(options.category);
  const given = options.description?.trim();
  if (given !== undefined) checkDescription(given);
  const title = titleFromName(name);
  const description = given || `${title}: ${PLACEHOLDER_DESCRIPTION}`;
  const folder = options.category ? `${options.category}/${folderName}` : folderName;
  const ctx: TemplateContext = { name, title, description, category: options.category };
  const files =
    options.format === 'skill-md' ? skillMdFiles(ctx)
    : options.format === 'package' ? packageFiles(ctx)
    : options.format === 'script' ? scriptFiles(ctx)
    : skillJsonFiles(ctx, options.mode ?? 'code', options.calls ?? []);
  return { name, folder, files };
}

interface TemplateContext {
  name: string;
  title: string;
  description: string;
  category: string | undefined;
}

/**
 * `---\n<yaml>---\n` with the yaml package doing the quoting (descriptions contain `: ` often).
 * It quotes what YAML 1.2 would read as another type (`123`, `null`), but YAML 1.1 readers
 * (PyYAML, which many Agent Skills clients use) also read a plain `yes`, `n`, `off` as booleans
 * and `1:20` as a number: a string a YAML 1.1 reader would misread is written in double quotes.
 */
function frontmatter(fields: Record<string, unknown>): string {
  const doc = new Document(fields, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_, node) {
      if (typeof node.value === 'string' && misreadByYaml11(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return `---\n${doc.toString({ lineWidth: 0 })}---\n`;
}

/** Whether a YAML 1.1 reader takes `text`, written plain, for a boolean, a number, a date or null. */
function misreadByYaml11(text: string): boolean {
  let value: unknown;
  try {
    value = parse(text, { version: '1.1' });
  } catch {
    return false; // not a plain scalar at all: the yaml package quotes it anyway
  }
  return value === null || typeof value === 'boolean' || typeof value === 'number' || value instanceof Date;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function skillMdFiles({ name, title, description }: TemplateContext): ScaffoldFile[] {
  return [
    {
      path: 'SKILL.md',
      content: `${frontmatter({ name, description })}
# ${title}

Write the instructions an agent follows after loading this skill: when it applies, the steps, and
what a good result looks like. Keep this file short; agents read all of it.

## Steps

1. Check that the request is in scope (see the description above); if not, say so and stop.
2. Do the work, one step per line, in the imperative.
3. Check the result against the criteria below before answering.

## What a good result looks like

- Describe the shape of the answer and the checks it must pass.

## Reference

Material that is only needed sometimes lives in [references/guide.md](references/guide.md); load it when a
step needs it.
`,
    },
    {
      path: 'references/guide.md',
      content: `# ${title}: guide\n\nLonger reference material for the skill: tables, examples, edge cases. It is loaded on demand,\nso it may be as long as it needs to be.\n`,
    },
  ];
}

const TEXT_INPUT = {
  type: 'object',
  properties: { text: { type: 'string', description: 'The text to work on.' } },
  required: ['text'],
};

/** The frontmatter fields every extended-package template starts with. */
function packageIdentity({ name, title, description, category }: TemplateContext) {
  return {
    name,
    displayName: title,
    description,
    version: '1.0.0',
    type: 'direct',
    ...(category ? { category } : {}),
    tags: [],
  };
}

function packageFiles(context: TemplateContext): ScaffoldFile[] {
  const { name, title } = context;
  const snake = name.replace(/-/g, '_');
  const fields = {
    ...packageIdentity(context),
    capabilities: [snake],
    triggers: { intents: [snake], phrases: [title.toLowerCase()], priority: 0.5 },
    input_schema: TEXT_INPUT,
    output_schema: {
      type: 'object',
      properties: { characters: { type: 'number' }, words: { type: 'number' }, preview: { type: 'string' } },
      required: ['characters', 'words'],
    },
    security: { timeout_ms: 5000, memory_mb: 128, network: 'none', filesystem: 'none' },
    resources: { entry: './scripts/execute.ts', references: ['./references/guide.md'] },
  };
  return [
    {
      path: 'SKILL.md',
      content: `${frontmatter(fields)}
# ${title}

## Description

Explain what the skill does in more detail than the one-line description.

## Input

- \`text\` (string, required): the text to work on.

## Output

- \`characters\`, \`words\` (numbers) and \`preview\` (the first 80 characters).

## Steps

1. Call the entry script with the input above.
2. Report the numbers; quote the preview when it helps.

## Example

Input \`{"text": "hello world"}\` → output \`{"characters": 11, "words": 2, "preview": "hello world"}\`.

## Security

The script reads only its parameters: no network, no file system (see \`security\`).
`,
    },
    {
      path: 'scripts/execute.ts',
      content: `/**
 * Entry point of the ${name} package (the extended SKILL.md package format). The runtime imports this module and calls
 * \`execute(parameters, context, config)\`; the result is a SkillExecutionOutcome. Keep every
 * piece of executable code under scripts/ — the validator refuses code anywhere else.
 */
export async function execute(
  parameters: Record<string, unknown>,
  context: Record<string, unknown> = {},
  config: Record<string, unknown> = {},
): Promise<{ output: unknown; format: 'object'; status: 'success' | 'error'; message?: string }> {
  const text = parameters.text;
  if (typeof text !== 'string') {
    return { output: null, format: 'object', status: 'error', message: 'parameter \`text\` (string) is required' };
  }
  const output = {
    characters: [...text].length,
    words: text.split(/\\s+/).filter(Boolean).length,
    preview: [...text].slice(0, 80).join(''),
  };
  return { output, format: 'object', status: 'success' };
}
`,
    },
    {
      path: 'references/guide.md',
      content: `# ${title}: guide\n\nReference material the skill's instructions or script rely on. Listed in \`resources.references\`.\n`,
    },
  ];
}

function scriptFiles(context: TemplateContext): ScaffoldFile[] {
  const { name, title } = context;
  const fields = {
    ...packageIdentity(context),
    actions: [
      { name: 'analyze', description: 'Count the characters, words and lines of `text`.' },
      { name: 'report', description: 'Render those counts as a Markdown report titled `title`.' },
    ],
    input_schema: {
      type: 'object',
      // Both actions read params.text; the example is the input the catalog page's run command shows.
      required: ['action', 'params'],
      examples: [{ action: 'analyze', params: { text: 'hello world' } }],
      properties: {
        action: { type: 'string', enum: ['analyze', 'report'] },
        params: {
          type: 'object',
          properties: { text: { type: 'string' }, title: { type: 'string', description: 'report: the heading' } },
          required: ['text'],
        },
      },
    },
    output_schema: {
      type: 'object',
      description: 'The script protocol envelope; `data` depends on the action.',
      properties: { success: { type: 'boolean' }, action: { type: 'string' }, data: { type: 'object' }, error: { type: 'object' } },
      required: ['success'],
    },
    security: { timeout_ms: 10000, memory_mb: 64, network: 'none', filesystem: 'none' },
    resources: { entry: './scripts/main.py' },
  };
  return [
    {
      path: 'SKILL.md',
      content: `${frontmatter(fields)}
# ${title}

A protocol script: it reads one JSON request on stdin and writes one JSON envelope on stdout (the Skilldex script protocol).

## Actions

- \`analyze\` — \`{"text": "…"}\` → \`{"characters", "words", "lines"}\`
- \`report\` — \`{"text": "…", "title": "…"}\` → \`{"content": "# title …", "stats": {…}}\`

## Try it

\`\`\`sh
echo '{"action": "analyze", "params": {"text": "hello world"}}' | python3 scripts/main.py
\`\`\`

Errors come back as \`{"success": false, "error": {"code", "message"}}\` with the standard codes
(\`INVALID_JSON\`, \`UNKNOWN_ACTION\`, \`MISSING_PARAM\`, \`INVALID_PARAM\`, \`INTERNAL_ERROR\`).
Set \`SKILL_DEBUG=1\` to log the request to stderr.
`,
    },
    { path: 'scripts/main.py', content: PYTHON_TEMPLATE.replaceAll('__TITLE__', title).replaceAll('__NAME__', name) },
  ];
}

const PYTHON_TEMPLATE = String.raw`#!/usr/bin/env python3
"""__TITLE__ — a script that speaks the Skilldex script protocol.

Input (stdin JSON):  {"action": "analyze" | "report", "params": {...}, "context": {...}}
Output (stdout JSON): {"success": true, "action": ..., "data": {...}, "metadata": {...}}
                  or  {"success": false, "action": ..., "error": {"code", "message", "details"}}
Logs and progress go to stderr only, so stdout stays one JSON document.
"""

import json
import logging
import os
import sys
import time
from typing import Any, Callable, Dict

DEBUG = os.getenv("SKILL_DEBUG") == "1"
logger = logging.getLogger("__NAME__")
logger.addHandler(logging.StreamHandler(sys.stderr))
logger.setLevel(logging.DEBUG if DEBUG else logging.WARNING)


class SkillError(Exception):
    """A failure the caller can act on, reported with a standard protocol error code."""

    def __init__(self, code: str, message: str, details: Any = None):
        super().__init__(message)
        self.code = code
        self.details = details


def require_text(params: Dict[str, Any]) -> str:
    if "text" not in params:
        raise SkillError("MISSING_PARAM", "Missing required parameter: text")
    text = params["text"]
    if not isinstance(text, str):
        raise SkillError("INVALID_PARAM", "Parameter text must be a string", {"got": type(text).__name__})
    return text


def analyze(params: Dict[str, Any]) -> Dict[str, Any]:
    text = require_text(params)
    return {"characters": len(text), "words": len(text.split()), "lines": len(text.splitlines())}


def report(params: Dict[str, Any]) -> Dict[str, Any]:
    stats = analyze(params)
    title = params.get("title") or "Text report"
    if not isinstance(title, str):
        raise SkillError("INVALID_PARAM", "Parameter title must be a string")
    lines = [f"# {title}", ""] + [f"- {key}: {value}" for key, value in stats.items()]
    return {"content": "\n".join(lines) + "\n", "stats": stats}


HANDLERS: Dict[str, Callable[[Dict[str, Any]], Dict[str, Any]]] = {"analyze": analyze, "report": report}


def respond(envelope: Dict[str, Any]) -> None:
    print(json.dumps(envelope, ensure_ascii=False))


def main() -> int:
    started = time.monotonic()
    action = None
    try:
        request = json.loads(sys.stdin.read())
    except json.JSONDecodeError as error:
        respond({"success": False, "error": {"code": "INVALID_JSON", "message": f"Failed to parse input JSON: {error}"}})
        return 1
    try:
        if not isinstance(request, dict):
            raise SkillError("INVALID_JSON", "The request must be a JSON object")
        action = request.get("action")
        params = request.get("params") or {}
        if not isinstance(params, dict):
            raise SkillError("INVALID_PARAM", "params must be an object")
        logger.debug("request: %s", json.dumps(request, ensure_ascii=False))
        handler = HANDLERS.get(action) if isinstance(action, str) else None
        if handler is None:
            raise SkillError("UNKNOWN_ACTION", f"Unknown action: {action}", {"supported_actions": sorted(HANDLERS)})
        data = handler(params)
        elapsed = int((time.monotonic() - started) * 1000)
        respond({"success": True, "action": action, "data": data, "metadata": {"execution_time_ms": elapsed}})
        return 0
    except SkillError as error:
        failure: Dict[str, Any] = {"code": error.code, "message": str(error)}
        if error.details is not None:
            failure["details"] = error.details
        respond({"success": False, "action": action, "error": failure})
        return 0
    except Exception as error:  # the envelope must still be JSON, whatever went wrong
        # str(MemoryError()) is empty: the exception's class says what happened.
        respond({"success": False, "action": action, "error": {"code": "INTERNAL_ERROR", "message": str(error) or type(error).__name__}})
        return 1


if __name__ == "__main__":
    sys.exit(main())
`;

function skillJsonFiles(ctx: TemplateContext, mode: FunctionMode, calls: readonly Callee[]): ScaffoldFile[] {
  const { name, title, description, category } = ctx;
  const common = { name, description, category: category ?? 'general' };
  const meta = { version: '1.0.0', tags: [] as string[], timeout: 30000, retry: 0 };
  if (mode === 'code') {
    return [
      {
        path: 'skill.json',
        content: json({
          ...common,
          input: TEXT_INPUT,
          output: { type: 'object', properties: { characters: { type: 'number' }, words: { type: 'number' } }, required: ['characters', 'words'] },
          mode: 'code',
          calls: [],
          ...meta,
        }),
      },
      {
        path: 'index.ts',
        content: `/**
 * Body of the ${name} function (a skill.json function skill, mode "code"). The runtime checks the input against
 * skill.json's "input" schema before calling, and the return value against "output" after.
 */
export async function execute(input: { text: string }, ctx: Record<string, unknown> = {}): Promise<{ characters: number; words: number }> {
  return {
    characters: [...input.text].length,
    words: input.text.split(/\\s+/).filter(Boolean).length,
  };
}
`,
      },
    ];
  }
  if (mode === 'llm') {
    return [
      {
        path: 'skill.json',
        content: json({
          ...common,
          input: TEXT_INPUT,
          output: { type: 'object', properties: { summary: { type: 'string', description: 'The answer, in one paragraph.' } }, required: ['summary'] },
          mode: 'llm',
          calls: [],
          ...meta,
        }),
      },
      {
        path: 'prompt.md',
        content: `You are ${title}. ${description}

## What to do

1. Read the user's \`text\`.
2. Do the task described above; do not invent facts that are not in the text.

## Output

Return JSON matching the output schema: \`{"summary": "…"}\`.
`,
      },
    ];
  }
  return [{ path: 'skill.json', content: json(compositeSkillJson(common, meta, calls)) }];
}

/**
 * A pipeline that calls each callee in order. Each step forwards the callee's required inputs
 * from the composite's own input (declared with the callee's property schemas), so every
 * template resolves; the output maps each step's result.
 */
function compositeSkillJson(common: { name: string; description: string; category: string }, meta: Record<string, unknown>, calls: readonly Callee[]) {
  if (calls.length === 0) throw new ScaffoldError('a composite skill needs at least one skill to call', 'pass --calls with the names of existing skills, e.g. --calls text_stats,keyword_extract');
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  const steps: { step: string; skill: string; input: Record<string, string> }[] = [];
  const outputMapping: Record<string, string> = {};
  const outputProps: Record<string, unknown> = {};
  const used = new Set<string>();
  for (const callee of calls) {
    const schemaProps = (callee.input?.properties ?? {}) as Record<string, unknown>;
    const req = Array.isArray(callee.input?.required) ? (callee.input.required as unknown[]).filter((r): r is string => typeof r === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(r)) : [];
    const forwarded = req.length > 0 ? req : callee.input ? [] : ['text'];
    const input: Record<string, string> = {};
    for (const prop of forwarded) {
      properties[prop] ??= schemaProps[prop] ?? { type: 'string' };
      required.add(prop);
      input[prop] = `{{input.${prop}}}`;
    }
    let step = callee.name.replace(/[^A-Za-z0-9_]+/g, '_');
    for (let i = 2; used.has(step); i++) step = `${callee.name.replace(/[^A-Za-z0-9_]+/g, '_')}_${i}`;
    used.add(step);
    steps.push({ step, skill: callee.name, input });
    outputMapping[step] = `{{steps.${step}}}`;
    outputProps[step] = { description: `The result of ${callee.name}.` };
  }
  return {
    ...common,
    input: { type: 'object', properties, ...(required.size > 0 ? { required: [...required] } : {}) },
    output: { type: 'object', properties: outputProps },
    mode: 'composite',
    calls: [...new Set(calls.map((c) => c.name))],
    pipeline: steps,
    outputMapping,
    ...meta,
  };
}
