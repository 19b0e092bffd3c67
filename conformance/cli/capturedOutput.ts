// A stream that keeps what is written to it: the commands' output, read back by their cases.
import { Writable } from 'node:stream';

export function capturedOutput(): { stream: NodeJS.WritableStream; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, text: () => text };
}
