/**
 * Every figures module the benchmark runs, in report order. A new group of figures is one file
 * under scripts/bench/ exporting a {@link BenchModule}, and one line here.
 */
import type { BenchModule } from './harness.ts';
import { corpus } from './corpus.ts';
import { siteAudit } from './site-audit.ts';
import { startup } from './startup.ts';

export const MODULES: readonly BenchModule[] = [startup, corpus, siteAudit];
