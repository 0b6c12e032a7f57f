// Keep @testing-library/dom's prettyDOM output free of ANSI colour codes so
// failure messages are readable in CI logs and by tooling. The test runner
// usually sets COLORS=false itself; this is only the default.
process.env.COLORS = process.env.COLORS || 'false';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'jsdom',
  roots: ['<rootDir>/src'],
  setupFilesAfterEnv: ['<rootDir>/src/setupTests.ts'],
  transform: {
    '^.+\\.[jt]sx?$': 'babel-jest',
  },
  moduleFileExtensions: ['ts', 'tsx', 'js', 'jsx', 'json'],
  moduleNameMapper: {
    '\\.module\\.css$': 'identity-obj-proxy',
    '\\.css$': '<rootDir>/src/__mocks__/styleMock.js',
    '^@/(.*)$': '<rootDir>/src/$1',
  },
  snapshotSerializers: ['enzyme-to-json/serializer'],
  clearMocks: true,
};
