import { z } from 'zod';
import { JsonSchemaObject } from './json-schema-object.ts';
import { MAX_MEMORY_MB, MAX_TIMEOUT_MS } from './run-limits.ts';

/**
 * SKILL.md frontmatter: the Agent Skills fields (docs/skill-md.md), the extended package fields
 * (docs/extended-package.md), Claude Code's and Codex's extras and Skilldex's own `actions`.
 *
 * Types here are deliberately permissive where the spec is: lengths, name charset and
 * "required in strict mode" live in validation rules, so that each has its own stable rule id
 * and configurable severity. This schema answers only "is the value of the right type?".
 */

const StringList = z.array(z.string());

export const Triggers = z.looseObject({
  intents: StringList.optional(),
  phrases: StringList.optional(),
  event_types: StringList.optional(),
  /** 0–1, higher wins. */
  priority: z.number().min(0).max(1).optional(),
});

export const SecurityPolicy = z.looseObject({
  /** Milliseconds for the whole run, retries included. */
  timeout_ms: z.number().int().positive().max(MAX_TIMEOUT_MS, `at most ${MAX_TIMEOUT_MS} ms (10 minutes)`).optional(),
  /** Memory limit of the skill's process (the runner enforces it as an address-space limit). */
  memory_mb: z.number().positive().max(MAX_MEMORY_MB, `at most ${MAX_MEMORY_MB} MB`).optional(),
  network: z.enum(['none', 'allowlist']).optional(),
  network_allowlist: StringList.optional(),
  filesystem: z.enum(['none', 'read-only']).optional(),
  requires_filesystem: z.boolean().optional(),
  /**
   * Variables added to the skill process's environment. Names that steer the interpreter or the
   * dynamic linker (`NODE_OPTIONS`, `LD_PRELOAD`, `PYTHONPATH`, `PATH` …) are refused: see
   * {@link reservedEnvironmentVariable}.
   */
  environment: z.record(z.string(), z.string()).optional(),
});
export type SecurityPolicy = z.infer<typeof SecurityPolicy>;

/**
 * Families of variables that decide how an interpreter starts or what the dynamic linker loads,
 * each with the reason a skill may not set them. The runner's fences sit in exactly those places:
 * Node's permission model is a set of command-line flags that `NODE_OPTIONS` can widen
 * (`--allow-child-process`, `--allow-fs-read=*`), the memory limit is applied by a shell that
 * `BASH_ENV` would run code in first, and a preloaded library runs before any of them.
 */
const RESERVED_ENVIRONMENT: readonly { matches: (name: string) => boolean; reason: string }[] = [
  { matches: (name) => name === 'PATH', reason: 'chooses which interpreter and tools run; the runner sets it' },
  {
    // The harmless ones stay usable: NODE_ENV is how many libraries pick production behaviour.
    matches: (name) => name.startsWith('NODE_') && !['NODE_ENV', 'NODE_DEBUG', 'NODE_NO_WARNINGS', 'NODE_DISABLE_COLORS'].includes(name),
    reason: "controls how Node starts and what it loads (NODE_OPTIONS can switch off the runner's permission model)",
  },
  {
    matches: (name) => name.startsWith('LD_') || name.startsWith('DYLD_') || name === 'GCONV_PATH' || name === 'GLIBC_TUNABLES',
    reason: 'controls the dynamic linker: it would load a library of the skill\'s choosing into the interpreter',
  },
  {
    matches: (name) => name.startsWith('PYTHON') && !['PYTHONUNBUFFERED', 'PYTHONUTF8', 'PYTHONHASHSEED'].includes(name),
    reason: 'controls how Python starts and what it imports',
  },
  { matches: (name) => ['BASH_ENV', 'ENV', 'SHELLOPTS', 'BASHOPTS'].includes(name), reason: 'makes the shell run a file or change its options before the script starts' },
  { matches: (name) => ['PERL5OPT', 'PERL5LIB', 'PERLLIB', 'PERL5DB', 'RUBYOPT', 'RUBYLIB', 'JAVA_TOOL_OPTIONS', '_JAVA_OPTIONS', 'JDK_JAVA_OPTIONS'].includes(name), reason: 'controls what an interpreter loads before the script' },
  {
    // Set after the declared ones, so a declared value was silently lost: the run behaved
    // differently from what the author meant, without a word.
    matches: (name) => ['HOME', 'TMPDIR', 'SKILL_DIR', 'HTTP_PROXY', 'HTTPS_PROXY', 'SKILLDEX_SERVICES_FD'].includes(name),
    reason: "is set by the runner for every run (the run's own home and temporary folders, the skill folder, the network proxy, the service channel); a declared value would never be used",
  },
];

/**
 * Why `name` may not be declared in `security.environment`, or undefined when it may. Names are
 * compared upper-cased, because Windows reads `node_options` as `NODE_OPTIONS`; a name that is not
 * a plain identifier is refused too, since `PATH=/x` as a name would set `PATH` once the
 * environment block is flattened into `NAME=value` strings.
 *
 * @example
 * reservedEnvironmentVariable('NODE_OPTIONS'); // "controls how Node starts and what it loads (…)"
 * reservedEnvironmentVariable('GREETING'); // undefined
 */
