import { AbortedError } from '../transfer/errors.js';

/**
 * Reads a line from a terminal without echoing it (a password): raw mode, so nothing typed is shown,
 * Backspace edits, Enter ends, Ctrl-C aborts (AbortedError) and Ctrl-D on an empty line gives up.
 * The caller checks that `input` is a TTY.
 */
export function promptHidden(
  question: string,
  input: NodeJS.ReadStream,
  output: NodeJS.WritableStream,
): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let line = '';
    const wasRaw = input.isRaw;
    const finish = (error: Error | null) => {
      input.removeListener('data', onData);
      input.setRawMode(wasRaw);
      input.pause();
      output.write('\n');
      if (error) reject(error);
      else resolve(line);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of String(chunk)) {
        if (ch === '\r' || ch === '\n') return finish(null);
        if (ch === '\u0003') return finish(new AbortedError());
        if (ch === '\u0004') {
          if (line === '') return finish(new AbortedError());
          continue;
        }
        if (ch === '\u007f' || ch === '\b') line = [...line].slice(0, -1).join('');
        else if (ch >= ' ') line += ch;
      }
    };
    // Raw mode first: what is typed as soon as the question shows must already not be echoed.
    input.setRawMode(true);
    input.setEncoding('utf8');
    input.on('data', onData);
    input.resume();
    output.write(question);
  });
}
