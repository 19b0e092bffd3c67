import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../reference/src/packageRoot';
import { curlLine } from './client';
import ConformanceReporter from './reporter';
import { redact } from './secrets';

const SECRET = 'Adm1n-S3cret-of-the-target';
const secrets = [{ value: SECRET, variable: 'ENGINE_ADMIN_SECRET' }];
// {"alg":"HS256","typ":"JWT"}.{"sub":"1","role":"user"}.signature
const JWT = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwicm9sZSI6InVzZXIifQ.c2lnbmF0dXJl';

test('a curl line reads the admin secret and JWTs from the environment, never shows them', () => {
  expect(curlLine('http://t/v1/metadata', 'POST', { 'x-engine-admin-secret': SECRET }, '{}', secrets)).toBe(
    `curl -sS -i -X POST 'http://t/v1/metadata' -H "x-engine-admin-secret: $ENGINE_ADMIN_SECRET" --data-binary '{}'`,
  );
  expect(curlLine('http://t/v1/graphql', 'POST', { authorization: `Bearer ${JWT}`, cookie: `engine_token=${JWT}; other=1` }, undefined, secrets)).toBe(
    `curl -sS -i -X POST 'http://t/v1/graphql' -H "authorization: Bearer $ENGINE_JWT" -H "cookie: engine_token=$ENGINE_JWT; other=1" ` +
      '# ENGINE_JWT: a token with the header {"alg":"HS256","typ":"JWT"} and the claims {"sub":"1","role":"user"}',
  );
  // The secret in a body: the shell puts it in (inside double quotes, the body's own $ and " escaped).
  expect(curlLine('http://t/x', 'POST', {}, `{"sql":"select '${SECRET}' as \\"$x\\""}`, secrets)).toBe(
    `curl -sS -i -X POST 'http://t/x' --data-binary "{\\"sql\\":\\"select '$ENGINE_ADMIN_SECRET' as \\\\\\"\\$x\\\\\\"\\"}"`,
  );
});

test('a value made from the secret where the secret goes is written as the shell makes it from the variable', () => {
  const header = (value: string) =>
    curlLine('http://t/', 'GET', { 'x-engine-admin-secret': value }, undefined, secrets).replace("curl -sS -i -X GET 'http://t/' ", '');
  expect([
    header(SECRET.slice(0, -1)),
    header(SECRET.slice(0, 1)),
    header(SECRET.toUpperCase()),
    header(SECRET.toLowerCase()),
    header(`${SECRET}${SECRET}`),
    header(`${SECRET}_x`),
    header('anything'),
    header(''),
  ]).toEqual([
    `-H "x-engine-admin-secret: \${ENGINE_ADMIN_SECRET:0:${SECRET.length - 1}}"`,
    '-H "x-engine-admin-secret: ${ENGINE_ADMIN_SECRET:0:1}"',
    '-H "x-engine-admin-secret: ${ENGINE_ADMIN_SECRET^^}"',
    '-H "x-engine-admin-secret: ${ENGINE_ADMIN_SECRET,,}"',
    '-H "x-engine-admin-secret: $ENGINE_ADMIN_SECRET$ENGINE_ADMIN_SECRET"',
    '-H "x-engine-admin-secret: ${ENGINE_ADMIN_SECRET}_x"',
    "-H 'x-engine-admin-secret: anything'",
    "-H 'x-engine-admin-secret: '",
  ]);
  // Elsewhere only the whole secret is replaced: its first letter in a body is just a letter.
  expect(redact(`a ${SECRET.slice(0, 1)} b ${SECRET} c ${JWT}`, secrets)).toBe(`a ${SECRET.slice(0, 1)} b $ENGINE_ADMIN_SECRET c $ENGINE_JWT`);
});

test('no report a run writes holds the admin secret, the webhook secret or a JWT; each says once how the curl lines get them', () => {
  const dir = mkdtempSync(join(tmpdir(), 'secret-reports-'));
  const saved = { ...process.env };
  Object.assign(process.env, {
    ENGINE_ADMIN_SECRET: SECRET,
    ENGINE_CONFORMANCE_HOOK_SECRET: 'hook-S3cret',
    ENGINE_CONFORMANCE_REPORT_DIR: dir,
    ENGINE_CONFORMANCE_JUNIT: join(dir, 'junit.xml'),
  });
  try {
    const curl = curlLine('http://t/v1/metadata', 'POST', { 'x-engine-admin-secret': SECRET, authorization: `Bearer ${JWT}` }, '{}');
    const reporter = new ConformanceReporter({ rootDir: PACKAGE_ROOT });
    reporter.onTestResult(undefined, {
      testFilePath: join(PACKAGE_ROOT, 'conformance', 'cases', 'auth.test.ts'),
      testResults: [
        {
          title: 'x [op.bulk]',
          fullName: 'x [op.bulk]',
          status: 'failed',
          // An answer that echoes what it was sent: the secrets in a difference as well as in the line.
          failureMessages: [`Expected: "${SECRET}"\nReceived: "hook-S3cret ${JWT}"\n\nReproduce with:\n  ${curl}`],
        },
      ],
    });
    reporter.onRunComplete();
    for (const name of ['conformance-report.json', 'conformance-report.html', 'junit.xml']) {
      const text = readFileSync(join(dir, name), 'utf8');
      expect({ name, secret: text.includes(SECRET), hook: text.includes('hook-S3cret'), jwt: text.includes(JWT.split('.')[1]!) }).toEqual({
        name,
        secret: false,
        hook: false,
        jwt: false,
      });
      expect({ name, named: text.includes('$ENGINE_ADMIN_SECRET'), told: text.split('The curl lines read secrets from the environment').length - 1 }).toEqual({
        name,
        named: true,
        told: 1,
      });
    }
  } finally {
    process.env = saved;
    rmSync(dir, { recursive: true, force: true });
  }
});