export function reservedEnvironmentVariable(name: string): string | undefined {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return 'is not a variable name (letters, digits and _, not starting with a digit)';
  const upper = name.toUpperCase();
  return RESERVED_ENVIRONMENT.find((family) => family.matches(upper))?.reason;
}

export const Resources = z.looseObject({
  /** The script that runs the skill, e.g. `./scripts/execute.ts`. */
  entry: z.string().optional(),
  helpers: StringList.optional(),
  references: StringList.optional(),
  assets: StringList.optional(),
});
export type Resources = z.infer<typeof Resources>;

export const AbpParameter = z.looseObject({
  type: z.string().optional(),
  description: z.string().optional(),
  required: z.boolean().optional(),
  default: z.unknown().optional(),
});

export const AbpTool = z.looseObject({
  name: z.string(),
  description: z.string().optional(),
  parameters: z.record(z.string(), AbpParameter).optional(),
  returns: z.looseObject({ type: z.string().optional(), description: z.string().optional() }).optional(),
});

export const Abp = z.looseObject({
  kind: z.string().optional(),
  tools: z.array(AbpTool).optional(),
});

/** A script-protocol action a protocol script understands (Skilldex extension). */
export const ActionSpec = z.union([
  z.string(),
  z.object({ name: z.string(), description: z.string().optional() }),
]);

export const PACKAGE_TYPES = ['direct', 'service', 'distributed', 'static', 'preprocessor', 'internal'] as const;

export const SkillMdFrontmatter = z
  .looseObject({
    // Agent Skills specification
    name: z.string().describe('1–64 characters of a-z, 0-9 and -, equal to the folder name.'),
    description: z.string().describe('What the skill does and when to use it; 1–1024 characters.'),
    license: z.string().optional(),
    compatibility: z.string().optional().describe('Environment requirements; at most 500 characters.'),
    metadata: z.record(z.string(), z.unknown()).optional().describe('String-to-string map; nested values are accepted with a warning.'),
    'allowed-tools': z.union([z.string(), StringList]).optional().describe('Space-separated string or a YAML list.'),

    // Extended package
    displayName: z.string().optional(),
    version: z.string().optional().describe('Semantic version.'),
    type: z.enum(PACKAGE_TYPES).optional(),
    capabilities: StringList.optional(),
    tags: StringList.optional(),
    triggers: Triggers.optional(),
    domain: z.string().optional(),
    category: z.string().optional(),
    keywords: StringList.optional(),
    input_schema: JsonSchemaObject.optional(),
    output_schema: JsonSchemaObject.optional(),
    protocol: z.enum(['vcp', 'abp']).optional(),
    abp: Abp.optional(),
    security: SecurityPolicy.optional(),
    resources: Resources.optional(),
    cacheable: z.boolean().optional(),
    ttl: z.number().nonnegative().optional(),
    /** Legacy package field; migrate into `security`. */
    permissions: z.record(z.string(), z.unknown()).optional(),
    author: z.string().optional(),

    // Skilldex extension: actions of a protocol script
    actions: z.array(ActionSpec).optional(),

    // Claude Code extras
    when_to_use: z.string().optional(),
    'argument-hint': z.string().optional(),
    arguments: z.unknown().optional(),
    'disable-model-invocation': z.boolean().optional(),
    'user-invocable': z.boolean().optional(),
    'disallowed-tools': z.union([z.string(), StringList]).optional(),
    model: z.string().optional(),
    effort: z.enum(['low', 'medium', 'high', 'xhigh', 'max']).optional(),
    context: z.literal('fork').optional(),
    agent: z.string().optional(),
    hooks: z.unknown().optional(),
    paths: z.union([z.string(), StringList]).optional(),
    shell: z.string().optional(),
  })
  .meta({ id: 'SkillMdFrontmatter', title: 'SKILL.md frontmatter' });
export type SkillMdFrontmatter = z.infer<typeof SkillMdFrontmatter>;

/**
 * The extended package's descriptive fields: catalog data any SKILL.md may carry. Adding
 * `version:` to a plain skill must not turn its one helper script into an entry point.
 */
const DESCRIPTIVE_PACKAGE_FIELDS = ['displayName', 'version', 'capabilities', 'triggers', 'domain', 'keywords'] as const;

/**
 * Fields that make a SKILL.md an extended package rather than a plain skill: the ones that
 * change how it runs or is checked (its entry, signature, sandbox, protocol).
 */
export const PACKAGE_FIELDS = [
  'type', 'input_schema', 'output_schema', 'protocol', 'abp', 'security', 'resources', 'cacheable', 'ttl', 'permissions', 'actions',
] as const;

/** Every field of the extended package (documented together in its field table). */
export const EXTENDED_FIELDS = [...DESCRIPTIVE_PACKAGE_FIELDS, ...PACKAGE_FIELDS] as const;

/** Every field Skilldex recognises; anything else is reported by `frontmatter/unknown-field`. */
export const KNOWN_FRONTMATTER_FIELDS: ReadonlySet<string> = new Set(Object.keys(SkillMdFrontmatter.shape));
