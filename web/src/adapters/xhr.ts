import type { Fetch } from '../core.js';

/**
 * The page's chunk transport: XMLHttpRequest, the one browser API that reports bytes of a request
 * body as they leave (fetch cannot), so the progress bars move within a chunk. It answers like
 * fetch (a Response for any HTTP answer, a TypeError on a network failure, an AbortError on abort),
 * so the transfer core's retry policy treats it like any other transport.
 */
export const xhrFetch: Fetch = (url, init) =>
  new Promise<Response>((resolve, reject) => {
    if (init.signal?.aborted) return reject(new DOMException('the request was aborted', 'AbortError'));
    const xhr = new XMLHttpRequest();
    xhr.open(init.method ?? 'GET', url);
    // The browser sets Content-Length itself (scripts may not).
    new Headers(init.headers).forEach((value, name) => {
      if (name !== 'content-length') xhr.setRequestHeader(name, value);
    });
    const onProgress = init.onUploadProgress;
    if (onProgress) xhr.upload.onprogress = (e) => onProgress(e.loaded);
    const abort = () => xhr.abort();
    init.signal?.addEventListener('abort', abort, { once: true });
    const settle = () => init.signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      settle();
      const headers = new Headers();
      for (const line of xhr
        .getAllResponseHeaders()
        .trim()
        .split(/[\r\n]+/)) {
        const at = line.indexOf(':');
        if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
      }
      const empty = xhr.status === 204 || xhr.status === 205 || xhr.status === 304;
      resolve(
        new Response(empty ? null : xhr.responseText, { status: xhr.status, statusText: xhr.statusText, headers }),
      );
    };
    xhr.onerror = () => {
      settle();
      reject(new TypeError('network error'));
    };
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => {
      settle();
      reject(new DOMException('the request was aborted', 'AbortError'));
    };
    const body = init.body;
    // A Blob body, not the bytes themselves: Chromium then streams it to the network process
    // instead of copying it inline with the request (docs/decisions.md, "Browser transfers").
    if (body instanceof Uint8Array) xhr.send(new Blob([body as Uint8Array<ArrayBuffer>]));
    else xhr.send((body ?? null) as XMLHttpRequestBodyInit | null);
  });
