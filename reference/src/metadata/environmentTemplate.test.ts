// Values of the engine's environment in addresses and headers: filled in, and when they cannot be
// used, named by their variable and never shown (decision dec.environment.values-unquoted).
import { addressFromVariable, resolveAddress, resolveHeaderValues, resolveTemplate } from './environmentTemplate';

const env = { BASE: 'http://hooks.local:8000', SECRET: 'hunter2-no-url', BAD_HEADER: 'line\nbreak-hunter2', EMPTY: '' };

test('placeholders are filled from the environment; one not set is named', () => {
  expect(resolveTemplate('{{BASE}}/a/{{ BASE }}', env)).toBe('http://hooks.local:8000/a/http://hooks.local:8000');
  expect(resolveTemplate('{{NOPE}}/a', env)).toEqual({ problem: 'the environment variable NOPE is not set' });
});

test('an address is an http or https URL; made with variables, its value is never quoted', () => {
  expect(resolveAddress('{{BASE}}/hook', env)).toBe('http://hooks.local:8000/hook');
  expect(resolveAddress('https://x.example/h', env)).toBe('https://x.example/h');
  expect(resolveAddress('ftp://x.example/h', env)).toEqual({ problem: '"ftp://x.example/h" is not an http or https URL' });
  expect(resolveAddress('{{SECRET}}/hook', env)).toEqual({ problem: 'the address made with the environment variable SECRET is not an http or https URL' });
  expect(resolveAddress('{{SECRET}}{{BASE}}', env)).toEqual({
    problem: 'the address made with the environment variables SECRET, BASE is not an http or https URL',
  });
  expect(resolveAddress('{{NOPE}}/hook', env)).toEqual({ problem: 'the environment variable NOPE is not set' });
});

test('an address from a variable: set, a URL, and named by the setting that gave it', () => {
  expect(addressFromVariable('BASE', 'url_from_env', env)).toBe('http://hooks.local:8000');
  expect(addressFromVariable('SECRET', 'url_from_env', env)).toEqual({
    problem: 'the environment variable SECRET (url_from_env) does not hold an http or https URL',
  });
  expect(addressFromVariable('EMPTY', 'webhook_from_env', env)).toEqual({ problem: 'the environment variable EMPTY (webhook_from_env) is not set' });
  expect(addressFromVariable('NOPE', 'webhook_from_env', env)).toEqual({ problem: 'the environment variable NOPE (webhook_from_env) is not set' });
});

test('header values: names lower-cased, from the environment where said; one no request can carry is refused by its name', () => {
  expect(
    resolveHeaderValues(
      [
        { name: 'X-Static', value: 'a b\tc' },
        { name: 'X-Env', value_from_env: 'SECRET' },
      ],
      env,
    ),
  ).toEqual({ 'x-static': 'a b\tc', 'x-env': 'hunter2-no-url' });
  expect(resolveHeaderValues(undefined, env)).toEqual({});
  expect(resolveHeaderValues([{ name: 'X-Env', value_from_env: 'BAD_HEADER' }], env)).toEqual({
    problem: 'the environment variable BAD_HEADER (header X-Env) is not a valid header value',
  });
  expect(resolveHeaderValues([{ name: 'X-Lit', value: 'a\r\nb' }], env)).toEqual({ problem: 'the value of header X-Lit is not a valid header value' });
  expect(resolveHeaderValues([{ name: 'X-Gone', value_from_env: 'NOPE' }], env)).toEqual({
    problem: 'the environment variable NOPE (header X-Gone) is not set',
  });
  expect(resolveHeaderValues([{ name: 'X-Nul', value: 'a\u0000b' }], env)).toEqual({ problem: 'the value of header X-Nul is not a valid header value' });
  expect(resolveHeaderValues([{ name: 'X-Del', value: 'a\u007fb' }], env)).toEqual({ problem: 'the value of header X-Del is not a valid header value' });
});
