import { MemoryKnowledgeBase } from '../src/store/memory-knowledge-base.js';
import { knowledgeBaseContract } from './knowledge-base-contract.js';

describe('MemoryKnowledgeBase', () => {
  knowledgeBaseContract(async (options) => new MemoryKnowledgeBase(options));
});
