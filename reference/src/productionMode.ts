// Imported first by the server's entry point: unless NODE_ENV says otherwise, libraries run in their
// production mode. graphql-js in development mode turns each of its many type checks (isObjectType,
// isInputType, …) into a search for copies of itself loaded twice, which made building and checking
// the role schemas after a metadata change more than twice as slow (docs/decisions/019).
process.env.NODE_ENV ??= 'production';

export {};
