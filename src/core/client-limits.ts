/**
 * The most a registry client reads of one skill, whatever its manifest declares. They sit in the
 * core because a registry's own limits stop at them too (`limits.maxSkillBytes` and
 * `limits.maxFiles` in skilldex.config.json): a registry allowed past them would publish skills
 * that no client installs.
 */

/**
 * Bytes of one skill's files together: a registry's own limit is 20 MiB by default. Every read of
 * a skill's file stops at the size the manifest declares, so a hostile manifest that declared
 * petabytes would otherwise have a server stream into all the memory there is (an endless
 * SKILL.md behind `load`), or a small gzip bomb inflate into it.
 */
export const MAX_SKILL_BYTES = 256 * 1024 * 1024;

/**
 * Files of one skill: a hundred times a registry's own default (`limits.maxFiles`, 100). Each
 * listed file is a request, a digest and a path written on install, and the manifest limit alone
 * (64 MiB) lets a forged one list some 530,000 files at 125 bytes each, which took 3 s and 900 MB
 * to check before a single download (10,000 files: 60 ms).
 */
export const MAX_SKILL_FILES = 10_000;
