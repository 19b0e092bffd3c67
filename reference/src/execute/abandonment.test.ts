import { Abandon } from './abandonment';

test('abandoning calls each listener once with the reason kept; a listener that stopped is not called', () => {
  const gone = new Abandon();
  const heard: string[] = [];
  gone.onAbandon(() => heard.push(`first ${String(gone.reason)}`));
  const stop = gone.onAbandon(() => heard.push('stopped'));
  gone.onAbandon(() => heard.push(`third ${gone.abandoned}`));
  expect(gone.abandoned).toBe(false);
  expect(gone.reason).toBeUndefined();
  expect(gone.listening).toBe(3);
  stop();
  stop();
  expect(gone.listening).toBe(2);
  gone.abandon('went away');
  gone.abandon('again');
  expect(heard).toEqual(['first went away', 'third true']);
  expect(gone.reason).toBe('went away');
  expect(gone.listening).toBe(0);
});

test('a listener added once abandoned is not called and holds nothing', () => {
  const gone = new Abandon();
  gone.abandon(new Error('gone'));
  let called = 0;
  const stop = gone.onAbandon(() => called++);
  expect(gone.listening).toBe(0);
  stop();
  expect(called).toBe(0);
});
