import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/*
 * Boundaries (docs/architecture.md "Boundaries"). Flat config replaces a rule's options per
 * file instead of merging them, so each group below lists every restriction its files carry.
 */
const drizzleOnlyInRepositories = {
  group: ['drizzle-orm', 'drizzle-orm/*', '**/db/schema', '**/db/schema/*'],
  message: 'Queries and tables belong in *.repository.ts (or db/**): call a repository function.',
};
const noFastifyInServices = {
  group: ['fastify', '@fastify/*'],
  message: 'Services take parsed values and throw AppError; HTTP stays in *.routes.ts.',
};
const pluginsImportNoModules = {
  group: ['**/modules/**'],
  message: 'Plugins are shared infrastructure: pass what they need in from app.ts.',
};
const uiImportsNoModules = {
  group: ['**/modules/**', '@/modules/**'],
  message: 'ui/ is shared by every module and never imports one.',
};
const contractImportsNoApps = {
  group: [
    '**/apps/**',
    '@stadiumcam/server',
    '@stadiumcam/server/*',
    '@stadiumcam/web',
    '@stadiumcam/web/*',
    '@stadiumcam/venue-sim',
    '@stadiumcam/venue-sim/*',
    '@stadiumcam/attendee',
    '@stadiumcam/attendee/*',
  ],
  message: 'The contract is imported by the apps, never the other way round.',
};
// Areas keep to themselves: another area's inner file is refused, its index.ts is what it
// exposes. The same import reads differently from an area ('../users/users.service.ts'), the
// modules list ('./users/users.module.ts') and the rest ('./modules/users/...').
const areaInner = (from) => ({
  regex: `${from}[a-z-]+/(?!index\\.ts$)[^/]+$`,
  message: "Another area's inner file: import what it exposes from its index.ts.",
});
const fromAnArea = areaInner('^\\.\\./(?!\\.)');
const fromModulesList = areaInner('^\\./');
const fromOutside = areaInner('(^|/)modules/');
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const SERVER_CODE = 'apps/server/src/**/*.ts';
// Tests, the harness and the benchmarks may set up rows directly.
const SERVER_FREE = [
  'apps/server/src/db/**',
  'apps/server/src/**/*.repository.ts',
  '**/*.test.ts',
  'apps/server/src/test/**',
];
const AREA_CODE = 'apps/server/src/modules/*/*.ts';
const SERVER_TESTS = ['**/*.test.ts', '**/*.test-util.ts', 'apps/server/src/test/**'];

export default tseslint.config(
  {
    ignores: [
      '**/*.cjs',
      '**/node_modules',
      '**/dist',
      'data',
      '.tmp',
      'apps/server/src/db/migrations',
      'e2e/artifacts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}', 'apps/attendee/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  { files: [SERVER_CODE], ignores: SERVER_FREE, rules: restrict(drizzleOnlyInRepositories, fromOutside) },
  { files: [AREA_CODE], ignores: SERVER_FREE, rules: restrict(drizzleOnlyInRepositories, fromAnArea) },
  { files: ['apps/server/src/modules/*/*.repository.ts'], ignores: SERVER_TESTS, rules: restrict(fromAnArea) },
  { files: ['apps/server/src/modules/index.ts'], rules: restrict(drizzleOnlyInRepositories, fromModulesList) },
  {
    files: ['apps/server/src/**/*.service.ts'],
    ignores: SERVER_FREE,
    rules: restrict(drizzleOnlyInRepositories, noFastifyInServices, fromAnArea),
  },
  {
    files: ['apps/server/src/plugins/**/*.ts'],
    ignores: SERVER_FREE,
    rules: restrict(drizzleOnlyInRepositories, pluginsImportNoModules),
  },
  { files: ['apps/web/src/ui/**/*.{ts,tsx}'], rules: restrict(uiImportsNoModules) },
  { files: ['packages/contract/**/*.ts'], rules: restrict(contractImportsNoApps) },
  { files: ['**/*.js', '**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } } },
);
