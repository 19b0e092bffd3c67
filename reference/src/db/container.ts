// PostgreSQL in a container, where a Docker engine answers and testcontainers is installed (provider.ts chooses).
import { existsSync } from 'node:fs';

export function dockerAnswers(): boolean {
  const host = process.env.DOCKER_HOST;
  if (host) return true;
  return existsSync('/var/run/docker.sock');
}

export function testcontainersInstalled(): boolean {
  try {
    require.resolve('@testcontainers/postgresql');
    return true;
  } catch {
    return false;
  }
}

export async function startContainer(settings: Readonly<Record<string, string>>): Promise<{ url: string; description: string; stop(): Promise<void> }> {
  // Optional: only where a Docker engine exists is testcontainers installed.
  type Started = { getConnectionUri(): string; stop(): Promise<unknown> };
  const { PostgreSqlContainer } = require('@testcontainers/postgresql') as {
    PostgreSqlContainer: new (image: string) => { withCommand(command: string[]): { start(): Promise<Started> } };
  };
  const command = ['postgres', ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`])];
  const container = await new PostgreSqlContainer('postgres:16-alpine').withCommand(command).start();
  return { url: container.getConnectionUri(), description: 'PostgreSQL in a container', stop: async () => void (await container.stop()) };
}
