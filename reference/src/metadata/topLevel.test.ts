import type { MetadataDocument } from '../../../spec';
import { keptNotServed } from './topLevel';

test('the parts kept but not acted on are named, the empty ones not, and the TLS allow-list (followed) not', () => {
  expect(keptNotServed({ version: 2, tables: [] })).toEqual([]);
  expect(keptNotServed({ version: 2, tables: [], network: {}, default_source: { customization: {} } } as MetadataDocument)).toEqual([]);
  const document = {
    version: 2,
    tables: [],
    metrics_config: { analyze_query_variables: true, analyze_response_body: false },
    opentelemetry: { status: 'disabled' },
    backend_configs: { dataconnector: {} },
    network: { tls_allowlist: [{ host: 'h' }] },
    default_source: { configuration: { connection_info: { database_url: 'postgres://x/y' } } },
  } as unknown as MetadataDocument;
  expect(keptNotServed(document)).toEqual([
    'metrics_config',
    'opentelemetry',
    'backend_configs',
    'the configuration of the default source (but its isolation_level and max_connections)',
  ]);
});
