import { describe, expect, it } from 'vitest';
import { claudeCodeFormat } from '@glassbox/adapter-claude-code';
import { resumeInstruction } from './resume';

const dirs = (...existing: string[]) => (p: string) => existing.includes(p);

describe('the resume command', () => {
  const base = { cwd: '/home/a/proj', mapped: '/srv/proj', sessionId: 'f00d', sessionPath: '/cfg/projects/-home-a-proj/f00d.jsonl', format: claudeCodeFormat };

  it('runs from the recorded folder when it exists, by id', () => {
    expect(resumeInstruction({ ...base, isDir: dirs('/home/a/proj', '/srv/proj') })).toEqual({ command: 'cd /home/a/proj && claude --resume f00d', folder: '/home/a/proj', note: null });
  });

  it('runs from the mapped folder when only that exists, naming the file (the client finds an id only under the folder it ran in)', () => {
    const r = resumeInstruction({ ...base, isDir: dirs('/srv/proj') });
    expect(r.command).toBe('cd /srv/proj && claude --resume /cfg/projects/-home-a-proj/f00d.jsonl');
    expect(r.note).toContain('/home/a/proj is not on this machine');
  });

  it('names the file when neither folder exists, to run from wherever the project is now (no flag to learn)', () => {
    const r = resumeInstruction({ ...base, isDir: dirs() });
    expect(r.command).toBe('claude --resume /cfg/projects/-home-a-proj/f00d.jsonl');
    expect(r.note).toBe('neither /home/a/proj nor the folder it is mapped to (/srv/proj) is on this machine: run this from the folder that holds the project now');
    const unmapped = resumeInstruction({ ...base, mapped: null, isDir: dirs() });
    expect(unmapped.note).toBe('/home/a/proj is not on this machine: run this from the folder that holds the project now');
    expect(unmapped.note).not.toMatch(/--/);
  });

  it('quotes folders the shell would split', () => {
    expect(resumeInstruction({ ...base, cwd: "/home/a/my proj's", isDir: () => true }).command).toBe(`cd '/home/a/my proj'\\''s' && claude --resume f00d`);
  });
});
