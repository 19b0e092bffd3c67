/** The schema that holds the catalog in the user's database. */
export const CATALOG_SCHEMA = 'engine_catalog';
