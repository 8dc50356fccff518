import { SkilldexError } from '../../core/errors/skilldex-error.ts';

/**
 * Git could not hand over objects of the registry's history: most often a partial (blobless)
 * clone, whose missing blobs the build does not let git fetch (an older git tries anyway, and
 * fails when the remote is out of reach).
 */
export class HistoryUnreadableError extends SkilldexError<'HISTORY_UNREADABLE'> {
  override name = 'HistoryUnreadableError';
  /** What git said, in its own words. */
  readonly reason: string;

  constructor(reason: string, cause?: unknown) {
    super('HISTORY_UNREADABLE', `git cannot read the registry's history (${reason})`, {
      hint: "build from a complete clone of the registry: a partial clone reads earlier versions from its remote, so fetch them first (`git fetch --refetch`) or clone without --filter; see docs/hosting.md",
      cause,
    });
    this.reason = reason;
  }
}
