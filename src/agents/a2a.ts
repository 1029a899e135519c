import { randomUUID } from 'node:crypto';
import { type AgentCard, type Message, type Part, Role, type Task, TaskState } from '@a2a-js/sdk';
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { RequestMalformedError, TaskNotCancelableError } from '@a2a-js/sdk/errors';
import {
  AgentEvent,
  type AgentExecutor,
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  type ExecutionEventBus,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  type RequestContext,
  type ServerCallContext,
  UnauthenticatedUser,
  validateVersion,
} from '@a2a-js/sdk/server';
import type { Services } from '../app/services.js';
import type { ErrorCode } from '../contract/errors.js';
import type { CreateResponseEmpty } from '../contract/types.js';
import type { CreateGate } from './create-gate.js';
import {
  checkIntent,
  createFolderForAgent,
  dataIntent,
  type FolderIntent,
  handoffText,
  isAppError,
  parseTextIntent,
} from './folder-intent.js';

/**
 * A2A JSON-RPC on @a2a-js/sdk's framework-free pieces: one DefaultRequestHandler behind the 1.0
 * transport (SendMessage) and the 0.3 compat transport (message/send). The only skill creates an
 * empty folder through the same use case as POST /v2/folders and answers with a Message (text part
 * with the link and the hand-off steps, data part with the create response). No task is kept for a
 * successful call, so nothing accumulates in memory.
 */

const STATE_INTENT = 'webfolder.intent';

/** Reads title and mode from the message: data parts win over what plain text says. */
export function intentFromMessage(message: Message | undefined): FolderIntent {
  const parts = message?.parts ?? [];
  if (parts.length === 0)
    throw new RequestMalformedError(
      'the message has no parts: send text such as "create a share folder called Holiday photos" or a data part {"title": ..., "mode": ...}',
    );
  let fromText: FolderIntent = {};
  let fromData: FolderIntent = {};
  for (const [i, part] of parts.entries()) {
    const content = part.content;
    // A Part is one of text, data, url or raw (A2A 1.0): `{}` is none of them, and a message of only
    // such parts asked for nothing ("parts":[{}] created a folder).
    if (!content) throw new RequestMalformedError(`part ${i + 1} has no content: a part is text, data, url or raw`);
    if (content?.$case === 'text') fromText = { ...fromText, ...parseTextIntent(content.value) };
    else if (content?.$case === 'data') fromData = { ...fromData, ...dataIntent(content.value) };
  }
  return { ...fromText, ...fromData };
}

function textPart(text: string): Part {
  return { content: { $case: 'text', value: text }, mediaType: 'text/plain', filename: '', metadata: undefined };
}

function dataPart(value: unknown): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: undefined };
}

