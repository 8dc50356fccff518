import { z } from 'zod';
import { FileStamp } from '../../core/schemas/file-stamp.ts';

/**
 * What writing one skill put in the output folder, and what the registry's indexes take from it,
 * so that a later build given the same key can leave the skill as it is. The key covers everything
 * the skill's files are made from: its manifest's facts, the config and the build code.
 */
export const SkillOutput = z.object({
  key: z.string(),
  name: z.string(),
  files: z.array(FileStamp),
  manifestDigest: z.string(),
  /** How the discovery indexes list it, unless it is not discoverable. */
  discovery: z.object({ type: z.enum(['archive', 'skill-md']), url: z.string(), digest: z.string(), files: z.array(z.string()) }).optional(),
});
export type SkillOutput = z.infer<typeof SkillOutput>;

/** The file beside the build cache that holds every skill's output in one folder. */
export const SkillOutputsFile = z.object({ format: z.number(), salt: z.string(), outDir: z.string(), skills: z.array(z.unknown()) });
