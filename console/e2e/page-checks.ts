/** The page checks are shared with the hosted pages' browser tests: they live in the repository's e2e/ folder. */
export * from '../../e2e/page-checks';
