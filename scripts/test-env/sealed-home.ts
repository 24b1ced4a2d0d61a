// Every test file runs with a home of its own, empty: a test that forgets to give the code under test
// its folders finds no sessions, no settings and no index instead of the developer's real ones (and
// never writes beside them). Tests that need a home make their own and pass it, as before.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const home = mkdtempSync(join(tmpdir(), 'glassbox-test-home-'));
process.env['HOME'] = home;
process.env['USERPROFILE'] = home;
for (const redirect of ['CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'GEMINI_CLI_HOME', 'GLASSBOX_DATA_DIR', 'XDG_DATA_HOME', 'XDG_CONFIG_HOME', 'XDG_STATE_HOME']) {
  delete process.env[redirect];
}
