/**
 * A site build failure the user can act on: a stable code and a message that says what failed
 * and what to do. scripts/build.ts prints `error <code>: <message>` and decides the exit code.
 */
export class SiteBuildError extends Error {
  override name = 'SiteBuildError';
  code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
