import { readdirSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { describe, expect, it } from 'vitest';

describe('the home every test runs with', () => {
  it('is an empty folder of its own under the temporary folder, with no agent folder redirected', () => {
    expect(homedir().startsWith(tmpdir())).toBe(true);
    expect(homedir()).toContain('glassbox-test-home-');
    expect(readdirSync(homedir())).toEqual([]);
    expect([process.env['CLAUDE_CONFIG_DIR'], process.env['CODEX_HOME'], process.env['GEMINI_CLI_HOME']]).toEqual([undefined, undefined, undefined]);
  });
});
