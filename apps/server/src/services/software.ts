import { createHash } from 'node:crypto';
import { PackageFieldsSchema, SOFTWARE_TEXTS, type SoftwarePackage } from '@forecourt/contract/software';
import type { Repositories } from '../repositories/index.ts';
import { CHUNK_BYTES, type PackageRecord, publicPackage } from '../repositories/software-repository.ts';
import { type Actor, auditOf, fleetAt } from './actor.ts';
import { conflicting, DomainError, invalid, missing } from './domain-errors.ts';

/** An upload larger than PACKAGE_MAX_MB (the route answers 413). */
export class PackageTooLarge extends Error {
  constructor(readonly maxMb: number) {
    super(SOFTWARE_TEXTS.tooLarge(maxMb));
  }
}

/** A byte range of a package: `start`…`end` inclusive. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * What a `Range` header asks of `size` bytes: null when there is none or it cannot be honoured as one range (the
 * whole file is answered), 'unsatisfiable' when it starts past the end (416).
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/**
 * Software packages (docs/rollouts.md): an agent's uploads, streamed into PostgreSQL in 1 MiB pieces with their
 * sha-256 computed on the way in (never the whole file in memory), and served to devices by range.
 */
export function createSoftwareService(repos: Repositories, opts: { maxMb: number }) {
  const maxBytes = opts.maxMb * 1024 * 1024;
  const { software, work } = repos;

  /** The actor's package, else 404 (none) or 403 (another agent's). */
  async function own(actor: Actor, id: number): Promise<PackageRecord> {
    const pkg = await software.byId(id);
    if (!pkg) throw missing('package', id);
    if (pkg.agentId !== actor.agentId)
      throw new DomainError('forbidden', ['This package is outside your scope.']);
    return pkg;
  }

  return {
    maxBytes,

    /**
     * Stores an upload's bytes as they arrive; answers the pending upload (its id, size and digest). Past
     * PACKAGE_MAX_MB it stops, forgets what it stored and throws PackageTooLarge.
     */
    async receive(
      actor: Actor,
      file: AsyncIterable<Buffer>,
    ): Promise<{ id: number; size: number; sha256: string }> {
      const id = await software.begin(actor.agentId, actor);
      const hash = createHash('sha256');
      let size = 0;
      let seq = 0;
      let pending: Buffer[] = [];
      let pendingBytes = 0;
      const flush = async (all: boolean) => {
        while (pendingBytes >= CHUNK_BYTES || (all && pendingBytes > 0)) {
          const joined = Buffer.concat(pending, pendingBytes);
          const piece = joined.subarray(0, Math.min(CHUNK_BYTES, joined.length));
          const rest = joined.subarray(piece.length);
          await software.appendChunk(id, seq++, Buffer.from(piece));
          pending = rest.length ? [Buffer.from(rest)] : [];
          pendingBytes = rest.length;
        }
      };
      try {
        for await (const data of file) {
          size += data.length;
          if (size > maxBytes) throw new PackageTooLarge(opts.maxMb);
          hash.update(data);
          pending.push(data);
          pendingBytes += data.length;
          if (pendingBytes >= CHUNK_BYTES) await flush(false);
        }
        await flush(true);
      } catch (err) {
        await software.discard(id).catch(() => {});
        throw err;
      }
      return { id, size, sha256: hash.digest('hex') };
    },

    /** Forgets an upload that will not become a package. */
    discard: (id: number) => software.discard(id),

    /** Makes a received upload a package once its fields are right (else 400 naming them, and it is forgotten). */
    async complete(
      actor: Actor,
      upload: { id: number; size: number; sha256: string },
      fields: Record<string, unknown>,
    ): Promise<SoftwarePackage> {
      const checked = PackageFieldsSchema.safeParse(fields);
      if (!checked.success) {
        await software.discard(upload.id).catch(() => {});
        const messages = checked.error.issues.map((i) => {
          const path = i.path.map(String).join('.');
          return i.message.startsWith(path) ? i.message : `${path}: ${i.message}`;
        });
        throw invalid(...new Set(messages));
      }
      return work.run(async (tx) => {
        const pkg = await software.ready(tx, upload.id, {
          ...checked.data,
          size: upload.size,
          sha256: upload.sha256,
        });
        const shown = publicPackage(pkg);
        await tx.audit(auditOf(actor, 'create', 'software_package', pkg.id, null, shown));
        await tx.changed([fleetAt(actor.agentId, {})]);
        return shown;
      });
    },

    async list(actor: Actor, page: { limit: number; before?: string }): Promise<SoftwarePackage[]> {
      return (await software.list(actor.agentId, page)).map(publicPackage);
    },

    async get(actor: Actor, id: number): Promise<SoftwarePackage> {
      return publicPackage(await own(actor, id));
    },

    /** Deletes a package no running or paused rollout uses (409 naming them); its bytes go. */
    async remove(actor: Actor, id: number): Promise<SoftwarePackage> {
      const pkg = await own(actor, id);
      return work.run(async (tx) => {
        const using = await repos.rollouts.openWithPackage(tx, id);
        if (using.length) throw conflicting(SOFTWARE_TEXTS.packageInUse(using));
        await software.remove(tx, id);
        const shown = publicPackage(pkg);
        await tx.audit(auditOf(actor, 'delete', 'software_package', id, shown, null));
        await tx.changed([fleetAt(actor.agentId, {})]);
        return shown;
      });
    },

    /** A package a device of `agentId`'s fleet may download, or null. */
    async forDevice(agentId: number, id: number): Promise<PackageRecord | null> {
      const pkg = await software.byId(id);
      return pkg && pkg.agentId === agentId ? pkg : null;
    },

    /** The bytes `range` of a package, piece by piece (one query per few pieces: a download never holds it whole). */
    async *bytes(pkg: { id: number; size: number }, range: ByteRange): AsyncGenerator<Buffer> {
      const first = Math.floor(range.start / CHUNK_BYTES);
      const last = Math.floor(range.end / CHUNK_BYTES);
      for (let seq = first; seq <= last; seq += 4) {
        const pieces = await software.chunks(pkg.id, seq, Math.min(last, seq + 3));
        for (const [i, piece] of pieces.entries()) {
          const offset = (seq + i) * CHUNK_BYTES;
          const from = Math.max(0, range.start - offset);
          const to = Math.min(piece.length, range.end - offset + 1);
          if (to > from) yield piece.subarray(from, to);
        }
      }
    },
  };
}
export type SoftwareService = ReturnType<typeof createSoftwareService>;
