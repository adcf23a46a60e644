import { HttpError, validate } from '@repo/http-kit';
import { Router, type Request } from 'express';
import type { ThreadService } from '../operations/thread-service.js';
import {
  createThreadBody,
  editThreadBody,
  emptyBody,
  idempotencyKeyHeader,
  listThreadsQuery,
  threadParams,
} from './thread-schemas.js';

const threadIdOf = (req: Request) => validate(threadParams, req.params).thread_id;

/** A bodiless POST reaches us with `req.body` undefined; a sent body must be `{}`. */
const requireEmptyBody = (req: Request) => validate(emptyBody, req.body ?? {});

function idempotencyKeyOf(req: Request): string | undefined {
  const header = req.get('Idempotency-Key');
  if (header === undefined) return undefined;
  const parsed = idempotencyKeyHeader.safeParse(header);
  if (!parsed.success)
    throw new HttpError(
      400,
      'invalid_idempotency_key',
      'Idempotency-Key must be 1-200 visible ASCII characters.',
    );
  return parsed.data;
}

export function threadRoutes(service: ThreadService): Router {
  const router = Router();

  router.post('/threads', async (req, res) => {
    const { inbound } = validate(createThreadBody, req.body);
    const { thread, created } = await service.createThread(inbound, idempotencyKeyOf(req));
    res
      .status(created ? 201 : 200)
      .location(`/threads/${thread.thread_id}`)
      .json(thread);
  });

  router.get('/threads', async (req, res) => {
    const query = validate(listThreadsQuery, req.query);
    res.json(await service.listThreads(query));
  });

  router.get('/threads/:thread_id', async (req, res) => {
    res.json(await service.getThread(threadIdOf(req)));
  });

  router.post('/threads/:thread_id/edit', async (req, res) => {
    const threadId = threadIdOf(req);
    res.json(await service.editThread(threadId, validate(editThreadBody, req.body)));
  });

  router.post('/threads/:thread_id/approve', async (req, res) => {
    const threadId = threadIdOf(req);
    requireEmptyBody(req);
    res.json(await service.approveThread(threadId));
  });

  router.post('/threads/:thread_id/reject', async (req, res) => {
    const threadId = threadIdOf(req);
    requireEmptyBody(req);
    res.json(await service.rejectThread(threadId));
  });

  router.post('/threads/:thread_id/retry', async (req, res) => {
    const threadId = threadIdOf(req);
    requireEmptyBody(req);
    res.json(await service.retryThread(threadId));
  });

  return router;
}
