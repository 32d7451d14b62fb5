import type { FastifyReply, FastifyRequest } from 'fastify';

/** Newest first; `X-Next-Cursor` and `Link: rel="next"` while the page is full (like the logs). */
export function sendPage<T extends { id: number }>(
  request: FastifyRequest,
  reply: FastifyReply,
  rows: T[],
  limit: number,
) {
  const last = rows.at(-1);
  if (last && rows.length >= limit) {
    const [path, search = ''] = request.url.split('?');
    const params = new URLSearchParams(search);
    params.set('before', String(last.id));
    reply.header('x-next-cursor', String(last.id));
    reply.header('link', `<${path}?${params.toString()}>; rel="next"`);
  }
  return rows;
}
