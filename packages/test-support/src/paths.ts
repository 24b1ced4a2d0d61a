// Where the repository's fixtures are, found from this package's own folder (packages/test-support/src).
import { join, resolve } from 'node:path';

/** The repository's root folder. */
export const REPO_ROOT = resolve(import.meta.dirname, '../../..');
/** Transcripts written by the real clients (fixtures/corpus: generated, public, codex, gemini). */
export const CORPUS = join(REPO_ROOT, 'fixtures/corpus');
