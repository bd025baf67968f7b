import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { publicMessages } from '@atendimento/schemas';

/** Node's parser errors and what the caller is told: the status, our code and the pt-BR text. */
function answerFor(code: string | undefined): { status: number; error: string; errorMessage: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, error: 'headers_too_large', errorMessage: publicMessages.errors.headersTooLarge };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, error: 'request_timeout', errorMessage: publicMessages.errors.requestTimeout };
  return { status: 400, error: 'bad_request', errorMessage: publicMessages.errors.badRequest };
}

/**
 * Requests Node's HTTP parser refuses before Koa sees them (headers or a URL over 16 kB, a
 * method it does not know, a malformed request line, headers not sent in time) got Node's
 * default answer: a status line and no body. They now get the JSON error every other refusal
 * has (`{ error, errorMessage }` in Portuguese) and the connection is closed, as Node does
 * (the parser cannot find the next request on it).
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    // The peer went away (or the socket is already answered): nothing to say.
    if (err.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    const answer = answerFor(err.code);
    const body = JSON.stringify({ error: answer.error, errorMessage: answer.errorMessage });
    socket.end(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
