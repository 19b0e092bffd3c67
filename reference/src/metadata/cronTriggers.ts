// Cron triggers (SPEC.md §2.5; operations in the engine's forms) as pure functions over the
// document. Triggers with include_in_metadata false live in the document too, but the export
// leaves them out and replacing or clearing the metadata keeps them.
import { normaliseCronTrigger, type CronTrigger, type MetadataDocument } from '../../../spec';
import { engineError } from '../errors';
import { CronError, parseCron } from './cron';

export const cronTriggersOf = (document: MetadataDocument): readonly CronTrigger[] => document.cron_triggers ?? [];

function withCronTriggers(document: MetadataDocument, triggers: CronTrigger[]): MetadataDocument {
  const { cron_triggers: _old, ...rest } = document;
  return triggers.length ? { ...rest, cron_triggers: triggers } : rest;
}

export function checkSchedule(schedule: string, path = '$.args.schedule'): void {
  try {
    parseCron(schedule);
  } catch (error) {
    if (error instanceof CronError) throw engineError('parse-failed.cron-schedule', path, [JSON.stringify(schedule), error.message]);
    throw error;
  }
}

export interface CreateCronTriggerArgs extends Omit<CronTrigger, 'retry_conf' | 'include_in_metadata' | 'comment'> {
  retry_conf?: CronTrigger['retry_conf'];
  include_in_metadata?: boolean;
  comment?: string | null;
  replace?: boolean;
}

export function createCronTrigger(document: MetadataDocument, args: CreateCronTriggerArgs): MetadataDocument {
  checkSchedule(args.schedule);
  const exists = cronTriggersOf(document).some((t) => t.name === args.name);
  if (exists && !args.replace) throw engineError('already-exists.cron-trigger', '$.args', [JSON.stringify(args.name)]);
  const { replace: _replace, ...fields } = args;
  const trigger = normaliseCronTrigger(fields);
  const others = cronTriggersOf(document).filter((t) => t.name !== args.name);
  return withCronTriggers(document, [...others, trigger]);
}

export function deleteCronTrigger(document: MetadataDocument, name: string): MetadataDocument {
  if (!cronTriggersOf(document).some((t) => t.name === name)) throw engineError('not-exists.cron-trigger', '$.args', [JSON.stringify(name)]);
  return withCronTriggers(
    document,
    cronTriggersOf(document).filter((t) => t.name !== name),
  );
}

/** What the export shows: the triggers included in the metadata. */
export const exportedCronTriggers = (document: MetadataDocument) => cronTriggersOf(document).filter((t) => t.include_in_metadata);

/** `next` with the hidden triggers of `current` that it does not name (replace_metadata, clear_metadata). */
export function keepHiddenCronTriggers(current: MetadataDocument, next: MetadataDocument): MetadataDocument {
  const named = new Set(cronTriggersOf(next).map((t) => t.name));
  const hidden = cronTriggersOf(current).filter((t) => !t.include_in_metadata && !named.has(t.name));
  return hidden.length ? withCronTriggers(next, [...cronTriggersOf(next), ...hidden]) : next;
}
