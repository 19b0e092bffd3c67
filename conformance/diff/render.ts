// A scenario as what is sent: the SQL that makes its tables and rows (pg-sql2, values as
// parameters), its metadata document, and each request as an HTTP request. Pure: the same scenario
// always renders the same, on both targets.
import * as sql from 'pg-sql2';
import { escapeLiteral } from 'pg';
import { DIFF_SCHEMA, RELATIONSHIPS, TABLES, tablesOf, type Request, type Scenario } from './scenario';

/** A request as sent: the path, who sends it (`admin` or a role with its user id) and the body. */
export interface HttpCall {
  method: 'GET' | 'POST';
  path: string;
  as: { role: 'admin' } | { role: string; userId: string };
  body?: unknown;
}

const qualified = (table: number) => ({ schema: DIFF_SCHEMA, name: TABLES[table]!.name });
const tableNode = (table: number) => sql.identifier(DIFF_SCHEMA, TABLES[table]!.name);
const field = (table: number) => `${DIFF_SCHEMA}_${TABLES[table]!.name}`;

/** The statements that make the scenario's schema, tables and rows, in order. */
export function setupStatements(s: Scenario): sql.SQLQuery[] {
  const statements = [sql.query`drop schema if exists ${sql.identifier(DIFF_SCHEMA)} cascade`, sql.query`create schema ${sql.identifier(DIFF_SCHEMA)}`];
  for (const i of tablesOf(s)) {
    const columns = Object.entries(TABLES[i]!.columns).map(
      ([name, type]) => sql.query`${sql.identifier(name)} ${sql.raw(type)}${name === 'id' ? sql.raw(' primary key') : sql.blank}`,
    );
    statements.push(sql.query`create table ${tableNode(i)} (${sql.join(columns, ', ')})`);
    const rows = s.rows[i]!;
    if (rows.length === 0) continue;
    const names = Object.keys(TABLES[i]!.columns);
    const values = rows.map(
      (row, r) =>
        sql.query`(${sql.join(
          names.map((c) => valueNode(c === 'id' ? r + 1 : row[c])),
          ', ',
        )})`,
    );
    statements.push(
      sql.query`insert into ${tableNode(i)} (${sql.join(
        names.map((c) => sql.identifier(c)),
        ', ',
      )}) values ${sql.join(values, ', ')}`,
    );
  }
  return statements;
}

const valueNode = (v: unknown) => (v !== null && typeof v === 'object' ? sql.query`${sql.value(JSON.stringify(v))}::jsonb` : sql.value(v));

/** The statements as text a person can paste into psql: each parameter written as a literal. */
export function printedSql(statements: sql.SQLQuery[]): string {
  return statements
    .map((statement) => {
      const { text, values } = sql.compile(statement);
      return `${text.replace(/\$(\d+)/g, (_, n: string) => literalOf((values ?? [])[Number(n) - 1]))};`;
    })
    .join('\n');
}

/** A value as a literal: text escaped by pg (a backslash makes it E'…'), the rest as it prints (null as null). */
const literalOf = (v: unknown) => (typeof v === 'string' ? escapeLiteral(v).trim() : String(v));

/** The metadata document the scenario replaces the target's with. */
export function metadataDocument(s: Scenario): Record<string, unknown> {
  const tables = tablesOf(s).map((i) => {
    const entry: Record<string, unknown> = { table: qualified(i) };
    const relationships = s.relationships ? RELATIONSHIPS.filter((r) => r.table === i && s.tables[r.to]) : [];
    const object = relationships.filter((r) => r.kind === 'object');
    const array = relationships.filter((r) => r.kind === 'array');
    const using = (r: (typeof RELATIONSHIPS)[number]) => ({ using: { manual_configuration: { remote_table: qualified(r.to), column_mapping: r.mapping } } });
    if (object.length) entry.object_relationships = object.map((r) => ({ name: r.name, ...using(r) }));
    if (array.length) entry.array_relationships = array.map((r) => ({ name: r.name, ...using(r) }));
    for (const kind of ['insert', 'select', 'update', 'delete'] as const) {
      const permissions = s.permissions.filter((p) => p.table === i && p.kind === kind);
      if (permissions.length) entry[`${kind}_permissions`] = permissions.map((p) => ({ role: p.role, permission: p.permission }));
    }
    return entry;
  });
  const document: Record<string, unknown> = { version: 2, tables };
  if (s.rest.length) {
    document.query_collections = [{ name: 'diff', definition: { queries: s.rest.map((r, i) => ({ name: `q${i}`, query: savedQuery(r.table, r.column) })) } }];
    document.rest_endpoints = s.rest.map((_, i) => ({
      name: `r${i}`,
      url: `r${i}`,
      methods: ['GET'],
      definition: { query: { query_name: `q${i}`, collection_name: 'diff' } },
      comment: null,
    }));
  }
  return document;
}

