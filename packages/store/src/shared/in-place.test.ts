// The check after open that forks and keeps make on every side file: a file reached through a folder
// that is (or was, at the moment of the open) a link is told from the file at the link-free path.
import { closeSync, constants, mkdirSync, mkdtempSync, openSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openedInPlace } from './in-place';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function layout() {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'glassbox-inplace-')));
  const session = join(dir, 'session');
  mkdirSync(join(session, 'subagents'), { recursive: true });
  writeFileSync(join(session, 'subagents', 'agent-1.jsonl'), 'inside\n');
  const outside = join(dir, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'agent-1.jsonl'), 'outside\n');
  return { session, outside, path: join(session, 'subagents', 'agent-1.jsonl') };
}

const open = (p: string) => openSync(p, constants.O_RDONLY | constants.O_NOFOLLOW);

describe('openedInPlace', () => {
  it('accepts the file at the link-free path', () => {
    const l = layout();
    const fd = open(l.path);
    expect(openedInPlace(fd, l.path, l.session, 'subagents/agent-1.jsonl')).toBe(true);
    closeSync(fd);
  });

  it('refuses a file opened through a folder that is a link (O_NOFOLLOW alone lets it through)', () => {
    const l = layout();
    renameSync(join(l.session, 'subagents'), join(l.session, 'subagents.real'));
    symlinkSync(l.outside, join(l.session, 'subagents'));
    const fd = open(l.path);
    expect(openedInPlace(fd, l.path, l.session, 'subagents/agent-1.jsonl')).toBe(false);
    closeSync(fd);
  });

  it('refuses it when the folder was a link at the open and is the real one again at the check', () => {
    const l = layout();
    renameSync(join(l.session, 'subagents'), join(l.session, 'subagents.real'));
    symlinkSync(l.outside, join(l.session, 'subagents'));
    const fd = open(l.path);
    // Flipped back before the check, as the racing process does.
    rmSync(join(l.session, 'subagents'));
    renameSync(join(l.session, 'subagents.real'), join(l.session, 'subagents'));
    expect(openedInPlace(fd, l.path, l.session, 'subagents/agent-1.jsonl')).toBe(false);
    closeSync(fd);
  });
});
