module.exports = {
  preset: '@repo/jest-preset',
  // Every test file ends by checking that the answers it saw are in the OpenAPI document.
  setupFilesAfterEnv: ['<rootDir>/test/support/every-answer-documented.ts'],
};
