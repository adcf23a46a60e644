import { openApiDocument, undocumentedResponses } from '@repo/http-kit';
import { MemoryKnowledgeBase } from '@repo/knowledge';
import { emailReviewApi } from '../../src/app.js';
import type { ThreadService } from '../../src/operations/thread-service.js';
import { observedResponses } from './observed-responses.js';

/**
 * Runs after every test file (jest.config.cjs `setupFilesAfterEnv`): each answer its apps gave is
 * documented for its route in /openapi.json, so the document cannot drift from what the API does.
 * The routes are declared from the same function the app uses; they never call the service here.
 */
afterAll(() => {
  const document = openApiDocument({
    ...emailReviewApi({} as ThreadService, { knowledge: new MemoryKnowledgeBase() }),
    auth: true,
  });
  expect(undocumentedResponses(document, observedResponses)).toEqual([]);
});
