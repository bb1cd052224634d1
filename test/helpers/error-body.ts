/**
 * The error body every error answers: the fields a test names (`detail`, a 422's `errors`), plus the
 * stable snake_case `code` and the `request_id` of the answer's X-Request-Id header.
 */
export function errorBody<T extends Record<string, unknown>>(fields: T, code?: string): T & { code: unknown; request_id: unknown } {
  return { ...fields, code: code ?? expect.stringMatching(/^[a-z]+(_[a-z]+)*$/), request_id: expect.any(String) };
}

/** For supertest's `.expect(fn)`: the answer's body is this error body (supertest's `.expect(status, body)` compares strictly). */
export function errorAnswer<T extends Record<string, unknown>>(fields: T, code?: string): (res: { body: unknown }) => void {
  return (res) => {
    expect(res.body).toEqual(errorBody(fields, code));
  };
}
