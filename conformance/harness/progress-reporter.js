// Jest loads reporters without its transform; this loads the TypeScript one.
require('ts-node').register({ swc: true, transpileOnly: true, project: require('node:path').join(__dirname, '..', '..', 'tsconfig.json') });
module.exports = require('./progress-reporter.ts').default;
