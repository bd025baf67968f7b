import type { User } from '@atendimento/schemas';
import type { FakeAnswer } from './fakeApi';

/** A fake answer carrying a session for `user`, as POST /api/auth/login answers. */
export function sessionAnswer(user: User): FakeAnswer {
  return { body: { data: { accessToken: `token-${user.id}`, expiresIn: 900, user } } };
}

/** A fake error answer in the server's `{ error, errorMessage }` shape. */
export function errorAnswer(status: number, error: string, errorMessage: string, fields?: { field: string; message: string }[]): FakeAnswer {
  return { status, body: { error, errorMessage, ...(fields && { fields }) } };
}

/** `answer` after `ms` milliseconds: lets a story (and its spec) show a screen's loading text. */
export function slow(answer: FakeAnswer, ms = 400): FakeAnswer {
  return async (call) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    return typeof answer === 'function' ? answer(call) : answer;
  };
}
