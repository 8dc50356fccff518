/**
 * Upper bounds on what a skill may ask of the runner. They live in the schemas, so the build
 * reports an out-of-range value at its file and line, and the runner clamps to the same numbers,
 * so a registry built before the bounds existed cannot ask for more either.
 *
 * Why these numbers: a run is something an agent waits for. Ten minutes is twice the protocol's
 * five-minute default; five retries already turn one request into six. Without a bound a
 * skill.json declared `retry: 1000000`, and one llm run sent about 3,150 chat requests in 15 s.
 */

/** The script protocol's default timeout, in milliseconds (5 minutes), for a skill that declares none. */
export const DEFAULT_TIMEOUT_MS = 300_000;
/** The longest timeout a skill may declare, in milliseconds (10 minutes). */
export const MAX_TIMEOUT_MS = 600_000;
/** The most retries a skill may declare. */
export const MAX_RETRY = 5;
/** The largest memory limit a skill may declare, in MB (64 GB: beyond that the limit means nothing). */
export const MAX_MEMORY_MB = 65_536;

/**
 * The memory limit, in MB, of a run whose skill declares no `memory_mb`: enforced the same way (an
 * address-space limit; docs/security.md). Without one a skill that declared nothing could take
 * every byte of the machine's memory, and a skill run by an MCP client is chosen by a model. High
 * enough for what a script of the kind skills are usually needs, low enough that a runaway
 * allocation fails in the skill rather than in the machine.
 */
export const DEFAULT_MEMORY_MB = 2048;
/**
 * The most processes and threads a run may have at once (RLIMIT_NPROC inside the run's own user
 * namespace, the sandbox's init included), whatever the skill declares: a fork bomb in one run
 * stops there. Threads count too, so it is well above what an interpreter starts (Node about a
 * dozen). The kernel does not apply this limit to root: a runner started as root has none. Nor
 * does the runner set it on a kernel older than 5.14, which counted every process of the user
 * on the machine against it.
 */
export const DEFAULT_MAX_PROCESSES = 256;