const GRAPHQL_TYPES = { integer: 'Int', text: 'String', boolean: 'Boolean', jsonb: 'jsonb' } as const;

function savedQuery(table: number, column: string): string {
  const type = GRAPHQL_TYPES[TABLES[table]!.columns[column]!];
  return `query q($v: ${type}) { ${field(table)}(where: {${column}: {_eq: $v}}, order_by: {id: asc}) { id ${column} } }`;
}

/** An enum value in a GraphQL literal (written bare). */
class EnumValue {
  constructor(readonly name: string) {}
}

/** A GraphQL input literal of `v`: strings as JSON strings (a subset of GraphQL's), objects with bare keys. */
function literal(v: unknown): string {
  if (v instanceof EnumValue) return v.name;
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${literal(x)}`)
      .join(', ')}}`;
  }
  return JSON.stringify(v);
}

const args = (entries: [string, unknown][]) => {
  const present = entries.filter(([, v]) => v !== undefined);
  return present.length ? `(${present.map(([k, v]) => `${k}: ${literal(v)}`).join(', ')})` : '';
};

const orderList = (orderBy: [string, 'asc' | 'desc'][]) => [...orderBy, ['id', 'asc'] as const].map(([c, d]) => ({ [c]: new EnumValue(d) }));

function nestedSelection(table: number, s: Scenario): string {
  if (!s.relationships) return '';
  const r = RELATIONSHIPS.find((x) => x.table === table && s.tables[x.to]);
  if (!r) return '';
  return r.kind === 'object' ? ` ${r.name} { id }` : ` ${r.name}(order_by: {id: asc}) { id }`;
}

/** The GraphQL document of a GraphQL request. */
export function graphqlDocument(r: Request, s: Scenario): string {
  switch (r.kind) {
    case 'select': {
      const columns = r.fields.join(' ');
      const a = args([
        ['where', r.where],
        ['order_by', orderList(r.orderBy)],
        ['limit', r.limit],
        ['offset', r.offset],
        ['distinct_on', r.distinctOn === undefined ? undefined : [new EnumValue(r.distinctOn)]],
      ]);
      return `query { ${field(r.table)}${a} { ${columns}${r.nested ? nestedSelection(r.table, s) : ''} } }`;
    }
    case 'aggregate': {
      const fn = r.fn ? ` ${r.fn[0]} { ${r.fn[1]} }` : '';
      return `query { ${field(r.table)}_aggregate${args([['where', r.where]])} { aggregate { count${fn} } } }`;
    }
    case 'insert':
      return `mutation { insert_${field(r.table)}${args([['objects', r.objects]])} { affected_rows } }`;
    case 'update':
      return `mutation { update_${field(r.table)}${args([
        ['where', r.where],
        ['_set', r.set],
      ])} { affected_rows } }`;
    case 'delete':
      return `mutation { delete_${field(r.table)}${args([['where', r.where]])} { affected_rows } }`;
    default:
      throw new Error(`not a GraphQL request: ${r.kind}`);
  }
}

/** The HTTP request a scenario's request is. */
export function httpCall(r: Request, s: Scenario): HttpCall {
  switch (r.kind) {
    case 'select':
    case 'aggregate':
    case 'insert':
    case 'update':
    case 'delete':
      return {
        method: 'POST',
        path: '/v1/graphql',
        as: r.role === 'admin' ? { role: 'admin' } : { role: r.role, userId: r.userId },
        body: { query: graphqlDocument(r, s) },
      };
    case 'dml-select': {
      const order_by = [...r.orderBy, ['id', 'asc'] as const].map(([column, type]) => ({ column, type }));
      // An absent argument is undefined, which JSON leaves out.
      return {
        method: 'POST',
        path: '/v1/query',
        as: { role: 'admin' },
        body: { type: 'select', args: { table: qualified(r.table), columns: ['*'], where: r.where, order_by, limit: r.limit } },
      };
    }
    case 'dml-count':
      return {
        method: 'POST',
        path: '/v1/query',
        as: { role: 'admin' },
        body: { type: 'count', args: { table: qualified(r.table), where: r.where } },
      };
    case 'rest':
      return { method: 'GET', path: `/api/rest/r${r.endpoint}?v=${encodeURIComponent(String(r.value))}`, as: { role: 'admin' } };
    case 'metadata':
      return { method: 'POST', path: '/v1/metadata', as: { role: 'admin' }, body: r.operation };
  }
}

/** Whether a request may change rows (the tables' rows are compared after it). */
export const changesRows = (r: Request) => r.kind === 'insert' || r.kind === 'update' || r.kind === 'delete' || r.kind === 'metadata';

/** The query that reads a table's rows for comparison, in id order. */
export const rowsQuery = (table: number) => sql.query`select coalesce(json_agg(to_jsonb(x) order by x.id), '[]') as rows from ${tableNode(table)} x`;
