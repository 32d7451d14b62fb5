/** An error answered as `{ data: { errors } }` (plus any extra fields) with its status. */
export class HttpError extends Error {
  constructor(
    public readonly statusCode: number,
    public readonly errors: string[],
    public readonly extra: Record<string, unknown> = {},
  ) {
    super(errors.join('; '));
  }
}

export const badRequest = (errors: string | string[], extra?: Record<string, unknown>) =>
  new HttpError(400, Array.isArray(errors) ? errors : [errors], extra);
export const unauthorized = (message = 'Authentication credentials were not provided or are invalid.') =>
  new HttpError(401, [message]);
export const forbidden = (message = 'You do not have permission to access this resource.') =>
  new HttpError(403, [message]);
export const notFound = (message = 'Not found.') => new HttpError(404, [message]);
export const conflict = (message: string, extra?: Record<string, unknown>) =>
  new HttpError(409, [message], extra);
export const unavailable = (message: string) => new HttpError(503, [message]);
export const tooManyRequests = (message: string) => new HttpError(429, [message]);

export function errorBody(errors: string[], extra: Record<string, unknown> = {}) {
  return { data: { errors }, ...extra };
}
