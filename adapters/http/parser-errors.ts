import type { Server } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { IdGenerator } from '../../ports/id-generator';
import { parserErrorReply } from './error-mapping';
import { newRequestId } from './middleware/request-context';

/**
 * Requests Node's HTTP parser rejects never reach Koa (a request line and headers over 16 KiB,
 * a malformed request line): by default Node answers them with a bare status and no body. This
 * answers them in the error envelope with a requestId, like every other error.
 */
export function answerParserErrorsInEnvelope(server: Server, ids: IdGenerator): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const { status, body } = parserErrorReply(error);
    const requestId = newRequestId(ids);
    const text = JSON.stringify({ error: body, requestId });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
    );
  });
}
