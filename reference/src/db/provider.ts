// Which PostgreSQL to use: the one named by the configuration, else a container where a
// Docker engine answers and testcontainers is installed, else an embedded one from npm.

export type ProviderChoice = { kind: 'url'; url: string } | { kind: 'testcontainers' } | { kind: 'embedded' };

export interface ProviderFacts {
  /** ENGINE_GRAPHQL_DATABASE_URL, or DATABASE_URL. */
  databaseUrl?: string | undefined;
  dockerAnswers: boolean;
  testcontainersInstalled: boolean;
}

export function chooseProvider(facts: ProviderFacts): ProviderChoice {
  if (facts.databaseUrl) return { kind: 'url', url: facts.databaseUrl };
  if (facts.dockerAnswers && facts.testcontainersInstalled) return { kind: 'testcontainers' };
  return { kind: 'embedded' };
}
