// SPEC.md as data: every operation, error and rule with a stable ID.
import { ERROR_ITEMS } from './errors';
import type { SpecItem } from './item';
import { OPERATION_ITEMS } from './operations';
import { DECISIONS, RULES } from './rules';

export * from './item';
export * from './errors';
export * from './operations';
export * from './names';
export { BOOL_EXP_SHAPE, connectiveOf } from './dml-where';
export * from './metadata-document';
export * from './remote-relationships';
export * from './sources';
export * from './top-level';
export * from './default-source';
export * from './source-customization';
export { RULES, DECISIONS } from './rules';
export * as schema from './schema';
export * as args from './arguments';

export const ITEMS: readonly SpecItem[] = [...OPERATION_ITEMS, ...ERROR_ITEMS, ...RULES, ...DECISIONS];
export const ITEMS_BY_ID: ReadonlyMap<string, SpecItem> = new Map(ITEMS.map((i) => [i.id, i]));
