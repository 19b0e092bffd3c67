import { timeScale } from './wait';

test('deadlines are stretched by ENGINE_TEST_TIME_SCALE when given, otherwise by the load per core above one, at most eight times', () => {
  expect(timeScale({ ENGINE_TEST_TIME_SCALE: '3' }, 40, 2)).toBe(3);
  expect(timeScale({ ENGINE_TEST_TIME_SCALE: '0.5' }, 40, 2)).toBe(0.5);
  expect(timeScale({}, 0.3, 2)).toBe(1);
  expect(timeScale({}, 5, 2)).toBe(2.5);
  expect(timeScale({}, 40, 2)).toBe(8);
  // A value that is no factor is not taken.
  expect(timeScale({ ENGINE_TEST_TIME_SCALE: 'fast' }, 4, 2)).toBe(2);
  expect(timeScale({ ENGINE_TEST_TIME_SCALE: '0' }, 4, 2)).toBe(2);
});
