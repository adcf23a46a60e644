module.exports = { preset: '@repo/jest-preset' };
