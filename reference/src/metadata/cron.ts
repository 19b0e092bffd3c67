// Five-field cron schedules (minute hour day-of-month month day-of-week), evaluated in UTC:
// `*`, numbers, ranges `a-b`, lists `a,b`, steps `*/n` and `a-b/n`, month and day names; day 7 is
// Sunday like 0. When both day fields are restricted, a day matching either one counts, as in cron.
// The grammar is read here: it is the engine's five-field one, with the reason for each refusal
// (croner takes more: seconds, years, L, W, #, and names a wrong value by its offset); croner finds
// the times, from the sets read here.
import { Cron } from 'croner';

export interface CronSchedule {
  minutes: Set<number>;
  hours: Set<number>;
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export class CronError extends Error {}

function field(text: string, min: number, max: number, names: string[] = [], nameBase = 0): Set<number> {
  const value = (s: string) => {
    const named = names.indexOf(s.toLowerCase());
    if (named >= 0) return named + nameBase;
    if (!/^\d+$/.test(s)) throw new CronError(`${JSON.stringify(s)} is not a number`);
    const n = Number(s);
    if (n < min || n > max) throw new CronError(`${n} is outside ${min}-${max}`);
    return n;
  };
  const out = new Set<number>();
  for (const part of text.split(',')) {
    const [range, stepText] = part.split('/') as [string, string | undefined];
    if (part.split('/').length > 2) throw new CronError(`${JSON.stringify(part)} has more than one /`);
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1 || (stepText !== undefined && !/^\d+$/.test(stepText)))
      throw new CronError(`${JSON.stringify(stepText)} is not a step`);
    let [from, to] = [min, max];
    if (range !== '*') {
      const bounds = range.split('-');
      if (bounds.length > 2 || bounds.some((b) => b === '')) throw new CronError(`${JSON.stringify(range)} is not a value or range`);
      from = value(bounds[0]!);
      to = bounds.length === 2 ? value(bounds[1]!) : stepText === undefined ? from : max;
      if (to < from) throw new CronError(`${JSON.stringify(range)} runs backwards`);
    }
    for (let n = from; n <= to; n += step) out.add(n);
  }
  return out;
}

export function parseCron(schedule: string): CronSchedule {
  const parts = schedule.trim().split(/\s+/);
  if (parts.length !== 5) throw new CronError(`five fields are expected, not ${parts[0] === '' ? 0 : parts.length}`);
  const [m, h, dom, mon, dow] = parts as [string, string, string, string, string];
  return {
    minutes: field(m, 0, 59),
    hours: field(h, 0, 23),
    days: field(dom, 1, 31),
    months: field(mon, 1, 12, MONTHS, 1),
    // 7 stays 7: croner reads it as Sunday, like 0.
    weekdays: field(dow, 0, 7, WEEKDAYS),
    daysRestricted: dom !== '*',
    weekdaysRestricted: dow !== '*',
  };
}

/**
 * The schedule as a croner pattern: each field the list of its values, except a day field given as
 * `*`, which stays `*` so that a day matching the other day field alone counts (the either-day rule).
 */
function pattern(s: CronSchedule): string {
  const list = (values: Set<number>) => [...values].join(',');
  return [list(s.minutes), list(s.hours), s.daysRestricted ? list(s.days) : '*', list(s.months), s.weekdaysRestricted ? list(s.weekdays) : '*'].join(' ');
}

/** The times (whole minutes, UTC) after `from` and not after `until` that the schedule names, at most `limit`. */
export function occurrences(s: CronSchedule, from: Date, until: Date, limit = 100): Date[] {
  const cron = new Cron(pattern(s), { utcOffset: 0, mode: '5-part', domAndDow: false });
  const out: Date[] = [];
  for (let next = cron.nextRun(from); next && next <= until && out.length < limit; next = cron.nextRun(next)) out.push(next);
  return out;
}