export function replyMessage(request: RequestContext, folder: CreateResponseEmpty): Message {
  return {
    messageId: randomUUID(),
    contextId: request.contextId,
    taskId: '',
    role: Role.ROLE_AGENT,
    parts: [textPart(handoffText(folder)), dataPart({ ...folder })],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

class FolderExecutor implements AgentExecutor {
  constructor(
    private readonly services: Services,
    private readonly onInternalError: (error: unknown) => void,
  ) {}

  async execute(request: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const state = request.context.state;
    const intent = (state.get(STATE_INTENT) as FolderIntent | undefined) ?? intentFromMessage(request.userMessage);
    try {
      const folder = await createFolderForAgent(this.services, intent);
      bus.publish(AgentEvent.message(replyMessage(request, folder)));
    } catch (error) {
      // Checked input cannot fail here except through our own fault (store down): answer with a
      // failed task that says so, without internal details.
      if (!isAppError(error)) this.onInternalError(error);
      const reason = isAppError(error)
        ? error.message
        : 'internal error: the folder could not be created, try again later';
      bus.publish(AgentEvent.task(failedTask(request, reason)));
    }
    bus.finished();
  }

  async cancelTask(): Promise<void> {
    throw new TaskNotCancelableError('folders are created at once; there is nothing to cancel');
  }
}

function failedTask(request: RequestContext, reason: string): Task {
  return {
    id: request.taskId,
    contextId: request.contextId,
    status: {
      state: TaskState.TASK_STATE_FAILED,
      message: {
        messageId: randomUUID(),
        contextId: request.contextId,
        taskId: request.taskId,
        role: Role.ROLE_AGENT,
        parts: [textPart(reason)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      timestamp: new Date().toISOString(),
    },
    artifacts: [],
    history: [request.userMessage],
    metadata: undefined,
  };
}

/**
 * Checks the request before the executor runs, so that bad input (a "request" mode, a title that
 * is too long, unknown fields) is an A2A error (-32602 with the reason) rather than a failed task.
 */
class FolderRequestHandler extends DefaultRequestHandler {
  override async sendMessage(
    params: Parameters<DefaultRequestHandler['sendMessage']>[0],
    context: ServerCallContext,
  ): Promise<Message | Task> {
    if (params.message?.taskId)
      throw new RequestMalformedError('this agent does not continue tasks: send a new message without taskId');
    let intent: FolderIntent;
    try {
      intent = intentFromMessage(params.message);
      checkIntent(intent);
    } catch (error) {
      if (isAppError(error)) throw new RequestMalformedError(error.message);
      throw error;
    }
    context.state.set(STATE_INTENT, intent);
    return super.sendMessage(params, context);
  }
}

export interface A2aReply {
  readonly status: number;
  readonly body: unknown;
}

export interface A2aService {
  handle(body: unknown, headers: Record<string, string | string[] | undefined>, gate: CreateGate): Promise<A2aReply>;
}

const A2A_VERSION_HEADER = 'a2a-version';

export function createA2aService(
  services: Services,
  card: AgentCard,
  onInternalError: (error: unknown) => void,
): A2aService {
  const requestHandler = new FolderRequestHandler(
    card,
    new InMemoryTaskStore(),
    new FolderExecutor(services, onInternalError),
  );
  const v1 = new JsonRpcTransportHandler(requestHandler);
  const v03 = new LegacyJsonRpcTransportHandler(requestHandler);

  return {
    async handle(body, headers, gate) {
      const id = rpcId(body);
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        return {
          status: 400,
          body: rpcError(id, -32600, 'the request must be one JSON-RPC 2.0 request object (batches are not supported)'),
        };
      }
      const method = (body as { method?: unknown }).method;
      const header = headers[A2A_VERSION_HEADER];
      const versionHeader = (Array.isArray(header) ? header[0] : header)?.trim() || undefined;
      // No header means 0.3 (A2A's rule), but a 1.0 method name without the header is plainly a
      // 1.0 call: route it there rather than answer "method not found".
      const requestedVersion =
        versionHeader ?? (isV1JsonRpcMethod(method) && !isLegacyJsonRpcMethod(method) ? '1.0' : '0.3');
      const legacy = requestedVersion === '0.3' || requestedVersion === '0.3.0';
      const mapError = legacy
        ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
        : JsonRpcTransportHandler.mapToJSONRPCError;
      if ((method === 'SendMessage' || method === 'message/send') && !('id' in body)) {
        // A notification gets no answer, so a folder created by one could never reach anyone.
        return {
          status: 400,
          body: rpcError(null, -32600, 'SendMessage / message/send must be a request with an id, not a notification'),
        };
      }
      // A send is a create attempt: it counts against the create budget like POST /v2/folders does
      // (attempts, refused or not), and an exhausted budget is HTTP 429 as on the REST API.
      if (method === 'SendMessage' || method === 'message/send') {
        try {
          await gate();
        } catch (error) {
          if (isAppError(error)) return { status: error.status, body: rpcError(id, -32000, error.message, error.code) };
          throw error;
        }
      }
      try {
        validateVersion(legacy ? '0.3' : requestedVersion, card, 'JSONRPC');
        const context = defaultServerCallContextBuilder({
          extensions: undefined,
          user: new UnauthenticatedUser(),
          headers: {},
          requestedVersion: legacy ? '0.3' : requestedVersion,
        });
        const result = await (legacy ? v03 : v1).handle(body as Record<string, unknown>, context);
        if (isAsyncIterable(result)) {
          // Streaming is not offered (capabilities.streaming is false); the SDK reports that as the
          // first stream item's error, which is answered as a plain JSON-RPC error here.
          try {
            const first = await result[Symbol.asyncIterator]().next();
            await result.return?.(undefined);
            if (!first.done && first.value && typeof first.value === 'object' && 'error' in first.value)
              return { status: 200, body: first.value };
          } catch (error) {
            return { status: 200, body: rpcError(id, undefined, undefined, undefined, mapError(error)) };
          }
          return {
            status: 200,
            body: rpcError(
              id,
              -32004,
              'streaming is not supported: use SendMessage (1.0) or message/send (0.3)',
              'invalid_request',
            ),
          };
        }
        return { status: 200, body: hideInternalErrors(result, onInternalError) };
      } catch (error) {
        if (!isA2aError(error)) {
          onInternalError(error);
          return { status: 500, body: rpcError(id, -32603, 'internal error', 'internal_error') };
        }
        return { status: 200, body: rpcError(id, undefined, undefined, undefined, mapError(error)) };
      }
    },
  };
}

function isA2aError(error: unknown): boolean {
  return error instanceof Error && typeof (error as { toErrorInfo?: unknown }).toErrorInfo === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncGenerator<unknown, void, undefined> {
  return typeof (value as { [Symbol.asyncIterator]?: unknown } | null)?.[Symbol.asyncIterator] === 'function';
}

function rpcId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null)?.id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)) ? id : null;
}

/**
 * A JSON-RPC error response. The service's own refusals carry their stable code (src/contract/errors.ts)
 * as `error.data.code`; errors the A2A SDK maps (`error`) keep the protocol's own shape.
 */
export function rpcError(
  id: string | number | null,
  code?: number,
  message?: string,
  stable?: ErrorCode,
  error?: { code: number; message: string; data?: unknown },
) {
  return {
    jsonrpc: '2.0',
    id,
    error: error ?? {
      code: code ?? -32603,
      message: message ?? 'internal error',
      data: { code: stable ?? (code === undefined || code === -32603 ? 'internal_error' : 'invalid_request') },
    },
  };
}

/**
 * The SDK turns an unexpected exception into -32603 carrying the exception's own message; that text
 * is ours, not the caller's, so it is logged and replaced.
 */
function hideInternalErrors(response: unknown, onInternalError: (error: unknown) => void): unknown {
  const error = (response as { error?: { code?: number; message?: string } } | null)?.error;
  if (error && error.code === -32603) {
    onInternalError(new Error(`a2a internal error: ${error.message ?? ''}`));
    return {
      ...(response as object),
      error: { code: -32603, message: 'internal error', data: { code: 'internal_error' } },
    };
  }
  return response;
}
