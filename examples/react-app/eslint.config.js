// @ts-check
const js = require('@eslint/js');
const jest = require('eslint-plugin-jest');
const react = require('eslint-plugin-react');
const reactHooks = require('eslint-plugin-react-hooks');
const testingLibrary = require('eslint-plugin-testing-library');
const globals = require('globals');
const tseslint = require('typescript-eslint');

const testFiles = ['src/**/*.test.{ts,tsx}', 'src/**/__tests__/**/*.{ts,tsx}'];

module.exports = tseslint.config(
  {
    ignores: ['node_modules/', 'coverage/', '**/__snapshots__/'],
  },

  js.configs.recommended,
  ...tseslint.configs.recommended,

  // Build / tool configuration files are CommonJS and run in Node.
  {
    files: ['*.config.js', 'src/__mocks__/**/*.js'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: globals.node,
    },
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
    },
  },

  {
    files: ['src/**/*.{ts,tsx}'],
    ...react.configs.flat.recommended,
    ...react.configs.flat['jsx-runtime'],
    plugins: {
      react,
      'react-hooks': reactHooks,
    },
    languageOptions: {
      ...react.configs.flat.recommended.languageOptions,
      globals: globals.browser,
    },
    settings: {
      react: { version: '17.0' },
    },
    rules: {
      ...react.configs.flat.recommended.rules,
      ...react.configs.flat['jsx-runtime'].rules,
      // Props are typed with TypeScript instead.
      'react/prop-types': 'off',
      // The classic hooks rules; the React Compiler rules in newer
      // eslint-plugin-react-hooks presets target React 19.
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },

  // Every test file, Enzyme or Testing Library. The testing-library rules stay
  // on for the Enzyme suites too: they only fire on Testing Library APIs, so
  // they guide suites as they are migrated.
  {
    files: testFiles,
    ...jest.configs['flat/recommended'],
    ...testingLibrary.configs['flat/react'],
    plugins: {
      jest,
      'testing-library': testingLibrary,
    },
    languageOptions: {
      globals: { ...globals.browser, ...globals.jest },
    },
    settings: {
      'testing-library/utils-module': 'test-utils',
      'testing-library/custom-renders': ['renderWithProviders'],
    },
    rules: {
      ...jest.configs['flat/recommended'].rules,
      ...testingLibrary.configs['flat/react'].rules,
    },
  },
);
