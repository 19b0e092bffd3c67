// Test files in an order that ends sooner on few cores: the files that mostly wait (a cron
// minute, retries, a browser, a PostgreSQL with PostGIS of their own to start) start first, so that
// others run beside them; the rest by size.
const Sequencer = require('@jest/test-sequencer').default;

const FIRST = [
  'cron-triggers.test',
  'event-triggers.test',
  'console.test',
  'graphql-postgis.test',
  'fuzz-postgis.test',
  'graphql-postgis-raster.test',
  'subscriptions.test',
  'limits.test',
  'fuzz-boolexp.test',
  'differ.test',
];
const rank = (path) => {
  const i = FIRST.findIndex((name) => path.includes(`/${name}.`));
  return i < 0 ? FIRST.length : i;
};

class SlowFirst extends Sequencer {
  sort(tests) {
    return [...super.sort(tests)].sort((a, b) => rank(a.path) - rank(b.path));
  }
}

module.exports = SlowFirst;
