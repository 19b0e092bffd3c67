// The operations this server implements, by type. An operation of spec/ that is missing here
// is answered with 400 not-supported (decision not-supported.not-implemented).
import type { OperationHandler } from './context';
import {
  clearMetadata,
  dropInconsistentMetadata,
  exportMetadata,
  getInconsistentMetadata,
  reloadMetadata,
  replaceMetadata,
} from './metadataManagement';
import { runSql } from './runSql';

export const HANDLERS: Readonly<Record<string, OperationHandler>> = {
  export_metadata: exportMetadata,
  replace_metadata: replaceMetadata as OperationHandler,
  clear_metadata: clearMetadata,
  reload_metadata: reloadMetadata,
  get_inconsistent_metadata: getInconsistentMetadata,
  drop_inconsistent_metadata: dropInconsistentMetadata,
  run_sql: runSql as OperationHandler,
};
