import { CronError, occurrences, parseCron } from './cron';

const at = (iso: string) => new Date(iso);
const times = (schedule: string, from: string, until: string, limit?: number) =>
  occurrences(parseCron(schedule), at(from), at(until), limit).map((d) => d.toISOString());

describe('cron schedules in UTC', () => {
  test('every minute, steps, ranges and lists', () => {
    expect(times('* * * * *', '2026-11-22T10:00:30Z', '2026-11-22T10:03:00Z')).toEqual([
      '2026-11-22T10:01:00.000Z',
      '2026-11-22T10:02:00.000Z',
      '2026-11-22T10:03:00.000Z',
    ]);
    expect(times('*/20 10-11 * * *', '2026-11-22T09:59:00Z', '2026-11-22T12:00:00Z')).toEqual([
      '2026-11-22T10:00:00.000Z',
      '2026-11-22T10:20:00.000Z',
      '2026-11-22T10:40:00.000Z',
      '2026-11-22T11:00:00.000Z',
      '2026-11-22T11:20:00.000Z',
      '2026-11-22T11:40:00.000Z',
    ]);
    expect(times('5,35 0 * * *', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z')).toEqual(['2026-11-22T00:05:00.000Z', '2026-11-22T00:35:00.000Z']);
    expect(times('0 12 1-31/10 * *', '2026-11-01T00:00:00Z', '2026-11-30T23:59:00Z')).toEqual([
      '2026-11-01T12:00:00.000Z',
      '2026-11-11T12:00:00.000Z',
      '2026-11-21T12:00:00.000Z',
    ]);
  });

  test('names, Sunday as 0 or 7, and either day field when both are given', () => {
    // 2026-11-22 is a Sunday.
    expect(times('0 9 * * sun', '2026-11-20T00:00:00Z', '2026-11-30T00:00:00Z')).toEqual(['2026-11-22T09:00:00.000Z', '2026-11-29T09:00:00.000Z']);
    expect(times('0 9 * * 7', '2026-11-20T00:00:00Z', '2026-11-23T00:00:00Z')).toEqual(['2026-11-22T09:00:00.000Z']);
    expect(times('0 0 1 dec *', '2026-11-20T00:00:00Z', '2027-01-01T00:00:00Z')).toEqual(['2026-12-01T00:00:00.000Z']);
    expect(times('0 0 25 * mon', '2026-11-20T00:00:00Z', '2026-11-30T23:00:00Z')).toEqual([
      '2026-11-23T00:00:00.000Z',
      '2026-11-25T00:00:00.000Z',
      '2026-11-30T00:00:00.000Z',
    ]);
    expect(times('* * * * *', '2026-11-22T00:00:00Z', '2026-11-23T00:00:00Z', 2)).toHaveLength(2);
    expect(times('0 0 30 2 *', '2026-11-20T00:00:00Z', '2028-01-01T00:00:00Z')).toEqual([]);
    // Both day fields written out in full are still both restricted: either one counts.
    expect(times('0 0 1-31 * mon', '2026-11-29T12:00:00Z', '2026-12-01T12:00:00Z')).toEqual(['2026-11-30T00:00:00.000Z', '2026-12-01T00:00:00.000Z']);
    expect(times('0 0 1 * 1-5', '2026-11-27T12:00:00Z', '2026-12-02T12:00:00Z')).toEqual([
      '2026-11-30T00:00:00.000Z',
      '2026-12-01T00:00:00.000Z',
      '2026-12-02T00:00:00.000Z',
    ]);
  });

  test('a single value with a step runs from it to the end of the field; Sunday is 0 and 7', () => {
    expect(times('5/15 10 * * *', '2026-11-22T09:00:00Z', '2026-11-22T11:00:00Z')).toEqual([
      '2026-11-22T10:05:00.000Z',
      '2026-11-22T10:20:00.000Z',
      '2026-11-22T10:35:00.000Z',
      '2026-11-22T10:50:00.000Z',
    ]);
    expect(times('0 9 * * 5-7', '2026-11-19T00:00:00Z', '2026-11-24T00:00:00Z')).toEqual([
      '2026-11-20T09:00:00.000Z',
      '2026-11-21T09:00:00.000Z',
      '2026-11-22T09:00:00.000Z',
    ]);
  });

  test('only times after the start and not after the end, however far the next one is', () => {
    expect(times('0 10 * * *', '2026-11-22T10:00:00Z', '2026-11-24T10:00:00Z')).toEqual(['2026-11-23T10:00:00.000Z', '2026-11-24T10:00:00.000Z']);
    expect(times('0 10 * * *', '2026-11-22T10:00:00Z', '2026-11-24T09:59:59Z')).toEqual(['2026-11-23T10:00:00.000Z']);
    expect(times('59 23 31 12 *', '2026-11-22T00:00:00Z', '2030-01-01T00:00:00Z')).toEqual([
      '2026-12-31T23:59:00.000Z',
      '2027-12-31T23:59:00.000Z',
      '2028-12-31T23:59:00.000Z',
      '2029-12-31T23:59:00.000Z',
    ]);
    expect(times('0 0 29 feb *', '2026-11-22T00:00:00Z', '2032-12-31T00:00:00Z')).toEqual(['2028-02-29T00:00:00.000Z', '2032-02-29T00:00:00.000Z']);
  });

  test('what is not a schedule is refused with the reason', () => {
    const reason = (s: string) => {
      try {
        parseCron(s);
        return 'accepted';
      } catch (e) {
        return e instanceof CronError ? e.message : 'other';
      }
    };
    expect(reason('* * * *')).toBe('five fields are expected, not 4');
    expect(reason('')).toBe('five fields are expected, not 0');
    expect(reason('60 * * * *')).toBe('60 is outside 0-59');
    expect(reason('* * 0 * *')).toBe('0 is outside 1-31');
    expect(reason('*/0 * * * *')).toBe('"0" is not a step');
    expect(reason('5-1 * * * *')).toBe('"5-1" runs backwards');
    expect(reason('a * * * *')).toBe('"a" is not a number');
    expect(reason('1-2-3 * * * *')).toBe('"1-2-3" is not a value or range');
    expect(reason('1a * * * *')).toBe('"1a" is not a number');
    expect(reason('a1 * * * *')).toBe('"a1" is not a number');
    expect(reason('-5 * * * *')).toBe('"-5" is not a value or range');
    expect(reason('5- * * * *')).toBe('"5-" is not a value or range');
    expect(reason('1/2/3 * * * *')).toBe('"1/2/3" has more than one /');
    for (const step of ['+1', '1.0', '1x', ' ']) expect(reason(`*/${step} * * * *`.replace('/ ', '/'))).toMatch(/is not a step$/);
    expect(reason('* * * * * *')).toBe('five fields are expected, not 6');
    for (const spaced of ['  0 0 * * *  ', '0  0\t* * *']) expect(reason(spaced)).toBe('accepted');
    expect(reason('* * * * mon-fri')).toBe('accepted');
  });
});
