// A PostgreSQL cluster of a case's own, for what only another cluster's settings show (a managed
// run: the embedded PostgreSQL, started by a child process, stopped with it).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface OtherCluster {
  url: string;
  stop(): Promise<void>;
}

const ROOT = join(__dirname, '..', '..');

export async function startOtherCluster(settings: Readonly<Record<string, string>>): Promise<OtherCluster> {
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'run-ts.js'), join(__dirname, 'clusterProcess.ts')], {
    env: { ...process.env, ENGINE_CLUSTER_SETTINGS: JSON.stringify(settings) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((l) => l.startsWith('{'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`the cluster did not start (exit ${code}): ${output}`)));
  });
  return {
    url,
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}
