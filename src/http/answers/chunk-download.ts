import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import { FileRangeStream } from '../../blobs/local/file-range-stream.js';
import { connectionGone, connectionReason } from '../logging.js';

/**
 * Sends a chunk download's body with the status and headers already set on `reply`. A chunk read
 * from the local disk is written into the response through reused buffers (FileRangeStream.sendTo):
 * the reply is taken over from Fastify for that (its onResponse hooks still run, and no onSend hook
 * applies to encrypted bytes). Any other body is sent as a stream.
 */
export async function sendChunkBody(reply: FastifyReply, body: Readable): Promise<FastifyReply> {
  if (!(body instanceof FileRangeStream) || !body.sendable) return reply.send(body);
  reply.hijack();
  reply.raw.writeHead(reply.statusCode, reply.getHeaders() as OutgoingHttpHeaders);
  if (reply.request.method === 'HEAD') {
    body.destroy();
    reply.raw.end();
    return reply;
  }
  try {
    await body.sendTo(reply.raw);
  } catch (error) {
    // The client went away, or the disk failed mid-chunk: the response is cut short (its length
    // was announced), which the client sees as a failed transfer and retries. Only the disk's
    // failure is the server's.
    if (connectionGone(reply.request.raw) || reply.raw.destroyed)
      reply.log.info({ reason: connectionReason(error) }, 'chunk download cut short by the connection');
    else reply.log.error({ err: error }, `chunk download failed reading the chunk: ${connectionReason(error)}`);
  }
  return reply;
}
