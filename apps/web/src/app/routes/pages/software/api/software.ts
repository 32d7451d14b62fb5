import { DEFAULT_LIMIT } from '@forecourt/contract/common';
import {
  type Rollout,
  type RolloutCreateInput,
  RolloutSchema,
  type RolloutStatus,
  RolloutTerminalSchema,
  type SoftwarePackage,
  SoftwarePackageSchema,
} from '@forecourt/contract/software';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { z } from 'zod';
import { QUERY_ROOTS } from '../../../../../lib/api/query-keys.ts';
import { ApiError, api } from '../../../../../lib/api-client.ts';
import { apiUrl, authHeaders } from '../../../../../lib/api-url.ts';
import { sessionStore } from '../../../../../lib/auth/session.ts';

/** One page of a list and the cursor of the next (null after the last). */
export interface Page<T> {
  rows: T[];
  next: string | null;
}

async function page<T extends { id: number }>(
  path: string,
  schema: z.ZodType<T>,
  query: Record<string, string | number | string[] | undefined>,
  before: string | undefined,
  signal: AbortSignal,
): Promise<Page<T>> {
  const rows = await api.get(path, {
    query: { ...query, limit_to: DEFAULT_LIMIT, before },
    schema: z.array(schema),
    signal,
  });
  const last = rows.at(-1);
  return { rows, next: last && rows.length >= DEFAULT_LIMIT ? String(last.id) : null };
}

/**
 * The Software page's reads (agents). Keyed under `admin`, so every 'fleet' change on the live stream (a package
 * uploaded, a rollout or one of its terminals moving) refreshes them.
 */
export const softwareQueries = {
  all: [QUERY_ROOTS.admin, 'software'] as const,
  packages: () =>
    infiniteQueryOptions({
      queryKey: [QUERY_ROOTS.admin, 'software', 'packages'] as const,
      queryFn: ({ pageParam, signal }) =>
        page('/api/software/', SoftwarePackageSchema, {}, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last: Page<SoftwarePackage>) => last.next ?? undefined,
    }),
  rollouts: () =>
    infiniteQueryOptions({
      queryKey: [QUERY_ROOTS.admin, 'software', 'rollouts'] as const,
      queryFn: ({ pageParam, signal }) => page('/api/rollouts/', RolloutSchema, {}, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last: Page<Rollout>) => last.next ?? undefined,
    }),
  rollout: (id: number) =>
    queryOptions({
      queryKey: [QUERY_ROOTS.admin, 'software', 'rollout', id] as const,
      queryFn: ({ signal }) => api.get(`/api/rollouts/${id}/`, { schema: RolloutSchema, signal }),
    }),
  terminals: (id: number, status: RolloutStatus | null) =>
    infiniteQueryOptions({
      queryKey: [QUERY_ROOTS.admin, 'software', 'rollout', id, 'terminals', status] as const,
      queryFn: ({ pageParam, signal }) =>
        page(
          `/api/rollouts/${id}/terminals/`,
          RolloutTerminalSchema,
          { status: status ?? undefined },
          pageParam,
          signal,
        ),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last: Page<z.infer<typeof RolloutTerminalSchema>>) => last.next ?? undefined,
    }),
};

export const createRollout = (body: RolloutCreateInput) =>
  api.post('/api/rollouts/', body, { schema: RolloutSchema });
export const rolloutAction = (id: number, action: 'pause' | 'resume' | 'cancel') =>
  api.post(`/api/rollouts/${id}/${action}/`, {}, { schema: RolloutSchema });
export const deletePackage = (id: number) =>
  api.delete(`/api/software/${id}/`, { schema: SoftwarePackageSchema });

/**
 * `POST /api/software/` as multipart/form-data, reporting the share sent so far (XMLHttpRequest: fetch cannot tell
 * upload progress). Fails with the server's messages as an ApiError.
 */
export function uploadPackage(
  fields: { name: string; version: string; kind: string },
  file: File,
  onProgress: (share: number) => void,
): Promise<SoftwarePackage> {
  const form = new FormData();
  form.append('name', fields.name);
  form.append('version', fields.version);
  form.append('kind', fields.kind);
  form.append('file', file);
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', apiUrl('/api/software/'));
    xhr.setRequestHeader('Accept', 'application/json');
    for (const [k, v] of Object.entries(authHeaders(sessionStore.get().token))) xhr.setRequestHeader(k, v);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError({ status: 0, kind: 'network', errors: [] }));
    xhr.onload = () => {
      let body: unknown = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        /* not JSON */
      }
      if (xhr.status === 201) {
        const parsed = SoftwarePackageSchema.safeParse(body);
        if (parsed.success) return resolve(parsed.data);
      }
      const errors = (body as { data?: { errors?: string[] } } | null)?.data?.errors ?? [];
      reject(new ApiError({ status: xhr.status, kind: 'http', errors, body }));
    };
    xhr.send(form);
  });
}
