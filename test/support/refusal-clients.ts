import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Clients that send a request with a body the server refuses before reading it, each as its kind of
 * program does it, and report what they were told: the status and the JSON body, or `lost: <why>`
 * when the answer never reached them (a reset, a broken pipe, "fetch failed"). None sends
 * `Expect: 100-continue`: the body is on the wire before the server has looked at the request.
 */
export interface Told {
  readonly status: number;
  readonly body: { code?: string; error?: unknown } | null;
}
export type Outcome = Told | `lost: ${string}`;

export interface RefusedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Record<string, string>;
}

export type Client = (request: RefusedRequest, body: Buffer) => Promise<Outcome>;

const run = promisify(execFile);
const parse = (text: string): Told['body'] => {
  try {
    return JSON.parse(text) as Told['body'];
  } catch {
    return null;
  }
};
const lost = (error: unknown): Outcome => `lost: ${(error as NodeJS.ErrnoException).code ?? String(error)}`;

/** The platform's fetch (undici), as the file.kiwi SDK and browsers' clients send a chunk. */
export const fetchClient: Client = async ({ method, url, headers }, body) => {
  try {
    const res = await fetch(url, { method, headers, body: body as unknown as BodyInit });
    return { status: res.status, body: parse(await res.text()) };
  } catch (error) {
    return lost((error as Error & { cause?: unknown }).cause ?? error);
  }
};

/** node:http (or node:https with the proxy's certificate), writing the body in one go and listening for the answer. */
export function nodeHttpClient(ca?: string): Client {
  return ({ method, url, headers }, body) =>
    new Promise((resolve) => {
      const options = { method, headers: { ...headers, 'content-length': String(body.length) }, agent: false, ca };
      const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(url, options, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: parse(text) }));
        res.on('error', (error) => resolve(lost(error)));
      });
      // After the answer, a write the server no longer reads may fail: the answer was had.
      req.on('error', (error) => resolve(lost(error)));
      req.end(body);
    });
}

/** curl -T without `Expect` (an empty `Expect:` header removes the one curl adds for large bodies). */
export function curlClient(dir: string, ca?: string): Client {
  let n = 0;
  return async ({ method, url, headers }, body) => {
    const file = join(dir, `curl-body-${n++}`);
    await writeFile(file, body);
    const args = [
      '-sS',
      '-X',
      method,
      '-T',
      file,
      '-H',
      'Expect:',
      '-w',
      '\n%{http_code}',
      ...(ca ? ['--cacert', ca] : []),
    ];
    for (const [name, value] of Object.entries(headers)) args.push('-H', `${name}: ${value}`);
    args.push(url);
    // curl exits non-zero when its upload is cut short after the answer; what it printed counts.
    const { stdout } = await run('curl', args, { maxBuffer: 1 << 20 }).catch(
      (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr }),
    );
    const at = stdout.lastIndexOf('\n');
    const status = Number(stdout.slice(at + 1));
    return status > 0 ? { status, body: parse(stdout.slice(0, at)) } : `lost: curl printed ${JSON.stringify(stdout)}`;
  };
}

/**
 * A client that writes its whole request before it reads (as blocking HTTP libraries do): its
 * answer waits in the kernel, where a reset discards it. Plain HTTP only.
 */
export const writeThenReadClient: Client = ({ method, url, headers }, body) =>
  new Promise((resolve) => {
    const target = new URL(url);
    const socket = connect(Number(target.port), target.hostname);
    // Nothing is read until the body is written: the answer stays in the kernel's buffer meanwhile.
    socket.pause();
    const head = Object.entries({ host: target.host, ...headers, 'content-length': String(body.length) })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    let text = '';
    const told = () => {
      const [statusLine, ...rest] = text.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0);
      return status > 0 ? { status, body: parse(rest.join('\r\n\r\n')) } : null;
    };
    socket.on('error', (error) => resolve(told() ?? lost(error)));
    socket.write(`${method} ${target.pathname}${target.search} HTTP/1.1\r\n${head}\r\n`);
    socket.write(body, () => {
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => resolve(told() ?? 'lost: the connection ended without an answer'));
      socket.resume();
    });
  });

/**
 * fetch in a process of its own that trusts `caFile` (NODE_EXTRA_CA_CERTS: the platform's fetch
 * takes no certificate option), for a proxy's TLS address.
 */
export function fetchProcessClient(dir: string, caFile: string): Client {
  let n = 0;
  const script = `
    const { readFileSync } = await import('node:fs');
    const [url, method, headers, file] = process.argv.slice(1);
    try {
      const res = await fetch(url, { method, headers: JSON.parse(headers), body: readFileSync(file) });
      process.stdout.write(JSON.stringify({ status: res.status, text: await res.text() }));
    } catch (error) {
      process.stdout.write(JSON.stringify({ lost: String(error.cause?.code ?? error.cause ?? error) }));
    }`;
  return async ({ method, url, headers }, body) => {
    const file = join(dir, `fetch-body-${n++}`);
    await writeFile(file, body);
    const { stdout } = await run(
      process.execPath,
      ['--input-type=module', '-e', script, url, method, JSON.stringify(headers), file],
      { env: { ...process.env, NODE_EXTRA_CA_CERTS: caFile }, maxBuffer: 1 << 20 },
    );
    const told = JSON.parse(stdout) as { status?: number; text?: string; lost?: string };
    return told.lost !== undefined ? `lost: ${told.lost}` : { status: told.status!, body: parse(told.text ?? '') };
  };
}
