import { join, posix } from 'node:path';
import type { Position } from '../../core/parse/source-text.ts';
import type { RegistryConfig } from '../../core/schemas/config.ts';
import type { ValidatorDiagnostic } from '../../core/schemas/diagnostic.ts';
import type { ScanResult } from '../../core/schemas/scan.ts';
import type { ScanOptions } from '../../scanner/scan.ts';
import { positionsOf, type SourceStamps } from '../cache.ts';
import { listingFrom, readSkillSource, type Listing, type PlainListing } from '../discover.ts';
import { DiagnosticSink } from '../diagnostics.ts';
import type { PackedSkill } from '../emit/archive.ts';
import type { DraftManifest, SkillSource, SkillSourceFile } from '../model.ts';
import { markdownReferences, type OutwardLink, type TextReferences } from '../references.ts';
import { checkFailed, heldBack, readFailure } from '../rules/internal.ts';
import { parseSkill } from './parse.ts';

/** Everything the per-skill phase needs to know about one found skill folder: plain data, so it can go to a worker thread. */
export interface PrepareRequest {
  root: string;
  dir: string;
  declaration: SkillSource['declaration'];
  config: RegistryConfig;
  /** Record the stat stamps of every folder and file read, for the build cache. */
  stamps: boolean;
  /** What discovery already listed of the folder, so it is not listed again. */
  listing?: PlainListing;
  /** Scan the skill once it parses, with these options: the early scan, without the other skills' names. */
  scan?: ScanOptions;
  /** Pack the skill's archives (the build writes them) once it parsed without an error of its own. */
  pack: boolean;
  /** Hand back the files' bytes (the build writes them; validation does not need them once checked). */
  keepBytes: boolean;
  /**
   * The caller only reports what the checks found (`skilldex validate`): the draft comes back
   * without its instructions (the SKILL.md body: most of what a worker would post back, 16 KB a
   * skill over a corpus of real collections, copied twice on the way), and the tool ids and links
   * that only a build's "Used by" needs are not collected (a fifth of a `--no-scan` validate).
   */
  reportOnly: boolean;
}

/** A file as the per-skill phase hands it back: its bytes only when asked to keep them. */
export type PreparedFile = Omit<SkillSourceFile, 'bytes'> & { bytes?: Uint8Array };

/** What the per-skill phase found: what the build cache keeps of a skill, its early scan and its archives. */
export interface PreparedSkill {
  source: Omit<SkillSource, 'files'> & { files: PreparedFile[] };
  /** Every diagnostic of the skill's own rules (severities resolved by the registry's config). */
  diagnostics: ValidatorDiagnostic[];
  draft?: DraftManifest;
  /** Where registry-wide rules may report in the declaration ({@link positionsOf}). */
  positions?: Record<string, Position>;
  /** For the build cache; absent when the skill could not be checked (so it is checked again next time). */
  stamps?: SourceStamps;
  scan?: ScanResult;
  packed?: PackedSkill;
  /** The tool ids and links its Markdown holds, for "Used by" (../references.ts). */
  references?: TextReferences;
  /** Its Markdown's links into other skills' folders, for the registry-wide link rule (../references.ts). */
  outwardLinks?: OutwardLink[];
}

// Loaded at the first skill that needs them: `validate --no-scan` never loads the scanner, and
// nothing but a build loads the archiver.
let scanner: Promise<typeof import('../../scanner/scan.ts')> | undefined;
let archiver: Promise<typeof import('../emit/archive.ts')> | undefined;

/**
 * The per-skill phase: reads one skill folder, runs every per-skill rule and normalises its draft
 * manifest (parse.ts), and, when asked, scans it and packs its archives. It needs nothing but
 * the folder, so a large build runs it on worker threads (./worker.ts) and a small one inline:
 * the same function either way, so results never depend on where it ran.
 *
 * It never throws: a skill whose checks fail (a file that vanished while it was read, a check
 * that throws on what it should have reported) comes back with an `internal/check-failed` error
 * and no draft, so it is held back and every other skill is checked as usual.
 *
 * @example
 * const skill = await prepareSkill({ root, dir: 'skills/pdf', declaration: 'SKILL.md', config, stamps: false, pack: false, keepBytes: true, reportOnly: false });
 */
export async function prepareSkill(request: PrepareRequest, listing: Listing | undefined = request.listing && listingFrom(request.listing)): Promise<PreparedSkill> {
  const { root, dir, declaration, config } = request;
  const sink = new DiagnosticSink(config.rules);
  const stamps: SourceStamps | undefined = request.stamps ? { dirs: [], files: [] } : undefined;
  let source: SkillSource | undefined;
  try {
    source = readSkillSource(root, dir, declaration, config.limits, sink, stamps, listing);
    const { diagnostics, draft, locate } = parseSkill(source, config, sink);
    const prepared: PreparedSkill = { source: request.keepBytes ? source : withoutBytes(source), diagnostics, ...(stamps ? { stamps } : {}) };
    if (!draft) {
      // A skill is never held back without an error saying so, whatever the config silenced.
      if (!diagnostics.some((d) => d.severity === 'error')) prepared.diagnostics = [...diagnostics, ...heldBack(source, sink.weakened)];
      return prepared;
    }
    prepared.draft = request.reportOnly ? withoutInstructions(draft) : draft;
    prepared.positions = positionsOf(draft, locate);
    const { references, outwardLinks } = markdownReferences(source, draft.name, config.skillsDir);
    if (!request.reportOnly) prepared.references = references;
    if (outwardLinks.length > 0) prepared.outwardLinks = outwardLinks;
    if (request.scan) {
      const { scanSkill } = await (scanner ??= import('../../scanner/scan.ts'));
      prepared.scan = scanSkill({ name: draft.name, files: source.files }, request.scan);
    }
    if (request.pack && !diagnostics.some((d) => d.severity === 'error')) {
      const { packSkill } = await (archiver ??= import('../emit/archive.ts'));
      prepared.packed = await packSkill(draft, source.files, config.siteUrl);
    }
    return prepared;
  } catch (error) {
    const read = source ?? { dir, absDir: join(root, dir), folderName: posix.basename(dir), declaration, files: [] };
    const { reason, place } = readFailure(error, root);
    return { source: withoutBytes(read), diagnostics: [...sink.diagnostics, ...checkFailed(config, read, reason, place)] };
  }
}

const withoutInstructions = ({ instructions: _, ...draft }: DraftManifest): DraftManifest => draft;

const withoutBytes = (source: SkillSource): PreparedSkill['source'] => ({ ...source, files: source.files.map(({ path, size, hex }) => ({ path, size, hex })) });
