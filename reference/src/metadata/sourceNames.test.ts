// The GraphQL names sources claim against each other under their customizations (decision
// dec.source.customization): prefixed and suffixed root fields, or one namespace field.
import type { MetadataDocument, SourceCustomization } from '../../../spec';
import { EngineError } from '../errors';
import { checkNamesAcross } from './tables';

const part = (label: string, table: string, customization?: SourceCustomization) => ({
  label,
  document: { version: 2, tables: [{ table: { schema: 'public', name: table } }] } as MetadataDocument,
  ...(customization ? { customization } : {}),
});

const refusal = (work: () => void): string | undefined => {
  try {
    work();
    return undefined;
  } catch (error) {
    if (error instanceof EngineError) return error.message;
    throw error;
  }
};

test('root fields are claimed between the prefix and the suffix', () => {
  // The source's ledger takes x_ledger_y and its kin: a table of the server's own so named clashes with it.
  expect(
    refusal(() => checkNamesAcross([part('', 'entry'), part(' of the source "s"', 'ledger', { root_fields: { prefix: 'x_', suffix: '_y' } })])),
  ).toBeUndefined();
  expect(refusal(() => checkNamesAcross([part('', 'x_ledger_y'), part(' of the source "s"', 'ledger', { root_fields: { prefix: 'x_', suffix: '_y' } })]))).toBe(
    'the GraphQL name "x_ledger_y" of table "ledger" of the source "s" conflicts with table "x_ledger_y"',
  );
});

test('under a namespace only the namespace and the types are claimed', () => {
  const spaced = { root_fields: { namespace: 'books' } };
  expect(refusal(() => checkNamesAcross([part('', 'entry'), part(' of the source "s"', 'entry_aggregate', spaced)]))).toBe(
    'the GraphQL name "entry_aggregate" of table "entry_aggregate" of the source "s" conflicts with table "entry"',
  );
  expect(refusal(() => checkNamesAcross([part('', 'ledger_x'), part(' of the source "s"', 'ledger', spaced)]))).toBeUndefined();
  expect(refusal(() => checkNamesAcross([part('', 'books'), part(' of the source "s"', 'ledger', spaced)]))).toBe(
    'the GraphQL name "books" of the namespace of the source "s" conflicts with table "books"',
  );
  // Two sources may not take one namespace; a source that tracks nothing has no namespace field.
  expect(refusal(() => checkNamesAcross([part(' of the source "a"', 'one', spaced), part(' of the source "b"', 'two', spaced)]))).toBe(
    'the GraphQL name "books" of the namespace of the source "b" conflicts with the namespace of the source "a"',
  );
  const empty = { label: ' of the source "b"', document: { version: 2, tables: [] } as MetadataDocument, customization: spaced };
  expect(refusal(() => checkNamesAcross([part(' of the source "a"', 'one', spaced), empty]))).toBeUndefined();
});
