// Five-field cron schedules (minute hour day-of-month month day-of-week), evaluated in UTC:
// `*`, numbers, ranges `a-b`, lists `a,b`, steps `*/n` and `a-b/n`, month and day names; day 7 is
// Sunday like 0. When both day fields are restricted, a day matching either one counts, as in cron.
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
  if (parts.length !== 5 || parts[0] === '') throw new CronError(`five fields are expected, not ${parts[0] === '' ? 0 : parts.length}`);
  const [m, h, dom, mon, dow] = parts as [string, string, string, string, string];
  const weekdays = field(dow, 0, 7, WEEKDAYS);
  if (weekdays.has(7)) {
    weekdays.delete(7);
    weekdays.add(0);
  }
  return {
    minutes: field(m, 0, 59),
    hours: field(h, 0, 23),
    days: field(dom, 1, 31),
    months: field(mon, 1, 12, MONTHS, 1),
    weekdays,
    daysRestricted: dom !== '*',
    weekdaysRestricted: dow !== '*',
  };
}

function matches(s: CronSchedule, d: Date): boolean {
  if (!s.minutes.has(d.getUTCMinutes()) || !s.hours.has(d.getUTCHours()) || !s.months.has(d.getUTCMonth() + 1)) return false;
  const day = s.days.has(d.getUTCDate());
  const weekday = s.weekdays.has(d.getUTCDay());
  if (s.daysRestricted && s.weekdaysRestricted) return day || weekday;
  return day && weekday;
}

/** The times (whole minutes, UTC) after `from` and not after `until` that the schedule names, at most `limit`. */
export function occurrences(s: CronSchedule, from: Date, until: Date, limit = 100): Date[] {
  const out: Date[] = [];
  const t = new Date(Math.floor(from.getTime() / 60_000) * 60_000 + 60_000);
  // A year of minutes at most: a schedule like "0 0 30 2 *" never comes.
  for (let i = 0; i < 527_040 && t <= until && out.length < limit; i++, t.setTime(t.getTime() + 60_000)) {
    if (matches(s, t)) out.push(new Date(t));
  }
  return out;
}
