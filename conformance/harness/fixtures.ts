// SQL fixtures from fixtures/sql, run straight on the target's database.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function fixtureSql(name: string): string {
  return readFileSync(join(__dirname, '..', '..', 'fixtures', 'sql', `${name}.sql`), 'utf8');
}
