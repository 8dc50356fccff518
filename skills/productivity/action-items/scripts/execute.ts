/**
 * action-items entry: extracts action items (what, who, by when) from meeting notes and
 * suggests memory writes for the open ones. No I/O, no clock: relative dates need `meetingDate`.
 */
import { extractActionItems } from './helpers/extract.ts';
import type { ActionItem } from './helpers/extract.ts';

interface StepTrace {
  stepId: string;
  stepName: string;
  input: unknown;
  output: unknown;
  duration: number;
}

interface MemoryWriteSuggestion {
  ownerType: 'user' | 'household' | 'task' | 'group';
  ownerId: string;
  type: 'preference' | 'fact' | 'event' | 'summary';
  importance: number;
  content: string;
  metadata?: Record<string, unknown>;
}

interface SkillExecutionOutcome {
  output: unknown;
  format?: 'object' | 'text' | 'markdown' | 'json';
  status?: 'success' | 'error' | 'partial';
  message?: string;
  warnings?: string[];
  memoryWrites?: MemoryWriteSuggestion[];
  intermediateSteps?: StepTrace[];
  error?: { code: string; message: string; details?: unknown };
}

const MAX_MEMORY_WRITES = 20;

function ms(start: number): number {
  return Math.round((performance.now() - start) * 1000) / 1000;
}

function describe(item: ActionItem): string {
  const who = item.owner ?? 'unassigned';
  const when = item.dueDate ?? item.due;
  return `${who}: ${item.text}${when ? ` (due ${when})` : ''}`;
}

export async function execute(
  parameters: Record<string, unknown>,
  context?: Record<string, unknown>,
  config?: Record<string, unknown>,
): Promise<SkillExecutionOutcome> {
  const steps: StepTrace[] = [];
  const notes = parameters.notes;
  if (typeof notes !== 'string') {
    return { output: null, format: 'object', status: 'error', message: 'Parameter "notes" is required', error: { code: 'MISSING_PARAM', message: 'Parameter "notes" is required', details: { param: 'notes' } } };
  }
  const meetingDate = typeof parameters.meetingDate === 'string' ? parameters.meetingDate : null;
  if (meetingDate !== null && (!/^\d{4}-\d{2}-\d{2}$/.test(meetingDate) || Number.isNaN(Date.parse(`${meetingDate}T00:00:00Z`)))) {
    return { output: null, format: 'object', status: 'error', message: 'meetingDate must be YYYY-MM-DD', error: { code: 'INVALID_PARAM', message: 'meetingDate must be YYYY-MM-DD', details: { param: 'meetingDate' } } };
  }
  const title = typeof parameters.meetingTitle === 'string' && parameters.meetingTitle.trim() !== '' ? parameters.meetingTitle.trim() : 'meeting';
  const defaultOwner = typeof parameters.defaultOwner === 'string' && parameters.defaultOwner.trim() !== '' ? parameters.defaultOwner.trim() : null;
  const remember = parameters.remember !== false && config?.memoryWrites !== false;

  let t = performance.now();
  const found = extractActionItems(notes, meetingDate);
  steps.push({ stepId: 'extract', stepName: 'Find action items', input: { lines: notes.split('\n').length, meetingDate }, output: { found: found.length }, duration: ms(t) });

  t = performance.now();
  const items = found.map((i) => (i.owner === null && defaultOwner !== null ? { ...i, owner: defaultOwner } : i));
  const open = items.filter((i) => !i.done);
  const warnings: string[] = [];
  const unassigned = open.filter((i) => i.owner === null);
  if (unassigned.length) warnings.push(`${unassigned.length} open item(s) have no owner: ${unassigned.map((i) => `line ${i.line}`).join(', ')}`);
  const unresolved = open.filter((i) => i.due !== null && i.dueDate === null);
  if (unresolved.length) {
    warnings.push(`${unresolved.length} due date(s) could not be turned into a date${meetingDate === null ? ' (pass meetingDate to resolve phrases like "by Friday")' : ''}: ${unresolved.map((i) => `"${i.due}"`).join(', ')}`);
  }
  const owners = [...new Set(open.map((i) => i.owner).filter((o): o is string => o !== null))].sort();
  const byOwner: Record<string, string[]> = {};
  for (const i of open) (byOwner[i.owner ?? 'unassigned'] ??= []).push(i.id);
  const counts = { total: items.length, open: open.length, done: items.length - open.length, unassigned: unassigned.length, highPriority: open.filter((i) => i.priority === 'high').length };
  steps.push({ stepId: 'organise', stepName: 'Assign owners and check dates', input: { items: items.length, defaultOwner }, output: { counts, owners }, duration: ms(t) });

  t = performance.now();
  const memoryWrites: MemoryWriteSuggestion[] = [];
  if (remember && open.length > 0) {
    const ownerId = typeof context?.userId === 'string' ? context.userId : 'anonymous';
    for (const item of open.slice(0, MAX_MEMORY_WRITES)) {
      memoryWrites.push({
        ownerType: 'user',
        ownerId,
        type: 'event',
        importance: item.priority === 'high' ? 4 : item.dueDate ? 3 : 2,
        content: `Open action item from ${title}: ${describe(item)}`,
        metadata: { source: 'action-items', itemId: item.id, owner: item.owner, due: item.dueDate ?? item.due, line: item.line, meetingTitle: title, meetingDate },
      });
    }
    memoryWrites.push({
      ownerType: 'user',
      ownerId,
      type: 'summary',
      importance: 2,
      content: `${title}${meetingDate ? ` (${meetingDate})` : ''}: ${open.length} open action item(s)${owners.length ? ` for ${owners.join(', ')}` : ''}`,
      metadata: { source: 'action-items', meetingTitle: title, meetingDate, counts },
    });
  }
  steps.push({ stepId: 'memory', stepName: 'Suggest memory writes', input: { remember, open: open.length }, output: { suggestions: memoryWrites.length }, duration: ms(t) });

  const checklist = items.map((i) => `- [${i.done ? 'x' : ' '}] ${describe(i)}${i.priority === 'high' ? ' ⚠' : ''}`).join('\n');
  return {
    output: { meetingTitle: title, meetingDate, items, counts, byOwner, checklist },
    format: 'object',
    status: 'success',
    message: `${counts.open} open and ${counts.done} done action item(s)`,
    warnings,
    memoryWrites,
    intermediateSteps: steps,
  };
}
