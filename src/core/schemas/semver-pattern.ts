/**
 * A semantic version as the build publishes one: MAJOR.MINOR.PATCH with optional pre-release and
 * build metadata (semver.org's grammar), optionally after a `v`. The build leaves out versions
 * that do not match, so a client can resolve ranges over every entry.
 */
export const SEMVER_PATTERN = /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
