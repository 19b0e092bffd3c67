// SQL a case ran on the target's database, as a line that runs it again by hand: beside the curl
// lines of a failure, for what the case did in SQL (the rows that should have called a webhook).
const singleQuoted = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `psql "$ENGINE_DATABASE_URL" -c '…'`: the URL from the environment, as the report says (secrets.ts). */
export const psqlLine = (text: string): string => `psql "$ENGINE_DATABASE_URL" -c ${singleQuoted(text)}`;
