// Each test file's modules run as the server runs in production (reference/src/productionMode.ts):
// graphql-js in development mode would make every schema build of the in-process servers twice as slow.
process.env.NODE_ENV = 'production';

export {};
